// ParSyncPhasesReader: the ParSync (§6) phases workload as a TraceReader, so
// that `spindle replay` can drive the real RM with what the wind tunnel runs
// in-process: jobs of `tasks_per_job` 1-slot tasks of duration T arriving
// at PhasedArrivals' times (phases of rates as fractions of R tasks/s,
// default 50/80/95/80/50% of R), each naming `preferred_nodes` preferred
// hosts of the node list drawn by a PreferenceSampler (by node score, or
// uniformly when no scores are given). Deterministic: the same options and
// seed give the same jobs; the arrivals are the wind tunnel Workload's
// (both use PhasedArrivals), and preferences are drawn the same way (same
// sampler, same seeding).
//
// Every task of a job shares the job's preferred hosts (the wind tunnel's
// JobSpec), and their racks as preferred racks. One stage "tasks",
// priority 20; job ids "parsync_<k>" (k from 0).
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/random.h"
#include "replay/trace/synthetic/phased_arrivals.h"
#include "replay/trace/synthetic/preference_sampler.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

struct ParSyncPhasesOptions {
  // R, tasks/s at 100%. Default: 40,000 (the wind tunnel's).
  double base_rate = 40'000;
  // Phase rates as fractions of R (>= 0). Default: 0.5, 0.8, 0.95, 0.8, 0.5.
  std::vector<double> fractions = {0.5, 0.8, 0.95, 0.8, 0.5};
  // Length of each phase. Default: 60 s.
  int64_t phase_length_ms = 60'000;
  // Tasks per job (k). Default: 100.
  int tasks_per_job = 100;
  // T, each task's duration. Default: 5 s (the wind tunnel's).
  int64_t task_duration_ms = 5'000;
  // A slot. Default: 1024 MB, 1 vcore.
  int64_t task_memory_mb = 1024;
  int32_t task_vcores = 1;
  // Preferred nodes per job (0: none). Default: 100.
  int preferred_nodes = 100;
  // Node scores, one per node of the list (empty: all equal, so preferred
  // nodes are drawn uniformly), and the PreferenceSampler's tilt.
  // Default: none; tilt 1.
  std::vector<double> node_scores;
  double preference_tilt = 1.0;
  // Seed of the preferred nodes. Default: 1.
  uint64_t seed = 1;
  // Queue and user of every job. Default: "default".
  std::string queue = "default";
  std::string user = "default";
};

class ParSyncPhasesReader : public TraceReader {
 public:
  // InvalidArgument naming the first bad option (e.g. a negative fraction,
  // scores not one per node, preferred nodes with an empty node list).
  // ReadOptions: max_jobs, max_arrival_ms and the minimum resources apply.
  static Result<std::unique_ptr<ParSyncPhasesReader>> Open(const ParSyncPhasesOptions& options,
                                                           std::vector<TraceNode> nodes,
                                                           const ReadOptions& read = ReadOptions());

  Result<bool> Next(TraceJob* job) override;
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override;
  // Jobs made of all phases' jobs.
  double Progress() const override;
  const PhasedArrivals& arrivals() const { return arrivals_; }

 private:
  ParSyncPhasesReader(const ParSyncPhasesOptions& options, std::vector<TraceNode> nodes,
                      const ReadOptions& read);

  const ParSyncPhasesOptions options_;
  const std::vector<TraceNode> nodes_;
  const ReadOptions read_;
  const PhasedArrivals arrivals_;
  const PreferenceSampler sampler_;
  Random rng_;
  ReadStats stats_;
  int64_t next_ = 0;
  std::vector<int32_t> preferred_;  // scratch
};

}  // namespace spindle::replay
