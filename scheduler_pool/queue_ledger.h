// QueueLedger: the queues (Fuxi's quota groups, YARN's leaf queues) with
// their guaranteed (min) and maximum shares, weights and ordering policies,
// and each queue's usage across all schedulers of the pool. Schedulers
// reserve a queue's quota before they commit and give back what they did not
// commit, so a queue never exceeds its maximum, however many schedulers
// place its work at once.
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

namespace spindle::pool {

// How a queue orders its applications (after application priority).
enum class QueueOrdering : uint8_t {
  kFifo,  // by submission order (YARN's FifoOrderingPolicy). The default.
  kFair,  // least dominant usage first (YARN's FairOrderingPolicy)
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
};

struct QueueSnapshot {
  QueueSpec spec;
  Resource usage;  // committed plus reserved by schedulers now
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

  // Reserves up to `count` multiples of `unit` for the queue without
  // exceeding its max; returns how many were reserved (0..count).
  int64_t TryReserve(QueueId queue, const Resource& unit, int64_t count);
  // Adds usage without checking max (recovery of running containers).
  void ForceCharge(QueueId queue, const Resource& amount);
  // Gives back reserved or used resources (a release, or a reservation not
  // committed). Usage never goes below zero.
  void Release(QueueId queue, const Resource& amount);
  // Moves usage from one queue to another (an app changed queues); `to`
  // may exceed its max, as the usage already exists.
  void Move(QueueId from, QueueId to, const Resource& amount);

  QueueSnapshot Snapshot(QueueId queue) const;
  Resource Usage(QueueId queue) const;

 private:
  struct Entry;
  Entry* entry(QueueId id) const;

  Mutex set_mu_;  // serialises SetQueues
  std::unique_ptr<std::unique_ptr<Entry>[]> entries_;
  std::atomic<int> count_{0};
};

}  // namespace spindle::pool
