#include "replay/trace/synthetic/phased_arrivals.h"

#include <algorithm>
#include <cmath>

namespace spindle::replay {

namespace {

double ToSeconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

PhasedArrivals::PhasedArrivals(double base_rate, const std::vector<double>& fractions,
                               Duration phase_length, int tasks_per_job)
    : tasks_per_job_(std::max(1, tasks_per_job)) {
  Duration t(0);
  double tasks = 0;
  for (double f : fractions) {
    Phase p;
    p.fraction = f;
    p.rate = std::max(0.0, f * base_rate);
    p.start = t;
    t += phase_length;
    p.end = t;
    phases_.push_back(p);
    cumulative_.push_back(tasks);
    tasks += p.rate * ToSeconds(phase_length);
  }
  cumulative_.push_back(tasks);
  // Job k arrives at cumulative (k + 1/2) * B < total.
  const double b = tasks_per_job_;
  total_jobs_ = tasks <= 0 ? 0 : static_cast<int64_t>(std::ceil(tasks / b - 0.5));
  while (total_jobs_ > 0 && (static_cast<double>(total_jobs_ - 1) + 0.5) * b >= tasks)
    --total_jobs_;
}

int PhasedArrivals::PhaseAt(Duration t) const {
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (t < phases_[i].end) return static_cast<int>(i);
  }
  return static_cast<int>(phases_.size());
}

Duration PhasedArrivals::ArrivalOf(int64_t k) const {
  const double b = tasks_per_job_;
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

}  // namespace spindle::replay
