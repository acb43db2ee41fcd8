// LateBinding: Sparrow — batch sampling with on-demand task assignment
// (§3.2). An m-task job sends ceil(d * m) reservations to distinct random
// nodes (each arrives half a round trip later and waits in the node's queue
// like a task). When a reservation reaches a free slot the node asks the
// scheduler for a task (Cluster models the round trip); the scheduler hands
// out the job's next unlaunched task, so the m tasks run on the first m
// probed slots to free up, and answers no-op once all m are launched (the
// paper's §8 leaves proactive cancellation to future work).
//
// Per-task constraints (§3.3): each task of a constrained job sends ceil(d)
// reservations to nodes drawn from its preferred nodes; a getTask() from
// node n is given the first unlaunched task that prefers n.
#pragma once

#include <vector>

#include "bench/sparrow/policy.h"
#include "bench/sparrow/probe_sampler.h"

namespace spindle::bench::sparrow {

class LateBinding final : public Policy {
 public:
  void OnJobArrival(int job, Cluster& cluster) override;
  std::optional<int> OnGetTask(int job, int node, Cluster& cluster) override;

 private:
  struct JobState {
    int next = 0;                // unconstrained: the next task to launch
    std::vector<bool> launched;  // constrained: per task
  };

  ProbeSampler sampler_;
  std::vector<JobState> jobs_;  // by job index, sized on first arrival
};

}  // namespace spindle::bench::sparrow
