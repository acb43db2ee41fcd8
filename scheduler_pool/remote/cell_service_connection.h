// CellServiceConnection: what a scheduler of the pool that is a *member* of
// the cell-state service (in `spindle rm` or in its own `spindle scheduler`
// process) asks of the service: membership with a lease, DiffSync slices of
// partitions, transactions, and the applications pinned to it. The service
// itself (CellStateService) implements it for members in its own process;
// ThriftConnection implements it over the wire, so both kinds of member run
// the same code (SchedulerMember, RemoteCell).
//
// Errors, as Status codes (and CellStateError kinds on the wire):
//  - Aborted: the lease lapsed, the member left, or the token is another
//    service epoch's (nothing was applied: join again); or a commit older
//    than the member's last ("stale commit").
//  - InvalidArgument: a malformed request (nothing applied).
//  - Unavailable / IoError: the transport failed (a ThriftConnection).
//
// Thread-safety: implementations say; a member calls from its owner thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "base/status.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/cell_state_client.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/transaction.h"

namespace spindle::pool::remote {

// Who calls: the member id handed out at Join and the service's epoch (a
// restarted service refuses its predecessor's tokens).
struct MemberToken {
  int64_t member = 0;
  int64_t epoch = 0;
};

// A queue as a member's scheduler orders the applications in it: the same
// fields of QueueSpec the in-process schedulers' QuotaDrfPolicy reads for
// the order within a queue, so a member and the service's ledger put a
// queue's applications in the same order. Its limits stay at the service,
// which checks every claim against them.
struct MemberQueue {
  std::string name;
  QueueOrdering ordering = QueueOrdering::kFifo;
  bool fair_size_based_weight = false;
};

struct JoinInfo {
  MemberToken token;
  Duration lease{0};
  int num_partitions = 0;
  std::vector<MemberQueue> queues;  // in QueueId order
  // QueueLedger::generation() of `queues`: the member passes it to
  // AssignmentsSince, which sends the queues again once they changed.
  uint64_t queues_generation = 0;
};

// The scheduler's copy of one partition.
struct PartitionWant {
  int partition = 0;
  bool have_copy = false;
  uint64_t since_version = 0;
  uint32_t copy_size = 0;
};

// DiffSync's answer for one partition: the nodes changed since the copy's
// version as (slot, state), or, when `info.full`, every node in `nodes`.
struct PartitionSlice {
  int partition = 0;
  SyncInfo info;
  uint32_t node_count = 0;
  std::vector<NodeState> nodes;                         // full
  std::vector<std::pair<uint32_t, NodeState>> changes;  // delta
};

// Cell-wide figures a scheduler's policy reads each step, sent with syncs.
struct CellFigures {
  Resource capacity;
  int64_t labelled_nodes = 0;
  double utilisation = 0;
};

// An application pinned to the member, with its asks as absolute totals for
// this member (the app's totals less what the service holds committed for
// the app and not yet delivered).
struct AssignedApp {
  AppSpec spec;
  std::vector<Ask> asks;
  // What it holds (committed, not yet released) as the service counts it:
  // a fair-ordered queue's magnitude, which a member that took the app over
  // or whose containers were released cannot know from its own commits.
  Resource used;
  // Its blacklist, whole (YARN's).
  std::vector<NodeId> blacklist_nodes;
  std::vector<RackId> blacklist_racks;
};

struct Assignments {
  uint64_t version = 0;  // ask again with this as `since`
  std::vector<AssignedApp> apps;
  std::vector<AppId> removed;
  // Set when the service's queues are not those of the generation the
  // member named: all of them, in QueueId order, and their generation.
  bool queues_changed = false;
  uint64_t queues_generation = 0;
  std::vector<MemberQueue> queues;
};

// A member's counters, sent with each renewal (SchedulerMetrics' subset).
struct MemberReport {
  int64_t steps = 0;
  int64_t placements = 0;
  int64_t conflicts = 0;
  int64_t transactions = 0;
  int64_t partition_syncs = 0;
  int64_t full_syncs = 0;
};

class CellServiceConnection {
 public:
  virtual ~CellServiceConnection() = default;

  // A fresh membership whose lease runs from now.
  virtual Result<JoinInfo> Join(const std::string& name) = 0;
  // Extends the lease by one lease from now.
  virtual Status Renew(const MemberToken& token, const MemberReport& report) = 0;
  // Ends the membership; its apps go to the other members at once.
  virtual Status Leave(const MemberToken& token) = 0;
  // One DiffSync slice: each wanted partition brought up to date.
  virtual Status Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
                      std::vector<PartitionSlice>* slices, CellFigures* figures) = 0;
  // Checks and applies `txn` (its owners name every claim's app, which must
  // be pinned to this member) as CellState::Commit does, and records each
  // committed claim as its app's placement. `seq` increases per member: the
  // last one again returns its first answer (nothing applied twice), an
  // older one is refused (Aborted, "stale commit").
  virtual Status Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                        CommitResult* result) = 0;
  // The apps pinned to this member that changed since board version `since`
  // (an app changes with its spec, asks or blacklist, and, in a queue of
  // fair ordering, with its usage), and the queues when their generation is
  // not `queues_since`.
  virtual Result<Assignments> AssignmentsSince(const MemberToken& token, uint64_t since,
                                               uint64_t queues_since) = 0;
};

}  // namespace spindle::pool::remote
