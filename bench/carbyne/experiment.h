// Experiment: runs policies over one workload and summarises what the paper
// reports (§5.1 "Metrics"): makespan (when the last job completes), job
// completion time (JCT: arrival to last task's end; mean, p50, p95 as exact
// nearest-rank order statistics), Jain's fairness index over fixed windows
// (mean and minimum), and against DRF on the same jobs: the factors of
// improvement (DRF's figure over the policy's, > 1 is better) and the share
// of jobs that finish later than under DRF, and by how much.
//
// Thread-safety: values; the functions are pure functions of their inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "bench/carbyne/model_options.h"
#include "bench/carbyne/policy.h"
#include "bench/carbyne/workload.h"

namespace spindle::bench::carbyne {

// A job is "slowed" when its JCT exceeds DRF's by more than this factor
// (1 ms on a minute-long job is not a slowdown worth counting).
inline constexpr double kSlowedTolerance = 1.001;
// The paper's "slowed by more than 0.8x" (a factor of improvement below
// 0.8) is a JCT above 1.25x DRF's.
inline constexpr double kBadlySlowed = 1.25;

struct PolicyResult {
  PolicyKind policy = PolicyKind::kDrf;
  double makespan_s = 0;
  double mean_jct_s = 0;
  double p50_jct_s = 0;
  double p95_jct_s = 0;
  double jain_mean = 0;  // 0 when no window had two jobs
  double jain_min = 0;
  int jain_windows = 0;
  // Against DRF; meaningful when has_drf.
  bool has_drf = false;
  double makespan_factor = 0;     // DRF makespan / this makespan
  double mean_jct_factor = 0;     // DRF mean JCT / this mean JCT
  double slowed_share = 0;        // jobs with JCT > kSlowedTolerance x DRF's
  double badly_slowed_share = 0;  // jobs with JCT > kBadlySlowed x DRF's
  double worst_slowdown = 0;      // max over jobs of JCT / DRF's JCT
  // A lower bound on any policy's makespan for these jobs: the larger of
  // work over capacity (per resource) and the latest arrival plus
  // critical path. The same in every row.
  double makespan_bound_s = 0;
  uint64_t passes = 0;
  uint64_t plans = 0;
  uint64_t leftover_placements = 0;
  std::vector<Time> jct_ms;  // per job, in job order
};

// Every policy of `policies` on `jobs`, in order; DRF is also run (not
// listed) when a listed policy needs it for the comparison. InvalidArgument
// for invalid options or jobs.
Result<std::vector<PolicyResult>> RunPoliciesOn(const ModelOptions& options,
                                                const std::vector<JobSpec>& jobs,
                                                const std::vector<PolicyKind>& policies);
// The same on the workload GenerateWorkload draws for `options`.
Result<std::vector<PolicyResult>> RunPolicies(const ModelOptions& options,
                                              const std::vector<PolicyKind>& policies);

// The result for `policy` in `results`, or nullptr.
const PolicyResult* Find(const std::vector<PolicyResult>& results, PolicyKind policy);

}  // namespace spindle::bench::carbyne
