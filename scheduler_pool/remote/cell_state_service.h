// CellStateService: the RM side of the cell-state service. It wraps the
// in-process CellState (every commit goes through CellState::Commit: there
// is no second copy of the commit rules) and adds what schedulers outside
// the pool's threads need:
//  - members with leases: Join hands out a token; a member that does not
//    Renew within one lease is dropped at the service's next call
//    (ExpireLeases), and its applications go to the other members at once;
//    its later calls are refused (Aborted), so a partitioned scheduler's
//    late commit is never applied;
//  - a board of applications pinned to members, with their asks as absolute
//    totals, versioned so that a member copies only what changed;
//  - the pool's queue rules: each claim is reserved in the pool's ledger
//    (queue maximum, user limit, pool-wide order) before the cell state
//    sees it, as an in-process scheduler reserves before it places; the
//    service tells the ledger which of its apps' users are active and what
//    its apps ask for, as in-process schedulers do;
//  - placements: a committed claim becomes its application's placement in
//    the commit itself (its reservation becomes its queue's usage), so a
//    member that dies right after committing loses nothing; the RM takes
//    them as it takes the pool's.
// Commits carry a per-member sequence number: a retry of the last one gets
// its first answer, never a second application.
//
// Time is the injected Clock's: tests expire leases on a ManualClock.
// Thread-safety: all methods are thread-safe. mu_ serialises membership,
// the board and commits (it is held across CellState::Commit so that a
// commit and a lease expiry are ordered: either the commit's placements are
// recorded before the apps move, or the commit is refused). Lock order: mu_
// before the cell state's mutexes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/cell_state.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/remote/cell_service_connection.h"

namespace spindle::pool::remote {

struct CellStateServiceOptions {
  // spindle.scheduler.remote.lease-ms: how long a member stays without
  // renewing. Default: 3000.
  Duration lease = std::chrono::milliseconds(3000);
  // The service's epoch in tokens. Default: the clock's wall time at start.
  int64_t epoch = 0;
};

struct MemberStatus {
  int64_t member = 0;
  std::string name;
  int apps = 0;
  MemberReport report;
};

struct ServiceMetrics {
  std::vector<MemberStatus> members;
  int64_t joins = 0;
  int64_t leases_expired = 0;
  int64_t commits = 0;
  int64_t commits_refused = 0;   // lease lapsed, stale or malformed
  int64_t commits_replayed = 0;  // a retried commit answered from memory
  // Claims the pool's ledger did not grant (the queue's maximum, the user's
  // limit, the queue's pool-wide order): refused as kAborted.
  int64_t claims_refused_by_queue = 0;
  int64_t apps_reassigned = 0;
};

class CellStateService final : public CellServiceConnection {
 public:
  // `cell`, `queues` and `clock` outlive the service. Members learn the
  // ledger's queue names at Join; committed placements are charged to it.
  CellStateService(CellState* cell, QueueLedger* queues, const Clock* clock,
                   const CellStateServiceOptions& options);

  // ---- Members (CellServiceConnection) ----
  Result<JoinInfo> Join(const std::string& name) override EXCLUDES(mu_);
  Status Renew(const MemberToken& token, const MemberReport& report) override EXCLUDES(mu_);
  Status Leave(const MemberToken& token) override EXCLUDES(mu_);
  Status Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
              std::vector<PartitionSlice>* slices, CellFigures* figures) override EXCLUDES(mu_);
  Status Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                CommitResult* result) override EXCLUDES(mu_);
  Result<Assignments> AssignmentsSince(const MemberToken& token, uint64_t since,
                                       uint64_t queues_since) override EXCLUDES(mu_);

  // ---- The RM ----
  // Pins a new app to the member with the fewest apps (or none yet: it
  // waits for the first member). AlreadyExists if known.
  Status AddApp(const AppSpec& spec) EXCLUDES(mu_);
  // The app's asks as absolute totals per key (Ask); keys not named keep
  // theirs. NotFound for an unknown app; InvalidArgument for a negative
  // count or a non-positive capability.
  Status SetAsks(AppId app, const std::vector<Ask>& asks) EXCLUDES(mu_);
  // New queue, priority and held flag for a known app (its user and order
  // stay); placements not yet taken move their charge to the new queue.
  // NotFound if unknown.
  Status UpdateApp(const AppSpec& spec) EXCLUDES(mu_);
  // The app's blacklist, whole. NotFound if unknown.
  Status SetBlacklist(AppId app, std::vector<NodeId> nodes, std::vector<RackId> racks)
      EXCLUDES(mu_);
  // Forgets the app; its placements not taken are appended to `untaken`
  // (the caller releases them). NotFound if unknown.
  Status RemoveApp(AppId app, std::vector<Placement>* untaken) EXCLUDES(mu_);
  // Appends the app's committed placements to `out`. NotFound if unknown.
  Status TakePlacements(AppId app, std::vector<Placement>* out) EXCLUDES(mu_);
  // A container of one of the app's placements completed (the pool's
  // ReleaseBatch): its usage, for its queue's fair order (in a fair-ordered
  // queue the app's owner is sent the new figure). Unknown apps are
  // ignored.
  void OnReleased(AppId app, const Resource& amount) EXCLUDES(mu_);
  // The member an app is pinned to (0: none yet). NotFound if unknown.
  Result<int64_t> OwnerOf(AppId app) const EXCLUDES(mu_);

  // Drops every member whose lease ended by now; every call does it first.
  void ExpireLeases() EXCLUDES(mu_);
  ServiceMetrics Metrics() const EXCLUDES(mu_);
  int64_t epoch() const { return epoch_; }

 private:
  struct Member {
    std::string name;
    TimePoint deadline;
    int apps = 0;
    uint64_t last_seq = 0;
    CommitResult last_result;  // the answer to last_seq
    MemberReport report;
    // Apps taken away since (board version), for AssignmentsSince.
    std::vector<std::pair<uint64_t, AppId>> removed;
  };
  struct KeyState {
    Ask ask;                  // the RM's total
    int64_t untaken = 0;      // committed, not yet taken by the RM
    int64_t taken_since = 0;  // taken by the RM since the RM's last total
  };
  struct App {
    AppSpec spec;
    std::vector<KeyState> keys;
    int64_t owner = 0;
    uint64_t version = 0;  // board version of its last change for its owner
    TimePoint asked_at;
    std::vector<Placement> outbox;
    std::vector<NodeId> blacklist_nodes;
    std::vector<RackId> blacklist_racks;
    Resource usage;  // committed, not yet released
  };
  // What a claim of a commit holds in the pool's ledger.
  struct Charge {
    bool reserved = false;
    QueueId queue;
    UserId user;
  };

  // The member of `token` if its lease holds; Aborted otherwise.
  Result<Member*> Find(const MemberToken& token) REQUIRES(mu_);
  void ExpireLocked(TimePoint now) REQUIRES(mu_);
  // Returns how many apps moved to other members (or wait for one).
  int DropMember(int64_t member) REQUIRES(mu_);
  // The live member with the fewest apps other than `except`, or 0.
  int64_t LeastLoaded(int64_t except) const REQUIRES(mu_);
  // Pins `app` to `member` (0: unpinned) and bumps its board version.
  void Assign(App* app, int64_t member) REQUIRES(mu_);
  // The owner's total of `k`: the RM's, less what the RM has not seen
  // (committed and not taken, or taken since its last total). Computed when
  // the board is read: the owner's scheduler counts what it committed
  // before, so a total frozen earlier would ask it again.
  static int64_t Forwarded(const KeyState& k);
  // The queues as members order them (JoinInfo, Assignments).
  std::vector<MemberQueue> MemberQueues() const;
  // Reserves the claims of `me`'s own apps in the pool's ledger, commits
  // those it grants through the cell state and records the committed ones
  // as placements; claims for other apps, or that the ledger refuses, are
  // refused (kAborted).
  void CommitLocked(int64_t me, const Transaction& txn, CommitResult* result) REQUIRES(mu_);
  // Tasks the app still asks for that no member has committed (only in the
  // default partition if `default_label_only`); `unit` (may be null) gets
  // the capability of the first such ask.
  static int64_t Wanted(const App& app, bool default_label_only, Resource* unit);
  // Tells the ledger whether the app's user is active and, in a queue
  // ordered pool-wide, what the app asks for (as an in-process scheduler
  // reports its apps).
  void ReportToLedger(const App& app) REQUIRES(mu_);
  // The ledger forgets the app (removed, or moved to another queue).
  void Forget(const App& app) REQUIRES(mu_);

  CellState* const cell_;
  QueueLedger* const queues_;
  const Clock* const clock_;
  const Duration lease_;
  const int64_t epoch_;

  mutable Mutex mu_;
  std::map<int64_t, Member> members_ GUARDED_BY(mu_);
  std::unordered_map<AppId, App> apps_ GUARDED_BY(mu_);
  int64_t next_member_ GUARDED_BY(mu_) = 1;
  uint64_t board_version_ GUARDED_BY(mu_) = 0;
  uint64_t next_placement_ GUARDED_BY(mu_) = 0;
  ServiceMetrics counters_ GUARDED_BY(mu_);
  // Commit scratch.
  Transaction sub_ GUARDED_BY(mu_);
  CommitResult sub_result_ GUARDED_BY(mu_);
  std::vector<size_t> sub_index_ GUARDED_BY(mu_);
  std::vector<Charge> charges_ GUARDED_BY(mu_);
};

}  // namespace spindle::pool::remote
