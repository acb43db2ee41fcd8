#include "replay/trace/synthetic/preference_sampler.h"

#include <algorithm>
#include <cmath>

namespace spindle::replay {

PreferenceSampler::PreferenceSampler(const std::vector<double>& scores, double mean, double tilt) {
  cumulative_.reserve(scores.size());
  double sum = 0;
  for (double s : scores) {
    // Clamped so that extreme tilts cannot overflow.
    sum += std::exp(std::clamp(tilt * (s - mean), -600.0, 600.0));
    cumulative_.push_back(sum);
  }
}

int32_t PreferenceSampler::DrawOne(Random* rng) const {
  if (cumulative_.empty()) return -1;
  const double x = rng->NextDouble() * cumulative_.back();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), x);
  const auto i = std::min<std::ptrdiff_t>(it - cumulative_.begin(),
                                          static_cast<std::ptrdiff_t>(cumulative_.size()) - 1);
  return static_cast<int32_t>(i);
}

void PreferenceSampler::Draw(int count, Random* rng, std::vector<int32_t>* out) const {
  const size_t first = out->size();
  const int want = std::min<int>(count, static_cast<int>(cumulative_.size()));
  // Rejection of repeats; bounded so that a degenerate weighting ends.
  for (int attempts = 0; attempts < 20 * want + 20 && static_cast<int>(out->size() - first) < want;
       ++attempts) {
    const int32_t i = DrawOne(rng);
    if (std::find(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(), i) == out->end()) {
      out->push_back(i);
    }
  }
}

}  // namespace spindle::replay
