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

// Marks choices made off-preference that still landed on a preferred node
// or rack.
void MarkPreferred(const Ask& ask, const CellView& view, std::vector<Choice>* out, size_t first) {
  for (size_t i = first; i < out->size(); ++i) {
    Choice& c = (*out)[i];
    for (NodeId n : ask.nodes) {
      if (n == c.node) c.locality = Locality::kNodeLocal;
    }
    if (c.locality == Locality::kOffSwitch && !ask.racks.empty()) {
      const NodeState* s = view.Find(c.node);
      for (RackId rack : ask.racks) {
        if (s != nullptr && s->rack == rack) c.locality = Locality::kRackLocal;
      }
    }
  }
}

bool SyncedTogether(const CellView& view, int a, int b) {
  const CellView::Partition& pa = view.partition(a);
  const CellView::Partition& pb = view.partition(b);
  return pa.synced == pb.synced && (!pa.synced || pa.synced_at == pb.synced_at);
}

// The ParSync paper's latency-first for a relaxed ask with preferences:
// partitions in freshness order, those synced at the same instant taken
// together (one slice of a ParSync round; the whole view under StateSync
// or monolithic, where this is the same as YARN's order); within them the
// preferred nodes, then the preferred racks' nodes, then any node (next-fit).
int64_t PlaceFreshestFirst(const Ask& ask, int64_t count, PlacementStrategy* strategy,
                           StrategyContext& ctx, std::vector<Choice>* out) {
  const std::vector<int>& order = *ctx.freshness_order;
  CellView& view = *ctx.view;
  const Resource& r = ask.capability;
  std::vector<char> in_slice(static_cast<size_t>(view.num_partitions()), 0);
  std::vector<NodeId> candidates;
  int64_t placed = 0;
  for (size_t i = 0; i < order.size() && placed < count;) {
    size_t end = i + 1;
    while (end < order.size() && SyncedTogether(view, order[i], order[end])) ++end;
    for (size_t k = i; k < end; ++k) in_slice[static_cast<size_t>(order[k])] = 1;
    const auto in = [&](NodeId n) {
      return n.valid() && n.partition() < in_slice.size() && in_slice[n.partition()] != 0;
    };
    candidates.clear();
    for (NodeId n : ask.nodes) {
      if (in(n)) candidates.push_back(n);
    }
    placed +=
        PlaceOnCandidates(candidates, r, count - placed, Locality::kNodeLocal, strategy, ctx, out);
    for (size_t k = 0; k < ask.racks.size() && placed < count; ++k) {
      candidates.clear();
      for (NodeId n : view.NodesInRack(ask.racks[k])) {
        if (in(n)) candidates.push_back(n);
      }
      placed += PlaceOnCandidates(candidates, r, count - placed, Locality::kRackLocal, strategy,
                                  ctx, out);
    }
    const size_t first = out->size();
    for (size_t k = i; k < end && placed < count; ++k) {
      placed += NextFitInPartition(&view, order[k], r, count - placed, out);
    }
    MarkPreferred(ask, view, out, first);
    for (size_t k = i; k < end; ++k) in_slice[static_cast<size_t>(order[k])] = 0;
    i = end;
  }
  return placed;
}

}  // namespace

int64_t PlaceWithLocality(const Ask& ask, int64_t count, PlacementStrategy* strategy,
                          StrategyContext& ctx, std::vector<Choice>* out) {
  const bool has_preferences = !ask.nodes.empty() || !ask.racks.empty();
  if (has_preferences && ask.relax_locality && strategy->FreshnessBeforePreference()) {
    return PlaceFreshestFirst(ask, count, strategy, ctx, out);
  }
  int64_t placed = 0;
  const Resource& r = ask.capability;
  if (!ask.nodes.empty()) {
    placed += PlaceOnCandidates(ask.nodes, r, count, Locality::kNodeLocal, strategy, ctx, out);
  }
  for (size_t i = 0; i < ask.racks.size() && placed < count; ++i) {
    placed += PlaceOnCandidates(ctx.view->NodesInRack(ask.racks[i]), r, count - placed,
                                Locality::kRackLocal, strategy, ctx, out);
  }
  if (placed < count && !has_preferences) {
    placed += strategy->PlaceAnywhere(r, count - placed, ctx, out);
  } else if (placed < count && ask.relax_locality) {
    // An off-preference choice may still land on a preferred node or rack.
    const size_t first = out->size();
    placed += strategy->PlaceOffPreference(r, count - placed, ctx, out);
    MarkPreferred(ask, *ctx.view, out, first);
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
