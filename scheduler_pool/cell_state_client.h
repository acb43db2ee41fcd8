// CellStateClient: what a Scheduler needs from the master copy of the cell,
// and nothing more: sync a partition of its view, commit a transaction,
// release a placement it cannot deliver, and the few cell-wide figures its
// policy reads each step. CellState implements it in-process (the calls go
// straight to the master copy); scheduler_pool/remote's RemoteCell
// implements it over the cell-state service, so that one Scheduler runs
// unchanged in `spindle rm` and in `spindle scheduler`.
//
// Thread-safety: as the implementation says; a Scheduler calls its client
// from its owner thread only.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"
#include "scheduler_pool/transaction.h"

namespace spindle::pool {

// What SyncPartition did.
struct SyncInfo {
  uint64_t version = 0;  // the partition's version the copy now reflects
  bool full = false;     // the whole partition was copied
};

class CellStateClient {
 public:
  virtual ~CellStateClient() = default;

  virtual int num_partitions() const = 0;
  // Brings `nodes`, a copy of partition `partition`, up to date (see
  // CellState::SyncPartition for the delta rule). A client that cannot reach
  // the master leaves the copy as it was and returns its version unchanged.
  virtual SyncInfo SyncPartition(int partition, bool have_copy, uint64_t since_version,
                                 std::vector<NodeState>* nodes,
                                 std::vector<uint32_t>* changed) const = 0;
  // Checks and applies `txn` (transaction.h); fills `result`. A client that
  // cannot commit reports every claim refused (kAborted), none applied.
  virtual void Commit(const Transaction& txn, CommitResult* result) = 0;
  // Frees a committed claim the scheduler could not deliver (its app left).
  virtual Status Release(NodeId node, const Resource& resource) = 0;
  // Capacity of the running nodes.
  virtual Resource Capacity() const = 0;
  // Live nodes outside the default partition (0: labels unused).
  virtual int64_t labelled_nodes() const = 0;
  // Allocated / capacity by dominant dimension (for the time series).
  virtual double Utilisation() const = 0;
  // Whether Commit reads Transaction::owners (whom each claim is for). The
  // in-process cell state does not, so a Scheduler leaves them empty there
  // and builds them only for a client that records them.
  virtual bool RecordsClaimOwners() const { return false; }
};

}  // namespace spindle::pool
