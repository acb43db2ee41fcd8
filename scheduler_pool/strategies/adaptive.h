// Adaptive (ParSync §5.2): quality-first while the exponential moving
// average of scheduling delay stays under tau, latency-first above it.
//
// Thread-safety: one scheduler's.
#pragma once

#include "scheduler_pool/strategies/latency_first.h"
#include "scheduler_pool/strategies/quality_first.h"

namespace spindle::pool {

class Adaptive final : public PlacementStrategy {
 public:
  // `alpha`: weight of each new delay in the EMA, in (0, 1].
  // `preferences`: latency-first's (see LatencyFirst).
  Adaptive(Duration tau, double alpha, PreferenceScope preferences = PreferenceScope::kAnywhere)
      : tau_(tau), alpha_(alpha), latency_(preferences) {}

  StrategyKind kind() const override { return StrategyKind::kAdaptive; }
  StrategyKind active() const override {
    return UseQuality() ? StrategyKind::kQualityFirst : StrategyKind::kLatencyFirst;
  }
  int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                        std::vector<Choice>* out) override {
    return UseQuality() ? quality_.PlaceAnywhere(resource, count, ctx, out)
                        : latency_.PlaceAnywhere(resource, count, ctx, out);
  }
  double Rank(const StrategyContext& ctx, NodeId node) const override {
    return UseQuality() ? quality_.Rank(ctx, node) : latency_.Rank(ctx, node);
  }
  int64_t PlaceOffPreference(const Resource& resource, int64_t count, StrategyContext& ctx,
                             std::vector<Choice>* out) override {
    return UseQuality() ? quality_.PlaceOffPreference(resource, count, ctx, out)
                        : latency_.PlaceOffPreference(resource, count, ctx, out);
  }
  bool FreshnessBeforePreference() const override {
    return !UseQuality() && latency_.FreshnessBeforePreference();
  }
  void ObserveDelay(Duration delay) override {
    const double d = static_cast<double>(delay.count());
    ema_ns_ = primed_ ? alpha_ * d + (1 - alpha_) * ema_ns_ : d;
    primed_ = true;
  }
  Duration ema() const { return Duration(static_cast<int64_t>(ema_ns_)); }

 private:
  bool UseQuality() const { return ema_ns_ < static_cast<double>(tau_.count()); }

  const Duration tau_;
  const double alpha_;
  double ema_ns_ = 0;
  bool primed_ = false;
  LatencyFirst latency_;
  QualityFirst quality_;
};

}  // namespace spindle::pool
