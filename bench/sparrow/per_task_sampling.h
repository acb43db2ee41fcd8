// PerTaskSampling: the power of two choices applied to each task alone
// (§3.1, "per-task sampling"): for every task, probe ceil(d) random nodes
// (among its preferred nodes, if it has any) and send the task to the one
// with the shortest queue. The probes reach the nodes half a round trip after
// the job arrives and read the queues there; the tasks reach their nodes one
// round trip later (reply, then launch). The scheduler counts the tasks it
// has itself just placed on a node when it compares that node again.
#pragma once

#include "bench/sparrow/policy.h"
#include "bench/sparrow/probe_sampler.h"

namespace spindle::bench::sparrow {

class PerTaskSampling final : public Policy {
 public:
  void OnJobArrival(int job, Cluster& cluster) override;

  // The per-task placement itself, at the time the probes arrive; batch
  // sampling uses it for jobs with per-task constraints (§4.2).
  static void PlaceNow(int job, Cluster& cluster, ProbeSampler& sampler);

 private:
  ProbeSampler sampler_;
};

}  // namespace spindle::bench::sparrow
