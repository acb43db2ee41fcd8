// Locality (YARN's node -> rack -> off-switch): places up to `count` tasks
// of an ask on its preferred nodes first, then on nodes of its preferred
// racks, then (if the ask relaxes locality, or has no preferences) anywhere
// through the strategy (PlaceOffPreference, or PlaceAnywhere for an ask
// with no preferences). Among preferred candidates the strategy's Rank
// decides. Each Choice says which level it was placed at.
//
// A strategy that puts freshness before preference (the ParSync paper's
// latency-first, PlacementStrategy::FreshnessBeforePreference) places a
// relaxed ask partition slice by slice instead, freshest first (partitions
// synced at the same instant form one slice): the preferred nodes, racks,
// then any node of a slice, before the next slice. Strict asks
// (relax_locality false) keep the order above.
#pragma once

#include <vector>

#include "scheduler_pool/ask.h"
#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

int64_t PlaceWithLocality(const Ask& ask, int64_t count, PlacementStrategy* strategy,
                          StrategyContext& ctx, std::vector<Choice>* out);

// Whether a placement at `locality` for `ask` counts as a preferred slot
// (ParSync's quality): node-local, or rack-local when the ask named only
// racks. False for asks with no preferences.
bool IsPreferred(const Ask& ask, Locality locality);

}  // namespace spindle::pool
