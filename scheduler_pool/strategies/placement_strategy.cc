#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

const char* StrategyKindName(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::kLatencyFirst:
      return "latency-first";
    case StrategyKind::kQualityFirst:
      return "quality-first";
    case StrategyKind::kAdaptive:
      return "adaptive";
    case StrategyKind::kScoreSampling:
      return "score-sampling";
  }
  return "unknown";
}

int64_t NextFitInPartition(CellView* view, int p, const Resource& r, int64_t count,
                           std::vector<Choice>* out) {
  CellView::Partition& part = view->partition(p);
  const auto n = static_cast<uint32_t>(part.nodes.size());
  if (n == 0 || count <= 0) return 0;
  if (part.has_unfit && part.unfit.FitsIn(r)) return 0;
  int64_t placed = 0;
  uint32_t idx = part.cursor < n ? part.cursor : 0;
  uint32_t scanned = 0;
  while (placed < count && scanned < n) {
    NodeState& node = part.nodes[idx];
    if (node.CanFit(r)) {
      const NodeId id(static_cast<uint32_t>(p), idx);
      out->push_back(Choice{id, view->Claim(id, r), Locality::kOffSwitch});
      ++placed;
      continue;  // the same node may take another
    }
    ++scanned;
    if (++idx == n) idx = 0;
  }
  part.cursor = idx;
  if (placed < count) {
    part.has_unfit = true;
    part.unfit = r;
  }
  return placed;
}

int64_t NextFitFreshestFirst(const Resource& r, int64_t count, StrategyContext& ctx,
                             std::vector<Choice>* out) {
  int64_t placed = 0;
  for (int p : *ctx.freshness_order) {
    if (placed >= count) break;
    placed += NextFitInPartition(ctx.view, p, r, count - placed, out);
  }
  return placed;
}

}  // namespace spindle::pool
