#include "scheduler_pool/queue_ledger.h"

#include <glog/logging.h>

#include <cmath>
#include <unordered_set>

namespace spindle::pool {

struct QueueLedger::Entry {
  mutable Mutex mu;
  QueueSpec spec GUARDED_BY(mu);
  Resource usage GUARDED_BY(mu);
};

QueueLedger::QueueLedger() : entries_(new std::unique_ptr<Entry>[kMaxQueues]) {}
QueueLedger::~QueueLedger() = default;

QueueLedger::Entry* QueueLedger::entry(QueueId id) const {
  CHECK(Contains(id)) << "unknown " << id;
  return entries_[id.value()].get();
}

Result<std::vector<QueueId>> QueueLedger::SetQueues(const std::vector<QueueSpec>& specs) {
  MutexLock lock(&set_mu_);
  std::unordered_set<std::string> seen;
  int added = 0;
  for (const auto& s : specs) {
    const std::string where = "queue '" + s.name + "': ";
    if (s.name.empty()) return Status::InvalidArgument("queue with an empty name");
    if (!seen.insert(s.name).second) {
      return Status::InvalidArgument(where + "listed twice");
    }
    if (!(s.weight > 0) || !std::isfinite(s.weight)) {
      return Status::InvalidArgument(where + "weight must be > 0, got " + std::to_string(s.weight));
    }
    if (s.min.AnyNegative() || s.max.AnyNegative()) {
      return Status::InvalidArgument(where + "min and max must not be negative");
    }
    if (!s.min.FitsIn(s.max)) {
      return Status::InvalidArgument(where + "min " + s.min.ToString() + " exceeds max " +
                                     s.max.ToString());
    }
    if (!Find(s.name).ok()) ++added;
  }
  if (size() + added > kMaxQueues) {
    return Status::ResourceExhausted("more than " + std::to_string(kMaxQueues) + " queues");
  }
  std::vector<QueueId> ids;
  ids.reserve(specs.size());
  for (const auto& s : specs) {
    auto found = Find(s.name);
    if (found.ok()) {
      Entry* e = entry(*found);
      MutexLock l(&e->mu);
      e->spec = s;
      ids.push_back(*found);
      continue;
    }
    const int n = size();
    auto e = std::make_unique<Entry>();
    {
      MutexLock l(&e->mu);
      e->spec = s;
    }
    entries_[static_cast<size_t>(n)] = std::move(e);
    count_.store(n + 1, std::memory_order_release);
    ids.push_back(QueueId(static_cast<uint32_t>(n)));
  }
  return ids;
}

Result<QueueId> QueueLedger::Find(std::string_view name) const {
  const int n = size();
  for (int i = 0; i < n; ++i) {
    Entry* e = entries_[static_cast<size_t>(i)].get();
    MutexLock l(&e->mu);
    if (e->spec.name == name) return QueueId(static_cast<uint32_t>(i));
  }
  return Status::NotFound("unknown queue '" + std::string(name) + "'");
}

int64_t QueueLedger::TryReserve(QueueId queue, const Resource& unit, int64_t count) {
  if (count <= 0) return 0;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  Resource headroom;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    headroom.Set(i, e->spec.max.Get(i) - e->usage.Get(i));
  }
  int64_t k = headroom.Multiples(unit);
  if (k > count) k = count;
  if (k <= 0) return 0;
  e->usage += unit * k;
  return k;
}

void QueueLedger::ForceCharge(QueueId queue, const Resource& amount) {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  e->usage += amount;
}

void QueueLedger::Move(QueueId from, QueueId to, const Resource& amount) {
  if (from == to) return;
  Release(from, amount);
  ForceCharge(to, amount);
}

void QueueLedger::Release(QueueId queue, const Resource& amount) {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  e->usage -= amount;
  e->usage = e->usage.Max(Resource());
}

QueueSnapshot QueueLedger::Snapshot(QueueId queue) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  return QueueSnapshot{e->spec, e->usage};
}

Resource QueueLedger::Usage(QueueId queue) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  return e->usage;
}

}  // namespace spindle::pool
