// The table `spindle bench carbyne` prints: the setting, then one row per
// policy: makespan and JCT (mean, p50, p95) in seconds, the factors of
// improvement over DRF (DRF's figure / the policy's, > 1 is better), Jain's
// index (mean and minimum over the windows), and the jobs slowed against
// DRF: their share, the share slowed by more than 1.25x, the worst ratio;
// then the makespan's lower bound for these jobs.
#pragma once

#include <string>
#include <vector>

#include "bench/carbyne/experiment.h"
#include "bench/carbyne/model_options.h"

namespace spindle::bench::carbyne {

// The synthetic workload and the cluster, one line.
std::string FormatSetting(const ModelOptions& options);
// The cluster, P(altruism), the Jain window and the seed, one line (for a
// trace's jobs).
std::string FormatCluster(const ModelOptions& options);
std::string FormatTable(const std::vector<PolicyResult>& results);

}  // namespace spindle::bench::carbyne
