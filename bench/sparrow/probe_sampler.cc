#include "bench/sparrow/probe_sampler.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace spindle::bench::sparrow {

int ProbeCount(double d, int count) { return static_cast<int>(std::ceil(d * count - 1e-9)); }

std::vector<int> ProbeSampler::FromAll(int count, int nodes, Random& rng) {
  count = std::min(count, nodes);
  std::vector<int> out;
  out.reserve(static_cast<size_t>(count));
  if (count * 2 > nodes) {
    // Dense: a partial Fisher-Yates shuffle of every node.
    std::vector<int> all(static_cast<size_t>(nodes));
    for (int i = 0; i < nodes; ++i) all[static_cast<size_t>(i)] = i;
    for (int i = 0; i < count; ++i) {
      const auto j = static_cast<size_t>(i) + rng.Uniform(static_cast<uint64_t>(nodes - i));
      std::swap(all[static_cast<size_t>(i)], all[j]);
      out.push_back(all[static_cast<size_t>(i)]);
    }
    return out;
  }
  // Sparse: rejection, with a stamp per node instead of a search.
  if (stamp_.size() != static_cast<size_t>(nodes)) stamp_.assign(static_cast<size_t>(nodes), 0);
  if (++round_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    round_ = 1;
  }
  while (static_cast<int>(out.size()) < count) {
    const auto n = static_cast<int>(rng.Uniform(static_cast<uint64_t>(nodes)));
    if (stamp_[static_cast<size_t>(n)] == round_) continue;
    stamp_[static_cast<size_t>(n)] = round_;
    out.push_back(n);
  }
  return out;
}

std::vector<int> ProbeSampler::FromSet(int count, const std::vector<int>& candidates, Random& rng) {
  std::vector<int> pool = candidates;
  const int n = static_cast<int>(pool.size());
  count = std::min(count, n);
  for (int i = 0; i < count; ++i) {
    const auto j = static_cast<size_t>(i) + rng.Uniform(static_cast<uint64_t>(n - i));
    std::swap(pool[static_cast<size_t>(i)], pool[j]);
  }
  pool.resize(static_cast<size_t>(count));
  return pool;
}

}  // namespace spindle::bench::sparrow
