// SchedulerMember: one ParSync scheduler that is a member of the cell-state
// service: the pool's Scheduler, unchanged, over a RemoteCell, fed the apps
// and asks the service pins to it. `spindle scheduler` runs one over a
// ThriftConnection; the RM can run one in-process over the service itself,
// so a pool mixes both kinds (README.md).
//
// A step: renew the lease when due, read the board's changes (apps added,
// removed, new totals) into the scheduler's inbox, RunOnce, and drop the
// scheduler's own copies of its placements (the service recorded them in
// the commit). When the service refuses the token (the lease lapsed, the
// member was partitioned away) the step returns Aborted: Join again, which
// starts a fresh scheduler from the service's record. So does a board whose
// queues no longer line up with the member's queue ids (the member leaves
// first, so that its apps go back at once).
//
// Queues: the member's ledger has the service's queues with their
// application ordering (MemberQueue: FIFO, fair and its size-based weight),
// taken at Join and again from the board whenever the service's queues
// change, and each app's usage as the service counts it, so the member's
// QuotaDrfPolicy orders a queue's apps as the service's ledger does. Limits
// (maximum, user limits) and the pool-wide order are checked by the service
// on each claim, not by the member.
//
// Refused claims: a step whose claims were all refused (the service's queue
// rules, which the member cannot see, or conflicts its retries could not
// get past) holds the member's scheduler back: the following steps renew and
// read the board only, until the next sync slot and a backoff that doubles
// from kFirstBackoff up to G, or until the board changes.
//
// Thread-safety: none; one thread drives a member.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "scheduler_pool/node_labels.h"
#include "scheduler_pool/pool_options.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/remote/cell_service_connection.h"
#include "scheduler_pool/remote/remote_cell.h"
#include "scheduler_pool/scheduler.h"
#include "scheduler_pool/sync_schedule.h"

namespace spindle::pool::remote {

struct MemberOptions {
  // The member's name in the service's metrics. Default: "scheduler".
  std::string name = "scheduler";
  // The scheduler's knobs (mode, N for the sync rotation, G, strategy, ...).
  // num_partitions is taken from the service at Join.
  PoolOptions pool;
  // This scheduler's index in the sync rotation (0..N-1). Default: 0.
  int index = 0;
};

class SchedulerMember {
 public:
  // The first wait after a step whose claims were all refused.
  static constexpr Duration kFirstBackoff = std::chrono::milliseconds(1);

  // `connection` and `clock` outlive the member.
  SchedulerMember(CellServiceConnection* connection, const Clock* clock,
                  const MemberOptions& options);
  ~SchedulerMember();

  // Joins the service (leaving any previous membership first, best effort)
  // and builds a fresh scheduler. Errors of the connection or of the
  // options against the service's cell (InvalidArgument).
  Status Join();
  // One step at `now` (see above): Aborted when the lease is lost; the
  // connection's error when it cannot reach the service. A step held back
  // after refused claims reports nothing placed, no conflicts, and the
  // time it waits for as `next_sync`.
  Result<StepResult> Step(TimePoint now);
  Status Leave();

  bool joined() const { return scheduler_ != nullptr; }
  const MemberToken& token() const { return token_; }
  int apps() const { return static_cast<int>(apps_.size()); }
  const Scheduler* scheduler() const { return scheduler_.get(); }
  // The member's own ledger (queue names and orderings); null before Join.
  const QueueLedger* queues() const { return queues_.get(); }
  // Steps that did not run the scheduler because the last one's claims
  // were all refused and nothing had changed since.
  int64_t held_steps() const { return held_steps_; }

 private:
  Status Renew(TimePoint now);
  // Reads the board's changes into the scheduler; true if there were any.
  Result<bool> ReadBoard();
  static Status SetQueues(QueueLedger* ledger, const std::vector<MemberQueue>& queues);

  CellServiceConnection* const connection_;
  const Clock* const clock_;
  const MemberOptions options_;

  MemberToken token_;
  Duration lease_{0};
  TimePoint renewed_at_;
  uint64_t board_version_ = 0;
  uint64_t queues_generation_ = 0;
  // Set while the scheduler is held back after a step of refused claims.
  std::optional<TimePoint> held_until_;
  int64_t held_backlog_ = 0;
  Duration backoff_{0};
  int64_t held_steps_ = 0;
  std::unique_ptr<RemoteCell> cell_;
  std::unique_ptr<QueueLedger> queues_;
  std::unique_ptr<NodeLabelTable> labels_;
  std::unique_ptr<SyncSchedule> schedule_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unordered_set<AppId> apps_;
  std::vector<Placement> scratch_;
};

}  // namespace spindle::pool::remote
