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
// starts a fresh scheduler from the service's record.
//
// Queues: the member's ledger has the service's queue names without
// limits; quotas, user limits and the pool-wide order of a queue are not
// checked by a member yet (README.md, "next").
//
// Thread-safety: none; one thread drives a member.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>

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
  // `connection` and `clock` outlive the member.
  SchedulerMember(CellServiceConnection* connection, const Clock* clock,
                  const MemberOptions& options);
  ~SchedulerMember();

  // Joins the service (leaving any previous membership first, best effort)
  // and builds a fresh scheduler. Errors of the connection or of the
  // options against the service's cell (InvalidArgument).
  Status Join();
  // One step at `now` (see above): Aborted when the lease is lost; the
  // connection's error when it cannot reach the service.
  Result<StepResult> Step(TimePoint now);
  Status Leave();

  bool joined() const { return scheduler_ != nullptr; }
  const MemberToken& token() const { return token_; }
  int apps() const { return static_cast<int>(apps_.size()); }
  const Scheduler* scheduler() const { return scheduler_.get(); }

 private:
  Status Renew(TimePoint now);
  Status ReadBoard();

  CellServiceConnection* const connection_;
  const Clock* const clock_;
  const MemberOptions options_;

  MemberToken token_;
  Duration lease_{0};
  TimePoint renewed_at_;
  uint64_t board_version_ = 0;
  std::unique_ptr<RemoteCell> cell_;
  std::unique_ptr<QueueLedger> queues_;
  std::unique_ptr<NodeLabelTable> labels_;
  std::unique_ptr<SyncSchedule> schedule_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unordered_set<AppId> apps_;
  std::vector<Placement> scratch_;
};

}  // namespace spindle::pool::remote
