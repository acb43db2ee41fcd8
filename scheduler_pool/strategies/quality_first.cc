#include "scheduler_pool/strategies/quality_first.h"

namespace spindle::pool {

int64_t QualityFirst::PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                                    std::vector<Choice>* out) {
  CellView* view = ctx.view;
  const int np = view->num_partitions();
  excluded_.assign(static_cast<size_t>(np), 0);
  for (int p = 0; p < np; ++p) {
    const auto& part = view->partition(p);
    if (part.nodes.empty() || (part.has_unfit && part.unfit.FitsIn(resource))) {
      excluded_[static_cast<size_t>(p)] = 1;
    }
  }
  // Average free score per partition (< 0: skip), kept current as this
  // call places tasks.
  averages_.assign(static_cast<size_t>(np), -1);
  for (int p = 0; p < np; ++p) {
    if (!excluded_[static_cast<size_t>(p)])
      averages_[static_cast<size_t>(p)] = view->AverageFreeScore(p);
  }
  int64_t placed = 0;
  while (placed < count) {
    int best = -1;
    double best_avg = 0;
    for (int p = 0; p < np; ++p) {
      const double avg = averages_[static_cast<size_t>(p)];
      if (avg >= 0 && (best < 0 || avg > best_avg)) {
        best = p;
        best_avg = avg;
      }
    }
    if (best < 0) break;
    bool done = false;
    for (int s = 0; s < samples_ && !done; ++s) {
      const NodeId id = view->SampleByScore(best, ctx.rng);
      if (!id.valid()) break;
      if (view->CanFit(id, resource)) {
        out->push_back(Choice{id, view->Claim(id, resource), Locality::kOffSwitch});
        done = true;
      }
    }
    if (!done && NextFitInPartition(view, best, resource, 1, out) == 1) done = true;
    if (done) {
      ++placed;
      averages_[static_cast<size_t>(best)] = view->AverageFreeScore(best);
    } else {
      averages_[static_cast<size_t>(best)] = -1;
    }
  }
  return placed;
}

int64_t QualityFirst::PlaceOffPreference(const Resource& resource, int64_t count,
                                         StrategyContext& ctx, std::vector<Choice>* out) {
  return NextFitFreshestFirst(resource, count, ctx, out);
}

double QualityFirst::Rank(const StrategyContext& ctx, NodeId node) const {
  const NodeState* n = ctx.view->Find(node);
  return n == nullptr ? 0 : n->score;
}

}  // namespace spindle::pool
