// CellState: the master copy of the cell (Omega's "cell state"): every node
// with its capacity and allocation, in P partitions. Each partition has a
// version and each node a version, both bumped by every change (claim,
// release, capacity or status change), and each partition keeps a short log
// of which nodes changed at which version so that a scheduler's view can copy
// only what changed since its last sync (a "delta sync").
//
// Commit() is the only way to place work: it checks a transaction's claims
// against the master copy (fine- or coarse-grained conflict detection) and
// applies them incrementally or all-or-nothing (see transaction.h).
//
// Thread-safety: all methods are thread-safe. Each partition has its own
// mutex, so commits, releases and syncs on different partitions proceed in
// parallel; nothing on the commit path takes a cell-wide lock. An
// all-or-nothing commit that spans partitions locks them in ascending order.
// Lock order: topology_mu_ before any partition mutex; partition mutexes in
// ascending partition index.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "scheduler_pool/cell_state_client.h"
#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"
#include "scheduler_pool/transaction.h"

namespace spindle::pool {

struct CellStateOptions {
  // Number of partitions P (1..NodeId::kMaxPartitions). Default: 20.
  int num_partitions = 20;
  // Entries of each partition's change log. A view at most this many
  // changes behind a partition copies only the changed nodes; one further
  // behind copies the whole partition. Default: 8192.
  int change_log_entries = 8192;
};

struct CellTotals {
  Resource capacity;   // total of running nodes
  Resource allocated;  // allocated on all nodes not removed
  int64_t running_nodes = 0;
  int64_t nodes = 0;  // not removed
  // allocated / capacity by dominant dimension (0 when empty).
  double Utilisation() const { return allocated.DominantShare(capacity); }
};

// How a recovered allocation left its node (see CellState::Recover).
enum class RecoveredFit : uint8_t {
  kFits,           // within the node's total
  kOvercommitted,  // beyond it: the node is marked overcommitted
};

// One node's release, for ReleaseBatch().
struct NodeRelease {
  NodeId node;
  Resource resource;
};

class CellState final : public CellStateClient {
 public:
  explicit CellState(const CellStateOptions& options);
  ~CellState() override;
  CellState(const CellState&) = delete;
  CellState& operator=(const CellState&) = delete;

  int num_partitions() const override { return num_partitions_; }

  // Adds a node to the partition with the fewest nodes. InvalidArgument if
  // the total is negative or the score is not finite and > 0;
  // ResourceExhausted if the partition is full.
  Result<NodeId> AddNode(const NodeSpec& spec);
  // Applies a heartbeat's or the admin's change. NotFound for an unknown or
  // removed node; InvalidArgument for status kRemoved or a negative total.
  // Shrinking total below allocated is allowed: the node is then marked
  // overcommitted and takes no claims until releases make it fit (Recover()
  // may mark it so too).
  Status UpdateNode(NodeId node, const NodeUpdate& update);
  // Marks the node removed and forgets its allocation. NotFound if unknown
  // or already removed.
  Status RemoveNode(NodeId node);

  // A copy of the node's state; NotFound if unknown.
  Result<NodeState> GetNode(NodeId node) const;
  // The id of a rack some node has named; NotFound otherwise.
  Result<RackId> FindRack(std::string_view name) const;
  std::string RackName(RackId rack) const;
  int num_racks() const;

  // Checks and applies `txn`; fills `result` (cleared first).
  void Commit(const Transaction& txn, CommitResult* result) override;

  // Records an allocation that already exists on `node` (a container it
  // reports running after an RM restart), through the same partition claim
  // path as Commit(): if it fits a running node it is applied exactly like a
  // fine-grained claim. Otherwise it is applied anyway, as the node is
  // running it: a node left with allocated > total is marked overcommitted
  // (as after a capacity shrink) and takes no claims until releases make it
  // fit; a node that is not running (decommissioning, lost) keeps its
  // status. Either way views see the change at their next sync.
  // NotFound (and no effect) for an unknown or removed node;
  // InvalidArgument for a negative or zero resource.
  Result<RecoveredFit> Recover(NodeId node, const Resource& resource);

  // Frees `resource` on `node`. OK (and no effect) if the node was removed;
  // NotFound if it never existed; InvalidArgument (and no effect) if more
  // than the node's allocation would be freed.
  Status Release(NodeId node, const Resource& resource) override;
  // Release() for many nodes, taking each partition's lock once. Returns
  // the first error; the other releases are still applied.
  Status ReleaseBatch(const NodeRelease* releases, size_t count);

  // Brings `nodes`, a copy of partition `partition`, up to date. If
  // `have_copy` and the copy reflects version `since_version`, and the
  // partition's change log still covers the changes since then, and they are
  // fewer than about a quarter of the partition's nodes, only the changed
  // nodes are copied and their slots appended to `changed` (maybe with
  // repeats); otherwise the whole partition is brought over and `full` set.
  // Either way the copy's other nodes are taken to be current if they carry
  // the master's version of them: a copy's nodes must be the master's as of
  // some version, or the master's with the holder's own claims that the
  // master has since committed (same version, same state) or that the holder
  // has refreshed from CommitResult::refreshed (CellView keeps its view so).
  SyncInfo SyncPartition(int partition, bool have_copy, uint64_t since_version,
                         std::vector<NodeState>* nodes,
                         std::vector<uint32_t>* changed) const override;

  // SyncPartition for a copy held elsewhere (a remote scheduler's view of
  // `copy_size` nodes): by the same rule, either the whole partition into
  // `full_nodes` (SyncInfo::full) or only the nodes changed since
  // `since_version` into `changes` as (slot, state), maybe with repeats.
  // Neither, with the version unchanged, when the copy is current.
  SyncInfo ChangesSince(int partition, bool have_copy, uint64_t since_version, size_t copy_size,
                        std::vector<NodeState>* full_nodes,
                        std::vector<std::pair<uint32_t, NodeState>>* changes) const;

  uint64_t partition_version(int partition) const;
  // Bumped whenever a node is added or removed (views rebuild rack indexes).
  uint64_t topology_version() const { return topology_version_.load(std::memory_order_acquire); }
  // Live nodes outside the default partition: 0 means node labels are not
  // in use, and placement need not look at them.
  int64_t labelled_nodes() const override {
    return labelled_nodes_.load(std::memory_order_relaxed);
  }
  // Total capacity of running nodes, without locking (each dimension is read
  // atomically; the vector as a whole may mix two updates).
  Resource Capacity() const override;
  // Capacity of the running nodes per node-label partition (labels with
  // none are left out), ascending by label. Locks each partition in turn.
  std::vector<std::pair<LabelId, Resource>> CapacityByLabel() const;
  // Locks each partition in turn: a sum, not one consistent snapshot.
  CellTotals Totals() const;
  // Allocated over all nodes, without locking (O(P)): each partition's total
  // as of its last finished change, each dimension read atomically. A sum,
  // not one consistent snapshot (nor was it when each partition was locked
  // in turn).
  Resource Allocated() const;
  // Allocated() / Capacity() by dominant dimension.
  double Utilisation() const override { return Allocated().DominantShare(Capacity()); }

  // The invariant sweep: for every node, 0 <= allocated and (unless it was
  // shrunk) allocated <= total; each partition's sums match its nodes; node
  // and partition versions are consistent. Corruption naming the first
  // broken invariant. Locks each partition in turn.
  Status CheckInvariants() const;

 private:
  struct Partition;

  Partition& partition(uint32_t p) const { return *partitions_[p]; }
  // Whether `id` names a partition of this cell (its slot may still be unknown).
  bool InCell(NodeId id) const {
    return id.valid() && id.partition() < static_cast<uint32_t>(num_partitions_);
  }
  void AddCapacity(const Resource& r, int sign);
  // Commit() after it sorted the claims by partition into
  // result->scratch_counts / result->scratch. Incremental locks one
  // partition at a time; all-or-nothing locks every partition involved
  // (ascending) and applies nothing unless `all_known` and every claim fits.
  void CommitIncremental(const Transaction& txn, CommitResult* result);
  void CommitAllOrNothing(const Transaction& txn, bool all_known, CommitResult* result);

  const int num_partitions_;
  const uint32_t log_entries_;
  std::vector<std::unique_ptr<Partition>> partitions_;

  // Guards topology changes: node counts per partition, racks, capacity
  // writes. Never held on the commit path.
  mutable Mutex topology_mu_;
  std::vector<uint32_t> nodes_per_partition_ GUARDED_BY(topology_mu_);
  std::vector<std::string> rack_names_ GUARDED_BY(topology_mu_);
  std::unordered_map<std::string, RackId> racks_ GUARDED_BY(topology_mu_);
  std::atomic<uint64_t> topology_version_{0};
  std::atomic<int64_t> labelled_nodes_{0};
  // Written under topology_mu_, read without it.
  std::atomic<int64_t> capacity_[kMaxResourceTypes] = {};
};

}  // namespace spindle::pool
