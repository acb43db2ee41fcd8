// CellView: one scheduler's local copy of the cell state (Omega's private
// copy, ParSync's "local state"), partition by partition, with what the
// strategies need to choose quickly:
//  - per partition: when it was last synced (staleness) and its version,
//  - a next-fit cursor and the last ask known not to fit since the sync,
//  - lazily, a Fenwick tree of free nodes' scores (quality-first sampling),
//  - a rack -> nodes index.
// The scheduler claims nodes in the view as it chooses them (so later
// choices see them taken), refreshes nodes after a conflict, and syncs
// partitions from the cell state on its schedule.
//
// Thread-safety: none; a view belongs to one scheduler.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "scheduler_pool/cell_state_client.h"
#include "scheduler_pool/fenwick_tree.h"
#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"

namespace spindle::pool {

class CellView {
 public:
  struct Partition {
    std::vector<NodeState> nodes;
    uint64_t version = 0;  // the master's version this copy reflects
    bool synced = false;   // ever synced
    TimePoint synced_at;
    int64_t syncs = 0;
    // Latency-first: where the next-fit scan resumes.
    uint32_t cursor = 0;
    // An ask that found no node here since the last sync (anything at least
    // as large cannot fit either).
    bool has_unfit = false;
    Resource unfit;
    // Quality-first index over free nodes (weight = score), valid only if
    // index_valid.
    bool index_valid = false;
    FenwickTree free_scores;
    int64_t free_count = 0;
  };

  // `min_unit`: a node counts as free for quality-first when this fits.
  CellView(int num_partitions, const Resource& min_unit);

  int num_partitions() const { return static_cast<int>(partitions_.size()); }
  Partition& partition(int p) { return partitions_[static_cast<size_t>(p)]; }
  const Partition& partition(int p) const { return partitions_[static_cast<size_t>(p)]; }
  // The node's state in this view, or nullptr if the view has not seen it.
  const NodeState* Find(NodeId id) const {
    if (!id.valid() || id.partition() >= partitions_.size()) return nullptr;
    const auto& nodes = partitions_[id.partition()].nodes;
    return id.slot() < nodes.size() ? &nodes[id.slot()] : nullptr;
  }
  bool CanFit(NodeId id, const Resource& r) const {
    const NodeState* n = Find(id);
    return n != nullptr && n->CanFit(r);
  }

  // Brings partition `p` up to date from `cell` (delta or full) at `now`.
  SyncInfo Sync(const CellStateClient& cell, int p, TimePoint now);
  // Claims `r` on a node of the view (which must CanFit it) and returns the
  // version the claim was made against (Claim::seen_version).
  uint64_t Claim(NodeId id, const Resource& r);
  // Undoes a Claim not sent to the cell (version included).
  void Unclaim(NodeId id, const Resource& r);
  // Overwrites a node with the master's state (after a conflict).
  void Refresh(NodeId id, const NodeState& state);

  // Nodes of a rack, as far as this view has seen them.
  const std::vector<NodeId>& NodesInRack(RackId rack);

  // Quality-first: builds the partition's index if needed.
  void EnsureIndex(int p);
  // Mean score of the partition's free nodes; < 0 if none (builds the index).
  double AverageFreeScore(int p);
  // A free node of partition `p` drawn with probability proportional to its
  // score, or an invalid id if none (builds the index).
  NodeId SampleByScore(int p, Random* rng);

  // Partitions freshest first; partitions synced at the same instant are
  // ordered starting from `rotation` (so schedulers that synced together
  // start in different places).
  void FreshnessOrder(int rotation, std::vector<int>* order) const;
  // The same order, brought up to date rather than sorted afresh: `order`
  // held FreshnessOrder(rotation) when it was last computed, and `synced`
  // lists every partition synced since (repeats allowed). Only those
  // partitions' keys changed, so the others are still in order: the synced
  // ones are sorted apart and merged in, O(partitions) where a sort is
  // O(partitions log partitions) comparisons. The result equals
  // FreshnessOrder(rotation) (the order is total: no ties).
  void AdvanceFreshnessOrder(int rotation, const std::vector<int>& synced, std::vector<int>* order);

  // Time since partition `p` was synced (a large value if never).
  Duration Staleness(int p, TimePoint now) const;
  // Mean staleness over partitions (ParSync's "AS").
  Duration AverageStaleness(TimePoint now) const;

  bool IsFree(const NodeState& n) const { return n.CanFit(min_unit_); }

  // An app's blacklist (YARN's): the nodes take nothing while hidden, so
  // every strategy passes them by. Hide and UnhideAll bracket one app's turn
  // with no sync or refresh in between; hiding changes no version. Unhiding
  // puts back the partitions' "unfit" notes as they were before hiding.
  void Hide(NodeId id);
  void UnhideAll();

 private:
  void UpdateIndex(Partition& part, uint32_t slot);

  std::vector<Partition> partitions_;
  Resource min_unit_;
  std::vector<std::vector<NodeId>> racks_;
  bool racks_dirty_ = true;
  std::vector<std::pair<NodeId, NodeStatus>> hidden_;  // and their real status
  struct UnfitNote {
    int partition;
    bool has_unfit;
    Resource unfit;
  };
  std::vector<UnfitNote> hidden_partitions_;  // before the first Hide in each
  std::vector<uint32_t> changed_;             // scratch for delta syncs
  std::vector<double> weights_;               // scratch for index builds
  std::vector<int> fresh_;                    // scratch for AdvanceFreshnessOrder
  std::vector<uint8_t> is_fresh_;             // ditto, one per partition
  static const std::vector<NodeId> kNoNodes;
};

}  // namespace spindle::pool
