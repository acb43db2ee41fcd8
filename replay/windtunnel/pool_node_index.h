// PoolNodeIndex: the position of each pool node in the tunnel's node list.
// Pool node ids are (partition, slot) pairs handed out densely per
// partition, so the index is a table per partition rather than a hash map:
// a lookup is two array reads, where a hash map of 100,000-400,000 nodes
// cost a cache miss or two per lookup, several per task (its ask's
// preferred hosts, its container, its placement).
//
// Thread-safety: none (the tunnel's driver thread owns it).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "scheduler_pool/ids.h"

namespace spindle::replay {

class PoolNodeIndex {
 public:
  // `node` is at `index`; a later Add of the same node replaces it.
  void Add(pool::NodeId node, size_t index) {
    const size_t p = node.partition();
    const size_t slot = node.slot();
    if (by_partition_.size() <= p) by_partition_.resize(p + 1);
    std::vector<size_t>& slots = by_partition_[p];
    if (slots.size() <= slot) slots.resize(slot + 1, kNone);
    slots[slot] = index;
  }
  // nullopt for a node never added.
  std::optional<size_t> Find(pool::NodeId node) const {
    const size_t p = node.partition();
    const size_t slot = node.slot();
    if (p >= by_partition_.size() || slot >= by_partition_[p].size()) return std::nullopt;
    const size_t index = by_partition_[p][slot];
    if (index == kNone) return std::nullopt;
    return index;
  }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  std::vector<std::vector<size_t>> by_partition_;
};

}  // namespace spindle::replay
