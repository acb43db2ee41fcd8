#include "scheduler_pool/queue_ledger.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace spindle::pool {

struct QueueLedger::UserEntry {
  Resource used;
  // Applications of the user in the queue with pending asks.
  int64_t active_apps = 0;
  // The spec's weight for the user (3.3 user-settings.<user>.weight).
  double weight = 1;
};

PartitionShare QueueSpec::ShareIn(LabelId label) const {
  if (label == kDefaultLabel) return PartitionShare{"", kDefaultLabel, min, max, weight};
  for (const PartitionShare& share : partitions) {
    if (share.id == label) return share;
  }
  PartitionShare unlisted;
  unlisted.id = label;
  if (unlisted_partitions == UnlistedPartitions::kClosed) unlisted.max = Resource();
  return unlisted;
}

struct QueueLedger::Entry {
  mutable Mutex mu;
  QueueSpec spec GUARDED_BY(mu);
  // In the default partition.
  Resource usage GUARDED_BY(mu);
  // In the other partitions that have been charged (few: a linear search).
  std::vector<std::pair<LabelId, Resource>> label_usage GUARDED_BY(mu);

  Resource& UsageIn(LabelId label) REQUIRES(mu) {
    if (label == kDefaultLabel) return usage;
    for (auto& [id, used] : label_usage) {
      if (id == label) return used;
    }
    return label_usage.emplace_back(label, Resource()).second;
  }
  Resource TotalUsage() const REQUIRES(mu) {
    Resource sum = usage;
    for (const auto& [id, used] : label_usage) sum += used;
    return sum;
  }
  std::unordered_map<UserId, UserEntry> users GUARDED_BY(mu);
  // Users with active_apps > 0, and what they hold.
  int64_t active_users GUARDED_BY(mu) = 0;
  Resource active_users_used GUARDED_BY(mu);
  // Their weights summed in float, as UsersManager.sumActiveUsersTimesWeights.
  float active_weight GUARDED_BY(mu) = 0;
  // Sum over users of UsageRatio(used) (Hadoop 3.3's queue usage ratio).
  double usage_ratio GUARDED_BY(mu) = 0;

  bool LimitsUsers(UserId user) const REQUIRES(mu) {
    return user.valid() && spec.user_limits.enabled;
  }

  // The user's entry, made with its weight on first use.
  UserEntry& UserOf(UserId user) REQUIRES(mu) {
    auto [it, added] = users.try_emplace(user);
    if (added) it->second.weight = spec.user_limits.WeightOf(user);
    return it->second;
  }

  // After the set of active users or their weights changed: summed again
  // over the set, as Hadoop does, rather than kept by adding and
  // subtracting floats.
  void RecomputeActiveWeight() REQUIRES(mu) {
    float sum = 0;
    for (const auto& [id, u] : users) {
      if (u.active_apps > 0) sum += static_cast<float>(u.weight);
    }
    active_weight = sum;
  }

  // Adds `delta` (may be negative) to the user's usage, never below zero.
  void ChargeUser(UserId user, const Resource& delta) REQUIRES(mu) {
    if (!user.valid()) return;
    UserEntry& u = UserOf(user);
    const Resource before = u.used;
    u.used = (u.used + delta).Max(Resource());
    if (u.active_apps > 0) active_users_used += u.used - before;
    if (spec.user_limits.enabled) {
      usage_ratio += UsageRatio(spec.user_limits, u.used) - UsageRatio(spec.user_limits, before);
    }
  }

  void RecomputeUsageRatio() REQUIRES(mu) {
    usage_ratio = 0;
    if (!spec.user_limits.enabled) return;
    for (const auto& [id, u] : users) usage_ratio += UsageRatio(spec.user_limits, u.used);
  }

  // The limit of a user of weight `weight`.
  Resource LimitFor(const Resource& required, double weight) const REQUIRES(mu) {
    UserLimitInput in;
    in.queue_used = usage;
    in.required = required;
    in.active_users = active_users;
    in.active_weight = active_weight;
    in.active_users_used = active_users_used;
    in.usage_ratio = usage_ratio;
    return UserSpecificLimit(spec.user_limits, ComputeUserLimit(spec.user_limits, in), weight);
  }
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
    for (size_t i = 0; i < s.partitions.size(); ++i) {
      const PartitionShare& share = s.partitions[i];
      const std::string in = where + "partition '" + share.label + "': ";
      if (share.id == kDefaultLabel) {
        return Status::InvalidArgument(in +
                                       "not a node-label partition (the default one's "
                                       "share is the queue's min and max)");
      }
      for (size_t j = 0; j < i; ++j) {
        if (s.partitions[j].id == share.id) return Status::InvalidArgument(in + "listed twice");
      }
      if (!(share.weight > 0) || !std::isfinite(share.weight)) {
        return Status::InvalidArgument(in + "weight must be > 0");
      }
      if (share.min.AnyNegative() || share.max.AnyNegative() || !share.min.FitsIn(share.max)) {
        return Status::InvalidArgument(in + "min " + share.min.ToString() + " and max " +
                                       share.max.ToString() + " must be >= 0 with min <= max");
      }
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
      e->RecomputeUsageRatio();  // the cluster or the calculator may have changed
      for (auto& [user, u] : e->users) u.weight = e->spec.user_limits.WeightOf(user);
      e->RecomputeActiveWeight();
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

Reservation QueueLedger::Reserve(QueueId queue, UserId user, const Resource& unit, int64_t count,
                                 LabelId label) {
  Reservation r;
  if (count <= 0) return r;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  if (label != kDefaultLabel) {
    // AbstractCSQueue.canAssignToThisQueue in the partition: its usage
    // against the queue's maximum there; no user limit (see the header).
    Resource& used = e->UsageIn(label);
    const Resource max = e->spec.ShareIn(label).max;
    Resource room;
    for (int i = 0; i < kMaxResourceTypes; ++i) room.Set(i, max.Get(i) - used.Get(i));
    r.granted = std::max<int64_t>(0, std::min(room.Multiples(unit), count));
    if (r.granted < count) r.block = ReserveBlock::kQueueMax;
    used += unit * r.granted;
    return r;
  }
  Resource headroom;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    headroom.Set(i, e->spec.max.Get(i) - e->usage.Get(i));
  }
  const int64_t fit = headroom.Multiples(unit);
  if (!e->LimitsUsers(user)) {
    r.granted = std::min(fit, count);
    if (r.granted < count) r.block = ReserveBlock::kQueueMax;
    if (r.granted <= 0) {
      r.granted = 0;
      return r;
    }
    e->usage += unit * r.granted;
    return r;
  }
  // The limit moves with the queue's usage (over capacity, 2.x adds the
  // request to it; 3.3 divides the active users' usage), so it is
  // recomputed before each container, as the CapacityScheduler does on each
  // assignment.
  // The limit never falls as the queue's usage grows, so every container
  // the current limit admits is admitted: under the memory calculator they
  // are granted together, then the limit is recomputed for the next.
  const UserLimitSpec& spec = e->spec.user_limits;
  const bool by_memory = spec.calculator == LimitCalculator::kMemory && unit.memory_mb() > 0;
  const UserEntry& u = e->UserOf(user);
  while (r.granted < count) {
    if (r.granted >= fit) {
      r.block = ReserveBlock::kQueueMax;
      break;
    }
    const Resource limit = e->LimitFor(unit, u.weight);
    if (!MayAssignToUser(spec, u.used, limit)) {
      r.block = ReserveBlock::kUserLimit;
      break;
    }
    int64_t k = 1;
    if (by_memory) {
      k = (limit.memory_mb() - u.used.memory_mb()) / unit.memory_mb() + 1;
      k = std::min({k, count - r.granted, fit - r.granted});
    }
    e->usage += unit * k;
    e->ChargeUser(user, unit * k);
    r.granted += k;
  }
  return r;
}

void QueueLedger::ForceCharge(QueueId queue, const Resource& amount, UserId user, LabelId label) {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  e->UsageIn(label) += amount;
  if (label == kDefaultLabel) e->ChargeUser(user, amount);
}

void QueueLedger::Move(QueueId from, QueueId to, const Resource& amount, UserId user,
                       LabelId label) {
  if (from == to) return;
  Release(from, amount, user, label);
  ForceCharge(to, amount, user, label);
}

void QueueLedger::Release(QueueId queue, const Resource& amount, UserId user, LabelId label) {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  Resource& used = e->UsageIn(label);
  used = (used - amount).Max(Resource());
  if (label == kDefaultLabel) e->ChargeUser(user, Resource() - amount);
}

void QueueLedger::SetAppActive(QueueId queue, UserId user, bool active) {
  if (!user.valid()) return;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  UserEntry& u = e->UserOf(user);
  const bool was = u.active_apps > 0;
  u.active_apps = std::max<int64_t>(0, u.active_apps + (active ? 1 : -1));
  const bool is = u.active_apps > 0;
  if (was == is) return;
  e->active_users += is ? 1 : -1;
  e->RecomputeActiveWeight();
  if (is) {
    e->active_users_used += u.used;
  } else {
    e->active_users_used = (e->active_users_used - u.used).Max(Resource());
  }
}

bool QueueLedger::CountsHeldApps(QueueId queue) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  return e->spec.user_limits.enabled && UserCountsHeldApps(e->spec.user_limits.rules);
}

UserSnapshot QueueLedger::User(QueueId queue, UserId user, const Resource& required) const {
  UserSnapshot s;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  s.active_users = e->active_users;
  if (!user.valid()) return s;
  auto it = e->users.find(user);
  double weight = e->spec.user_limits.WeightOf(user);
  if (it != e->users.end()) {
    s.used = it->second.used;
    s.active = it->second.active_apps > 0;
    weight = it->second.weight;
  }
  if (e->spec.user_limits.enabled) s.limit = e->LimitFor(required, weight);
  return s;
}

QueueSnapshot QueueLedger::Snapshot(QueueId queue, LabelId label) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  if (label == kDefaultLabel) return QueueSnapshot{e->spec, e->usage};
  QueueSnapshot snap{e->spec, e->UsageIn(label)};
  const PartitionShare share = e->spec.ShareIn(label);
  snap.spec.min = share.min;
  snap.spec.max = share.max;
  snap.spec.weight = share.weight;
  return snap;
}

Resource QueueLedger::Usage(QueueId queue) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  return e->TotalUsage();
}

Resource QueueLedger::UsageIn(QueueId queue, LabelId label) const {
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  return e->UsageIn(label);
}

}  // namespace spindle::pool
