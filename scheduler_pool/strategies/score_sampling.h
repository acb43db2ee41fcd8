// ScoreSampling: the slot picker of the ParSync paper's simulator (§4.3,
// assumption [A1]; also what its §5.2 DiffSyn/SameSyn comparison uses):
// every free node of the view, in any partition, is drawn with probability
// proportional to its score. No partition is favoured as such; fresher
// partitions win draws only because the view shows more of their nodes
// free (a stale partition keeps the claims this scheduler made in it and
// misses the releases). It is the picker Figures 2 and 3 are about, not
// one of ParSync's strategies: latency-first skips the score and
// quality-first first narrows the draw to the partition with the best
// average score.
//
// Thread-safety: one scheduler's.
#pragma once

#include <vector>

#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

class ScoreSampling final : public PlacementStrategy {
 public:
  StrategyKind kind() const override { return StrategyKind::kScoreSampling; }
  int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                        std::vector<Choice>* out) override;
  // Higher scores rank higher.
  double Rank(const StrategyContext& ctx, NodeId node) const override;

 private:
  std::vector<double> weights_;  // per partition: its free nodes' total score
};

}  // namespace spindle::pool
