// Omniscient: the reference — a centralised scheduler that knows every
// slot's state and every task's duration and pays no network delay. Each
// task, in arrival order, goes to the slot where it starts soonest (among its
// preferred nodes, if any): with no constraints this is one FIFO queue in
// front of every slot of the cluster, the best any work-conserving online
// scheduler does for FIFO jobs. It keeps a book of when each slot frees, and
// sends the task to that slot's node at once; the node's FIFO queue then
// starts it exactly when the book says (checked by the tests).
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "bench/sparrow/policy.h"

namespace spindle::bench::sparrow {

class Omniscient final : public Policy {
 public:
  void OnJobArrival(int job, Cluster& cluster) override;

  // When the book says task `task` of `job` starts (tests).
  Duration PlannedStartForTest(int job, int task) const;

 private:
  void Book(int slot, Duration free_at);

  int slots_per_node_ = 0;
  std::vector<Duration> free_at_;             // by slot (node * slots + i)
  std::set<std::pair<Duration, int>> order_;  // (free_at, slot)
  std::vector<std::vector<Duration>> planned_;
};

}  // namespace spindle::bench::sparrow
