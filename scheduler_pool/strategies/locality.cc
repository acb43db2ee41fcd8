#include "scheduler_pool/strategies/locality.h"

namespace spindle::pool {

namespace {

// Places up to `count` tasks on the best-ranked candidates that fit.
template <typename Candidates>
int64_t PlaceOnCandidates(const Candidates& candidates, const Resource& r, int64_t count,
                          Locality locality, PlacementStrategy* strategy, StrategyContext& ctx,
                          std::vector<Choice>* out) {
  int64_t placed = 0;
  while (placed < count) {
    NodeId best;
    double best_rank = 0;
    for (NodeId id : candidates) {
      if (!ctx.view->CanFit(id, r)) continue;
      const double rank = strategy->Rank(ctx, id);
      if (!best.valid() || rank > best_rank) {
        best = id;
        best_rank = rank;
      }
    }
    if (!best.valid()) break;
    // Fill the chosen node while it fits.
    while (placed < count && ctx.view->CanFit(best, r)) {
      out->push_back(Choice{best, ctx.view->Claim(best, r), locality});
      ++placed;
    }
  }
  return placed;
}

}  // namespace

int64_t PlaceWithLocality(const Ask& ask, int64_t count, PlacementStrategy* strategy,
                          StrategyContext& ctx, std::vector<Choice>* out) {
  int64_t placed = 0;
  const Resource& r = ask.capability;
  if (!ask.nodes.empty()) {
    placed += PlaceOnCandidates(ask.nodes, r, count, Locality::kNodeLocal, strategy, ctx, out);
  }
  for (size_t i = 0; i < ask.racks.size() && placed < count; ++i) {
    placed += PlaceOnCandidates(ctx.view->NodesInRack(ask.racks[i]), r, count - placed,
                                Locality::kRackLocal, strategy, ctx, out);
  }
  const bool has_preferences = !ask.nodes.empty() || !ask.racks.empty();
  if (placed < count && (ask.relax_locality || !has_preferences)) {
    const size_t first = out->size();
    placed += strategy->PlaceAnywhere(r, count - placed, ctx, out);
    if (has_preferences) {
      // An off-switch choice may still land on a preferred node or rack.
      for (size_t i = first; i < out->size(); ++i) {
        Choice& c = (*out)[i];
        for (NodeId n : ask.nodes) {
          if (n == c.node) c.locality = Locality::kNodeLocal;
        }
        if (c.locality == Locality::kOffSwitch && !ask.racks.empty()) {
          const NodeState* s = ctx.view->Find(c.node);
          for (RackId rack : ask.racks) {
            if (s != nullptr && s->rack == rack) c.locality = Locality::kRackLocal;
          }
        }
      }
    }
  }
  return placed;
}

bool IsPreferred(const Ask& ask, Locality locality) {
  if (locality == Locality::kNodeLocal) return !ask.nodes.empty();
  if (locality == Locality::kRackLocal) return ask.nodes.empty() && !ask.racks.empty();
  return false;
}

}  // namespace spindle::pool

namespace spindle::pool {

const char* LocalityName(Locality locality) {
  switch (locality) {
    case Locality::kNodeLocal:
      return "node-local";
    case Locality::kRackLocal:
      return "rack-local";
    case Locality::kOffSwitch:
      return "off-switch";
  }
  return "unknown";
}

}  // namespace spindle::pool
