#include "rm/core/resource_manager.h"

#include <glog/logging.h>

#include "rm/config/configuration_directory.h"
#include "rm/core/submission_queue.h"
#include "rm/recovery/recovery_config.h"
#include "rm/recovery/store_failure_guard.h"
#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

Status NotActive(const std::string& what) {
  // Hadoop 3.3 AdminService.throwStandbyException's message.
  return Status::Remote(yarn::kStandby, "ResourceManager is not Active! Can not " + what);
}

}  // namespace

const char* HaStateName(HaState state) {
  switch (state) {
    case HaState::kInitializing:
      return "INITIALIZING";
    case HaState::kStandby:
      return "STANDBY";
    case HaState::kActive:
      return "ACTIVE";
    case HaState::kStopped:
      return "STOPPED";
  }
  return "UNKNOWN";
}

ResourceManager::ResourceManager(Configuration conf, CoreSettings settings,
                                 ResourceManagerOptions options)
    : conf_(std::move(conf)),
      settings_(std::move(settings)),
      options_(std::move(options)),
      clock_(options_.clock) {}

Result<std::unique_ptr<ResourceManager>> ResourceManager::Create(Configuration conf,
                                                                 ResourceManagerOptions options) {
  if (!options.launcher_factory || !options.node_token_service) {
    return Status::InvalidArgument(
        "ResourceManager needs an AM launcher factory and a node token service");
  }
  ASSIGN_OR_RETURN(CoreSettings settings, CoreSettings::FromConfiguration(conf));
  if (options.pool.has_value()) {
    RETURN_NOT_OK(options.pool->Validate());
    settings.pool = *options.pool;
  }
  const HadoopLineTraits& hadoop = settings.hadoop();
  LOG(INFO) << "following Hadoop " << hadoop.name << " (" << kHadoopLineKey
            << "): reporting version " << hadoop.version;
  std::unique_ptr<ResourceManager> rm(
      new ResourceManager(std::move(conf), std::move(settings), std::move(options)));
  ASSIGN_OR_RETURN(rm->queues_, QueueManager::Create(rm->conf_));
  rm->groups_ = std::make_unique<OsGroupMapping>(rm->settings_.groups, rm->clock_);
  {
    MutexLock lock(&rm->admin_mu_);
    rm->admin_acl_ = AccessControlList::Parse(rm->settings_.admin_acl);
  }
  // As Hadoop: without recovery the RM neither reads nor writes a store.
  const RecoveryConfig& recovery = rm->settings_.recovery;
  if (recovery.recovery_enabled) {
    if (std::unique_ptr<persist::StateStore> store = MakeStateStore(recovery); store != nullptr) {
      rm->store_where_ = StoreDescription(recovery);
      std::function<void()> exit = rm->options_.on_fatal_store_failure;
      if (!exit) exit = [] {};
      // A fenced store (another RM took it over) is the STATE_STORE_FENCED
      // fatal event: standby with HA, stop without (OnStoreFenced).
      ResourceManager* self = rm.get();
      rm->store_ = std::make_unique<StoreFailureGuard>(
          std::move(store), rm->store_where_, recovery.on_store_failure, std::move(exit),
          [self](const std::string& reason) { self->OnStoreFenced(reason); });
    }
  }
  RETURN_NOT_OK(rm->CreateElector());
  MutexLock lock(&rm->state_mu_);
  rm->state_ = HaState::kStandby;
  return rm;
}

ResourceManager::~ResourceManager() { Stop(); }

Status ResourceManager::CreateElector() {
  const HaConfig& ha = settings_.ha;
  if (!ha.runs_elector()) return Status::OK();
  EmbeddedElectorOptions options;
  options.cluster_id = ha.cluster_id;
  options.rm_id = ha.rm_id;
  options.zk_base_path = ha.zk_base_path;
  options.line = settings_.line;
  options.sleep_after_failure = options_.elector_sleep_after_failure;
  ASSIGN_OR_RETURN(options.zk, ReadElectorZkSettings(conf_, settings_.line));
  EmbeddedElectorHooks hooks;
  hooks.transition_to_active = [this] { return TransitionToActive(); };
  hooks.transition_to_standby = [this] { TransitionToStandby(); };
  hooks.on_fatal = [this](const std::string& message) {
    HandleFatalEvent(FatalEvent::kEmbeddedElectorFailed, message);
  };
  ASSIGN_OR_RETURN(elector_, EmbeddedElectorService::Create(std::move(options), std::move(hooks)));
  LOG(INFO) << "HA: rm-id " << ha.rm_id << ", elector on " << elector_->election_znode();
  return Status::OK();
}

Status ResourceManager::Start() {
  if (!settings_.ha.enabled) return TransitionToActive();
  // Hadoop's serviceStart with HA: transitionToStandby(false); the elector
  // (or an admin) makes it active.
  LOG(INFO) << "HA: rm-id " << settings_.ha.rm_id << " starts in standby";
  if (elector_ != nullptr) elector_->Start();
  return Status::OK();
}

void ResourceManager::Stop() {
  stopping_.store(true);
  {
    // A fatal event's standby thread finishes before the election is left,
    // so it cannot rejoin after.
    MutexLock lock(&standby_thread_mu_);
    if (standby_thread_.joinable()) standby_thread_.join();
  }
  // Hadoop's elector serviceStop: quitElection(false), before the services
  // stop (the elector's lock is taken before lifecycle_mu_).
  if (elector_ != nullptr) elector_->Stop();
  MutexLock lifecycle(&lifecycle_mu_);
  // The last activation's objects stay until the ResourceManager goes, as
  // they did before the split: what the daemon built around them (the AM
  // launcher's NM client, whose calls may still complete into the
  // application manager) is torn down after the core.
  if (auto stopped = StopActiveServices(); stopped != nullptr)
    final_activation_ = std::move(stopped);
  MutexLock lock(&state_mu_);
  state_ = HaState::kStopped;
}

Status ResourceManager::TransitionToActive() {
  MutexLock lifecycle(&lifecycle_mu_);
  return TransitionToActiveLocked();
}

Status ResourceManager::TransitionToActiveLocked() {
  {
    MutexLock lock(&state_mu_);
    if (state_ == HaState::kActive) return Status::OK();
    if (state_ == HaState::kStopped) {
      return Status::Unavailable("the ResourceManager is stopped");
    }
  }
  LOG(INFO) << "transitioning to active";
  ActiveServicesContext context;
  context.settings = &settings_;
  context.queues = queues_.get();
  context.store = store_.get();
  context.store_name = store_where_;
  context.clock = clock_;
  context.launcher_factory = options_.launcher_factory;
  context.node_token_service = options_.node_token_service;
  context.start_pool_threads = options_.start_pool_threads;
  context.security_enabled = options_.security_enabled;
  context.cell_service_server = options_.cell_service_server;
  context.attempt_ended = [this](const ApplicationAttemptId& attempt) { AttemptEnded(attempt); };
  ASSIGN_OR_RETURN(std::unique_ptr<ActiveServices> active, ActiveServices::Activate(context));
  SyncPoolPartitions(*active);
  {
    MutexLock lock(&queue_version_mu_);
    if (store_ != nullptr) queue_config_version_ = active->recovered_queue_config_version();
  }
  last_cluster_timestamp_.store(active->apps().cluster_timestamp());
  MutexLock lock(&state_mu_);
  active_ = std::move(active);
  state_ = HaState::kActive;
  LOG(INFO) << "transitioned to active: cluster timestamp " << active_->apps().cluster_timestamp()
            << ", epoch " << active_->epoch();
  return Status::OK();
}

void ResourceManager::TransitionToStandby() {
  MutexLock lifecycle(&lifecycle_mu_);
  StopActiveServices();
}

std::shared_ptr<ActiveServices> ResourceManager::StopActiveServices() {
  std::shared_ptr<ActiveServices> active;
  {
    MutexLock lock(&state_mu_);
    if (state_ != HaState::kActive) return nullptr;
    state_ = HaState::kStandby;
    active = std::move(active_);
  }
  LOG(INFO) << "transitioning to standby";
  // Calls in flight keep their activation alive; its threads stop now.
  active->Deactivate();
  LOG(INFO) << "transitioned to standby";
  return active;
}

void ResourceManager::OnStoreFenced(const std::string& reason) {
  HandleFatalEvent(FatalEvent::kStateStoreFenced, reason);
}

void ResourceManager::HandleFatalEvent(FatalEvent event, const std::string& message) {
  const char* type =
      event == FatalEvent::kStateStoreFenced ? "STATE_STORE_FENCED" : "EMBEDDED_ELECTOR_FAILED";
  LOG(ERROR) << "Received RMFatalEvent of type " << type << ", with explanation: " << message;
  const HadoopLine line = settings_.line;
  if (event == FatalEvent::kStateStoreFenced) {
    if (!settings_.ha.enabled) {
      // 3.3's text; 2.6/2.7 terminate on any fatal event too.
      Terminate(
          "State store fenced even though the resource manager is not configured for high "
          "availability. Shutting down this resource manager to protect the integrity of the "
          "state store.");
      return;
    }
    // 2.6: transitionToStandby only; 2.7 (handleTransitionToStandBy) and 3.3
    // (handleTransitionToStandByInNewThread) also reset the election.
    TransitionToStandbyInNewThread(/*rejoin=*/line != HadoopLine::k2_6);
    return;
  }
  // EMBEDDED_ELECTOR_FAILED: 3.3 goes standby and rejoins; 2.6/2.7 terminate.
  if (line == HadoopLine::k3_3) {
    LOG(WARNING) << "Transitioning the resource manager to standby.";
    TransitionToStandbyInNewThread(/*rejoin=*/true);
    return;
  }
  Terminate("the embedded elector failed: " + message);
}

void ResourceManager::TransitionToStandbyInNewThread(bool rejoin) {
  if (stopping_.load()) return;
  if (standby_thread_running_.exchange(true)) return;  // one is under way
  MutexLock lock(&standby_thread_mu_);
  if (stopping_.load()) {  // Stop has joined (or will join) the last one
    standby_thread_running_.store(false);
    return;
  }
  if (standby_thread_.joinable()) standby_thread_.join();  // the last one, finished
  standby_thread_ = std::thread([this, rejoin] {
    LOG(INFO) << "Transitioning RM to Standby mode";
    TransitionToStandby();
    if (rejoin && elector_ != nullptr && !stopping_.load()) elector_->RejoinElection();
    standby_thread_running_.store(false);
  });
}

void ResourceManager::Terminate(const std::string& why) const {
  LOG(ERROR) << "FATAL: " << why << " Shutting down the resource manager.";
  if (options_.on_fatal_store_failure) options_.on_fatal_store_failure();
}

HaState ResourceManager::ha_state() const {
  MutexLock lock(&state_mu_);
  return state_;
}

int ResourceManager::cell_service_port() const {
  const std::shared_ptr<ActiveServices> active = Active();
  return active != nullptr ? active->cell_service_port() : 0;
}

std::shared_ptr<ActiveServices> ResourceManager::Active() const {
  MutexLock lock(&state_mu_);
  return active_;
}

Result<std::shared_ptr<ActiveServices>> ResourceManager::ActiveOrStandby() const {
  std::shared_ptr<ActiveServices> active = Active();
  if (active == nullptr) return NotActive("serve the call");
  return active;
}

ActiveServices& ResourceManager::ActiveOrDie() const {
  MutexLock lock(&state_mu_);
  CHECK(active_ != nullptr) << "the ResourceManager is not active";
  return *active_;
}

// ---- Always on ----

AccessControlList ResourceManager::AdminAcl() const {
  MutexLock lock(&admin_mu_);
  return admin_acl_;
}

std::vector<std::string> ResourceManager::GroupsOf(const std::string& user) const {
  return groups_->GroupsOf(user);
}

bool ResourceManager::IsAdmin(const std::string& user) const {
  return AdminAcl().IsUserAllowed(user, GroupsOf(user));
}

int64_t ResourceManager::queue_config_version() const {
  MutexLock lock(&queue_version_mu_);
  return queue_config_version_;
}

std::string ResourceManager::state_store_name() const {
  if (store_ == nullptr) return "";
  switch (settings_.recovery.kind) {
    case StoreKind::kRocksDb:
      return "spindle.RocksDbStateStore";
    // The stores in Hadoop's layouts carry Hadoop's class names.
    case StoreKind::kZooKeeper:
      return "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore";
    case StoreKind::kFileSystem:
      return "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore";
    case StoreKind::kMemory:
    case StoreKind::kNone:
      break;
  }
  return "spindle.MemoryStateStore";
}

Result<Configuration> ResourceManager::Reread() const {
  if (options_.conf_dir.empty()) return conf_;
  return LoadConfigurationDirectory(options_.conf_dir);
}

// ---- Admin refreshes ----

Status ResourceManager::RefreshQueues() {
  auto active = Active();
  if (active == nullptr) return NotActive("refresh queues");
  ASSIGN_OR_RETURN(Configuration conf, Reread());
  MutexLock lock(&queue_version_mu_);
  // 3.3: a DRAINING queue cannot be set RUNNING (ApplicationManager).
  auto tree = queues_->Reload(
      conf, [&active](const QueueTree& next) { return active->apps().CheckQueueRefresh(next); });
  if (!tree.ok()) {
    return Status::Remote("java.io.IOException",
                          "Failed to re-init queues : " + tree.status().message());
  }
  active->RefreshPoolQueues(/*force=*/true);
  ++queue_config_version_;
  if (store_ != nullptr) {
    Status saved =
        store_->SetClusterValue(persist::ClusterField::kQueueConfigVersion, queue_config_version_);
    if (!saved.ok()) {
      LOG(ERROR) << "cannot store the queue configuration version: " << saved.ToString();
    }
  }
  LOG(INFO) << "queue configuration version " << queue_config_version_;
  return Status::OK();
}

Status ResourceManager::RefreshNodes() {
  auto active = Active();
  if (active == nullptr) return NotActive("refresh nodes");
  ASSIGN_OR_RETURN(Configuration conf, Reread());
  ASSIGN_OR_RETURN(auto include, ReadHostsFile(conf, "yarn.resourcemanager.nodes.include-path"));
  ASSIGN_OR_RETURN(auto exclude, ReadHostsFile(conf, "yarn.resourcemanager.nodes.exclude-path"));
  active->node_tracker().OnNodesGone(
      active->nodes().RefreshHostLists(std::move(include), std::move(exclude)));
  return Status::OK();
}

Status ResourceManager::RefreshAdminAcls() {
  ASSIGN_OR_RETURN(Configuration conf, Reread());
  const std::string acl = conf.Get("yarn.admin.acl", "*");
  MutexLock lock(&admin_mu_);
  admin_acl_ = AccessControlList::Parse(acl);
  return Status::OK();
}

void ResourceManager::RefreshUserToGroups() { groups_->Refresh(); }

// ---- ClientFacade ----

RegistryFacade ResourceManager::FacadeOf(ActiveServices& active) const {
  const SecretManagers secrets = active.secrets();
  RegistryFacadeParts parts;
  parts.apps = &active.apps();
  parts.nodes = &active.nodes();
  parts.queues = queues_.get();
  parts.pool = &active.pool();
  parts.containers = &active.containers();
  parts.groups = groups_.get();
  parts.clock = clock_;
  parts.amrm_tokens = secrets.amrm;
  parts.delegation_tokens = secrets.delegation;
  parts.client_to_am_tokens = secrets.client_to_am;
  parts.node_labels = &active.node_labels();
  parts.queue_preemption_metrics = settings_.line == HadoopLine::k3_3;
  parts.preemption = active.preemption_monitor();
  return RegistryFacade(parts);
}

int64_t ResourceManager::ClusterTimestamp() const { return last_cluster_timestamp_.load(); }

Result<ApplicationId> ResourceManager::NewApplicationId() {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).NewApplicationId();
}

Result<pool::Resource> ResourceManager::MaximumAllocation() const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).MaximumAllocation();
}

Status ResourceManager::SubmitApplication(Submission submission) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  RETURN_NOT_OK(ResolveAmPartition(*active, &submission));
  return FacadeOf(*active).SubmitApplication(std::move(submission));
}

Result<bool> ResourceManager::KillApplication(const ApplicationId& app,
                                              const std::string& diagnostics) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).KillApplication(app, diagnostics);
}

Status ResourceManager::MoveApplication(const ApplicationId& app, const std::string& queue,
                                        const std::string& user,
                                        const std::vector<std::string>& groups) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).MoveApplication(app, queue, user, groups);
}

Result<int32_t> ResourceManager::UpdateApplicationPriority(const ApplicationId& app,
                                                           int32_t priority) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).UpdateApplicationPriority(app, priority);
}

Result<ApplicationManager::LifetimeUpdate> ResourceManager::UpdateApplicationLifetime(
    const ApplicationId& app, int64_t expiry_ms) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).UpdateApplicationLifetime(app, expiry_ms);
}

Status ResourceManager::FailApplicationAttempt(const ApplicationAttemptId& attempt,
                                               const std::string& diagnostics) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).FailApplicationAttempt(attempt, diagnostics);
}

Result<NodeId> ResourceManager::SignalContainer(const ContainerId& container,
                                                SignalCommand command) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).SignalContainer(container, command);
}

Result<RmApp> ResourceManager::ApplicationReport(const ApplicationId& app) const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).ApplicationReport(app);
}

std::vector<RmApp> ResourceManager::ApplicationReports() const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).ApplicationReports();
}

Result<RmAttempt> ResourceManager::AttemptReport(const ApplicationAttemptId& attempt) const {
  ASSIGN_OR_RETURN(RmApp app, ApplicationReport(attempt.app));
  for (RmAttempt& a : app.attempts) {
    if (a.id == attempt) return std::move(a);
  }
  return Status::Remote(
      yarn::kApplicationAttemptNotFound,
      "ApplicationAttempt with id '" + attempt.ToString() + "' doesn't exist in RM.");
}

std::vector<RmContainer> ResourceManager::ContainerReports(
    const ApplicationAttemptId& attempt) const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).ContainerReports(attempt);
}

std::optional<RmContainer> ResourceManager::ContainerReport(const ContainerId& container) const {
  auto active = Active();
  if (active == nullptr) return std::nullopt;
  return FacadeOf(*active).ContainerReport(container);
}

ResourceSeconds ResourceManager::UsageSecondsOf(const ApplicationId& app) const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).UsageSecondsOf(app);
}

std::vector<NodeReport> ResourceManager::NodeReports() const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).NodeReports();
}

std::optional<NodeReport> ResourceManager::NodeReportOf(const NodeId& node) const {
  auto active = Active();
  if (active == nullptr) return std::nullopt;
  return FacadeOf(*active).NodeReportOf(node);
}

ClusterNodeCounts ResourceManager::NodeCounts() const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).NodeCounts();
}

QueueStatsSnapshot ResourceManager::QueueStatistics() const {
  auto active = Active();
  if (active == nullptr) {
    // The tree's queues with nothing in them, so that a reader indexing by
    // queue finds every one.
    QueueStatsSnapshot empty;
    empty.tree = queues_->Current();
    empty.stats.resize(empty.tree->queues().size());
    return empty;
  }
  return FacadeOf(*active).QueueStatistics();
}

ClusterResources ResourceManager::ClusterResourceReport() const {
  auto active = Active();
  if (active == nullptr) return {};
  return FacadeOf(*active).ClusterResourceReport();
}

std::optional<PoolReport> ResourceManager::PoolStatus() const {
  auto active = Active();
  if (active == nullptr) return std::nullopt;
  return FacadeOf(*active).PoolStatus();
}

Result<Token> ResourceManager::AmrmTokenOf(const ApplicationAttemptId& attempt) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).AmrmTokenOf(attempt);
}

std::optional<Token> ResourceManager::ClientToAmTokenOf(const ApplicationAttemptId& attempt,
                                                        const std::string& client) const {
  auto active = Active();
  if (active == nullptr) return std::nullopt;
  return FacadeOf(*active).ClientToAmTokenOf(attempt, client);
}

Result<Token> ResourceManager::CreateDelegationToken(std::string_view owner,
                                                     std::string_view renewer,
                                                     std::string_view real_user) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).CreateDelegationToken(owner, renewer, real_user);
}

Result<int64_t> ResourceManager::RenewDelegationToken(const Token& token,
                                                      std::string_view renewer) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).RenewDelegationToken(token, renewer);
}

Status ResourceManager::CancelDelegationToken(const Token& token, std::string_view canceller) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).CancelDelegationToken(token, canceller);
}

Result<RmDelegationTokenSecret> ResourceManager::RetrieveDelegationTokenSecret(
    std::string_view identifier) const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  return FacadeOf(*active).RetrieveDelegationTokenSecret(identifier);
}

// ---- Nodes ----

Result<NodeRegisterOutcome> ResourceManager::RegisterNode(const NodeRegisterRequest& request) {
  auto active = Active();
  if (active == nullptr) return NotActive("register a node");
  // The node joins the pool in its label's partition
  // (RMNodeLabelsManager.activateNode).
  const std::string partition = active->node_labels().PartitionOf(request.registration.id);
  if (partition.empty()) return active->node_tracker().RegisterNode(request);
  NodeRegisterRequest labelled = request;
  labelled.registration.label = active->pool().InternLabel(partition);
  return active->node_tracker().RegisterNode(labelled);
}

Result<NodeHeartbeatOutcome> ResourceManager::NodeHeartbeat(const NodeHeartbeatRequest& request) {
  auto active = Active();
  if (active == nullptr) return NotActive("take a node heartbeat");
  return active->node_tracker().NodeHeartbeat(request);
}

Result<std::vector<NodeHeartbeatOutcome>> ResourceManager::NodeHeartbeats(
    std::span<const NodeHeartbeatRequest> requests) {
  auto active = Active();
  if (active == nullptr) return NotActive("take node heartbeats");
  return active->node_tracker().NodeHeartbeats(requests);
}

Status ResourceManager::UnregisterNode(const NodeId& node) {
  auto active = Active();
  if (active == nullptr) return NotActive("unregister a node");
  return active->node_tracker().UnregisterNode(node);
}

// ---- The AM path ----

void ResourceManager::SetAttemptEndedHook(std::function<void(const ApplicationAttemptId&)> hook) {
  MutexLock lock(&hook_mu_);
  attempt_ended_hook_ = std::move(hook);
}

void ResourceManager::AttemptEnded(const ApplicationAttemptId& attempt) {
  std::function<void(const ApplicationAttemptId&)> hook;
  {
    MutexLock lock(&hook_mu_);
    hook = attempt_ended_hook_;
  }
  if (hook) hook(attempt);
}

bool ResourceManager::holding_placements() const {
  auto active = Active();
  return active != nullptr && active->holding_placements();
}

// ---- In-process AMs and NMs ----

Status ResourceManager::SubmitToQueue(Submission submission,
                                      const std::vector<std::string>& groups) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  if (Status s = ResolveSubmissionQueue(*queues_->Current(), groups,
                                        {settings_.line, settings_.acl_enabled}, &submission);
      !s.ok()) {
    return s;
  }
  RETURN_NOT_OK(ResolveAmPartition(*active, &submission));
  return active->apps().Submit(std::move(submission));
}

Result<int> ResourceManager::SchedulerOf(const ApplicationAttemptId& attempt) const {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  ASSIGN_OR_RETURN(pool::AppId app, active->apps().PoolAppOf(attempt));
  ASSIGN_OR_RETURN(RmApp report, active->apps().GetApp(attempt.app));
  return active->pool().SchedulerFor(app, report.submission.queue);
}

Status ResourceManager::SetNodeScore(const NodeId& node, double score) {
  ASSIGN_OR_RETURN(auto active, ActiveOrStandby());
  const std::optional<NodeReport> report = active->nodes().Get(node);
  if (!report.has_value()) return Status::NotFound("no node " + node.ToString());
  pool::NodeUpdate update;
  update.set_score = true;
  update.score = score;
  return active->pool().UpdateNode(report->pool_node, update);
}

// ---- The active objects ----

ApplicationManager& ResourceManager::apps() { return ActiveOrDie().apps(); }
AttemptAllocator& ResourceManager::attempt_allocator() { return ActiveOrDie().attempt_allocator(); }

Result<RegisterResponse> ResourceManager::Register(const ApplicationAttemptId& attempt,
                                                   const std::string& host, int32_t rpc_port,
                                                   const std::string& tracking_url) {
  ASSIGN_OR_RETURN(std::shared_ptr<ActiveServices> active, ActiveOrStandby());
  return active->attempt_allocator().Register(attempt, host, rpc_port, tracking_url);
}

Result<std::shared_ptr<const AllocateResponse>> ResourceManager::Allocate(
    const ApplicationAttemptId& attempt, const AllocateRequest& request) {
  ASSIGN_OR_RETURN(std::shared_ptr<ActiveServices> active, ActiveOrStandby());
  return active->attempt_allocator().Allocate(attempt, request);
}

Result<bool> ResourceManager::Finish(const ApplicationAttemptId& attempt, FinalStatus final_status,
                                     const std::string& diagnostics,
                                     const std::string& tracking_url) {
  ASSIGN_OR_RETURN(std::shared_ptr<ActiveServices> active, ActiveOrStandby());
  return active->attempt_allocator().Finish(attempt, final_status, diagnostics, tracking_url);
}

Result<AmrmTokenSecret> ResourceManager::RetrieveAmrmSecret(std::string_view identifier) const {
  ASSIGN_OR_RETURN(std::shared_ptr<ActiveServices> active, ActiveOrStandby());
  return active->secrets().amrm->RetrieveSecret(identifier);
}
PreemptionMonitor* ResourceManager::preemption_monitor() {
  return ActiveOrDie().preemption_monitor();
}
NodeRegistry& ResourceManager::nodes() { return ActiveOrDie().nodes(); }
pool::SchedulerPool& ResourceManager::pool() { return ActiveOrDie().pool(); }
SecretManagers ResourceManager::secrets() { return ActiveOrDie().secrets(); }
AppStore* ResourceManager::app_store() { return ActiveOrDie().app_store(); }

int64_t ResourceManager::cluster_timestamp() const {
  auto active = Active();
  return active == nullptr ? 0 : active->apps().cluster_timestamp();
}

int64_t ResourceManager::start_ms() const {
  auto active = Active();
  return active == nullptr ? 0 : active->start_ms();
}

bool ResourceManager::NodeListStoredForTest() const {
  auto active = Active();
  return active != nullptr && active->NodeListStoredForTest();
}

}  // namespace spindle::rm
