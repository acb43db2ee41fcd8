#include "scheduler_pool/remote/remote_cell.h"

#include <glog/logging.h>

namespace spindle::pool::remote {

RemoteCell::RemoteCell(CellServiceConnection* connection, const MemberToken& token,
                       int num_partitions)
    : connection_(connection), token_(token), num_partitions_(num_partitions) {}

void RemoteCell::Failed(const Status& s) const {
  last_error_ = s;
  if (s.code() == Status::Code::kAborted) lost_ = true;
}

SyncInfo RemoteCell::SyncPartition(int partition, bool have_copy, uint64_t since_version,
                                   std::vector<NodeState>* nodes,
                                   std::vector<uint32_t>* changed) const {
  SyncInfo unchanged;
  unchanged.version = since_version;
  if (lost_) return unchanged;
  wants_.assign(
      1, PartitionWant{partition, have_copy, since_version, static_cast<uint32_t>(nodes->size())});
  const Status s = connection_->Sync(token_, wants_, &slices_, &figures_);
  if (!s.ok() || slices_.size() != 1) {
    Failed(s.ok() ? Status::ProtocolError("sync: one slice expected") : s);
    return unchanged;
  }
  last_error_ = Status::OK();
  PartitionSlice& slice = slices_[0];
  if (slice.info.full) {
    nodes->swap(slice.nodes);
  } else if (!slice.changes.empty() || slice.node_count != nodes->size()) {
    nodes->resize(slice.node_count);
    for (auto& [slot, state] : slice.changes) {
      if (slot >= nodes->size()) continue;
      (*nodes)[slot] = state;
      changed->push_back(slot);
    }
  }
  return slice.info;
}

void RemoteCell::Commit(const Transaction& txn, CommitResult* result) {
  const uint64_t seq = next_seq_++;
  Status s = lost_ ? Status::Aborted("lease lost") : connection_->Commit(token_, seq, txn, result);
  if (!s.ok() && !lost_ && s.code() != Status::Code::kAborted &&
      s.code() != Status::Code::kInvalidArgument) {
    // The answer may be lost with the commit applied: ask again with the
    // same number, which the service answers from memory.
    s = connection_->Commit(token_, seq, txn, result);
  }
  if (s.ok() && result->outcomes.size() == txn.claims.size()) {
    last_error_ = Status::OK();
    return;
  }
  Failed(s.ok() ? Status::ProtocolError("commit: outcome count") : s);
  // Whether a commit that failed in transport was applied is unknown: the
  // member starts afresh (joins again) from the service's record of its
  // apps rather than guess.
  lost_ = true;
  LOG(WARNING) << "remote commit of " << txn.claims.size()
               << " claim(s) failed: " << last_error_.ToString();
  result->outcomes.assign(txn.claims.size(), ClaimOutcome::kAborted);
  result->refreshed.clear();
  result->committed = 0;
  result->conflicted = static_cast<int64_t>(txn.claims.size());
}

}  // namespace spindle::pool::remote
