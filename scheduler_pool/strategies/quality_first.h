// QualityFirst (ParSync §5.2): choose the partition whose free nodes have
// the best average score, then a node in it by weighted sampling on score
// (a few draws; next-fit if none of them fits a larger ask); repeat per
// task, so the partition choice follows the view as it fills.
//
// An ask that names preferred nodes (YARN locality; the Wind Tunnel's
// "list of preferred slots computed at runtime", §6) has those as its
// quality: they are looked for in every partition first (locality.h,
// ranked by score), and once none is free the score means nothing to it, so
// its remaining tasks go where latency-first would put them
// (PlaceOffPreference) rather than onto the high-score nodes other asks
// prefer.
//
// Thread-safety: one scheduler's.
#pragma once

#include <vector>

#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

class QualityFirst final : public PlacementStrategy {
 public:
  // Draws per task before falling back to next-fit. Default: 8.
  explicit QualityFirst(int samples_per_task = 8) : samples_(samples_per_task) {}

  StrategyKind kind() const override { return StrategyKind::kQualityFirst; }
  int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                        std::vector<Choice>* out) override;
  // Higher scores rank higher.
  double Rank(const StrategyContext& ctx, NodeId node) const override;
  // Next-fit, freshest partitions first.
  int64_t PlaceOffPreference(const Resource& resource, int64_t count, StrategyContext& ctx,
                             std::vector<Choice>* out) override;

 private:
  const int samples_;
  std::vector<char> excluded_;    // partitions with no fit this call
  std::vector<double> averages_;  // their average free score
};

}  // namespace spindle::pool
