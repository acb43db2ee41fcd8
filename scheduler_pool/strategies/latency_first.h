// LatencyFirst (ParSync §5.2): place in the freshest partitions first (the
// ones this scheduler synced last, where its commits are most likely to
// succeed), then in the least stale; next-fit within a partition. With
// PreferenceScope::kFreshest an ask's preferred nodes are looked for only
// in the freshest partitions that have room (see locality.h), as the
// paper's latency-first; with kAnywhere in every partition first (YARN).
//
// Thread-safety: one scheduler's.
#pragma once

#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

class LatencyFirst final : public PlacementStrategy {
 public:
  explicit LatencyFirst(PreferenceScope preferences = PreferenceScope::kAnywhere)
      : preferences_(preferences) {}

  StrategyKind kind() const override { return StrategyKind::kLatencyFirst; }
  int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                        std::vector<Choice>* out) override;
  // Fresher partitions rank higher.
  double Rank(const StrategyContext& ctx, NodeId node) const override;
  bool FreshnessBeforePreference() const override {
    return preferences_ == PreferenceScope::kFreshest;
  }

 private:
  const PreferenceScope preferences_;
};

}  // namespace spindle::pool
