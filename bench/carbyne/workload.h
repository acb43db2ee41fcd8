// Workload: the DAG jobs of a Carbyne simulation. A job is a DAG of stages;
// a stage's tasks share one demand (§4.3: tasks of a stage have similar
// requirements) and have their own durations; a stage starts when every
// task of its parent stages has finished (a barrier, as Tez's scatter-gather
// edges). GenerateWorkload draws the synthetic workload once per seed, so
// every policy runs the same jobs.
//
// Thread-safety: values; GenerateWorkload is a pure function of its options.
#pragma once

#include <vector>

#include "base/result.h"
#include "bench/carbyne/model_options.h"
#include "bench/carbyne/resources.h"

namespace spindle::bench::carbyne {

struct StageSpec {
  Resources demand;             // per task
  std::vector<Time> durations;  // one per task, > 0
  std::vector<int> parents;     // indices of earlier stages (< this one's)
};

struct JobSpec {
  Time arrival = 0;
  std::vector<StageSpec> stages;  // topological order: parents come first
};

// The synthetic workload (README.md, "Workload"): arrivals at time 0 or
// Poisson, 2..max_stages stages, roots and joins of earlier stages,
// log-uniform tasks per stage and stage durations. `options` must be valid.
std::vector<JobSpec> GenerateWorkload(const ModelOptions& options);

// OK when every job is well formed for `options`' machines: stages with at
// least one task, durations > 0, parents earlier, demands > 0 that fit one
// machine, arrivals >= 0 and in order. InvalidArgument naming the job.
Status ValidateJobs(const std::vector<JobSpec>& jobs, const ModelOptions& options);

}  // namespace spindle::bench::carbyne
