// AppOrdering: the order in which a leaf queue offers containers to its
// applications, as the CapacityScheduler's LeafQueue walks them, for each
// Hadoop line (read at release-2.6.0, rel/release-2.7.7, rel/release-3.3.0):
//
//  - 2.6 and 2.7 have no ordering policy (it came with 2.8, YARN-3318) and
//    no application priority in the CapacityScheduler (2.8, YARN-1963): the
//    queue's TreeSet of active apps is ordered by application id alone
//    (CapacityScheduler.applicationComparator); `ordering-policy` is not
//    read. QueueOrdering::kApplicationId.
//  - 3.3 FifoOrderingPolicy: PriorityComparator (higher application
//    priority first), then FifoComparator (compareInputOrderTo: application
//    id). QueueOrdering::kFifo.
//  - 3.3 FairOrderingPolicy: FairComparator, then FifoComparator. No
//    priority. FairComparator compares the "magnitude", the memory the app
//    uses (cachedUsed), or with `fair.enable-size-based-weight` that memory
//    divided by log2(1 + demand) where demand = used + pending memory; then
//    the earlier start time; then an app with no demand after one with some.
//    QueueOrdering::kFair.
// LeafQueue re-sorts before each assignment (apps that got or released a
// container are re-inserted), so "least magnitude first" holds container by
// container.
//
// In the pool an application's id order is its submission order, which is
// also its attempt's start order; AppSpec::order stands for both (see
// QuotaDrfPolicy). fifo-with-partitions (3.3, FifoOrderingPolicyWithExclusive-
// Partitions) is FIFO while no partition is exclusive-enforced.
//
// Thread-safety: values and pure functions.
#pragma once

#include <cstdint>

#include "scheduler_pool/queue_ledger.h"

namespace spindle::pool {

// What the ordering policies read of an application.
struct OrderedApp {
  int32_t priority = 0;
  // compareInputOrderTo: application id order (lower first).
  uint64_t input_order = 0;
  // SchedulerApplicationAttempt.getStartTime (earlier first).
  int64_t start = 0;
  // Breaks ties of `input_order` and of `start` (lower first): the order in
  // which apps reached one scheduler, for callers whose apps share one
  // input order (QuotaDrfPolicy). Hadoop's ids never tie; 0 where unused.
  uint64_t arrival = 0;
  int64_t used_memory_mb = 0;
  int64_t pending_memory_mb = 0;
};

// FairOrderingPolicy.getMagnitude.
double FairMagnitude(const OrderedApp& app, bool size_based_weight);

// The queue's comparator: negative when `a` is offered a container before
// `b`, positive after, zero when the policy cannot tell them apart.
int CompareApps(QueueOrdering ordering, bool size_based_weight, const OrderedApp& a,
                const OrderedApp& b);

// Under fair ordering: how many containers of `unit_memory_mb` in a row
// `a` gets before `b` would come first (>= 1 when `a` comes first now;
// 0 otherwise). Each container moves memory from pending to used, so the
// demand stays and a's magnitude grows by one step per container.
int64_t FairRun(bool size_based_weight, const OrderedApp& a, const OrderedApp& b,
                int64_t unit_memory_mb);

}  // namespace spindle::pool
