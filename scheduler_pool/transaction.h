// Transaction: a scheduler's set of claims on nodes, committed to the cell
// state as one unit (Omega's transaction over cell state). The two knobs are
// Omega's:
//  - ConflictMode::kFineGrained: a claim conflicts only if it no longer fits
//    the node; kCoarseGrained: a claim conflicts if the node changed at all
//    since the scheduler's copy (its version differs).
//  - TransactionMode::kIncremental: keep every claim that passes, reject the
//    rest; kAllOrNothing: if any claim fails, none is applied (gang).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

enum class ConflictMode : uint8_t { kFineGrained, kCoarseGrained };
enum class TransactionMode : uint8_t { kIncremental, kAllOrNothing };
const char* ConflictModeName(ConflictMode mode);
const char* TransactionModeName(TransactionMode mode);

struct Claim {
  NodeId node;
  Resource resource;
  // The node's version in the claimant's view when it chose the node. A
  // scheduler that puts two claims on one node in one transaction gives the
  // second seen_version + 1 (its view counts its own first claim), which is
  // what the cell state's version will be once the first claim is applied.
  uint64_t seen_version = 0;
  // The node's partition in the claimant's view: a node moved to another
  // partition since (the admin relabelled it) refuses the claim (kChanged).
  LabelId label = kDefaultLabel;
};

// Whom a claim is for: the application and its ask key, and how local the
// node is to the ask. The in-process cell state ignores it; the remote
// cell-state service (scheduler_pool/remote) records each committed claim as
// the app's placement in the same call, so that a scheduler process that
// dies after a commit loses nothing it committed.
struct ClaimOwner {
  AppId app;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  uint8_t locality = 2;  // Locality (ask.h); kOffSwitch
  bool preferred = false;
};

struct Transaction {
  ConflictMode conflict = ConflictMode::kFineGrained;
  TransactionMode mode = TransactionMode::kIncremental;
  std::vector<Claim> claims;
  // Parallel to claims, filled by the Scheduler for a cell that reads them
  // (CellStateClient::RecordsClaimOwners: the remote one); empty otherwise.
  std::vector<ClaimOwner> owners;
};

enum class ClaimOutcome : uint8_t {
  kCommitted,
  kNoFit,       // fine- or coarse-grained: the node has no room for it
  kChanged,     // coarse-grained: the node's version differs from seen_version
  kNotRunning,  // the node is decommissioning, lost, removed or overcommitted
  kUnknownNode,
  kAborted,  // all-or-nothing: this claim was fine but another one failed
};
const char* ClaimOutcomeName(ClaimOutcome outcome);
inline bool IsConflict(ClaimOutcome o) { return o != ClaimOutcome::kCommitted; }

// Filled by CellState::Commit; reuse one object across commits to avoid
// allocation.
struct CommitResult {
  // Parallel to Transaction::claims.
  std::vector<ClaimOutcome> outcomes;
  // The master's state of every node that had a claim not committed, taken
  // after the transaction (so it includes the claims that were), for the
  // scheduler to refresh its view. One entry per node.
  std::vector<std::pair<NodeId, NodeState>> refreshed;
  int64_t committed = 0;
  int64_t conflicted = 0;

  // Scratch space for Commit (claim order by partition).
  std::vector<uint32_t> scratch;
  std::vector<uint32_t> scratch_counts;
};

}  // namespace spindle::pool
