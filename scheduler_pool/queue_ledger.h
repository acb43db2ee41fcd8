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
#include "scheduler_pool/resources.h"
#include "scheduler_pool/user_limit.h"

namespace spindle::pool {

// How a queue orders its applications (policy/app_ordering.h).
enum class QueueOrdering : uint8_t {
  kFifo,           // priority, then submission order (3.x FifoOrderingPolicy). The default.
  kFair,           // least memory used first (3.x FairOrderingPolicy)
  kApplicationId,  // submission order alone (the 2.6 / 2.7 CapacityScheduler)
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
};

struct QueueSnapshot {
  QueueSpec spec;
  Resource usage;  // committed plus reserved by schedulers now
};

// Why a reservation granted fewer than asked.
enum class ReserveBlock : uint8_t {
  kNone,       // all granted
  kQueueMax,   // the queue's maximum
  kUserLimit,  // the user's limit in the queue
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
  bool Contains(QueueId id) const { return id.valid() && static_cast<int>(id.value()) < size(); }

  // Reserves up to `count` multiples of `unit` for `user`'s work in the
  // queue, one container at a time: it stops before the queue's max, and,
  // when the queue limits users and `user` is valid, before a container the
  // user may not have (its usage, this reservation's included, is greater
  // than the limit recomputed for that container). Reserved usage counts as
  // the queue's and the user's until committed (kept) or Released.
  Reservation Reserve(QueueId queue, UserId user, const Resource& unit, int64_t count);
  // Reserve() without a user: how many were reserved (0..count).
  int64_t TryReserve(QueueId queue, const Resource& unit, int64_t count) {
    return Reserve(queue, UserId(), unit, count).granted;
  }
  // Adds usage without checking max or limits (recovery of running
  // containers).
  void ForceCharge(QueueId queue, const Resource& amount, UserId user = UserId());
  // Gives back reserved or used resources (a release, or a reservation not
  // committed). Usage never goes below zero.
  void Release(QueueId queue, const Resource& amount, UserId user = UserId());
  // Moves usage from one queue to another (an app changed queues); `to`
  // may exceed its max, as the usage already exists.
  void Move(QueueId from, QueueId to, const Resource& amount, UserId user = UserId());
  // One of `user`'s applications in the queue gained pending asks (true) or
  // has none left (false); a user is active while it has such an
  // application. Ignored for an invalid user.
  void SetAppActive(QueueId queue, UserId user, bool active);
  // Whether an application held by the AM limit makes its user active in
  // this queue (the queue limits users and its line counts them:
  // UserCountsHeldApps).
  bool CountsHeldApps(QueueId queue) const;

  QueueSnapshot Snapshot(QueueId queue) const;
  Resource Usage(QueueId queue) const;
  // `user` in the queue, with the limit a container of `required` would
  // meet (Hadoop 2.x computes it per request; 3.3 ignores `required`).
  UserSnapshot User(QueueId queue, UserId user, const Resource& required) const;

 private:
  struct Entry;
  struct UserEntry;
  Entry* entry(QueueId id) const;

  Mutex set_mu_;  // serialises SetQueues
  std::unique_ptr<std::unique_ptr<Entry>[]> entries_;
  std::atomic<int> count_{0};
};

}  // namespace spindle::pool
