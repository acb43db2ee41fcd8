#include "bench/windtunnel/workload.h"

#include <algorithm>

namespace spindle::windtunnel {

Workload::Workload(const WorkloadOptions& options, const std::vector<double>& scores,
                   double score_mean)
    : options_(options),
      arrivals_(options.base_rate, options.fractions, options.phase_length, options.tasks_per_job),
      sampler_(scores, score_mean, options.preference_tilt),
      rng_(options.seed ^ 0x3a7b1c9d2e4f6071ULL) {}

Duration Workload::PeekArrival() const {
  return next_ < total_jobs() ? arrivals_.ArrivalOf(next_) : end();
}

bool Workload::Next(JobSpec* job) {
  if (next_ >= total_jobs()) return false;
  job->index = next_;
  job->arrival = arrivals_.ArrivalOf(next_);
  job->phase = PhaseAt(job->arrival);
  job->tasks = std::max(1, options_.tasks_per_job);
  job->preferred.clear();
  if (options_.preferred_nodes > 0) sampler_.Draw(options_.preferred_nodes, &rng_, &job->preferred);
  ++next_;
  return true;
}

}  // namespace spindle::windtunnel
