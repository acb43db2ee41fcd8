#include "scheduler_pool/queue_ledger.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "scheduler_pool/policy/app_ordering.h"
#include "scheduler_pool/policy/quota_drf_policy.h"

namespace spindle::pool {

struct QueueLedger::UserEntry {
  Resource used;
  // Applications of the user in the queue with pending asks (2.x
  // ActiveUsersManager's, 3.3 UsersManager's usersApplications: a set, so
  // that telling it twice is harmless).
  std::unordered_set<AppId> active_apps;
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
  // What the queue's applications ask for, as their schedulers report it
  // (pending > 0 only; few per queue: a linear search).
  std::vector<AppDemand> demands GUARDED_BY(mu);
  // spec.pool_wide_order and demands.size(), readable without `mu` (Reserve
  // decides before locking whether it needs the other queues' usage).
  std::atomic<bool> ordered{false};
  std::atomic<int> demanding{0};
  // Users with active apps, and what they hold.
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
      if (!u.active_apps.empty()) sum += static_cast<float>(u.weight);
    }
    active_weight = sum;
  }

  // Adds `delta` (may be negative) to the user's usage, never below zero.
  void ChargeUser(UserId user, const Resource& delta) REQUIRES(mu) {
    if (!user.valid()) return;
    UserEntry& u = UserOf(user);
    const Resource before = u.used;
    u.used = (u.used + delta).Max(Resource());
    if (!u.active_apps.empty()) active_users_used += u.used - before;
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

  AppDemand* DemandOf(AppId app) REQUIRES(mu) {
    for (AppDemand& d : demands) {
      if (d.app == app) return &d;
    }
    return nullptr;
  }

  // How many of `want` containers of `unit` the queue's order gives `app`
  // out of `room`; see QueueLedger::Reserve.
  int64_t OrderedShare(AppId app, const Resource& unit, int64_t want, Resource room) REQUIRES(mu);
  // Why no container of `unit` would be granted to `user` but for the order:
  // the queue's max, the user's limit, else kOrder.
  ReserveBlock BlockWithoutOrder(UserId user, const Resource& unit) REQUIRES(mu) {
    Resource headroom;
    for (int i = 0; i < kMaxResourceTypes; ++i) headroom.Set(i, spec.max.Get(i) - usage.Get(i));
    if (headroom.Multiples(unit) < 1) return ReserveBlock::kQueueMax;
    if (LimitsUsers(user)) {
      const UserEntry& u = UserOf(user);
      if (!MayAssignToUser(spec.user_limits, u.used, LimitFor(unit, u.weight))) {
        return ReserveBlock::kUserLimit;
      }
    }
    return ReserveBlock::kOrder;
  }
  // What the queue's applications could take now, in containers of their
  // units: each app's pending tasks, as many as its user's limit allows
  // (the users' remaining room shared among their apps).
  int64_t ClaimableUnits(Resource* unit) REQUIRES(mu) {
    int64_t units = 0;
    std::vector<std::pair<UserId, Resource>> user_used;
    for (const AppDemand& d : demands) {
      if (d.pending <= 0) continue;
      if (units == 0) *unit = d.unit;
      int64_t take = d.pending;
      if (LimitsUsers(d.user)) {
        Resource* used = nullptr;
        for (auto& [id, u] : user_used) {
          if (id == d.user) used = &u;
        }
        if (used == nullptr) used = &user_used.emplace_back(d.user, UserOf(d.user).used).second;
        const Resource limit = LimitFor(d.unit, UserOf(d.user).weight);
        if (!MayAssignToUser(spec.user_limits, *used, limit)) continue;
        if (spec.user_limits.calculator == LimitCalculator::kMemory && d.unit.memory_mb() > 0) {
          take = std::min(take, (limit.memory_mb() - used->memory_mb()) / d.unit.memory_mb() + 1);
        }
        *used += d.unit * take;
      }
      units += take;
    }
    return units;
  }
  // Reserve within the queue's max and the user's limit.
  Reservation ReserveLocked(UserId user, const Resource& unit, int64_t count, LabelId label)
      REQUIRES(mu);
};

namespace {

// One application in the ledger's run of the queue's assignment loop.
struct Contender {
  AppDemand demand;
  int64_t left = 0;  // containers of demand.unit still wanted
  Resource limit = Resource::Unlimited();
  bool limited = false;
};

OrderedApp OrderOf(const Contender& c) {
  OrderedApp o;
  o.priority = c.demand.priority;
  // The pool-wide submission order stands for the application id and the
  // attempt's start time alike (app_ordering.h).
  o.input_order = c.demand.order;
  o.start = static_cast<int64_t>(c.demand.order);
  o.used_memory_mb = c.demand.used.memory_mb();
  o.pending_memory_mb = c.left * c.demand.unit.memory_mb();
  return o;
}

}  // namespace

int64_t QueueLedger::Entry::OrderedShare(AppId app, const Resource& unit, int64_t want,
                                         Resource room) {
  // Never more than the room, whoever else asks: the room is the cell's
  // free capacity as the ledger counts it, which the other queues' order
  // has already cut (QueueShare).
  want = std::min(want, room.Multiples(unit));
  const AppDemand* mine = DemandOf(app);
  // An application that reported nothing has no place in the order yet.
  if (mine == nullptr || want <= 0) return std::max<int64_t>(0, want);
  std::vector<Contender> contenders;
  contenders.reserve(demands.size());
  size_t me = 0;
  for (const AppDemand& d : demands) {
    Contender c;
    c.demand = d;
    c.left = d.pending;
    if (d.app == app) {
      me = contenders.size();
      c.demand.unit = unit;
      c.left = want;
    }
    c.limited = LimitsUsers(d.user);
    if (c.limited) c.limit = LimitFor(c.demand.unit, UserOf(d.user).weight);
    contenders.push_back(std::move(c));
  }
  if (contenders.size() == 1) return want;
  // The users' usage as the loop hands containers out.
  std::vector<std::pair<UserId, Resource>> user_used;
  const auto used_of = [&](UserId user) -> Resource& {
    mu.AssertHeld();  // this function's lock (lambdas are analysed apart)
    for (auto& [id, used] : user_used) {
      if (id == user) return used;
    }
    return user_used.emplace_back(user, UserOf(user).used).second;
  };
  const UserLimitSpec& limits = spec.user_limits;
  const auto eligible = [&](Contender& c) {
    if (c.left <= 0 || room.Multiples(c.demand.unit) < 1) return false;
    return !c.limited || MayAssignToUser(limits, used_of(c.demand.user), c.limit);
  };
  const bool fair = spec.ordering == QueueOrdering::kFair;
  const bool size_based = spec.fair_size_based_weight;
  int64_t given = 0;
  // LeafQueue's loop: the first application by the queue's order whose user
  // is within its limit gets containers, re-sorted as they go. The limits
  // are those of the queue now (they do not grow with the containers
  // handed out here; the next reservation sees the grown queue).
  while (given < want && eligible(contenders[me])) {
    Contender* best = nullptr;
    OrderedApp best_order;
    for (Contender& c : contenders) {
      if (!eligible(c)) continue;
      const OrderedApp order = OrderOf(c);
      if (best == nullptr || CompareApps(spec.ordering, size_based, order, best_order) < 0) {
        best = &c;
        best_order = order;
      }
    }
    const Resource& step = best->demand.unit;
    int64_t run = std::min(best->left, room.Multiples(step));
    if (best->limited && limits.calculator == LimitCalculator::kMemory && step.memory_mb() > 0) {
      const Resource& used = used_of(best->demand.user);
      run = std::min(run, (best->limit.memory_mb() - used.memory_mb()) / step.memory_mb() + 1);
    } else if (best->limited) {
      run = 1;
    }
    if (fair) {
      // Until another application would come first.
      for (Contender& c : contenders) {
        if (&c == best || !eligible(c)) continue;
        run = std::min(run, std::max<int64_t>(
                                1, FairRun(size_based, best_order, OrderOf(c), step.memory_mb())));
      }
    }
    run = std::max<int64_t>(1, run);
    if (best == &contenders[me]) run = std::min(run, want - given);
    room -= step * run;
    best->left -= run;
    best->demand.used += step * run;
    used_of(best->demand.user) += step * run;
    if (best == &contenders[me]) given += run;
  }
  return given;
}

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
      e->ordered.store(s.pool_wide_order, std::memory_order_release);
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
      e->ordered.store(s.pool_wide_order, std::memory_order_release);
    }
    entries_[static_cast<size_t>(n)] = std::move(e);
    count_.store(n + 1, std::memory_order_release);
    ids.push_back(QueueId(static_cast<uint32_t>(n)));
  }
  generation_.fetch_add(1, std::memory_order_acq_rel);
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

QueueLedger::OtherQueues QueueLedger::SurveyBesides(QueueId except) const {
  OtherQueues out;
  {
    MutexLock l(&cell_mu_);
    out.capacity = cell_capacity_;
  }
  out.room = out.capacity;
  const int n = size();
  for (int i = 0; i < n; ++i) {
    if (static_cast<uint32_t>(i) == except.value()) continue;
    Entry* e = entries_[static_cast<size_t>(i)].get();
    MutexLock l(&e->mu);
    out.room -= e->TotalUsage();
    if (!e->ordered.load(std::memory_order_relaxed) || e->demands.empty()) continue;
    QueueDemand q;
    q.id = QueueId(static_cast<uint32_t>(i));
    q.min = e->spec.min;
    q.max = e->spec.max;
    q.weight = e->spec.weight;
    q.usage = e->usage;
    q.units = e->ClaimableUnits(&q.unit);
    if (q.units > 0) out.queues.push_back(q);
  }
  return out;
}

namespace {

// The smallest run (1..limit) of containers of `unit` after which `queue`
// (with `usage`) is no longer served before `other`; `limit` if none is.
int64_t RunUntilAfter(const QueueSpec& queue_spec, QueueId queue, const Resource& usage,
                      const Resource& unit, const QueueRank& other, const Resource& capacity,
                      int64_t limit) {
  const auto past = [&](int64_t k) {
    return ServedBefore(other, RankOf(queue, queue_spec, usage + unit * k, capacity));
  };
  if (limit <= 1 || past(1)) return std::max<int64_t>(1, std::min<int64_t>(limit, 1));
  if (!past(limit)) return limit;
  int64_t lo = 1;      // not past
  int64_t hi = limit;  // past
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (past(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

Resource QueueLedger::QueueShare(QueueId self, const QueueSpec& spec, const Resource& usage,
                                 const Resource& unit, int64_t units, const OtherQueues& others,
                                 Resource room) {
  if (others.queues.empty()) return room;
  struct Turn {
    QueueId id;
    QueueSpec spec;  // min, max and weight
    Resource usage;
    Resource unit;
    int64_t left = 0;
  };
  std::vector<Turn> turns;
  turns.reserve(others.queues.size() + 1);
  QueueSpec mine;
  mine.min = spec.min;
  mine.max = spec.max;
  mine.weight = spec.weight;
  turns.push_back(Turn{self, mine, usage, unit, units});
  for (const QueueDemand& q : others.queues) {
    QueueSpec s;
    s.min = q.min;
    s.max = q.max;
    s.weight = q.weight;
    turns.push_back(Turn{q.id, s, q.usage, q.unit, q.units});
  }
  const auto eligible = [&](const Turn& t) {
    if (t.left <= 0 || room.Multiples(t.unit) < 1) return false;
    Resource headroom;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      headroom.Set(i, t.spec.max.Get(i) - t.usage.Get(i));
    }
    return headroom.Multiples(t.unit) >= 1;
  };
  Resource given;
  // ParentQueue's loop over the children, container runs at a time: the
  // first by rank takes containers until another comes first. Bounded: a
  // balanced race ends in a share within a container of the fair one.
  for (int round = 0; round < 4096 && turns[0].left > 0 && eligible(turns[0]); ++round) {
    Turn* best = nullptr;
    Turn* second = nullptr;
    QueueRank best_rank;
    QueueRank second_rank;
    for (Turn& t : turns) {
      if (!eligible(t)) continue;
      const QueueRank r = RankOf(t.id, t.spec, t.usage, others.capacity);
      if (best == nullptr || ServedBefore(r, best_rank)) {
        second = best;
        second_rank = best_rank;
        best = &t;
        best_rank = r;
      } else if (second == nullptr || ServedBefore(r, second_rank)) {
        second = &t;
        second_rank = r;
      }
    }
    Resource headroom;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      headroom.Set(i, best->spec.max.Get(i) - best->usage.Get(i));
    }
    int64_t run =
        std::min({best->left, room.Multiples(best->unit), headroom.Multiples(best->unit)});
    if (second != nullptr) {
      run = RunUntilAfter(best->spec, best->id, best->usage, best->unit, second_rank,
                          others.capacity, run);
    }
    best->usage += best->unit * run;
    best->left -= run;
    room -= best->unit * run;
    if (best == &turns[0]) given += best->unit * run;
  }
  return given;
}

void QueueLedger::SetCellCapacity(const Resource& capacity) {
  MutexLock l(&cell_mu_);
  cell_capacity_ = capacity;
}

bool QueueLedger::OrdersPoolWide(QueueId queue) const {
  return entry(queue)->ordered.load(std::memory_order_acquire);
}

void QueueLedger::SetAppDemand(QueueId queue, const AppDemand& demand) {
  if (!demand.app.valid()) return;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  AppDemand* known = e->DemandOf(demand.app);
  if (demand.pending <= 0) {
    if (known != nullptr) {
      *known = e->demands.back();
      e->demands.pop_back();
    }
  } else if (known != nullptr) {
    *known = demand;
  } else {
    e->demands.push_back(demand);
  }
  e->demanding.store(static_cast<int>(e->demands.size()), std::memory_order_release);
}

void QueueLedger::AddAppDemandIfAbsent(QueueId queue, const AppDemand& demand) {
  if (!demand.app.valid() || demand.pending <= 0) return;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  if (e->DemandOf(demand.app) != nullptr) return;
  e->demands.push_back(demand);
  e->demanding.store(static_cast<int>(e->demands.size()), std::memory_order_release);
}

Reservation QueueLedger::Reserve(QueueId queue, UserId user, const Resource& unit, int64_t count,
                                 LabelId label, AppId app) {
  Reservation r;
  if (count <= 0) return r;
  Entry* e = entry(queue);
  // The queue's order shares out the room of the cell, which the other
  // queues' usage takes from: read before this queue's mutex (the ledger
  // never holds two queues' mutexes).
  const bool ordered = app.valid() && label == kDefaultLabel &&
                       e->ordered.load(std::memory_order_acquire) &&
                       e->demanding.load(std::memory_order_acquire) > 0;
  OtherQueues others;
  if (ordered) others = SurveyBesides(queue);
  MutexLock l(&e->mu);
  int64_t order_cap = count;
  if (ordered) {
    const Resource total = e->TotalUsage();
    Resource room;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      room.Set(i,
               std::min(e->spec.max.Get(i) - e->usage.Get(i), others.room.Get(i) - total.Get(i)));
    }
    // First the queues' order: what the queues served before this one
    // take of the room; then the queue's order within what is left.
    Resource claim_unit = unit;
    const int64_t units = e->ClaimableUnits(&claim_unit) + count;
    room = QueueShare(queue, e->spec, e->usage, unit, units, others, room);
    order_cap = e->OrderedShare(app, unit, count, room);
    if (order_cap <= 0) {
      // Say what stops it: the queue's max or the user's limit as without
      // the order, else the order.
      r.block = e->BlockWithoutOrder(user, unit);
      return r;
    }
  }
  r = e->ReserveLocked(user, unit, std::min(count, order_cap), label);
  if (r.block == ReserveBlock::kNone && r.granted < count) {
    r.block = e->BlockWithoutOrder(user, unit);
  }
  if (AppDemand* d = app.valid() ? e->DemandOf(app) : nullptr) {
    d->pending = std::max<int64_t>(0, d->pending - r.granted);
    d->used += unit * r.granted;
  }
  return r;
}

Reservation QueueLedger::Entry::ReserveLocked(UserId user, const Resource& unit, int64_t count,
                                              LabelId label) {
  Reservation r;
  if (label != kDefaultLabel) {
    // AbstractCSQueue.canAssignToThisQueue in the partition: its usage
    // against the queue's maximum there; no user limit (see the header).
    Resource& used = UsageIn(label);
    const Resource max = spec.ShareIn(label).max;
    Resource room;
    for (int i = 0; i < kMaxResourceTypes; ++i) room.Set(i, max.Get(i) - used.Get(i));
    r.granted = std::max<int64_t>(0, std::min(room.Multiples(unit), count));
    if (r.granted < count) r.block = ReserveBlock::kQueueMax;
    used += unit * r.granted;
    return r;
  }
  Resource headroom;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    headroom.Set(i, spec.max.Get(i) - usage.Get(i));
  }
  const int64_t fit = headroom.Multiples(unit);
  if (!LimitsUsers(user)) {
    r.granted = std::min(fit, count);
    if (r.granted < count) r.block = ReserveBlock::kQueueMax;
    if (r.granted <= 0) {
      r.granted = 0;
      return r;
    }
    usage += unit * r.granted;
    return r;
  }
  // The limit moves with the queue's usage (over capacity, 2.x adds the
  // request to it; 3.3 divides the active users' usage), so it is
  // recomputed before each container, as the CapacityScheduler does on each
  // assignment.
  // The limit never falls as the queue's usage grows, so every container
  // the current limit admits is admitted: under the memory calculator they
  // are granted together, then the limit is recomputed for the next.
  const UserLimitSpec& limits = spec.user_limits;
  const bool by_memory = limits.calculator == LimitCalculator::kMemory && unit.memory_mb() > 0;
  const UserEntry& u = UserOf(user);
  while (r.granted < count) {
    if (r.granted >= fit) {
      r.block = ReserveBlock::kQueueMax;
      break;
    }
    const Resource limit = LimitFor(unit, u.weight);
    if (!MayAssignToUser(limits, u.used, limit)) {
      r.block = ReserveBlock::kUserLimit;
      break;
    }
    int64_t k = 1;
    if (by_memory) {
      k = (limit.memory_mb() - u.used.memory_mb()) / unit.memory_mb() + 1;
      k = std::min({k, count - r.granted, fit - r.granted});
    }
    usage += unit * k;
    ChargeUser(user, unit * k);
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

void QueueLedger::SetAppActive(QueueId queue, UserId user, AppId app, bool active) {
  if (!user.valid()) return;
  Entry* e = entry(queue);
  MutexLock l(&e->mu);
  UserEntry& u = e->UserOf(user);
  const bool was = !u.active_apps.empty();
  if (active) {
    u.active_apps.insert(app);
  } else {
    u.active_apps.erase(app);
  }
  const bool is = !u.active_apps.empty();
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
    s.active = !it->second.active_apps.empty();
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
