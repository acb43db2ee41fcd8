#include "bench/windtunnel/workload.h"

#include <algorithm>
#include <cmath>

namespace spindle::windtunnel {

namespace {

double ToSeconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

Workload::Workload(const WorkloadOptions& options, const std::vector<double>& scores,
                   double score_mean)
    : options_(options),
      sampler_(scores, score_mean, options.preference_tilt),
      rng_(options.seed ^ 0x3a7b1c9d2e4f6071ULL) {
  Duration t(0);
  double tasks = 0;
  for (double f : options.fractions) {
    PhaseSpec p;
    p.fraction = f;
    p.rate = std::max(0.0, f * options.base_rate);
    p.start = t;
    t += options.phase_length;
    p.end = t;
    phases_.push_back(p);
    cumulative_.push_back(tasks);
    tasks += p.rate * ToSeconds(options.phase_length);
  }
  cumulative_.push_back(tasks);
  // Job k arrives at cumulative (k + 1/2) * B < total.
  const double b = std::max(1, options.tasks_per_job);
  total_jobs_ = tasks <= 0 ? 0 : static_cast<int64_t>(std::ceil(tasks / b - 0.5));
  while (total_jobs_ > 0 && (static_cast<double>(total_jobs_ - 1) + 0.5) * b >= tasks)
    --total_jobs_;
}

int Workload::PhaseAt(Duration t) const {
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (t < phases_[i].end) return static_cast<int>(i);
  }
  return static_cast<int>(phases_.size());
}

Duration Workload::ArrivalOf(int64_t k) const {
  const double b = std::max(1, options_.tasks_per_job);
  const double c = (static_cast<double>(k) + 0.5) * b;
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (c < cumulative_[i + 1] && phases_[i].rate > 0) {
      const double s = ToSeconds(phases_[i].start) + (c - cumulative_[i]) / phases_[i].rate;
      const auto d = std::chrono::round<Duration>(std::chrono::duration<double>(s));
      return std::clamp(d, phases_[i].start, phases_[i].end - Duration(1));
    }
  }
  return end();
}

Duration Workload::PeekArrival() const { return next_ < total_jobs_ ? ArrivalOf(next_) : end(); }

bool Workload::Next(JobSpec* job) {
  if (next_ >= total_jobs_) return false;
  job->index = next_;
  job->arrival = ArrivalOf(next_);
  job->phase = PhaseAt(job->arrival);
  job->tasks = std::max(1, options_.tasks_per_job);
  job->preferred.clear();
  if (options_.preferred_nodes > 0) sampler_.Draw(options_.preferred_nodes, &rng_, &job->preferred);
  ++next_;
  return true;
}

}  // namespace spindle::windtunnel
