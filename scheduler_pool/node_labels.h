// NodeLabelTable: the pool's node-label partitions (YARN node labels). Each
// node belongs to one partition (NodeState::label; kDefaultLabel, YARN's ""
// partition, unless the RM put it in another) and each ask to one
// (Ask::label). An ask is placed only on nodes of its partition, with one
// exception (YARN 2.8+ non-exclusive labels, RegularContainerAllocator): an
// ask of the default partition may use a node of a non-exclusive partition
// while no ask of that partition waits for room.
//
// The table interns label names into small ids, keeps each label's
// exclusivity and counts the asks waiting for each: the ask keys of the
// label whose total (as the application last set it) is above zero, counted
// by SchedulerPool::SetAsks as they change, so that every scheduler sees an
// ask the moment it is set (an ask the RM has fully placed counts until the
// RM lowers its total: lending errs on the side of the label's own asks).
// Labels live as long as the pool: an id is never reused.
//
// Thread-safety: every method is thread-safe. Intern takes a mutex (a leaf);
// the per-label reads are lock-free (atomics), for the placement path.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/mutex.h"
#include "scheduler_pool/node_state.h"

namespace spindle::pool {

class NodeLabelTable {
 public:
  // At most this many labels (the default partition included).
  static constexpr int kMaxLabels = 256;

  NodeLabelTable() {
    for (auto& e : exclusive_) e.store(true, std::memory_order_relaxed);
    for (auto& w : waiting_) w.store(0, std::memory_order_relaxed);
  }

  // The id of `name` ("" is kDefaultLabel), the same for the same name;
  // kDefaultLabel if the table is full (logged).
  LabelId Intern(std::string_view name) EXCLUDES(mu_);
  // The id of `name` if it was interned.
  std::optional<LabelId> Find(std::string_view name) const EXCLUDES(mu_);
  // YARN's NodeLabel.isExclusive (default true; the default partition is
  // always exclusive).
  void SetExclusive(LabelId label, bool exclusive) {
    if (label != kDefaultLabel) exclusive_[label].store(exclusive, std::memory_order_relaxed);
  }
  bool exclusive(LabelId label) const { return exclusive_[label].load(std::memory_order_relaxed); }
  // Ask keys of `label` that wait for containers (one per app and key).
  void AddWaiting(LabelId label, int64_t delta) {
    waiting_[label].fetch_add(delta, std::memory_order_relaxed);
  }
  int64_t waiting(LabelId label) const { return waiting_[label].load(std::memory_order_relaxed); }
  // A default-partition ask may use a node of `node_label` now.
  bool Lends(LabelId node_label) const {
    return node_label != kDefaultLabel && !exclusive(node_label) && waiting(node_label) <= 0;
  }

 private:
  mutable Mutex mu_;
  std::unordered_map<std::string, LabelId> ids_ GUARDED_BY(mu_);
  std::array<std::atomic<bool>, kMaxLabels> exclusive_;
  std::array<std::atomic<int64_t>, kMaxLabels> waiting_;
};

}  // namespace spindle::pool
