#include "scheduler_pool/cell_view.h"

#include <glog/logging.h>

#include <algorithm>
#include <cstddef>

namespace spindle::pool {

const std::vector<NodeId> CellView::kNoNodes;

CellView::CellView(int num_partitions, const Resource& min_unit)
    : partitions_(static_cast<size_t>(num_partitions)), min_unit_(min_unit) {}

SyncInfo CellView::Sync(const CellStateClient& cell, int p, TimePoint now) {
  Partition& part = partition(p);
  const size_t before = part.nodes.size();
  changed_.clear();
  const SyncInfo info = cell.SyncPartition(p, part.synced, part.version, &part.nodes, &changed_);
  part.version = info.version;
  part.synced = true;
  part.synced_at = now;
  ++part.syncs;
  if (part.has_unfit) {
    // The cached misfit still holds unless some node gained room for it.
    bool may_fit = info.full;
    for (size_t i = 0; i < changed_.size() && !may_fit; ++i) {
      may_fit = part.nodes[changed_[i]].CanFit(part.unfit);
    }
    part.has_unfit = !may_fit;
  }
  if (part.nodes.size() != before) racks_dirty_ = true;
  // Many changes: rebuilding the index on first use beats updating it.
  if (info.full || part.nodes.size() != before || changed_.size() * 8 > part.nodes.size()) {
    part.index_valid = false;
  } else if (part.index_valid) {
    for (uint32_t slot : changed_) UpdateIndex(part, slot);
  }
  if (part.cursor >= part.nodes.size()) part.cursor = 0;
  return info;
}

uint64_t CellView::Claim(NodeId id, const Resource& r) {
  Partition& part = partition(static_cast<int>(id.partition()));
  NodeState& n = part.nodes[id.slot()];
  DCHECK(n.CanFit(r));
  const uint64_t seen = n.version;
  n.allocated += r;
  ++n.version;
  if (part.index_valid) UpdateIndex(part, id.slot());
  return seen;
}

void CellView::Unclaim(NodeId id, const Resource& r) {
  Partition& part = partition(static_cast<int>(id.partition()));
  NodeState& n = part.nodes[id.slot()];
  n.allocated -= r;
  --n.version;
  if (part.index_valid) UpdateIndex(part, id.slot());
}

void CellView::Hide(NodeId id) {
  if (Find(id) == nullptr) return;
  Partition& part = partition(static_cast<int>(id.partition()));
  NodeState& n = part.nodes[id.slot()];
  if (n.status != NodeStatus::kRunning) return;  // takes nothing anyway (or hidden already)
  const int p = static_cast<int>(id.partition());
  if (std::none_of(hidden_partitions_.begin(), hidden_partitions_.end(),
                   [p](const UnfitNote& note) { return note.partition == p; })) {
    hidden_partitions_.push_back(UnfitNote{p, part.has_unfit, part.unfit});
  }
  hidden_.emplace_back(id, n.status);
  n.status = NodeStatus::kDecommissioning;
  if (part.index_valid) UpdateIndex(part, id.slot());
}

void CellView::UnhideAll() {
  for (const auto& [id, status] : hidden_) {
    Partition& part = partition(static_cast<int>(id.partition()));
    part.nodes[id.slot()].status = status;
    if (part.index_valid) UpdateIndex(part, id.slot());
  }
  hidden_.clear();
  // A partition that seemed full only because of hidden nodes is not.
  for (const UnfitNote& note : hidden_partitions_) {
    Partition& part = partition(note.partition);
    part.has_unfit = note.has_unfit;
    part.unfit = note.unfit;
  }
  hidden_partitions_.clear();
}

void CellView::Refresh(NodeId id, const NodeState& state) {
  Partition& part = partition(static_cast<int>(id.partition()));
  if (id.slot() >= part.nodes.size()) return;  // not seen yet: the next sync brings it
  part.nodes[id.slot()] = state;
  // As in Sync: the cached misfit holds unless this node has room for it. A
  // refreshed node need not change at the master again (a claim the
  // cell-state service refused never reached it), so no later sync would
  // clear the note.
  if (part.has_unfit && state.CanFit(part.unfit)) part.has_unfit = false;
  if (part.index_valid) UpdateIndex(part, id.slot());
}

void CellView::UpdateIndex(Partition& part, uint32_t slot) {
  const NodeState& n = part.nodes[slot];
  const bool free = IsFree(n);
  const bool was_free = part.free_scores.weight(slot) > 0;
  part.free_scores.Set(slot, free ? n.score : 0.0);
  part.free_count += static_cast<int64_t>(free) - static_cast<int64_t>(was_free);
}

void CellView::EnsureIndex(int p) {
  Partition& part = partition(p);
  if (part.index_valid) return;
  weights_.resize(part.nodes.size());
  part.free_count = 0;
  for (size_t i = 0; i < part.nodes.size(); ++i) {
    const bool free = IsFree(part.nodes[i]);
    weights_[i] = free ? part.nodes[i].score : 0.0;
    part.free_count += free;
  }
  part.free_scores.Build(weights_);
  part.index_valid = true;
}

double CellView::AverageFreeScore(int p) {
  EnsureIndex(p);
  const Partition& part = partition(p);
  if (part.free_count <= 0) return -1;
  return part.free_scores.total() / static_cast<double>(part.free_count);
}

NodeId CellView::SampleByScore(int p, Random* rng) {
  EnsureIndex(p);
  const Partition& part = partition(p);
  if (part.free_count <= 0) return NodeId();
  const size_t slot = part.free_scores.Find(rng->NextDouble());
  if (slot >= part.nodes.size()) return NodeId();
  return NodeId(static_cast<uint32_t>(p), static_cast<uint32_t>(slot));
}

const std::vector<NodeId>& CellView::NodesInRack(RackId rack) {
  if (racks_dirty_) {
    for (auto& r : racks_) r.clear();
    for (size_t p = 0; p < partitions_.size(); ++p) {
      const auto& nodes = partitions_[p].nodes;
      for (size_t s = 0; s < nodes.size(); ++s) {
        const RackId r = nodes[s].rack;
        if (!r.valid()) continue;
        if (r.value() >= racks_.size()) racks_.resize(r.value() + 1);
        racks_[r.value()].emplace_back(static_cast<uint32_t>(p), static_cast<uint32_t>(s));
      }
    }
    racks_dirty_ = false;
  }
  if (!rack.valid() || rack.value() >= racks_.size()) return kNoNodes;
  return racks_[rack.value()];
}

namespace {

// FreshnessOrder's order: synced before never synced, later syncs first,
// then the partitions' places counted from the rotation. A strict total
// order (two partitions never compare equal).
class FresherFirst {
 public:
  FresherFirst(const CellView& view, int rotation)
      : view_(view), np_(view.num_partitions()), rot_(((rotation % np_) + np_) % np_) {}
  bool operator()(int a, int b) const {
    const CellView::Partition& pa = view_.partition(a);
    const CellView::Partition& pb = view_.partition(b);
    if (pa.synced != pb.synced) return pa.synced;
    if (pa.synced && pa.synced_at != pb.synced_at) return pa.synced_at > pb.synced_at;
    return (a - rot_ + np_) % np_ < (b - rot_ + np_) % np_;
  }

 private:
  const CellView& view_;
  const int np_;
  const int rot_;
};

}  // namespace

void CellView::FreshnessOrder(int rotation, std::vector<int>* order) const {
  const int np = num_partitions();
  order->resize(static_cast<size_t>(np));
  for (int p = 0; p < np; ++p) (*order)[static_cast<size_t>(p)] = p;
  std::sort(order->begin(), order->end(), FresherFirst(*this, rotation));
}

void CellView::AdvanceFreshnessOrder(int rotation, const std::vector<int>& synced,
                                     std::vector<int>* order) {
  const size_t np = partitions_.size();
  CHECK_EQ(order->size(), np) << "not a FreshnessOrder of this view";
  const FresherFirst fresher(*this, rotation);
  is_fresh_.assign(np, 0);
  fresh_.clear();
  for (int p : synced) {
    if (is_fresh_[static_cast<size_t>(p)] == 0) fresh_.push_back(p);
    is_fresh_[static_cast<size_t>(p)] = 1;
  }
  std::sort(fresh_.begin(), fresh_.end(), fresher);
  // The others keep their order at the front; then merge from the back,
  // where the synced ones' places are free.
  auto kept_end = std::remove_if(order->begin(), order->end(),
                                 [this](int p) { return is_fresh_[static_cast<size_t>(p)] != 0; });
  auto kept = kept_end - order->begin();
  auto f = static_cast<std::ptrdiff_t>(fresh_.size());
  auto out = static_cast<std::ptrdiff_t>(np);
  while (f > 0) {
    int& slot = (*order)[static_cast<size_t>(--out)];
    if (kept > 0 &&
        fresher(fresh_[static_cast<size_t>(f - 1)], (*order)[static_cast<size_t>(kept - 1)])) {
      slot = (*order)[static_cast<size_t>(--kept)];
    } else {
      slot = fresh_[static_cast<size_t>(--f)];
    }
  }
  DCHECK(std::is_sorted(order->begin(), order->end(), fresher))
      << "the order was not FreshnessOrder(rotation) before these syncs";
}

Duration CellView::Staleness(int p, TimePoint now) const {
  const Partition& part = partition(p);
  if (!part.synced) return std::chrono::hours(24);
  return now - part.synced_at;
}

Duration CellView::AverageStaleness(TimePoint now) const {
  if (partitions_.empty()) return Duration(0);
  Duration sum(0);
  for (int p = 0; p < num_partitions(); ++p) sum += Staleness(p, now);
  return sum / num_partitions();
}

}  // namespace spindle::pool
