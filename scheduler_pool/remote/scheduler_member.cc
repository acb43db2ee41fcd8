#include "scheduler_pool/remote/scheduler_member.h"

#include <glog/logging.h>

#include <algorithm>

#include "scheduler_pool/policy/quota_drf_policy.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::pool::remote {

SchedulerMember::SchedulerMember(CellServiceConnection* connection, const Clock* clock,
                                 const MemberOptions& options)
    : connection_(connection), clock_(clock), options_(options) {}

SchedulerMember::~SchedulerMember() = default;

Status SchedulerMember::Join() {
  if (joined()) Leave().PermitUnchecked();  // the service may have dropped it already
  ASSIGN_OR_RETURN(JoinInfo info, connection_->Join(options_.name));
  PoolOptions options = options_.pool;
  options.num_partitions = info.num_partitions;
  RETURN_NOT_OK(options.Validate());
  if (options_.index < 0 || options_.index >= options.effective_schedulers()) {
    return Status::InvalidArgument("scheduler index " + std::to_string(options_.index) +
                                   " outside 0.." +
                                   std::to_string(options.effective_schedulers() - 1));
  }
  auto queues = std::make_unique<QueueLedger>();
  RETURN_NOT_OK(SetQueues(queues.get(), info.queues));

  token_ = info.token;
  lease_ = info.lease;
  renewed_at_ = clock_->Now();
  board_version_ = 0;
  queues_generation_ = info.queues_generation;
  held_until_.reset();
  backoff_ = Duration::zero();
  apps_.clear();
  scheduler_.reset();
  queues_ = std::move(queues);
  labels_ = std::make_unique<NodeLabelTable>();
  cell_ = std::make_unique<RemoteCell>(connection_, token_, info.num_partitions);
  schedule_ = std::make_unique<SyncSchedule>(options.mode, options.effective_schedulers(),
                                             options.num_partitions, options.sync_gap);
  SchedulerContext ctx;
  ctx.cell = cell_.get();
  ctx.queues = queues_.get();
  ctx.clock = clock_;
  ctx.schedule = schedule_.get();
  ctx.labels = labels_.get();
  ctx.epoch = renewed_at_;
  scheduler_ = std::make_unique<Scheduler>(
      options_.index, options, ctx, std::make_unique<QuotaDrfPolicy>(), MakeStrategy(options));
  LOG(INFO) << "scheduler member " << token_.member << " joined (lease "
            << std::chrono::duration_cast<std::chrono::milliseconds>(lease_).count() << " ms, "
            << info.num_partitions << " partitions)";
  return Status::OK();
}

Status SchedulerMember::Leave() {
  if (!joined()) return Status::OK();
  scheduler_.reset();
  apps_.clear();
  return connection_->Leave(token_);
}

Status SchedulerMember::Renew(TimePoint now) {
  // A third of the lease: two renewals may be lost before it lapses.
  if (now - renewed_at_ < lease_ / 3) return Status::OK();
  const SchedulerMetrics m = scheduler_->Metrics();
  MemberReport report;
  report.steps = m.steps;
  report.placements = m.placements;
  report.conflicts = m.conflicts;
  report.transactions = m.transactions;
  report.partition_syncs = m.partition_syncs;
  report.full_syncs = m.full_syncs;
  RETURN_NOT_OK(connection_->Renew(token_, report));
  renewed_at_ = now;
  return Status::OK();
}

Status SchedulerMember::SetQueues(QueueLedger* ledger, const std::vector<MemberQueue>& queues) {
  // Names and orderings only: the queues' limits are the service's, which
  // checks each claim against the pool's ledger. The ids are the service's
  // (its queues in QueueId order; a ledger never drops a queue).
  std::vector<QueueSpec> specs;
  specs.reserve(queues.size());
  for (const MemberQueue& q : queues) {
    QueueSpec& spec = specs.emplace_back();
    spec.name = q.name;
    spec.ordering = q.ordering;
    spec.fair_size_based_weight = q.fair_size_based_weight;
  }
  if (specs.empty()) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<QueueId> ids, ledger->SetQueues(specs));
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != QueueId(static_cast<uint32_t>(i))) {
      return Status::InvalidArgument("queue '" + specs[i].name + "' is queue " + std::to_string(i) +
                                     " at the service but " + std::to_string(ids[i].value()) +
                                     " here");
    }
  }
  return Status::OK();
}

Result<bool> SchedulerMember::ReadBoard() {
  ASSIGN_OR_RETURN(Assignments board,
                   connection_->AssignmentsSince(token_, board_version_, queues_generation_));
  if (board.queues_changed) {
    const Status set = SetQueues(queues_.get(), board.queues);
    if (!set.ok()) {
      // The member's queue ids are no longer the service's, so every claim
      // it made would charge the wrong queue: leave (its apps go back to
      // the service at once rather than after a lease) and start afresh
      // from the service's record, as after a lapsed lease.
      const Status left = Leave();
      return Status::Aborted("the member's queues differ from the service's (" + set.message() +
                             "); join again" +
                             (left.ok() ? std::string() : " (leave: " + left.ToString() + ")"));
    }
    queues_generation_ = board.queues_generation;
  }
  const bool changed = board.queues_changed || !board.apps.empty() || !board.removed.empty();
  for (AppId app : board.removed) {
    if (apps_.erase(app) > 0) scheduler_->RemoveApp(app);
  }
  for (AssignedApp& a : board.apps) {
    if (apps_.insert(a.spec.id).second) {
      scheduler_->AddApp(a.spec);
    } else {
      scheduler_->UpdateApp(a.spec);
    }
    scheduler_->SetBlacklist(a.spec.id, std::move(a.blacklist_nodes), std::move(a.blacklist_racks));
    scheduler_->SetAsks(a.spec.id, std::move(a.asks));
    // The service's figure: the scheduler knows only what it committed
    // itself, not what the app held before it took it over nor what was
    // released since.
    scheduler_->SetUsage(a.spec.id, a.used);
  }
  board_version_ = board.version;
  return changed;
}

Result<StepResult> SchedulerMember::Step(TimePoint now) {
  if (!joined()) return Status::Aborted("not a member: join first");
  RETURN_NOT_OK(Renew(now));
  ASSIGN_OR_RETURN(const bool board_changed, ReadBoard());
  if (held_until_.has_value() && !board_changed && now < *held_until_) {
    // The last step's claims were all refused and nothing that could change
    // that has come: no sync is due and the board is as it was.
    ++held_steps_;
    StepResult held;
    held.backlog = held_backlog_;
    held.next_sync = *held_until_;
    held.decided_until = now;
    return held;
  }
  held_until_.reset();
  StepResult result = scheduler_->RunOnce(now);
  // The service holds the placements; the scheduler's copies only count
  // against the totals it was given, which the service already adjusts.
  for (AppId app : apps_) {
    scratch_.clear();
    scheduler_->TakePlacements(app, &scratch_);
  }
  if (cell_->lost()) {
    Status error = cell_->last_error();
    if (error.ok()) error = Status::Aborted("lease lost");
    return error.code() == Status::Code::kAborted
               ? error
               : Status::Aborted("commit outcome unknown: " + error.ToString());
  }
  if (result.placed == 0 && result.conflicts > 0) {
    // Every claim refused, after the scheduler's own retries on the nodes
    // the refusals sent back. The service's refusals are mostly its queue
    // rules (a maximum, a user limit, the pool-wide order), which this
    // member's ledger does not know: the same claims again at once would be
    // refused again, a round trip each. Try again at the next sync (other
    // members' commits and releases show there) and no sooner than a
    // backoff that doubles while nothing is placed, up to G; a change on
    // the board (asks, apps, usage, queues) ends the wait at once.
    backoff_ = backoff_ == Duration::zero() ? kFirstBackoff
                                            : std::min(backoff_ * 2, options_.pool.sync_gap);
    held_until_ = std::max(result.next_sync, now + backoff_);
    held_backlog_ = result.backlog;
    result.next_sync = *held_until_;
  } else {
    backoff_ = Duration::zero();
  }
  return result;
}

}  // namespace spindle::pool::remote
