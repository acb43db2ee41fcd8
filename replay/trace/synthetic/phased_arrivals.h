// PhasedArrivals: ParSync's (§6) job arrival times. The submission rate
// follows phases, each a fraction of the base rate R tasks/s (e.g. 50%,
// 80%, 95%, 80%, 50% of R, a fixed length each); jobs are batches of
// `tasks_per_job` tasks and arrive evenly spaced at the phase's rate: job k
// arrives when the cumulative task count reaches (k + 1/2) x tasks_per_job,
// so each phase gets rate x length / tasks_per_job jobs (to within one) and
// a rate change takes effect at once. Shared by the wind tunnel
// (bench/windtunnel/workload) and the ParSync phases reader.
//
// Thread-safety: const after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"

namespace spindle::replay {

struct Phase {
  double fraction = 0;
  double rate = 0;  // tasks/s
  Duration start{0};
  Duration end{0};
};

class PhasedArrivals {
 public:
  // Negative rates count as 0 (a phase without arrivals); tasks_per_job < 1
  // counts as 1.
  PhasedArrivals(double base_rate, const std::vector<double>& fractions, Duration phase_length,
                 int tasks_per_job);

  const std::vector<Phase>& phases() const { return phases_; }
  // The end of the last phase.
  Duration end() const { return phases_.empty() ? Duration(0) : phases_.back().end; }
  // The phase containing `t` (0-based); phases().size() at or after end().
  int PhaseAt(Duration t) const;
  // Jobs all phases submit.
  int64_t total_jobs() const { return total_jobs_; }
  // When job k (0-based, < total_jobs()) arrives; end() past the last.
  Duration ArrivalOf(int64_t k) const;

 private:
  const int tasks_per_job_;
  std::vector<Phase> phases_;
  std::vector<double> cumulative_;  // tasks submitted before each phase
  int64_t total_jobs_ = 0;
};

}  // namespace spindle::replay
