// RandomPlacement: the baseline. Each task goes straight to a node drawn at
// random (among its preferred nodes, if it has any); no probes, so a task
// reaches its node half a round trip after the job arrives.
#pragma once

#include "bench/sparrow/policy.h"

namespace spindle::bench::sparrow {

class RandomPlacement final : public Policy {
 public:
  void OnJobArrival(int job, Cluster& cluster) override;
};

}  // namespace spindle::bench::sparrow
