#include "scheduler_pool/remote/scheduler_member.h"

#include <glog/logging.h>

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
  std::vector<QueueSpec> specs;
  for (const std::string& name : info.queues) {
    QueueSpec& spec = specs.emplace_back();
    spec.name = name;
  }
  auto queues = std::make_unique<QueueLedger>();
  if (!specs.empty()) RETURN_NOT_OK(queues->SetQueues(specs).status());

  token_ = info.token;
  lease_ = info.lease;
  renewed_at_ = clock_->Now();
  board_version_ = 0;
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

Status SchedulerMember::ReadBoard() {
  ASSIGN_OR_RETURN(Assignments board, connection_->AssignmentsSince(token_, board_version_));
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
  }
  board_version_ = board.version;
  return Status::OK();
}

Result<StepResult> SchedulerMember::Step(TimePoint now) {
  if (!joined()) return Status::Aborted("not a member: join first");
  RETURN_NOT_OK(Renew(now));
  RETURN_NOT_OK(ReadBoard());
  const StepResult result = scheduler_->RunOnce(now);
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
  return result;
}

}  // namespace spindle::pool::remote
