// QualityFirst (ParSync §5.2): choose the partition whose free nodes have
// the best average score, then a node in it by weighted sampling on score
// (a few draws; next-fit if none of them fits a larger ask); repeat per
// task, so the partition choice follows the view as it fills.
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

 private:
  const int samples_;
  std::vector<char> excluded_;    // partitions with no fit this call
  std::vector<double> averages_;  // their average free score
};

}  // namespace spindle::pool
