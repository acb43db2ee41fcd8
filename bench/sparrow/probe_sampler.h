// ProbeSampler: picks the nodes a scheduler probes — distinct nodes drawn
// uniformly from the whole cluster or from a task's preferred nodes (§3.3).
// The probe counts of the paper: ceil(d * m) for a job, ceil(d) for a task,
// never more than there are candidates.
//
// Thread-safety: none; one policy owns one.
#pragma once

#include <cstdint>
#include <vector>

#include "base/random.h"

namespace spindle::bench::sparrow {

// Probes for `count` tasks at ratio d: ceil(d * count) (a tiny epsilon keeps
// 2.0 * 10 from rounding up to 21).
int ProbeCount(double d, int count);

class ProbeSampler {
 public:
  // `count` distinct nodes of [0, nodes), uniformly, in random order
  // (count is capped at nodes).
  std::vector<int> FromAll(int count, int nodes, Random& rng);
  // `count` distinct entries of `candidates` (capped at its size), uniformly.
  static std::vector<int> FromSet(int count, const std::vector<int>& candidates, Random& rng);

 private:
  // stamp_[n] == round_: node n is already in the current sample.
  std::vector<uint32_t> stamp_;
  uint32_t round_ = 0;
};

}  // namespace spindle::bench::sparrow
