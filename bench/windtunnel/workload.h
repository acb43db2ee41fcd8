// Workload: the wind tunnel's job stream (ParSync §6). Jobs arrive as
// batches of `tasks_per_job` 1-slot tasks; the submission rate follows
// phases, each a fraction of the base rate R (default 50%, 80%, 95%, 80%,
// 50% of 40,000 tasks/s, 60 s each), at the times PhasedArrivals gives
// (replay/trace/synthetic, shared with `spindle replay`'s ParSync phases
// reader). Each job names `preferred_nodes` preferred nodes drawn by a
// PreferenceSampler.
//
// Deterministic: the same options, scores and seed give the same jobs.
// Thread-safety: none (one driver owns it).
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "replay/trace/synthetic/phased_arrivals.h"
#include "replay/trace/synthetic/preference_sampler.h"

namespace spindle::windtunnel {

struct WorkloadOptions {
  // R, tasks/s at 100%. Default: 40,000.
  double base_rate = 40'000;
  // Phase rates as fractions of R. Default: 0.5, 0.8, 0.95, 0.8, 0.5.
  std::vector<double> fractions = {0.5, 0.8, 0.95, 0.8, 0.5};
  // Length of each phase. Default: 60 s.
  Duration phase_length = std::chrono::seconds(60);
  // Tasks per job (the paper's batch). Default: 100.
  int tasks_per_job = 100;
  // Preferred nodes per job (0: none). Default: 100.
  int preferred_nodes = 100;
  // PreferenceSampler's tilt. Default: 1.
  double preference_tilt = 1.0;
  // Seed of the arrivals' preferences. Default: 1.
  uint64_t seed = 1;
};

using PhaseSpec = replay::Phase;
using replay::PreferenceSampler;

struct JobSpec {
  int64_t index = 0;    // 0, 1, 2, ... in arrival order
  Duration arrival{0};  // since the start of the run
  int phase = 0;        // 0-based
  int tasks = 0;
  std::vector<int32_t> preferred;  // node indices
};

class Workload {
 public:
  // `scores`: the cluster's node scores (for the preferences), with their
  // distribution's mean; must outlive the workload.
  Workload(const WorkloadOptions& options, const std::vector<double>& scores, double score_mean);

  const WorkloadOptions& options() const { return options_; }
  const std::vector<PhaseSpec>& phases() const { return arrivals_.phases(); }
  // The end of the last phase.
  Duration end() const { return arrivals_.end(); }
  // The phase containing `t` (0-based); phases().size() at or after end().
  int PhaseAt(Duration t) const { return arrivals_.PhaseAt(t); }
  // Jobs the whole workload submits.
  int64_t total_jobs() const { return arrivals_.total_jobs(); }

  // The next job in arrival order; false once the last phase has ended.
  bool Next(JobSpec* job);
  // When the next job arrives (end() if none is left).
  Duration PeekArrival() const;

 private:
  const WorkloadOptions options_;
  const replay::PhasedArrivals arrivals_;
  PreferenceSampler sampler_;
  Random rng_;
  int64_t next_ = 0;
};

}  // namespace spindle::windtunnel
