// PoissonReader: a synthetic workload with Poisson job arrivals (
// exponential gaps at `jobs_per_second`), each job one stage of
// tasks_per_job tasks (drawn, rounded, at least 1) whose durations are
// drawn from task_duration_ms (rounded, at least 1 ms), optionally naming
// `preferred_nodes` hosts of the node list drawn uniformly per job.
//
// Deterministic: the same options give the same jobs. Arrivals, sizes and
// durations, and preferences draw from separate generators derived from
// `seed`, so changing the duration distribution keeps the arrival times.
// Job ids "poisson_<k>" (k from 0).
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/random.h"
#include "replay/trace/synthetic/distribution.h"
#include "replay/trace/synthetic/preference_sampler.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

struct PoissonOptions {
  // Mean job arrival rate (> 0). Default: 1 job/s.
  double jobs_per_second = 1.0;
  // Jobs generated (0: until horizon_ms). Default: 1000.
  int64_t jobs = 1000;
  // No job arrives at or after this (0: until `jobs`). One of jobs and
  // horizon_ms must be > 0. Default: 0.
  int64_t horizon_ms = 0;
  // Tasks per job. Default: fixed 10.
  Distribution tasks_per_job = Distribution::Fixed(10);
  // Each task's duration, ms. Default: exponential, mean 10 s.
  Distribution task_duration_ms = Distribution::Exponential(10'000);
  // Each task's resources. Default: 1024 MB, 1 vcore.
  int64_t task_memory_mb = 1024;
  int32_t task_vcores = 1;
  // Preferred hosts per job, drawn uniformly from the node list (0: none).
  // Default: 0.
  int preferred_nodes = 0;
  // Default: 1.
  uint64_t seed = 1;
  // Queue and user of every job. Default: "default".
  std::string queue = "default";
  std::string user = "default";
};

class PoissonReader : public TraceReader {
 public:
  // InvalidArgument naming the first bad option.
  static Result<std::unique_ptr<PoissonReader>> Open(const PoissonOptions& options,
                                                     std::vector<TraceNode> nodes = {},
                                                     const ReadOptions& read = ReadOptions());

  Result<bool> Next(TraceJob* job) override;
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override;
  // Jobs made of `jobs`, or time reached of `horizon_ms` (the further).
  double Progress() const override;

 private:
  // Marks the stream ended; false.
  bool Finish();
  PoissonReader(const PoissonOptions& options, std::vector<TraceNode> nodes,
                const ReadOptions& read);

  const PoissonOptions options_;
  const std::vector<TraceNode> nodes_;
  const ReadOptions read_;
  const PreferenceSampler sampler_;
  Random arrivals_rng_;
  Random sizes_rng_;
  Random preference_rng_;
  ReadStats stats_;
  double clock_ms_ = 0;  // the last arrival, unrounded
  int64_t next_ = 0;
  bool done_ = false;               // a limit was reached
  std::vector<int32_t> preferred_;  // scratch
};

}  // namespace spindle::replay
