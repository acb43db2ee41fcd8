// The cell-state service: what a ParSync scheduler in another process
// (`spindle scheduler`) needs from the RM's master copy of the cell
// (scheduler_pool/remote/README.md). Compiled by Debian's thrift-compiler at
// build time (`thrift --gen cpp`); carried by TCompactProtocol over
// TFramedTransport (README.md says why, with figures).
//
// Field numbers are the wire: never renumber, only add.
namespace cpp spindle.pool.remote.wire

// A Resource's dimensions (memory-mb, vcores, extended types), trailing
// zeros left out.
typedef list<i64> Dims

// Who calls: the member id the service handed out at join and the service's
// epoch (a restarted service refuses tokens of its predecessor).
struct MemberToken {
  1: i64 member
  2: i64 epoch
}

enum ErrorKind {
  LEASE_EXPIRED = 1,      // the lease lapsed or the member left: join again
  STALE_COMMIT = 2,       // a commit older than the member's last one
  INVALID_ARGUMENT = 3,
  NOT_FOUND = 4,
  INTERNAL = 5,
}

exception CellStateError {
  1: ErrorKind kind
  2: string message
}

// A queue as a member orders the applications in it (the service keeps its
// limits and checks every claim against them).
struct WireQueue {
  1: string name
  2: i8 ordering               // QueueOrdering
  3: bool fair_size_based_weight
}

struct JoinReply {
  1: MemberToken token
  2: i64 lease_ms              // renew well within it
  3: i32 num_partitions
  4: list<string> queues       // the service's queues, in QueueId order
  // The same queues with their orderings (4 stays for peers that read only
  // names), and the ledger's generation of them.
  5: optional list<WireQueue> queue_orderings
  6: optional i64 queues_generation
}

// One node as the master holds it (NodeState).
struct WireNode {
  1: i32 node                  // NodeId value
  2: Dims total
  3: Dims allocated
  4: i64 version
  5: double score
  6: i32 rack
  7: i8 status               // NodeStatus
  8: i16 label
  9: bool overcommitted
}

// The scheduler's copy of one partition: whether it has one, the version
// it reflects and its size.
struct PartitionWant {
  1: i32 partition
  2: bool have_copy
  3: i64 since_version
  4: i32 copy_size
}

// DiffSync's answer for one partition: only the nodes changed since the
// copy's version, or (full) every node.
struct PartitionSlice {
  1: i32 partition
  2: i64 version
  3: bool full
  4: i32 node_count
  5: list<WireNode> nodes
}

struct SyncReply {
  1: list<PartitionSlice> slices
  2: Dims capacity             // of running nodes
  3: i64 labelled_nodes
  4: double utilisation
}

// A claim (transaction.h Claim) and whom it is for (ClaimOwner).
struct WireClaim {
  1: i32 node
  2: Dims resource
  3: i64 seen_version
  4: i16 label
  5: i64 app
  6: i32 priority
  7: i64 allocation_request_id
  8: i8 locality
  9: bool preferred
}

struct CommitRequest {
  1: MemberToken token
  // Increasing per member; a repeat of the last one (a retry after a lost
  // answer) gets the first answer again and applies nothing twice.
  2: i64 seq
  3: i8 conflict             // ConflictMode
  4: i8 mode                 // TransactionMode
  5: list<WireClaim> claims
}

struct CommitReply {
  1: binary outcomes           // one ClaimOutcome per claim
  2: list<WireNode> refreshed  // nodes of refused claims, after the commit
  3: i64 committed
  4: i64 conflicted
}

struct WireAsk {
  1: i32 priority
  2: i64 allocation_request_id
  3: Dims capability
  4: i64 count
  5: list<i32> nodes
  6: list<i32> racks
  7: bool relax_locality
  8: i16 label
  9: bool am_container
}

struct WireApp {
  1: i64 app
  2: i32 queue
  3: i32 priority
  4: i32 user
  5: bool held
  6: i64 order
  7: list<WireAsk> asks        // absolute totals for this member
  8: list<i32> blacklist_nodes
  9: list<i32> blacklist_racks
  10: Dims used                // what it holds as the service counts it
}

// The apps pinned to a member that changed since a board version.
struct AssignmentReply {
  1: i64 version
  2: list<WireApp> apps
  3: list<i64> removed
  // Set when the queues are not of the generation the member named.
  4: optional i64 queues_generation
  5: optional list<WireQueue> queues
}

// A member's counters, sent with each renewal.
struct MemberReport {
  1: i64 steps
  2: i64 placements
  3: i64 conflicts
  4: i64 transactions
  5: i64 partition_syncs
  6: i64 full_syncs
}

struct MemberMetrics {
  1: i64 member
  2: string name
  3: i32 apps
  4: MemberReport report
}

struct ServiceMetrics {
  1: list<MemberMetrics> members
  2: i64 joins
  3: i64 leases_expired
  4: i64 commits
  5: i64 commits_refused
  6: i64 commits_replayed
  7: i64 apps_reassigned
}

service CellStateService {
  JoinReply join(1: string name) throws (1: CellStateError error)
  void renew(1: MemberToken token, 2: MemberReport report) throws (1: CellStateError error)
  void leave(1: MemberToken token) throws (1: CellStateError error)
  SyncReply sync(1: MemberToken token, 2: list<PartitionWant> partitions)
      throws (1: CellStateError error)
  CommitReply commit(1: CommitRequest request) throws (1: CellStateError error)
  AssignmentReply assignments(1: MemberToken token, 2: i64 since_version, 3: i64 queues_since)
      throws (1: CellStateError error)
  ServiceMetrics metrics()
}
