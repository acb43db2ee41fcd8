#include "scheduler_pool/node_state.h"

#include "scheduler_pool/transaction.h"

namespace spindle::pool {

const char* NodeStatusName(NodeStatus status) {
  switch (status) {
    case NodeStatus::kRunning:
      return "running";
    case NodeStatus::kDecommissioning:
      return "decommissioning";
    case NodeStatus::kLost:
      return "lost";
    case NodeStatus::kRemoved:
      return "removed";
  }
  return "unknown";
}

const char* ConflictModeName(ConflictMode mode) {
  return mode == ConflictMode::kFineGrained ? "fine-grained" : "coarse-grained";
}

const char* TransactionModeName(TransactionMode mode) {
  return mode == TransactionMode::kIncremental ? "incremental" : "all-or-nothing";
}

const char* ClaimOutcomeName(ClaimOutcome outcome) {
  switch (outcome) {
    case ClaimOutcome::kCommitted:
      return "committed";
    case ClaimOutcome::kNoFit:
      return "no-fit";
    case ClaimOutcome::kChanged:
      return "changed";
    case ClaimOutcome::kNotRunning:
      return "not-running";
    case ClaimOutcome::kUnknownNode:
      return "unknown-node";
    case ClaimOutcome::kAborted:
      return "aborted";
  }
  return "unknown";
}

}  // namespace spindle::pool
