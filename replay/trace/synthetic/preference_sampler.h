// PreferenceSampler: draws a job's preferred nodes. Jobs want good slots,
// so node i is drawn with weight exp(tilt * (score_i - mean)): with scores
// ~ Normal(mean, V) the preferred nodes' scores are ~ Normal(mean +
// tilt * V, V), and the larger V the more jobs crowd onto the same
// high-score nodes (ParSync §4.2 [A1]: contention for high-quality slots
// grows with the variance of the scores). tilt = 0 draws uniformly.
//
// Shared by the wind tunnel (bench/windtunnel/workload) and the ParSync
// phases reader (parsync_phases_reader).
//
// Thread-safety: const after construction; Draw() takes the caller's Random.
#pragma once

#include <cstdint>
#include <vector>

#include "base/random.h"

namespace spindle::replay {

class PreferenceSampler {
 public:
  PreferenceSampler(const std::vector<double>& scores, double mean, double tilt);

  // Appends up to `count` distinct node indices to `out` (fewer only if the
  // cluster is smaller or the weights are extremely concentrated).
  void Draw(int count, Random* rng, std::vector<int32_t>* out) const;
  // One node index; -1 if the cluster is empty.
  int32_t DrawOne(Random* rng) const;

 private:
  std::vector<double> cumulative_;  // prefix sums of the weights
};

}  // namespace spindle::replay
