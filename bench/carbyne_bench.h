// `spindle bench carbyne`: Carbyne's altruistic scheduling (seed paper 003)
// on the virtual clock — DRF, Carbyne, Tetris packing and SRTF on the same
// synthetic DAG jobs and seed — printing per policy the makespan, the job
// completion times (mean, p50, p95), the factors of improvement over DRF,
// Jain's fairness index and the jobs slowed against DRF. Deterministic: the
// same flags print the same table. With --trace, the jobs are a replay
// trace's DAGs (Alibaba v2018 task names, Rumen/SLS stages) instead of the
// synthetic ones. The library is bench/carbyne/.
#pragma once

#include <string>
#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"
#include "bench/carbyne/model_options.h"
#include "bench/carbyne/policy.h"

namespace spindle::bench {

struct CarbyneBenchOptions {
  carbyne::ModelOptions model;
  std::vector<carbyne::PolicyKind> policies = carbyne::AllPolicies();
  // Mean inter-arrival times to run, seconds (0: offline), each a table.
  std::vector<double> interarrivals;
  // A DAG trace to run instead of the synthetic jobs (its first
  // model.jobs jobs, its own arrivals), and its replay format name (empty:
  // guessed from the file name). Empty path: synthetic.
  std::string trace;
  std::string trace_format;
};

// The options `flags` ask for; InvalidArgument naming a bad value.
Result<CarbyneBenchOptions> ParseCarbyneFlags(const CommandLine& flags);

const CommandSpec& CarbyneBenchCommand();
int CarbyneBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
