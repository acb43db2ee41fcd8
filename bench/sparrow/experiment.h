// Experiment: runs policies over one workload and summarises job response
// times (submit to last task's end, §3.1), the figure the paper reports.
// Jobs in the first and last options.edge_share of the run are left out
// (filling and draining). Percentiles are exact order statistics
// (nearest rank), not histogram buckets.
//
// Thread-safety: values; RunPolicy is a pure function of its inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/sparrow/model_options.h"
#include "bench/sparrow/policy.h"
#include "bench/sparrow/workload.h"

namespace spindle::bench::sparrow {

struct PolicyResult {
  PolicyKind policy = PolicyKind::kRandom;
  int jobs_measured = 0;
  // Job response time, milliseconds.
  double mean_ms = 0;
  double p50_ms = 0;
  double p95_ms = 0;
  double p99_ms = 0;
  // Mean over measured tasks of (start - job arrival), milliseconds.
  double mean_task_wait_ms = 0;
  uint64_t get_tasks = 0;
  uint64_t no_ops = 0;
  // Share of slot time spent busy running tasks, and held by getTask()
  // round trips, over the run (until the last task ends).
  double busy_share = 0;
  double held_share = 0;
  uint64_t events = 0;
};

// `options` must be valid and `jobs` drawn for them.
PolicyResult RunPolicy(const ModelOptions& options, const std::vector<JobSpec>& jobs,
                       PolicyKind policy);

// The workload drawn once, then every policy of `policies` on it, in order.
// InvalidArgument for invalid options.
Result<std::vector<PolicyResult>> RunPolicies(const ModelOptions& options,
                                              const std::vector<PolicyKind>& policies);

// The result for `policy` in `results`, or nullptr.
const PolicyResult* Find(const std::vector<PolicyResult>& results, PolicyKind policy);

}  // namespace spindle::bench::sparrow
