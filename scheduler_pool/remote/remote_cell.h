// RemoteCell: a Scheduler's CellStateClient (the seam in scheduler.h) for a
// member of the cell-state service: syncs and commits go through a
// CellServiceConnection (in-process or Thrift) under the member's token, and
// the cell-wide figures come with each sync. The Scheduler on top is the
// pool's, unchanged.
//
// A refused or failed call never applies anything the scheduler does not
// learn of: a sync that fails leaves the copy as it was; a commit that fails
// in transport is retried once with the same sequence number (the service
// answers a repeat from memory), and otherwise reports every claim refused
// and marks the cell lost(): the member joins again and starts from the
// service's record of its apps, since the commit may have been applied. A
// call refused for the lease (Aborted) marks it lost() too.
//
// Thread-safety: none; it belongs to its scheduler's owner thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "scheduler_pool/cell_state_client.h"
#include "scheduler_pool/remote/cell_service_connection.h"

namespace spindle::pool::remote {

class RemoteCell final : public CellStateClient {
 public:
  // `connection` outlives the cell.
  RemoteCell(CellServiceConnection* connection, const MemberToken& token, int num_partitions);

  int num_partitions() const override { return num_partitions_; }
  SyncInfo SyncPartition(int partition, bool have_copy, uint64_t since_version,
                         std::vector<NodeState>* nodes,
                         std::vector<uint32_t>* changed) const override;
  void Commit(const Transaction& txn, CommitResult* result) override;
  // Nothing to do: the service recorded the placement as its app's in the
  // commit, and hands it to the RM (or, for an app gone, to RemoveApp's
  // caller, who releases it).
  Status Release(NodeId node, const Resource& resource) override { return Status::OK(); }
  Resource Capacity() const override { return figures_.capacity; }
  int64_t labelled_nodes() const override { return figures_.labelled_nodes; }
  double Utilisation() const override { return figures_.utilisation; }
  // The service records each committed claim as its app's placement.
  bool RecordsClaimOwners() const override { return true; }

  // The service refused the token: join again.
  bool lost() const { return lost_; }
  // The last error of a call (OK if none failed since the last success).
  const Status& last_error() const { return last_error_; }

 private:
  void Failed(const Status& s) const;

  CellServiceConnection* const connection_;
  const MemberToken token_;
  const int num_partitions_;
  uint64_t next_seq_ = 1;
  // Kept from the last sync; mutable as SyncPartition is a read.
  mutable CellFigures figures_;
  mutable bool lost_ = false;
  mutable Status last_error_;
  mutable std::vector<PartitionWant> wants_;
  mutable std::vector<PartitionSlice> slices_;
};

}  // namespace spindle::pool::remote
