// The table `spindle bench sparrow` prints: the setting, then one row per
// policy with job response time (mean, p50, p95, p99), its ratio to the
// omniscient scheduler's (mean and p95; "-" when omniscient did not run),
// mean task wait, getTask() requests and no-ops, and slot time busy/held.
#pragma once

#include <string>
#include <vector>

#include "bench/sparrow/experiment.h"
#include "bench/sparrow/model_options.h"

namespace spindle::bench::sparrow {

std::string FormatSetting(const ModelOptions& options);
std::string FormatTable(const std::vector<PolicyResult>& results);

}  // namespace spindle::bench::sparrow
