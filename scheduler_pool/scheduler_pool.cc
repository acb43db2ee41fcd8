#include "scheduler_pool/scheduler_pool.h"

#include <glog/logging.h>

#include <algorithm>
#include <sstream>

#include "scheduler_pool/policy/quota_drf_policy.h"
#include "scheduler_pool/remote/cell_state_service.h"
#include "scheduler_pool/strategies/adaptive.h"
#include "scheduler_pool/strategies/latency_first.h"
#include "scheduler_pool/strategies/quality_first.h"
#include "scheduler_pool/strategies/score_sampling.h"

namespace spindle::pool {

std::unique_ptr<PlacementStrategy> MakeStrategy(const PoolOptions& o) {
  switch (o.strategy) {
    case StrategyKind::kLatencyFirst:
      return std::make_unique<LatencyFirst>(o.latency_first_preferences);
    case StrategyKind::kQualityFirst:
      return std::make_unique<QualityFirst>();
    case StrategyKind::kAdaptive:
      return std::make_unique<Adaptive>(o.tau, o.ema_alpha, o.latency_first_preferences);
    case StrategyKind::kScoreSampling:
      return std::make_unique<ScoreSampling>();
  }
  return std::make_unique<LatencyFirst>();
}

SchedulerPool::SchedulerPool(const PoolOptions& options, const Clock* clock)
    : options_(options),
      clock_(clock),
      epoch_(clock->Now()),
      series_(options.series_seconds),
      pinning_(options.effective_schedulers() + options.remote_schedulers, options.pinning,
               options.queue_groups) {}

Result<std::unique_ptr<SchedulerPool>> SchedulerPool::Create(const PoolOptions& options,
                                                             const Clock* clock,
                                                             PolicyFactory policy_factory) {
  RETURN_NOT_OK(options.Validate());
  if (clock == nullptr) return Status::InvalidArgument("no clock");
  std::unique_ptr<SchedulerPool> pool(new SchedulerPool(options, clock));
  CellStateOptions cell_options;
  cell_options.num_partitions = options.num_partitions;
  cell_options.change_log_entries = options.change_log_entries;
  pool->cell_ = std::make_unique<CellState>(cell_options);
  const int n = options.effective_schedulers();
  pool->schedule_ =
      std::make_unique<SyncSchedule>(options.mode, n, options.num_partitions, options.sync_gap);
  SchedulerContext ctx;
  ctx.cell = pool->cell_.get();
  ctx.queues = &pool->queues_;
  ctx.clock = clock;
  ctx.schedule = pool->schedule_.get();
  ctx.labels = &pool->labels_;
  ctx.series = &pool->series_;
  ctx.epoch = pool->epoch_;
  if (options.remote_schedulers > 0) {
    remote::CellStateServiceOptions service;
    service.lease = options.remote_lease;
    pool->remote_ = std::make_unique<remote::CellStateService>(pool->cell_.get(), &pool->queues_,
                                                               clock, service);
  }
  for (int i = 0; i < n; ++i) {
    std::unique_ptr<SchedulingPolicy> policy =
        policy_factory != nullptr ? policy_factory(i) : std::make_unique<QuotaDrfPolicy>();
    pool->schedulers_.push_back(
        std::make_unique<Scheduler>(i, options, ctx, std::move(policy), MakeStrategy(options)));
  }
  return pool;
}

SchedulerPool::~SchedulerPool() { Stop(); }

Status SchedulerPool::Start() {
  MutexLock lock(&threads_mu_);
  if (started_) return Status::Aborted("scheduler pool already started");
  started_ = true;
  for (int i = 0; i < num_schedulers(); ++i) {
    threads_.emplace_back([this, i] { ThreadMain(i); });
  }
  LOG(INFO) << "scheduler pool started: " << num_schedulers() << " scheduler(s), "
            << SyncModeName(options_.mode) << ", " << StrategyKindName(options_.strategy)
            << ", P=" << options_.num_partitions;
  return Status::OK();
}

void SchedulerPool::Stop() {
  MutexLock lock(&threads_mu_);
  if (threads_.empty()) return;
  stopping_.store(true, std::memory_order_release);
  for (auto& s : schedulers_) s->Wake();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void SchedulerPool::ThreadMain(int i) {
  Scheduler& s = *schedulers_[static_cast<size_t>(i)];
  while (!stopping_.load(std::memory_order_acquire)) {
    const StepResult r = s.RunOnce(clock_->Now());
    if (r.placed > 0 || r.conflicts > 0) continue;
    if (stopping_.load(std::memory_order_acquire)) break;
    s.WaitForWork(r.next_sync);
  }
}

Result<std::vector<QueueId>> SchedulerPool::SetQueues(const std::vector<QueueSpec>& specs) {
  std::vector<QueueSpec> interned = specs;
  for (QueueSpec& spec : interned) {
    for (UserWeight& w : spec.user_limits.user_weights) w.id = InternUser(w.user);
    for (PartitionShare& share : spec.partitions) share.id = InternLabel(share.label);
  }
  return queues_.SetQueues(interned);
}

UserId SchedulerPool::InternUser(std::string_view name) {
  MutexLock lock(&users_mu_);
  auto [it, added] = users_.try_emplace(std::string(name), static_cast<uint32_t>(users_.size()));
  return UserId(it->second);
}

int SchedulerPool::SchedulerFor(AppId app, std::string_view queue_name) const {
  return pinning_.SchedulerFor(app, std::string(queue_name));
}

int SchedulerPool::SchedulerOfApp(AppId app) const {
  MutexLock lock(&apps_mu_);
  auto it = apps_.find(app);
  return it == apps_.end() ? -1 : it->second.scheduler;
}

Status SchedulerPool::AddApp(const AppSpec& spec) {
  if (!spec.id.valid()) return Status::InvalidArgument("invalid application id");
  if (!queues_.Contains(spec.queue)) {
    return Status::InvalidArgument("application " + std::to_string(spec.id.value()) +
                                   ": unknown queue");
  }
  const std::string queue_name = queues_.Snapshot(spec.queue).spec.name;
  const int s = pinning_.SchedulerFor(spec.id, queue_name);
  AppSpec added = spec;
  {
    MutexLock lock(&apps_mu_);
    added.order = next_app_order_;
    if (!apps_.emplace(spec.id, AppEntry{s, spec.queue, spec.user, {}, spec.priority, added.order})
             .second) {
      return Status::AlreadyExists("application " + std::to_string(spec.id.value()) +
                                   " already added");
    }
    ++next_app_order_;
  }
  if (IsRemote(s)) return remote_->AddApp(added);
  schedulers_[static_cast<size_t>(s)]->AddApp(added);
  return Status::OK();
}

Status SchedulerPool::RemoveApp(AppId app) {
  int s = -1;
  {
    MutexLock lock(&apps_mu_);
    auto it = apps_.find(app);
    if (it == apps_.end()) {
      return Status::NotFound("application " + std::to_string(app.value()) + " not found");
    }
    s = it->second.scheduler;
    for (const auto& [key, label] : it->second.labelled_asks) labels_.AddWaiting(label, -1);
    apps_.erase(it);
  }
  std::vector<Placement> untaken;
  if (IsRemote(s)) {
    remote_->RemoveApp(app, &untaken).PermitUnchecked();  // known: added with the app
  } else {
    untaken = schedulers_[static_cast<size_t>(s)]->RemoveApp(app);
  }
  for (const Placement& p : untaken) {
    cell_->Release(p.node, p.resource).PermitUnchecked();
    queues_.Release(p.queue, p.resource, p.user, p.label);
  }
  return Status::OK();
}

Status SchedulerPool::UpdateApp(const AppSpec& spec) {
  if (!queues_.Contains(spec.queue)) {
    return Status::InvalidArgument("application " + std::to_string(spec.id.value()) +
                                   ": unknown queue");
  }
  int s = -1;
  {
    MutexLock lock(&apps_mu_);
    auto it = apps_.find(spec.id);
    if (it == apps_.end()) {
      return Status::NotFound("application " + std::to_string(spec.id.value()) + " not found");
    }
    s = it->second.scheduler;
    it->second.queue = spec.queue;
    it->second.priority = spec.priority;
  }
  if (IsRemote(s)) return remote_->UpdateApp(spec);
  schedulers_[static_cast<size_t>(s)]->UpdateApp(spec);
  return Status::OK();
}

Status SchedulerPool::MoveCharge(Placement* placement, QueueId to) {
  if (!queues_.Contains(to) || !queues_.Contains(placement->queue)) {
    return Status::InvalidArgument("move: unknown queue");
  }
  queues_.Move(placement->queue, to, placement->resource, placement->user, placement->label);
  placement->queue = to;
  return Status::OK();
}

Status SchedulerPool::SetAsks(AppId app, std::vector<Ask> asks) {
  for (const Ask& a : asks) {
    if (a.count < 0) return Status::InvalidArgument("negative ask count");
    if (a.capability.AnyNegative() || (a.count > 0 && a.capability.IsZero())) {
      return Status::InvalidArgument("ask capability must be positive: " + a.capability.ToString());
    }
  }
  int s = -1;
  {
    MutexLock lock(&apps_mu_);
    auto it = apps_.find(app);
    if (it == apps_.end()) {
      return Status::NotFound("application " + std::to_string(app.value()) + " not found");
    }
    s = it->second.scheduler;
    CountLabelledAsks(&it->second, asks);
    // The user is active in its queue from the moment its app asks, for
    // every scheduler of the pool, as Hadoop activates it inside the
    // allocate call (2.6/2.7 AppSchedulingInfo.updateResourceRequests, 3.3
    // AppSchedulingInfo.updatePendingResources -> activateApplication),
    // not once the app's own scheduler steps: the user limits of the apps
    // other schedulers place divide by it at once. The scheduler confirms or
    // withdraws it when it reads the asks (Scheduler::SyncUserActivity).
    // An app of the service's members: the service tells the ledger itself
    // (CellStateService::SetAsks), from its own count of what is committed.
    if (!IsRemote(s) && it->second.user.valid() &&
        std::any_of(asks.begin(), asks.end(), [](const Ask& a) { return a.count > 0; })) {
      queues_.SetAppActive(it->second.queue, it->second.user, app, true);
    }
    if (!IsRemote(s) && queues_.OrdersPoolWide(it->second.queue)) {
      // The app takes its place in its queue's order now, not at its
      // scheduler's next step: another scheduler may step first. Its
      // scheduler's reports replace this one.
      AppDemand demand;
      demand.app = app;
      demand.user = it->second.user;
      demand.priority = it->second.priority;
      demand.order = it->second.order;
      for (const Ask& a : asks) {
        if (a.label != kDefaultLabel || a.count <= 0) continue;
        if (demand.pending == 0) demand.unit = a.capability;
        demand.pending += a.count;
      }
      queues_.AddAppDemandIfAbsent(it->second.queue, demand);
    }
  }
  if (IsRemote(s)) return remote_->SetAsks(app, asks);
  schedulers_[static_cast<size_t>(s)]->SetAsks(app, std::move(asks));
  return Status::OK();
}

void SchedulerPool::CountLabelledAsks(AppEntry* entry, const std::vector<Ask>& asks) {
  std::vector<std::pair<AskKey, LabelId>>& labelled = entry->labelled_asks;
  for (const Ask& a : asks) {
    if (a.label == kDefaultLabel && labelled.empty()) continue;  // labels not in use
    const AskKey key = AskKey::Of(a);
    auto known = std::find_if(labelled.begin(), labelled.end(),
                              [&key](const auto& known_ask) { return known_ask.first == key; });
    if (known != labelled.end()) {
      labels_.AddWaiting(known->second, -1);
      labelled.erase(known);
    }
    if (a.label != kDefaultLabel && a.count > 0) {
      labelled.emplace_back(key, a.label);
      labels_.AddWaiting(a.label, +1);
    }
  }
}

Status SchedulerPool::SetBlacklist(AppId app, std::vector<NodeId> nodes,
                                   std::vector<RackId> racks) {
  const int s = SchedulerOfApp(app);
  if (s < 0) return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  if (IsRemote(s)) return remote_->SetBlacklist(app, std::move(nodes), std::move(racks));
  schedulers_[static_cast<size_t>(s)]->SetBlacklist(app, std::move(nodes), std::move(racks));
  return Status::OK();
}

Status SchedulerPool::TakePlacements(AppId app, std::vector<Placement>* out) {
  const int s = SchedulerOfApp(app);
  if (s < 0) return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  if (IsRemote(s)) return remote_->TakePlacements(app, out);
  schedulers_[static_cast<size_t>(s)]->TakePlacements(app, out);
  return Status::OK();
}

Status SchedulerPool::Release(const Placement& placement) {
  return ReleaseBatch(std::vector<Placement>{placement});
}

Status SchedulerPool::ReleaseBatch(const std::vector<Placement>& placements) {
  for (const Placement& p : placements) {
    if (!queues_.Contains(p.queue)) return Status::InvalidArgument("release: unknown queue");
    if (p.resource.AnyNegative()) return Status::InvalidArgument("release: negative resource");
  }
  // Nodes: grouped by partition so each partition's lock is taken once.
  std::vector<NodeRelease> nodes;
  nodes.reserve(placements.size());
  for (const Placement& p : placements) nodes.push_back(NodeRelease{p.node, p.resource});
  std::stable_sort(nodes.begin(), nodes.end(), [](const NodeRelease& a, const NodeRelease& b) {
    return a.node.partition() < b.node.partition();
  });
  Status status = cell_->ReleaseBatch(nodes.data(), nodes.size());
  // Queues and apps: one call per run of equal ids (an app has one user)
  // and partition.
  for (size_t i = 0; i < placements.size();) {
    const QueueId q = placements[i].queue;
    const AppId a = placements[i].app;
    const UserId u = placements[i].user;
    const LabelId l = placements[i].label;
    Resource sum;
    size_t j = i;
    for (; j < placements.size() && placements[j].queue == q && placements[j].app == a &&
           placements[j].user == u && placements[j].label == l;
         ++j) {
      sum += placements[j].resource;
    }
    queues_.Release(q, sum, u, l);
    const int s = SchedulerOfApp(a);
    if (s >= 0 && !IsRemote(s)) schedulers_[static_cast<size_t>(s)]->OnReleased(a, sum);
    if (s >= 0 && IsRemote(s)) remote_->OnReleased(a, sum);
    i = j;
  }
  return status;
}

Result<Resource> SchedulerPool::Headroom(AppId app) const {
  AppEntry entry;
  {
    MutexLock lock(&apps_mu_);
    auto it = apps_.find(app);
    if (it == apps_.end()) {
      return Status::NotFound("application " + std::to_string(app.value()) + " not found");
    }
    entry = it->second;
  }
  const Resource capacity = cell_->Capacity();
  const Resource free = (capacity - cell_->Allocated()).Max(Resource());
  const QueueSnapshot queue = queues_.Snapshot(entry.queue);
  const UserLimitSpec& spec = queue.spec.user_limits;
  if (!entry.user.valid() || !spec.enabled) return free;
  const UserSnapshot user = queues_.User(entry.queue, entry.user, spec.minimum_allocation);
  HeadroomInput in;
  in.limit = user.limit;
  in.user_used = user.used;
  in.queue_limit = queue.spec.max.Min(capacity);
  in.queue_used = queue.usage;
  in.cluster_free = free;
  return UserHeadroom(spec, in);
}

Result<Placement> SchedulerPool::RecoverPlacement(AppId app, NodeId node, const Resource& resource,
                                                  int32_t priority, int64_t allocation_request_id) {
  MutexLock lock(&apps_mu_);
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  const AppEntry entry = it->second;
  auto fit = cell_->Recover(node, resource);
  if (!fit.ok()) {
    std::ostringstream msg;
    msg << "recover container of application " << app.value() << " on node " << node;
    return fit.status().WithContext(msg.str());
  }
  if (*fit == RecoveredFit::kOvercommitted) {
    LOG(WARNING) << "recovered container of application " << app.value() << " ("
                 << resource.ToString() << ") over-commits node " << node
                 << "; it takes no new containers until it fits again";
  }
  // Charged to the partition the node is in now (it was found just above).
  const Result<NodeState> state = cell_->GetNode(node);
  const LabelId label = state.ok() ? state->label : kDefaultLabel;
  queues_.ForceCharge(entry.queue, resource, entry.user, label);
  if (!IsRemote(entry.scheduler)) {
    schedulers_[static_cast<size_t>(entry.scheduler)]->OnRecovered(app, resource);
  }
  Placement p;
  p.id = (uint64_t{1} << 63) | next_recovered_.fetch_add(1, std::memory_order_relaxed);
  p.app = app;
  p.queue = entry.queue;
  p.user = entry.user;
  p.node = node;
  p.label = label;
  p.resource = resource;
  p.priority = priority;
  p.allocation_request_id = allocation_request_id;
  p.locality = Locality::kOffSwitch;
  p.preferred = false;
  p.committed_at = clock_->Now();
  p.asked_at = p.committed_at;
  return p;
}

StepResult SchedulerPool::RunOnce(int scheduler, TimePoint now) {
  CHECK_GE(scheduler, 0);
  CHECK_LT(scheduler, num_schedulers());
  return schedulers_[static_cast<size_t>(scheduler)]->RunOnce(now);
}

StepResult SchedulerPool::RunAllOnce(TimePoint now) {
  StepResult sum;
  bool first = true;
  for (auto& s : schedulers_) {
    const StepResult r = s->RunOnce(now);
    sum.placed += r.placed;
    sum.conflicts += r.conflicts;
    sum.backlog += r.backlog;
    sum.partitions_synced += r.partitions_synced;
    if (first || r.next_sync < sum.next_sync) sum.next_sync = r.next_sync;
    if (first || r.decided_until > sum.decided_until) sum.decided_until = r.decided_until;
    first = false;
  }
  return sum;
}

PoolMetrics SchedulerPool::Metrics() const {
  PoolMetrics m;
  m.overall.scheduler = -1;
  for (const auto& s : schedulers_) {
    m.schedulers.push_back(s->Metrics());
    m.overall.Add(m.schedulers.back());
  }
  m.capacity = cell_->Capacity();
  m.allocated = cell_->Allocated();
  m.utilisation = m.allocated.DominantShare(m.capacity);
  return m;
}

}  // namespace spindle::pool
