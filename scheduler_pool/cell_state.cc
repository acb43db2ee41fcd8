#include "scheduler_pool/cell_state.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <sstream>

namespace spindle::pool {

// How a copy of a partition catches up with it: not at all, by the logged
// changes, or whole.
enum class SyncKind : uint8_t { kCurrent, kDelta, kFull };

// One partition of the master copy. Aligned so that two partitions' hot
// fields never share a cache line.

struct alignas(64) CellState::Partition {
  mutable Mutex mu;
  std::vector<NodeState> nodes GUARDED_BY(mu);
  // Bumped by every change to any node of the partition.
  uint64_t version GUARDED_BY(mu) = 0;
  // log[v % size] = slot changed at version v, for v in (version - size, version].
  std::vector<uint32_t> log GUARDED_BY(mu);
  // Sum of `allocated` over the partition's nodes (removed nodes hold none).
  Resource allocated GUARDED_BY(mu);
  // `allocated` as of the end of the last change, one atomic per dimension,
  // for CellState::Allocated() to read without the lock: the RM's every
  // allocate (headroom), every scheduler step and the pool's metrics want
  // the cell's total, and taking all P locks for it made them queue behind
  // the schedulers' view copies (a full sync holds a partition's lock while
  // it copies every node). On a cache line of its own: readers do not pull
  // in the mutex's.
  alignas(64) std::atomic<int64_t> published[kMaxResourceTypes] = {};

  // Makes `allocated` visible to Allocated(). Called once a change is final
  // (a claim an all-or-nothing commit takes back is never published).
  void PublishAllocated() REQUIRES(mu) {
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      published[i].store(allocated.Get(i), std::memory_order_release);
    }
  }

  // Records a change to nodes[slot]: bumps its version and the partition's
  // and logs the slot for delta syncs.
  void Touch(uint32_t slot) REQUIRES(mu) {
    ++nodes[slot].version;
    ++version;
    log[version % log.size()] = slot;
  }
  // How a copy of `copy_size` nodes at `since_version` catches up.
  SyncKind KindOfSync(bool have_copy, uint64_t since_version, size_t copy_size,
                      uint32_t log_entries) const REQUIRES(mu) {
    if (have_copy && since_version == version && copy_size == nodes.size()) {
      return SyncKind::kCurrent;
    }
    // Copying a logged change costs a random access; past a quarter of the
    // partition a sequential copy of the whole is cheaper.
    const uint64_t behind = version - since_version;
    if (have_copy && since_version < version && behind <= log_entries &&
        behind <= nodes.size() / 4 + 16) {
      return SyncKind::kDelta;
    }
    return SyncKind::kFull;
  }
  // The node in `slot`, or null if there is none or it was removed.
  NodeState* LiveNode(uint32_t slot) REQUIRES(mu) {
    return slot < nodes.size() && nodes[slot].status != NodeStatus::kRemoved ? &nodes[slot]
                                                                             : nullptr;
  }
  // Checks `claim` (on a node of this partition) against the master copy
  // and, if it may commit, applies it. The one place a claim is applied, for
  // both transaction modes.
  ClaimOutcome ApplyClaim(const Claim& claim, ConflictMode mode) REQUIRES(mu);
  // Takes back a claim ApplyClaim committed while the lock has been held
  // since, restoring the versions exactly (no one saw them).
  void UndoClaim(const Claim& claim) REQUIRES(mu);
  // Appends the master state of the nodes claimed by txn.claims[order[k]],
  // k in [begin, end) (all on this partition), to result->refreshed, each
  // node once; with `failed_only`, only those whose claim did not commit.
  void AddRefreshed(const Transaction& txn, const std::vector<uint32_t>& order, uint32_t begin,
                    uint32_t end, bool failed_only, CommitResult* result) const REQUIRES(mu);
};

namespace {
bool ValidScore(double s) { return std::isfinite(s) && s > 0; }
}  // namespace

CellState::CellState(const CellStateOptions& options)
    : num_partitions_(options.num_partitions),
      log_entries_(static_cast<uint32_t>(std::max(1, options.change_log_entries))) {
  CHECK_GE(options.num_partitions, 1);
  CHECK_LE(static_cast<uint32_t>(options.num_partitions), NodeId::kMaxPartitions);
  partitions_.reserve(static_cast<size_t>(num_partitions_));
  for (int p = 0; p < num_partitions_; ++p) {
    auto part = std::make_unique<Partition>();
    MutexLock lock(&part->mu);
    part->log.assign(log_entries_, 0);
    partitions_.push_back(std::move(part));
  }
  MutexLock lock(&topology_mu_);
  nodes_per_partition_.assign(static_cast<size_t>(num_partitions_), 0);
}

CellState::~CellState() = default;

void CellState::AddCapacity(const Resource& r, int sign) {
  topology_mu_.AssertHeld();
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    capacity_[i].fetch_add(sign * r.Get(i), std::memory_order_acq_rel);
  }
}

Resource CellState::Capacity() const {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    r.Set(i, capacity_[i].load(std::memory_order_acquire));
  }
  return r;
}

Result<NodeId> CellState::AddNode(const NodeSpec& spec) {
  if (spec.total.AnyNegative()) {
    return Status::InvalidArgument("node total must not be negative: " + spec.total.ToString());
  }
  if (!ValidScore(spec.score)) {
    return Status::InvalidArgument("node score must be finite and > 0: " +
                                   std::to_string(spec.score));
  }
  MutexLock topo(&topology_mu_);
  RackId rack;
  auto it = racks_.find(spec.rack);
  if (it == racks_.end()) {
    rack = RackId(static_cast<uint32_t>(rack_names_.size()));
    rack_names_.push_back(spec.rack);
    racks_.emplace(spec.rack, rack);
  } else {
    rack = it->second;
  }
  const auto least = std::min_element(nodes_per_partition_.begin(), nodes_per_partition_.end());
  const auto p = static_cast<uint32_t>(least - nodes_per_partition_.begin());
  if (*least >= NodeId::kMaxSlots - 1) {
    return Status::ResourceExhausted("cell state is full");
  }
  Partition& part = partition(p);
  NodeId id;
  {
    MutexLock lock(&part.mu);
    const auto slot = static_cast<uint32_t>(part.nodes.size());
    NodeState node;
    node.total = spec.total;
    node.score = spec.score;
    node.rack = rack;
    node.status = NodeStatus::kRunning;
    node.label = spec.label;
    part.nodes.push_back(node);
    part.Touch(slot);
    id = NodeId(p, slot);
  }
  ++*least;
  if (spec.label != kDefaultLabel) labelled_nodes_.fetch_add(1, std::memory_order_relaxed);
  AddCapacity(spec.total, +1);
  topology_version_.fetch_add(1, std::memory_order_acq_rel);
  return id;
}

Status CellState::UpdateNode(NodeId id, const NodeUpdate& update) {
  if (update.set_status && update.status == NodeStatus::kRemoved) {
    return Status::InvalidArgument("use RemoveNode to remove a node");
  }
  if (update.set_total && update.total.AnyNegative()) {
    return Status::InvalidArgument("node total must not be negative: " + update.total.ToString());
  }
  if (update.set_score && !ValidScore(update.score)) {
    return Status::InvalidArgument("node score must be finite and > 0");
  }
  if (!InCell(id)) {
    return Status::NotFound("unknown node");
  }
  MutexLock topo(&topology_mu_);
  Partition& part = partition(id.partition());
  MutexLock lock(&part.mu);
  NodeState* live = part.LiveNode(id.slot());
  if (live == nullptr) return Status::NotFound("unknown or removed node");
  NodeState& node = *live;
  const bool was_running = node.status == NodeStatus::kRunning;
  if (was_running) AddCapacity(node.total, -1);
  if (update.set_total) node.total = update.total;
  if (update.set_status) node.status = update.status;
  if (update.set_score) node.score = update.score;
  if (update.set_label && update.label != node.label) {
    const int64_t delta = static_cast<int64_t>(update.label != kDefaultLabel) -
                          static_cast<int64_t>(node.label != kDefaultLabel);
    labelled_nodes_.fetch_add(delta, std::memory_order_relaxed);
    node.label = update.label;
  }
  node.overcommitted = !node.allocated.FitsIn(node.total);
  if (node.status == NodeStatus::kRunning) AddCapacity(node.total, +1);
  part.Touch(id.slot());
  return Status::OK();
}

Status CellState::RemoveNode(NodeId id) {
  if (!InCell(id)) {
    return Status::NotFound("unknown node");
  }
  MutexLock topo(&topology_mu_);
  Partition& part = partition(id.partition());
  {
    MutexLock lock(&part.mu);
    NodeState* live = part.LiveNode(id.slot());
    if (live == nullptr) return Status::NotFound("unknown or removed node");
    NodeState& node = *live;
    if (node.status == NodeStatus::kRunning) AddCapacity(node.total, -1);
    part.allocated -= node.allocated;
    part.PublishAllocated();
    node.allocated = Resource();
    node.status = NodeStatus::kRemoved;
    node.overcommitted = false;
    if (node.label != kDefaultLabel) labelled_nodes_.fetch_sub(1, std::memory_order_relaxed);
    node.label = kDefaultLabel;
    part.Touch(id.slot());
  }
  --nodes_per_partition_[id.partition()];
  topology_version_.fetch_add(1, std::memory_order_acq_rel);
  return Status::OK();
}

Result<NodeState> CellState::GetNode(NodeId id) const {
  if (!InCell(id)) {
    return Status::NotFound("unknown node");
  }
  const Partition& part = partition(id.partition());
  MutexLock lock(&part.mu);
  if (id.slot() >= part.nodes.size()) return Status::NotFound("unknown node");
  return part.nodes[id.slot()];
}

Result<RackId> CellState::FindRack(std::string_view name) const {
  MutexLock topo(&topology_mu_);
  auto it = racks_.find(std::string(name));
  if (it == racks_.end()) return Status::NotFound("unknown rack '" + std::string(name) + "'");
  return it->second;
}

std::string CellState::RackName(RackId rack) const {
  MutexLock topo(&topology_mu_);
  if (!rack.valid() || rack.value() >= rack_names_.size()) return "";
  return rack_names_[rack.value()];
}

int CellState::num_racks() const {
  MutexLock topo(&topology_mu_);
  return static_cast<int>(rack_names_.size());
}

namespace {

// Checks one claim against the master copy of its node.
ClaimOutcome Check(const NodeState& node, const Claim& claim, ConflictMode mode) {
  if (node.status != NodeStatus::kRunning || node.overcommitted) return ClaimOutcome::kNotRunning;
  if ((mode == ConflictMode::kCoarseGrained && node.version != claim.seen_version) ||
      node.label != claim.label) {
    return ClaimOutcome::kChanged;
  }
  if (!node.total.FitsWithin(node.allocated, claim.resource)) return ClaimOutcome::kNoFit;
  return ClaimOutcome::kCommitted;
}

}  // namespace

ClaimOutcome CellState::Partition::ApplyClaim(const Claim& claim, ConflictMode mode) {
  const uint32_t slot = claim.node.slot();
  if (slot >= nodes.size()) return ClaimOutcome::kUnknownNode;
  NodeState& node = nodes[slot];
  const ClaimOutcome outcome = Check(node, claim, mode);
  if (outcome != ClaimOutcome::kCommitted) return outcome;
  node.allocated += claim.resource;
  allocated += claim.resource;
  Touch(slot);
  return outcome;
}

void CellState::Partition::UndoClaim(const Claim& claim) {
  NodeState& node = nodes[claim.node.slot()];
  node.allocated -= claim.resource;
  allocated -= claim.resource;
  --node.version;
  --version;
}

void CellState::Partition::AddRefreshed(const Transaction& txn, const std::vector<uint32_t>& order,
                                        uint32_t begin, uint32_t end, bool failed_only,
                                        CommitResult* result) const {
  // Duplicates are searched only among this partition's entries.
  const size_t first = result->refreshed.size();
  for (uint32_t k = begin; k < end; ++k) {
    const uint32_t i = order[k];
    const NodeId id = txn.claims[i].node;
    if (failed_only && result->outcomes[i] == ClaimOutcome::kCommitted) continue;
    if (id.slot() >= nodes.size()) continue;
    bool seen = false;
    for (size_t j = first; j < result->refreshed.size() && !seen; ++j) {
      seen = result->refreshed[j].first == id;
    }
    if (!seen) result->refreshed.emplace_back(id, nodes[id.slot()]);
  }
}

void CellState::Commit(const Transaction& txn, CommitResult* result) {
  const size_t n = txn.claims.size();
  result->outcomes.assign(n, ClaimOutcome::kCommitted);
  result->refreshed.clear();
  result->committed = 0;
  result->conflicted = 0;
  if (n == 0) return;

  // Counting sort of claim indexes by partition (stable, so claims on one
  // node keep their order). Claims naming no partition come out as unknown.
  const auto np = static_cast<uint32_t>(num_partitions_);
  auto& counts = result->scratch_counts;
  auto& order = result->scratch;
  counts.assign(np + 1, 0);
  for (const Claim& c : txn.claims) {
    if (c.node.valid() && c.node.partition() < np) ++counts[c.node.partition() + 1];
  }
  for (uint32_t p = 0; p < np; ++p) counts[p + 1] += counts[p];
  const uint32_t known = counts[np];
  order.resize(known);
  // counts[p] is the start of partition p; use it as p's cursor, after which
  // counts[p] is the end of p, and shift back by one.
  for (uint32_t i = 0; i < n; ++i) {
    const Claim& c = txn.claims[i];
    if (c.node.valid() && c.node.partition() < np) {
      order[counts[c.node.partition()]++] = i;
    } else {
      result->outcomes[i] = ClaimOutcome::kUnknownNode;
    }
  }
  for (uint32_t p = np; p > 0; --p) counts[p] = counts[p - 1];
  counts[0] = 0;
  // counts[p]..counts[p+1] now index `order` for partition p.

  if (txn.mode == TransactionMode::kIncremental) {
    CommitIncremental(txn, result);
  } else {
    CommitAllOrNothing(txn, /*all_known=*/known == n, result);
  }
  for (ClaimOutcome o : result->outcomes) {
    if (o == ClaimOutcome::kCommitted) {
      ++result->committed;
    } else {
      ++result->conflicted;
    }
  }
}

void CellState::CommitIncremental(const Transaction& txn, CommitResult* result) {
  const std::vector<uint32_t>& counts = result->scratch_counts;
  const std::vector<uint32_t>& order = result->scratch;
  for (uint32_t p = 0; p + 1 < counts.size(); ++p) {
    const uint32_t begin = counts[p], end = counts[p + 1];
    if (begin == end) continue;
    Partition& part = partition(p);
    MutexLock lock(&part.mu);
    bool any_failed = false;
    for (uint32_t k = begin; k < end; ++k) {
      const uint32_t i = order[k];
      result->outcomes[i] = part.ApplyClaim(txn.claims[i], txn.conflict);
      any_failed |= result->outcomes[i] != ClaimOutcome::kCommitted;
    }
    if (any_failed) part.AddRefreshed(txn, order, begin, end, /*failed_only=*/true, result);
    part.PublishAllocated();
  }
}

// Locks a varying set of partitions in ascending order, which the static
// analysis cannot follow; the lock discipline is stated in cell_state.h.
void CellState::CommitAllOrNothing(const Transaction& txn, bool all_known,
                                   CommitResult* result) NO_THREAD_SAFETY_ANALYSIS {
  const std::vector<uint32_t>& counts = result->scratch_counts;
  const std::vector<uint32_t>& order = result->scratch;
  const auto np = static_cast<uint32_t>(counts.size() - 1);
  const uint32_t known = counts[np];
  for (uint32_t p = 0; p < np; ++p) {
    if (counts[p] != counts[p + 1]) partition(p).mu.Lock();
  }
  bool failed = !all_known;  // a claim on an unknown partition fails the whole
  uint32_t applied = 0;      // order[0..applied) were applied
  for (uint32_t k = 0; k < known && !failed; ++k) {
    const uint32_t i = order[k];
    const Claim& c = txn.claims[i];
    result->outcomes[i] = partition(c.node.partition()).ApplyClaim(c, txn.conflict);
    failed = result->outcomes[i] != ClaimOutcome::kCommitted;
    if (!failed) applied = k + 1;
  }
  if (failed) {
    // Undo in reverse order, so each node's version steps back exactly.
    for (uint32_t k = applied; k-- > 0;) {
      const Claim& c = txn.claims[order[k]];
      partition(c.node.partition()).UndoClaim(c);
    }
    for (ClaimOutcome& o : result->outcomes) {
      if (o == ClaimOutcome::kCommitted) o = ClaimOutcome::kAborted;
    }
    for (uint32_t p = 0; p < np; ++p) {
      partition(p).AddRefreshed(txn, order, counts[p], counts[p + 1], /*failed_only=*/false,
                                result);
    }
  }
  for (uint32_t p = np; p-- > 0;) {
    if (counts[p] != counts[p + 1]) {
      partition(p).PublishAllocated();
      partition(p).mu.Unlock();
    }
  }
}

Result<RecoveredFit> CellState::Recover(NodeId id, const Resource& resource) {
  if (resource.AnyNegative() || resource.IsZero()) {
    return Status::InvalidArgument("recovered allocation must be positive: " + resource.ToString());
  }
  if (!InCell(id)) return Status::NotFound("unknown node");
  Partition& part = partition(id.partition());
  MutexLock lock(&part.mu);
  NodeState* live = part.LiveNode(id.slot());
  if (live == nullptr) return Status::NotFound("unknown or removed node");
  const Claim claim{id, resource, live->version};
  if (part.ApplyClaim(claim, ConflictMode::kFineGrained) == ClaimOutcome::kCommitted) {
    part.PublishAllocated();
    return RecoveredFit::kFits;
  }
  // The claim path refused it (no room, or the node takes no claims), but
  // the container exists: record it as a fact.
  NodeState& node = *live;
  node.allocated += resource;
  part.allocated += resource;
  part.PublishAllocated();
  if (!node.allocated.FitsIn(node.total)) node.overcommitted = true;
  part.Touch(id.slot());
  return node.overcommitted ? RecoveredFit::kOvercommitted : RecoveredFit::kFits;
}

Status CellState::Release(NodeId node, const Resource& resource) {
  NodeRelease r{node, resource};
  return ReleaseBatch(&r, 1);
}

Status CellState::ReleaseBatch(const NodeRelease* releases, size_t count) {
  Status first_error;
  size_t i = 0;
  while (i < count) {
    const NodeId id = releases[i].node;
    if (!InCell(id)) {
      if (first_error.ok()) first_error = Status::NotFound("unknown node");
      ++i;
      continue;
    }
    // Take the partition's lock once for the run of releases on it.
    Partition& part = partition(id.partition());
    MutexLock lock(&part.mu);
    for (; i < count && releases[i].node.valid() && releases[i].node.partition() == id.partition();
         ++i) {
      const NodeRelease& r = releases[i];
      if (r.node.slot() >= part.nodes.size()) {
        if (first_error.ok()) first_error = Status::NotFound("unknown node");
        continue;
      }
      NodeState& node = part.nodes[r.node.slot()];
      if (node.status == NodeStatus::kRemoved) continue;
      if (r.resource.AnyNegative() || !r.resource.FitsIn(node.allocated)) {
        if (first_error.ok()) {
          first_error = Status::InvalidArgument("release of " + r.resource.ToString() +
                                                " exceeds the allocation " +
                                                node.allocated.ToString() + " of the node");
        }
        continue;
      }
      node.allocated -= r.resource;
      part.allocated -= r.resource;
      if (node.overcommitted && node.allocated.FitsIn(node.total)) node.overcommitted = false;
      part.Touch(r.node.slot());
    }
    part.PublishAllocated();
  }
  return first_error;
}

SyncInfo CellState::SyncPartition(int p, bool have_copy, uint64_t since_version,
                                  std::vector<NodeState>* nodes,
                                  std::vector<uint32_t>* changed) const {
  const Partition& part = partition(static_cast<uint32_t>(p));
  MutexLock lock(&part.mu);
  SyncInfo info;
  info.version = part.version;
  const SyncKind kind = part.KindOfSync(have_copy, since_version, nodes->size(), log_entries_);
  if (kind == SyncKind::kCurrent) return info;
  if (kind == SyncKind::kDelta) {
    nodes->resize(part.nodes.size());
    for (uint64_t v = since_version + 1; v <= part.version; ++v) {
      const uint32_t slot = part.log[v % log_entries_];
      (*nodes)[slot] = part.nodes[slot];
      changed->push_back(slot);
    }
    return info;
  }
  info.full = true;
  if (!have_copy || nodes->size() > part.nodes.size()) {
    nodes->assign(part.nodes.begin(), part.nodes.end());
    return info;
  }
  // Every change to a node bumps its version, so a node the copy holds at
  // the master's version is the master's (the delta path above rests on the
  // same rule): only the others are written, one compare per node instead
  // of a copy of each (a full sync follows changes to about a quarter of
  // the nodes or more, rarely to all).
  const size_t kept = nodes->size();
  NodeState* copy = nodes->data();
  const NodeState* master = part.nodes.data();
  for (size_t i = 0; i < kept; ++i) {
    if (copy[i].version != master[i].version) copy[i] = master[i];
  }
  nodes->insert(nodes->end(), part.nodes.begin() + static_cast<std::ptrdiff_t>(kept),
                part.nodes.end());
  return info;
}

SyncInfo CellState::ChangesSince(int p, bool have_copy, uint64_t since_version, size_t copy_size,
                                 std::vector<NodeState>* full_nodes,
                                 std::vector<std::pair<uint32_t, NodeState>>* changes) const {
  const Partition& part = partition(static_cast<uint32_t>(p));
  MutexLock lock(&part.mu);
  SyncInfo info;
  info.version = part.version;
  switch (part.KindOfSync(have_copy, since_version, copy_size, log_entries_)) {
    case SyncKind::kCurrent:
      break;
    case SyncKind::kDelta:
      for (uint64_t v = since_version + 1; v <= part.version; ++v) {
        const uint32_t slot = part.log[v % log_entries_];
        changes->emplace_back(slot, part.nodes[slot]);
      }
      break;
    case SyncKind::kFull:
      full_nodes->assign(part.nodes.begin(), part.nodes.end());
      info.full = true;
      break;
  }
  return info;
}

uint64_t CellState::partition_version(int p) const {
  const Partition& part = partition(static_cast<uint32_t>(p));
  MutexLock lock(&part.mu);
  return part.version;
}

std::vector<std::pair<LabelId, Resource>> CellState::CapacityByLabel() const {
  std::vector<std::pair<LabelId, Resource>> out;
  for (int p = 0; p < num_partitions_; ++p) {
    const Partition& part = partition(static_cast<uint32_t>(p));
    MutexLock lock(&part.mu);
    for (const NodeState& node : part.nodes) {
      if (node.status != NodeStatus::kRunning) continue;
      auto it = std::lower_bound(out.begin(), out.end(), node.label,
                                 [](const auto& entry, LabelId l) { return entry.first < l; });
      if (it == out.end() || it->first != node.label) it = out.emplace(it, node.label, Resource());
      it->second += node.total;
    }
  }
  return out;
}

CellTotals CellState::Totals() const {
  CellTotals t;
  for (int p = 0; p < num_partitions_; ++p) {
    const Partition& part = partition(static_cast<uint32_t>(p));
    MutexLock lock(&part.mu);
    t.allocated += part.allocated;
    for (const NodeState& node : part.nodes) {
      if (node.status == NodeStatus::kRemoved) continue;
      ++t.nodes;
      if (node.status == NodeStatus::kRunning) {
        ++t.running_nodes;
        t.capacity += node.total;
      }
    }
  }
  return t;
}

Resource CellState::Allocated() const {
  Resource sum;
  for (int p = 0; p < num_partitions_; ++p) {
    const Partition& part = partition(static_cast<uint32_t>(p));
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      sum.Set(i, sum.Get(i) + part.published[i].load(std::memory_order_acquire));
    }
  }
  return sum;
}

Status CellState::CheckInvariants() const {
  for (int p = 0; p < num_partitions_; ++p) {
    const Partition& part = partition(static_cast<uint32_t>(p));
    MutexLock lock(&part.mu);
    Resource sum;
    uint64_t versions = 0;
    for (size_t s = 0; s < part.nodes.size(); ++s) {
      const NodeState& node = part.nodes[s];
      const NodeId id(static_cast<uint32_t>(p), static_cast<uint32_t>(s));
      std::ostringstream where;
      where << id;
      if (node.allocated.AnyNegative()) {
        return Status::Corruption(where.str() + ": negative allocation " +
                                  node.allocated.ToString());
      }
      if (!node.overcommitted && !node.allocated.FitsIn(node.total)) {
        return Status::Corruption(where.str() + ": over-committed: allocated " +
                                  node.allocated.ToString() + " > total " + node.total.ToString());
      }
      if (node.status == NodeStatus::kRemoved && !node.allocated.IsZero()) {
        return Status::Corruption(where.str() + ": removed node holds an allocation");
      }
      if (node.version == 0) return Status::Corruption(where.str() + ": version 0");
      sum += node.allocated;
      versions += node.version;
    }
    if (sum != part.allocated) {
      return Status::Corruption("partition " + std::to_string(p) + ": allocated sum " +
                                part.allocated.ToString() + " != nodes' " + sum.ToString());
    }
    // Every change bumps one node's version and the partition's by one.
    if (versions != part.version) {
      return Status::Corruption("partition " + std::to_string(p) + ": version " +
                                std::to_string(part.version) + " != sum of node versions " +
                                std::to_string(versions));
    }
  }
  return Status::OK();
}

}  // namespace spindle::pool
