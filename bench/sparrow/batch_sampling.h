// BatchSampling without late binding (§5.2's "standard batch sampling"): an
// m-task job probes ceil(d * m) distinct random nodes; the nodes answer with
// their queue lengths at once, and the scheduler sends one task to each of
// the m least loaded (ties: probe order, which is random). Timing as in
// per-task sampling: probes read the queues half a round trip after the job
// arrives, tasks reach the nodes one round trip later. A job with per-task
// constraints is placed by per-task sampling over its preferred nodes, as the
// paper does (§3.3, §4.2).
#pragma once

#include "bench/sparrow/policy.h"
#include "bench/sparrow/probe_sampler.h"

namespace spindle::bench::sparrow {

class BatchSampling final : public Policy {
 public:
  void OnJobArrival(int job, Cluster& cluster) override;

 private:
  void PlaceNow(int job, Cluster& cluster);

  ProbeSampler sampler_;
};

}  // namespace spindle::bench::sparrow
