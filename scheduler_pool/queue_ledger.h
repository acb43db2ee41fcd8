// QueueLedger: the queues (Fuxi's quota groups, YARN's leaf queues) with
// their guaranteed (min) and maximum shares, weights and ordering policies,
// and each queue's usage across all schedulers of the pool. Schedulers
// reserve a queue's quota before they commit and give back what they did not
// commit, so a queue never exceeds its maximum, however many schedulers
// place its work at once.
//
// The same holds per user: each queue keeps its users' usage (committed and
// reserved) and which users are active (have an application with pending
// asks), and a reservation for a user's work stops before a container the
// queue's user limit (user_limit.h) refuses. The limit depends on every
// scheduler's work (the queue's usage, the active users), which only the
// ledger sees whole; checking it here, under the queue's mutex, at the same
// moment as the maximum, keeps it exact when several optimistic schedulers
// place one user's work at once.
//
// Thread-safety: all methods are thread-safe. Each queue has its own mutex;
// SetQueues serialises on a ledger mutex and never blocks readers.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"
#include "scheduler_pool/user_limit.h"

namespace spindle::pool {

// How a queue orders its applications (policy/app_ordering.h).
enum class QueueOrdering : uint8_t {
  kFifo,           // priority, then submission order (3.x FifoOrderingPolicy). The default.
  kFair,           // least memory used first (3.x FairOrderingPolicy)
  kApplicationId,  // submission order alone (the 2.6 / 2.7 CapacityScheduler)
};

// A queue's share of one node-label partition other than the default one
// (whose share is QueueSpec::min / max): the CapacityScheduler's
// <queue>.accessible-node-labels.<label>.capacity / .maximum-capacity as
// resources of that partition.
struct PartitionShare {
  // The label's name; SchedulerPool::SetQueues interns it into `id` (callers
  // of QueueLedger::SetQueues fill `id` themselves).
  std::string label;
  LabelId id = kDefaultLabel;
  // Guaranteed share of the partition, served before queues above theirs.
  Resource min;
  // Hard cap on the queue's usage of the partition. Default: unlimited.
  Resource max = Resource::Unlimited();
  // Weight in weighted DRF among the partition's queues (> 0). Default: 1.
  double weight = 1.0;
};

// What a queue may use of a node-label partition its spec does not list.
enum class UnlistedPartitions : uint8_t {
  // Anything: the queue is not limited per partition (pool users that give
  // no per-partition capacities). The default.
  kOpen,
  // Nothing: the CapacityScheduler, where a queue without a capacity for a
  // label may not use that partition (it may still borrow a non-exclusive
  // partition's idle resources for default-partition asks, which no queue
  // capacity limits).
  kClosed,
};

struct QueueSpec {
  std::string name;
  // Guaranteed share: while below it (in every dimension it sets), the queue
  // is served before queues that are not. Default: none.
  Resource min;
  // Hard cap on the queue's usage. Default: unlimited.
  Resource max = Resource::Unlimited();
  // Weight of the queue in weighted DRF (> 0). Default: 1.
  double weight = 1.0;
  QueueOrdering ordering = QueueOrdering::kFifo;
  // kFair: divide the memory used by log2(1 + demand)
  // (ordering-policy.fair.enable-size-based-weight). Default: false.
  bool fair_size_based_weight = false;
  // How much one user may hold (minimum-user-limit-percent,
  // user-limit-factor). Default: not enabled.
  UserLimitSpec user_limits;
  // Shares of the node-label partitions other than the default (at most one
  // per label), and what applies to those not listed.
  std::vector<PartitionShare> partitions;
  UnlistedPartitions unlisted_partitions = UnlistedPartitions::kOpen;
  // The queue's application order holds across the pool's schedulers (the
  // CapacityScheduler's LeafQueue, rm/queues): a reservation for an
  // application in the default partition gets only what is left once the
  // applications the queue serves before it (QueueOrdering, their user
  // limits) have had what they ask for (see Reserve). Default: false (each
  // scheduler orders its own applications; only max and user limits hold
  // pool-wide).
  bool pool_wide_order = false;

  // The share of `label` (for kDefaultLabel: min, max and weight above).
  PartitionShare ShareIn(LabelId label) const;
};

// A queue in one partition: its spec with min, max and weight those of the
// partition, and its usage there.
struct QueueSnapshot {
  QueueSpec spec;
  Resource usage;  // committed plus reserved by schedulers now
};

// Why a reservation granted fewer than asked.
enum class ReserveBlock : uint8_t {
  kNone,       // all granted
  kQueueMax,   // the queue's maximum
  kUserLimit,  // the user's limit in the queue
  kOrder,      // applications the queue serves first ask for the rest
};

// What one application of a queue asks for now, as its scheduler reports it
// (QueueLedger::SetAppDemand): the pool-wide picture of the queue's
// application order, which no single scheduler has.
struct AppDemand {
  AppId app;
  UserId user;
  int32_t priority = 0;  // YARN application priority (higher first)
  uint64_t order = 0;    // pool-wide submission order (AppSpec::order)
  Resource unit;         // the capability of its next pending ask
  // Tasks of `unit` it waits for and that no scheduler has reserved; 0 when
  // it has none, or none its scheduler can place on what is free now.
  int64_t pending = 0;
  Resource used;  // what it holds (the fair ordering's magnitude)
};

struct Reservation {
  int64_t granted = 0;
  ReserveBlock block = ReserveBlock::kNone;
};

// One user of a queue, now.
struct UserSnapshot {
  Resource used;  // committed plus reserved
  // The queue's user limit for a container of `required` (Unlimited() when
  // the queue does not limit users or the user is invalid).
  Resource limit = Resource::Unlimited();
  bool active = false;  // has an application with pending asks
  int64_t active_users = 0;
};

class QueueLedger {
 public:
  static constexpr int kMaxQueues = 4096;

  QueueLedger();
  ~QueueLedger();
  QueueLedger(const QueueLedger&) = delete;
  QueueLedger& operator=(const QueueLedger&) = delete;

  // Adds queues by name, or updates the spec of queues already known (their
  // usage is kept). Queues are never removed. Returns the ids in order.
  // InvalidArgument naming the queue for an empty or duplicate name, a
  // weight <= 0, min > max, or negative min/max; nothing is changed then.
  Result<std::vector<QueueId>> SetQueues(const std::vector<QueueSpec>& specs);
  Result<QueueId> Find(std::string_view name) const;
  int size() const { return count_.load(std::memory_order_acquire); }
  // Counts the successful SetQueues calls: a copy of the specs taken at one
  // generation is current while it is unchanged (the cell-state service
  // sends members each queue's ordering again when it moves).
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  bool Contains(QueueId id) const { return id.valid() && static_cast<int>(id.value()) < size(); }

  // Reserves up to `count` multiples of `unit` for `user`'s work in the
  // queue, one container at a time: it stops before the queue's max, and,
  // when the queue limits users and `user` is valid, before a container the
  // user may not have (its usage, this reservation's included, is greater
  // than the limit recomputed for that container). Reserved usage counts as
  // the queue's and the user's until committed (kept) or Released.
  //
  // Usage is kept per node-label partition (`label`; AbstractCSQueue's
  // queueUsage.getUsed(partition)): a reservation in a partition stops
  // before that partition's max (PartitionShare, or the unlisted rule).
  // Users are counted in the default partition only: a reservation in
  // another partition checks no user limit and charges no user (3.3
  // computes user limits per partition; not modelled).
  //
  // With `app` valid, in the default partition of a queue with
  // pool_wide_order, it also stops where the queue's order would hand the
  // rest of the room (the queue's max, and the cell's capacity less every
  // queue's usage) to other applications first: the ledger plays the
  // LeafQueue's assignment loop over the demands the schedulers report
  // (SetAppDemand): the application first by the queue's ordering whose
  // user is within its limit takes a run of containers (FIFO: all its user
  // limit allows; fair: until another comes first), until `app` has
  // `count` or the room is gone (ReserveBlock::kOrder). A granted
  // reservation counts against `app`'s reported demand.
  Reservation Reserve(QueueId queue, UserId user, const Resource& unit, int64_t count,
                      LabelId label = kDefaultLabel, AppId app = AppId());
  // Reserve() without a user: how many were reserved (0..count).
  int64_t TryReserve(QueueId queue, const Resource& unit, int64_t count,
                     LabelId label = kDefaultLabel) {
    return Reserve(queue, UserId(), unit, count, label).granted;
  }
  // Adds usage in `label`'s partition without checking max or limits
  // (recovery of running containers; containers lent by a non-exclusive
  // partition, which no queue maximum limits).
  void ForceCharge(QueueId queue, const Resource& amount, UserId user = UserId(),
                   LabelId label = kDefaultLabel);
  // Gives back reserved or used resources (a release, or a reservation not
  // committed) in `label`'s partition. Usage never goes below zero.
  void Release(QueueId queue, const Resource& amount, UserId user = UserId(),
               LabelId label = kDefaultLabel);
  // Moves usage from one queue to another (an app changed queues); `to`
  // may exceed its max, as the usage already exists.
  void Move(QueueId from, QueueId to, const Resource& amount, UserId user = UserId(),
            LabelId label = kDefaultLabel);
  // `user`'s application `app` in the queue has pending asks (true) or has
  // none left (false); a user is active while it has such an application.
  // Idempotent per application, as Hadoop's ActiveUsersManager (2.6/2.7)
  // and UsersManager (3.3) keep a set of each user's active applications:
  // the pool tells it when the asks arrive (SchedulerPool::SetAsks, as
  // AppSchedulingInfo does inside the allocate call) and the app's
  // scheduler again when it has read them or placed the last. Ignored for
  // an invalid user.
  void SetAppActive(QueueId queue, UserId user, AppId app, bool active);
  // Whether an application held by the AM limit makes its user active in
  // this queue (the queue limits users and its line counts them:
  // UserCountsHeldApps).
  bool CountsHeldApps(QueueId queue) const;
  // Replaces what `demand.app` asks for in the queue (pending 0: nothing,
  // the app is forgotten). Used by Reserve in queues with pool_wide_order.
  void SetAppDemand(QueueId queue, const AppDemand& demand);
  // SetAppDemand unless the ledger already has the app's demand.
  void AddAppDemandIfAbsent(QueueId queue, const AppDemand& demand);
  // The queue's spec has pool_wide_order (lock-free).
  bool OrdersPoolWide(QueueId queue) const;
  // The cell's capacity (the running nodes'), the room Reserve shares out
  // in order with the queues' usage; schedulers set it before each step.
  void SetCellCapacity(const Resource& capacity) EXCLUDES(cell_mu_);

  // The queue in `label`'s partition.
  QueueSnapshot Snapshot(QueueId queue, LabelId label = kDefaultLabel) const;
  // Usage over every partition.
  Resource Usage(QueueId queue) const;
  // Usage in `label`'s partition.
  Resource UsageIn(QueueId queue, LabelId label) const;
  // `user` in the queue, with the limit a container of `required` would
  // meet (Hadoop 2.x computes it per request; 3.3 ignores `required`).
  UserSnapshot User(QueueId queue, UserId user, const Resource& required) const;

 private:
  struct Entry;
  struct UserEntry;
  Entry* entry(QueueId id) const;
  // A queue ordered pool-wide with demand, as another queue's reservation
  // sees it.
  struct QueueDemand {
    QueueId id;
    Resource min;
    Resource max;
    double weight = 1;
    Resource usage;  // in the default partition
    Resource unit;
    int64_t units = 0;  // containers of `unit` its apps could take now
  };
  struct OtherQueues {
    Resource capacity;  // the cell's
    Resource room;      // the cell's capacity less the other queues' usage
    std::vector<QueueDemand> queues;
  };
  // Every queue but `except` (each queue's mutex taken in turn, none held
  // by the caller).
  OtherQueues SurveyBesides(QueueId except) const EXCLUDES(cell_mu_);
  // What of `room` the order between queues (QueueRank) gives queue `self`
  // (spec, usage, `units` of `unit` wanted) before the queues in `others`.
  static Resource QueueShare(QueueId self, const QueueSpec& spec, const Resource& usage,
                             const Resource& unit, int64_t units, const OtherQueues& others,
                             Resource room);

  mutable Mutex cell_mu_;  // a leaf
  Resource cell_capacity_ GUARDED_BY(cell_mu_) = Resource::Unlimited();

  Mutex set_mu_;  // serialises SetQueues
  std::unique_ptr<std::unique_ptr<Entry>[]> entries_;
  std::atomic<int> count_{0};
  std::atomic<uint64_t> generation_{0};
};

}  // namespace spindle::pool
