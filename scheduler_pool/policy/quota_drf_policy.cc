#include "scheduler_pool/policy/quota_drf_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler_pool/policy/app_ordering.h"

namespace spindle::pool {

namespace {

// max over dimensions with min > 0 of usage / min; 1 if min is zero.
double MinRatio(const Resource& usage, const Resource& min) {
  double r = 0;
  bool any = false;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (min.Get(i) <= 0) continue;
    any = true;
    r = std::max(r, static_cast<double>(usage.Get(i)) / static_cast<double>(min.Get(i)));
  }
  return any ? r : 1.0;
}

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

}  // namespace

QueueRank RankOf(QueueId id, const QueueSpec& spec, const Resource& usage,
                 const Resource& capacity) {
  QueueRank r;
  r.id = id;
  const double min_ratio = MinRatio(usage, spec.min);
  r.below_min = min_ratio < 1.0;
  r.key = r.below_min ? min_ratio : usage.DominantShare(capacity) / spec.weight;
  return r;
}

bool ServedBefore(const QueueRank& a, const QueueRank& b) {
  if (a.below_min != b.below_min) return a.below_min;
  if (a.key != b.key) return a.key < b.key;
  return a.id < b.id;
}

void QuotaDrfPolicy::Rekey(QueueEntry& q) const {
  const QueueRank r = RankOf(q.id, q.snap.spec, q.snap.usage, capacity_);
  q.below_min = r.below_min;
  q.key = r.key;
}

void QuotaDrfPolicy::Begin(const PolicyInput& input) {
  capacity_ = input.capacity;
  may_borrow_ = input.may_borrow;
  queues_.clear();
  current_queue_ = -1;
  current_app_ = nullptr;
  const auto entry_of = [&](QueueId queue, LabelId label) {
    auto it = std::find_if(queues_.begin(), queues_.end(),
                           [&](const QueueEntry& q) { return q.id == queue && q.label == label; });
    if (it != queues_.end()) return it;
    QueueEntry q;
    q.id = queue;
    q.label = label;
    q.snap = input.queues->Snapshot(queue, label);
    queues_.push_back(std::move(q));
    return queues_.end() - 1;
  };
  for (AppState* app : *input.apps) {
    // An application the AM limit holds is not served, whatever it asks:
    // LeafQueue.assignContainers offers containers to activated applications
    // only (release-2.6.0 LeafQueue line 749, rel/release-2.7.7 line 796:
    // the loop over activeApplications; rel/release-3.3.0 lines 1085-1086:
    // orderingPolicy, which holds the activated ones, pending ones sitting
    // in pendingOrderingPolicy). An unmanaged AM registers and asks while
    // its app is pending, and those asks wait.
    if (app->outstanding <= 0 || app->spec.held || !input.queues->Contains(app->spec.queue)) {
      continue;
    }
    // One entry per partition the app has pending asks in (almost always
    // one: the first ask's).
    seen_labels_.clear();
    for (const AskState& ask : app->asks) {
      if (ask.pending() <= 0) continue;
      const LabelId label = ask.ask.label;
      if (std::find(seen_labels_.begin(), seen_labels_.end(), label) != seen_labels_.end()) {
        continue;
      }
      seen_labels_.push_back(label);
      entry_of(app->spec.queue, label)
          ->apps.push_back(AppEntry{app, label, Resource(), 0, 0, false});
    }
  }
  for (QueueEntry& q : queues_) {
    for (AppEntry& a : q.apps) {
      for (const AskState& ask : a.app->asks) {
        if (ask.ask.label != a.label) continue;
        a.pending_mb += ask.pending() * ask.ask.capability.memory_mb();
      }
    }
    // FIFO orders stay put for the step; fair re-picks after every pick.
    if (q.snap.spec.ordering != QueueOrdering::kFair) {
      std::sort(q.apps.begin(), q.apps.end(), [&q](const AppEntry& a, const AppEntry& b) {
        return CompareApps(q.snap.spec.ordering, false, Ordered(a), Ordered(b)) < 0;
      });
    }
    Rekey(q);
  }
}

OrderedApp QuotaDrfPolicy::Ordered(const AppEntry& a) {
  OrderedApp o;
  o.priority = a.app->spec.priority;
  // Submission order stands for both the application id and the attempt's
  // start time (app_ordering.h): the pool's (AppSpec::order, which the
  // ledger's pool-wide order uses too), then, for callers that set none,
  // the order the apps reached this scheduler. A scheduler's own order alone
  // is not the pool's once it takes over apps submitted before its own (a
  // cell-state service member taking a dead member's apps): it served them
  // last while the ledger served them first and refused its claims for the
  // others, and nothing was placed (issue 22).
  o.input_order = a.app->spec.order;
  o.start = static_cast<int64_t>(a.app->spec.order);
  o.arrival = a.app->seq;
  o.used_memory_mb = a.app->usage.memory_mb() + a.extra.memory_mb();
  o.pending_memory_mb = std::max<int64_t>(0, a.pending_mb - a.extra.memory_mb());
  return o;
}

AskState* QuotaDrfPolicy::CurrentAsk(AppEntry& a) const {
  auto& asks = a.app->asks;
  while (a.ask_cursor < asks.size() &&
         (asks[a.ask_cursor].pending() <= 0 || asks[a.ask_cursor].ask.label != a.label)) {
    ++a.ask_cursor;
  }
  if (a.ask_cursor >= asks.size()) {
    a.done = true;
    return nullptr;
  }
  return &asks[a.ask_cursor];
}

QuotaDrfPolicy::AppEntry* QuotaDrfPolicy::NextApp(QueueEntry& q) {
  const QueueSpec& spec = q.snap.spec;
  if (spec.ordering != QueueOrdering::kFair) {
    while (q.app_cursor < q.apps.size()) {
      AppEntry& a = q.apps[q.app_cursor];
      if (!a.done && CurrentAsk(a) != nullptr) return &a;
      ++q.app_cursor;
    }
    q.active = false;
    return nullptr;
  }
  // Fair: the first by FairOrderingPolicy's comparator, usage as of now.
  AppEntry* best = nullptr;
  OrderedApp best_order;
  for (AppEntry& a : q.apps) {
    if (a.done || CurrentAsk(a) == nullptr) continue;
    const OrderedApp order = Ordered(a);
    if (best == nullptr ||
        CompareApps(QueueOrdering::kFair, spec.fair_size_based_weight, order, best_order) < 0) {
      best = &a;
      best_order = order;
    }
  }
  if (best == nullptr) q.active = false;
  return best;
}

int64_t QuotaDrfPolicy::Chunk(const QueueEntry& q, const AskState& ask) const {
  const Resource& unit = ask.ask.capability;
  // Never past max.
  Resource headroom;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    headroom.Set(i, q.snap.spec.max.Get(i) - q.snap.usage.Get(i));
  }
  int64_t chunk = ask.pending();
  // A default-partition ask that may borrow a non-exclusive partition is
  // not held by the queue's maximum (the scheduler reserves what the
  // maximum allows and lends the rest); an AM container never borrows.
  const bool borrows = may_borrow_ && q.label == kDefaultLabel && !ask.ask.am_container;
  if (!borrows) chunk = std::min(chunk, headroom.Multiples(unit));
  if (chunk <= 0) return 0;
  if (q.below_min) {
    // Until the first dimension reaches min.
    int64_t to_min = kUnbounded;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      const int64_t m = q.snap.spec.min.Get(i);
      if (m <= 0 || unit.Get(i) <= 0) continue;
      const int64_t need = (m - q.snap.usage.Get(i) + unit.Get(i) - 1) / unit.Get(i);
      to_min = std::min(to_min, std::max<int64_t>(1, need));
    }
    return std::min(chunk, to_min);
  }
  // Until the share passes the next queue's (same class: not below min).
  double next_key = std::numeric_limits<double>::infinity();
  for (size_t j = 0; j < queues_.size(); ++j) {
    const QueueEntry& o = queues_[j];
    if (&o == &q || !o.active || o.below_min) continue;
    next_key = std::min(next_key, o.key);
  }
  if (std::isinf(next_key)) return chunk;
  const double unit_key = unit.DominantShare(capacity_) / q.snap.spec.weight;
  if (!(unit_key > 0)) return chunk;
  const double gap = std::max(0.0, next_key - q.key);
  const double k = std::floor(gap / unit_key + 1e-9) + 1;
  return k >= static_cast<double>(chunk) ? chunk : std::max<int64_t>(1, static_cast<int64_t>(k));
}

int64_t QuotaDrfPolicy::FairChunk(const QueueEntry& q, const AppEntry& a,
                                  const AskState& ask) const {
  // Until another app of the queue would come first.
  const bool size_based = q.snap.spec.fair_size_based_weight;
  const OrderedApp mine = Ordered(a);
  int64_t run = kUnbounded;
  for (const AppEntry& o : q.apps) {
    if (&o == &a || o.done) continue;
    run = std::min(run, FairRun(size_based, mine, Ordered(o), ask.ask.capability.memory_mb()));
  }
  return std::max<int64_t>(1, run);
}

bool QuotaDrfPolicy::Next(PolicyPick* pick) {
  for (;;) {
    int best = -1;
    for (size_t j = 0; j < queues_.size(); ++j) {
      const QueueEntry& q = queues_[j];
      if (!q.active) continue;
      if (best < 0) {
        best = static_cast<int>(j);
        continue;
      }
      const QueueEntry& b = queues_[static_cast<size_t>(best)];
      if (ServedBefore(QueueRank{q.below_min, q.key, q.id}, QueueRank{b.below_min, b.key, b.id})) {
        best = static_cast<int>(j);
      }
    }
    if (best < 0) return false;
    QueueEntry& q = queues_[static_cast<size_t>(best)];
    AppEntry* a = NextApp(q);
    if (a == nullptr) continue;
    AskState* ask = CurrentAsk(*a);
    int64_t chunk = Chunk(q, *ask);
    if (chunk <= 0) {
      // At max for this ask's size: skip the ask this step.
      ++a->ask_cursor;
      continue;
    }
    if (q.snap.spec.ordering == QueueOrdering::kFair)
      chunk = std::min(chunk, FairChunk(q, *a, *ask));
    current_queue_ = best;
    current_app_ = a;
    pick->app = a->app;
    pick->ask = ask;
    pick->max_tasks = chunk;
    return true;
  }
}

void QuotaDrfPolicy::Report(const PolicyPick& pick, int64_t placed, PickBlock block) {
  if (current_queue_ < 0 || current_app_ == nullptr) return;
  QueueEntry& q = queues_[static_cast<size_t>(current_queue_)];
  AppEntry& a = *current_app_;
  if (placed > 0) {
    const Resource amount = pick.ask->ask.capability * placed;
    q.snap.usage += amount;
    a.extra += amount;
  }
  switch (block) {
    case PickBlock::kNone:
      break;
    case PickBlock::kNoFit:
      ++a.ask_cursor;  // lower-priority asks of the app may still fit
      break;
    case PickBlock::kQuota:
      q.active = false;
      break;
    case PickBlock::kOrder:
      // The ledger hands the rest of the room to apps the queue serves
      // first: this one waits for the next step.
      a.done = true;
      break;
    case PickBlock::kUserLimit:
      // Every app of the user waits for the next step; the queue's other
      // users go on (LeafQueue skips an app whose user is over its limit).
      for (AppEntry& o : q.apps) {
        if (o.app->spec.user == a.app->spec.user) o.done = true;
      }
      break;
  }
  Rekey(q);
  current_app_ = nullptr;
  current_queue_ = -1;
}

}  // namespace spindle::pool
