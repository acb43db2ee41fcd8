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
  int best = -1;
  double runner_up = -1;  // the best average of the other partitions
  while (placed < count) {
    // The partition with the best average: scanned again only once the
    // chosen one falls below the runner-up (its placements lower it
    // slowly), not for every task.
    if (best < 0 || averages_[static_cast<size_t>(best)] < runner_up) {
      best = -1;
      runner_up = -1;
      for (int p = 0; p < np; ++p) {
        const double avg = averages_[static_cast<size_t>(p)];
        if (avg < 0) continue;
        if (best < 0 || avg > averages_[static_cast<size_t>(best)]) {
          if (best >= 0) runner_up = averages_[static_cast<size_t>(best)];
          best = p;
        } else if (avg > runner_up) {
          runner_up = avg;
        }
      }
      if (best < 0) break;
    }
    int64_t got = 0;
    for (int s = 0; s < samples_ && got == 0; ++s) {
      const NodeId id = view->SampleByScore(best, ctx.rng);
      if (!id.valid()) break;
      // Fill the drawn node while it fits, as locality fills a preferred
      // node: one draw (and one index walk) per node, not per task.
      while (placed + got < count && view->CanFit(id, resource)) {
        out->push_back(Choice{id, view->Claim(id, resource), Locality::kOffSwitch});
        ++got;
      }
    }
    if (got == 0) got = NextFitInPartition(view, best, resource, 1, out);
    if (got > 0) {
      placed += got;
      averages_[static_cast<size_t>(best)] = view->AverageFreeScore(best);
    } else {
      averages_[static_cast<size_t>(best)] = -1;
      best = -1;
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
