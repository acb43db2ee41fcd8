// LatencyFirst (ParSync §5.2): place in the freshest partitions first (the
// ones this scheduler synced last, where its commits are most likely to
// succeed), then in the least stale; next-fit within a partition.
//
// Thread-safety: one scheduler's.
#pragma once

#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

class LatencyFirst final : public PlacementStrategy {
 public:
  StrategyKind kind() const override { return StrategyKind::kLatencyFirst; }
  int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                        std::vector<Choice>* out) override;
  // Fresher partitions rank higher.
  double Rank(const StrategyContext& ctx, NodeId node) const override;
};

}  // namespace spindle::pool
