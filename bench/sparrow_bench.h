// `spindle bench sparrow`: Sparrow's scheduling model (seed paper 004) on
// the virtual clock — random placement, per-task sampling, batch sampling,
// batch sampling with late binding and an omniscient scheduler, on the same
// Poisson workload and seed — printing per policy the job response time
// (mean, p50, p95, p99) and its ratio to omniscient's. Deterministic: the
// same flags print the same table. The library is bench/sparrow/.
#pragma once

#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"
#include "bench/sparrow/model_options.h"
#include "bench/sparrow/policy.h"

namespace spindle::bench {

struct SparrowBenchOptions {
  sparrow::ModelOptions model;
  std::vector<sparrow::PolicyKind> policies = sparrow::AllPolicies();
  // Loads to run, each a full table (default: model.load alone).
  std::vector<double> loads;
};

// The options `flags` ask for; InvalidArgument naming a bad value.
Result<SparrowBenchOptions> ParseSparrowFlags(const CommandLine& flags);

const CommandSpec& SparrowBenchCommand();
int SparrowBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
