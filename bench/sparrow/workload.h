// Workload: the jobs of one Sparrow simulation, drawn once from a seed so
// every policy schedules exactly the same jobs (same arrivals, durations and
// preferred nodes). Jobs arrive as a Poisson process (§4.1).
//
// Thread-safety: values.
#pragma once

#include <vector>

#include "base/clock.h"
#include "bench/sparrow/model_options.h"

namespace spindle::bench::sparrow {

struct TaskSpec {
  Duration duration{};
  // Nodes the task must run on (per-task constraint, §3.3); empty: any node.
  std::vector<int> preferred;
};

struct JobSpec {
  // Since the start of the run.
  Duration arrival{};
  std::vector<TaskSpec> tasks;
  bool Constrained() const { return !tasks.empty() && !tasks.front().preferred.empty(); }
};

// options.jobs jobs in arrival order. `options` must be valid.
std::vector<JobSpec> GenerateWorkload(const ModelOptions& options);

}  // namespace spindle::bench::sparrow
