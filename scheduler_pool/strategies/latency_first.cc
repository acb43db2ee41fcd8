#include "scheduler_pool/strategies/latency_first.h"

namespace spindle::pool {

int64_t LatencyFirst::PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                                    std::vector<Choice>* out) {
  return NextFitFreshestFirst(resource, count, ctx, out);
}

double LatencyFirst::Rank(const StrategyContext& ctx, NodeId node) const {
  return -static_cast<double>(
      ctx.view->Staleness(static_cast<int>(node.partition()), ctx.now).count());
}

}  // namespace spindle::pool
