// PlacementStrategy: *where* a task goes, given one scheduler's local view
// (ParSync §5.2). Strategies are pure over the view plus an injected Random:
// they claim the nodes they choose in the view and return the choices; the
// scheduler turns them into a transaction.
//
// Two entry points:
//  - PlaceAnywhere: up to `count` tasks of one size on any node that fits.
//  - Rank: how much the strategy likes a node, to choose among the nodes a
//    task prefers (locality; see locality.h). Higher is better.
// Sparrow's batch sampling (probe d*m nodes, take the m least loaded) is
// another PlaceAnywhere and plugs in the same way. Its late binding needs
// what this view lacks (per-node queues of reservations, a getTask() back to
// the scheduler); bench/sparrow/ models the whole of it on a virtual clock.
//
// Thread-safety: one scheduler's.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/cell_view.h"

namespace spindle::pool {

// kScoreSampling is the paper's simulator picker (score_sampling.h), for
// its Figures 2 and 3; the other three are ParSync's strategies.
enum class StrategyKind : uint8_t { kLatencyFirst, kQualityFirst, kAdaptive, kScoreSampling };
const char* StrategyKindName(StrategyKind kind);

// How far latency-first looks for an ask's preferred nodes (YARN locality,
// the wind tunnel's preferred slots).
enum class PreferenceScope : uint8_t {
  // Every partition of the view, freshest first, before any other node:
  // YARN's node -> rack -> off-switch across the whole cell.
  kAnywhere,
  // Only the freshest partitions with room: a relaxed ask fills them
  // (preferred nodes there first) before it looks at staler ones. The
  // ParSync paper's latency-first (§5.2, §6.2): it "first pick[s] slots
  // from its freshest partitions", and only quality-first "checks all
  // partitions to find preferred slots".
  kFreshest,
};

struct Choice {
  NodeId node;
  uint64_t seen_version = 0;
  Locality locality = Locality::kOffSwitch;
};

struct StrategyContext {
  CellView* view = nullptr;
  Random* rng = nullptr;
  TimePoint now;
  // Partitions, freshest first (ties broken per scheduler, so schedulers
  // that synced at the same moment start in different places).
  const std::vector<int>* freshness_order = nullptr;
};

class PlacementStrategy {
 public:
  virtual ~PlacementStrategy() = default;
  virtual StrategyKind kind() const = 0;
  // The strategy deciding now (adaptive: the one it switched to).
  virtual StrategyKind active() const { return kind(); }
  // Chooses nodes for up to `count` tasks of `resource`, claiming each in
  // ctx.view; appends to `out`, returns how many.
  virtual int64_t PlaceAnywhere(const Resource& resource, int64_t count, StrategyContext& ctx,
                                std::vector<Choice>* out) = 0;
  virtual double Rank(const StrategyContext& ctx, NodeId node) const = 0;
  // Where the tasks of an ask that named preferred nodes or racks go once
  // none of those is free in the view. The node's score is not such a
  // task's quality (its preferred slots are), so by default: what
  // PlaceAnywhere would choose.
  virtual int64_t PlaceOffPreference(const Resource& resource, int64_t count, StrategyContext& ctx,
                                     std::vector<Choice>* out) {
    return PlaceAnywhere(resource, count, ctx, out);
  }
  // Whether the freshness of a partition comes before an ask's preferred
  // nodes (ParSync's latency-first): preferred nodes are then taken only in
  // the freshest partitions that still have room, and a relaxed ask fills
  // those partitions before it looks at staler ones (see locality.h).
  virtual bool FreshnessBeforePreference() const { return false; }
  // One committed task's scheduling delay (ask to commit).
  virtual void ObserveDelay(Duration delay) {}
};

// Next-fit within one partition, from its cursor: up to `count` tasks,
// filling a node before moving on. Records the ask as unfit for the
// partition if no node takes it. Shared by the strategies.
int64_t NextFitInPartition(CellView* view, int p, const Resource& r, int64_t count,
                           std::vector<Choice>* out);
// Next-fit over the partitions of ctx.freshness_order, freshest first:
// latency-first's choice of any node.
int64_t NextFitFreshestFirst(const Resource& r, int64_t count, StrategyContext& ctx,
                             std::vector<Choice>* out);

}  // namespace spindle::pool
