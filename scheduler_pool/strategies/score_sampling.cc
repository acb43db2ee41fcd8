#include "scheduler_pool/strategies/score_sampling.h"

namespace spindle::pool {

int64_t ScoreSampling::PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                                     std::vector<Choice>* out) {
  CellView* view = ctx.view;
  const int np = view->num_partitions();
  weights_.assign(static_cast<size_t>(np), 0);
  const auto weigh = [&](int p) {
    const CellView::Partition& part = view->partition(p);
    if (part.nodes.empty() || (part.has_unfit && part.unfit.FitsIn(resource))) return 0.0;
    view->EnsureIndex(p);
    return view->partition(p).free_scores.total();
  };
  for (int p = 0; p < np; ++p) weights_[static_cast<size_t>(p)] = weigh(p);
  int64_t placed = 0;
  while (placed < count) {
    // A partition by its share of the free score, then a node in it by
    // score: together, one draw by score over every free node of the view.
    double total = 0;
    for (double w : weights_) total += w;
    if (total <= 0) break;
    double u = ctx.rng->NextDouble() * total;
    int chosen = -1;
    for (int p = 0; p < np; ++p) {
      const double w = weights_[static_cast<size_t>(p)];
      if (w <= 0) continue;
      chosen = p;  // the last with weight, should rounding run past the end
      if (u < w) break;
      u -= w;
    }
    const NodeId id = view->SampleByScore(chosen, ctx.rng);
    bool done = false;
    if (id.valid() && view->CanFit(id, resource)) {
      out->push_back(Choice{id, view->Claim(id, resource), Locality::kOffSwitch});
      done = true;
    } else {
      // A free node too small for a larger ask: take the next that fits.
      done = NextFitInPartition(view, chosen, resource, 1, out) == 1;
    }
    placed += done;
    weights_[static_cast<size_t>(chosen)] = done ? weigh(chosen) : 0.0;
  }
  return placed;
}

double ScoreSampling::Rank(const StrategyContext& ctx, NodeId node) const {
  const NodeState* n = ctx.view->Find(node);
  return n == nullptr ? 0 : n->score;
}

}  // namespace spindle::pool
