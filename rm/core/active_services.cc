#include "rm/core/active_services.h"

#include <glog/logging.h>

#include <chrono>

#include "rm/core/label_expression.h"
#include "rm/recovery/store_fenced.h"

namespace spindle::rm {

namespace {

constexpr auto kTick = std::chrono::milliseconds(20);
// Node expiry and key rolling run at this pace; the rest every tick.
constexpr auto kSlowTick = std::chrono::milliseconds(500);

}  // namespace

Result<std::unique_ptr<ActiveServices>> ActiveServices::Activate(
    const ActiveServicesContext& context) {
  std::unique_ptr<ActiveServices> active(new ActiveServices(context));
  RecoveredRmState recovered;
  RETURN_NOT_OK(active->OpenAndRecover(&recovered));
  RETURN_NOT_OK(active->Build(&recovered));
  if (active->holding_) {
    active->hold_until_ = context.clock->Now() + context.settings->recovery.scheduling_wait;
    LOG(INFO) << "new placements wait for " << active->awaited_nodes_.size()
              << " node(s) of the previous run, at most "
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     context.settings->recovery.scheduling_wait)
                     .count()
              << " ms";
  } else {
    if (context.start_pool_threads) RETURN_NOT_OK(active->pool_->Start());
    RETURN_NOT_OK(active->StartCellService());
  }
  active->housekeeping_ = std::thread([raw = active.get()] { raw->Housekeeping(); });
  return active;
}

ActiveServices::~ActiveServices() { Deactivate(); }

void ActiveServices::Deactivate() {
  stopping_ = true;
  if (housekeeping_.joinable()) housekeeping_.join();
  // The members' calls end before the pool stops.
  if (cell_server_ != nullptr) {
    cell_server_.reset();
    cell_service_port_ = 0;
    LOG(INFO) << "cell-state service stopped";
  }
  if (pool_ != nullptr) pool_->Stop();
  if (store_open_) {
    store_open_ = false;
    Status closed = context_.store->Close();
    if (!closed.ok())
      LOG(WARNING) << "cannot close " << context_.store_name << ": " << closed.ToString();
  }
}

Status ActiveServices::OpenAndRecover(RecoveredRmState* recovered) {
  // Every activation takes a new cluster timestamp, as Hadoop's
  // ResourceManager.startActiveServices sets clusterTimeStamp (2.6.0 and
  // 3.3.0 alike): new application ids are application_<this start>_<n> with
  // n from 1 (ClientRMService's counter is an active service, made anew), the
  // nodes see it as the RM's identity and container tokens carry it.
  start_ms_ = context_.clock->WallMillis();
  persist::StateStore* store = context_.store;
  if (store == nullptr) {
    recovered->cluster_timestamp = start_ms_;
    return Status::OK();
  }
  const std::string& where = context_.store_name;
  const std::string remedy = " (it is left as it is; `spindle rm --format-state-store` wipes it)";
  // The store's own refusals of lost data say what to do; others get the
  // remedy here. A full disk or a store in use is not a reason to wipe it.
  auto refused = [&](const Status& s, const std::string& what) {
    const bool wipe_helps =
        (s.code() == Status::Code::kCorruption || s.code() == Status::Code::kNotSupported) &&
        s.message().find("--format-state-store") == std::string::npos;
    return s.WithContext(what + " " + where + (wipe_helps ? remedy : ""));
  };
  RETURN_NOT_OK(PrepareStoreDirectory(context_.settings->recovery));
  Status opened = store->Open();
  if (!opened.ok()) return refused(opened, "cannot open");
  store_open_ = true;
  auto loaded = store->Load();
  if (!loaded.ok()) return refused(loaded.status(), "cannot read");
  auto decoded = DecodeRmState(*loaded);
  if (!decoded.ok()) {
    return Status::Corruption(where + " holds a record this RM cannot read" + remedy + ": " +
                              decoded.status().message());
  }
  *recovered = std::move(decoded).value();
  // A store another RM ran on (a Java RM's ZooKeeper tree has an epoch but
  // no cluster timestamp) is resumed too: its epoch goes on.
  const bool resumed = recovered->cluster_timestamp.has_value() || recovered->epoch_stored;
  // Beyond Hadoop: a clock behind the previous activation's (the other RM
  // of a pair, skewed) still gets a later timestamp, so that no new id can
  // be a recovered one's. The stored timestamp is the last activation's.
  if (recovered->cluster_timestamp.has_value() && start_ms_ <= *recovered->cluster_timestamp) {
    LOG(WARNING) << "the clock (" << start_ms_ << " ms) is not past the previous activation's "
                 << "cluster timestamp " << *recovered->cluster_timestamp << "; taking "
                 << *recovered->cluster_timestamp + 1;
    start_ms_ = *recovered->cluster_timestamp + 1;
  }
  // The reserved sequence numbers were the previous timestamp's.
  recovered->cluster_timestamp = start_ms_;
  recovered->last_app_id = 0;
  persist::StoreBatch batch;
  batch.SetClusterValue(persist::ClusterField::kClusterTimestamp, start_ms_);
  batch.SetClusterValue(persist::ClusterField::kAppIdCounter, 0);
  batch.SetClusterValue(persist::ClusterField::kEpoch, resumed ? recovered->epoch + 1 : 0);
  Status saved = store->Apply(batch);
  if (IsStoreFenced(saved)) return saved.WithContext("cannot write " + where + ": ");
  if (!saved.ok()) return Status::IoError("cannot write " + where + ": " + saved.message());
  if (resumed) {
    ++recovered->epoch;
    LOG(INFO) << "recovering from " << where << ": " << recovered->apps.size() << " applications, "
              << recovered->nodes.size() << " nodes, epoch " << recovered->epoch;
  }
  stored_nodes_ = recovered->nodes;
  recovered_queue_config_version_ = recovered->queue_config_version;
  return Status::OK();
}

Status ActiveServices::Build(RecoveredRmState* recovered) {
  const CoreSettings& settings = *context_.settings;
  const Clock* clock = context_.clock;
  epoch_ = recovered->epoch;
  ASSIGN_OR_RETURN(pool_, pool::SchedulerPool::Create(settings.pool, clock));
  RefreshPoolQueues(/*force=*/true);
  nodes_ = std::make_unique<NodeRegistry>(settings.nodes, pool_.get(), clock);
  node_labels_ = std::make_unique<NodeLabels>(settings.node_labels);
  if (recovered->node_labels.has_value()) node_labels_->Restore(*recovered->node_labels);
  containers_ = std::make_unique<ContainerRegistry>(pool_.get());

  // Recovered keys keep the tokens of the previous run valid.
  auto with_recovered_keys = [recovered](KeyRollingOptions options) {
    auto it = recovered->keys.find(options.family);
    if (it != recovered->keys.end()) options.recovered = it->second;
    return options;
  };
  ASSIGN_OR_RETURN(amrm_tokens_,
                   AmrmTokenSecretManager::Create(with_recovered_keys(settings.amrm_keys), clock));
  ASSIGN_OR_RETURN(nm_tokens_,
                   NmTokenSecretManager::Create(with_recovered_keys(settings.nm_keys), clock));
  ContainerTokenSecretManager::Options container_options = settings.container_tokens;
  container_options.rm_identifier = start_ms_;
  container_options.keys = with_recovered_keys(container_options.keys);
  ASSIGN_OR_RETURN(container_tokens_,
                   ContainerTokenSecretManager::Create(container_options, clock));
  RmDelegationTokenOptions delegation_options = settings.delegation_tokens;
  if (context_.store != nullptr) {
    delegation_options.recovered = std::move(recovered->delegation_tokens);
    delegation_options.listener = StoringDelegationTokenListener(context_.store);
  }
  ASSIGN_OR_RETURN(delegation_tokens_,
                   RmDelegationTokenSecretManager::Create(delegation_options, clock));

  // Hadoop's RMActiveServices builds the ClientToAMTokenSecretManagerInRM
  // whatever the mode; it is used only with security on, so it is made only
  // then here.
  if (context_.security_enabled) {
    client_to_am_tokens_ = std::make_unique<ClientToAmTokenSecretManager>();
  }
  launcher_ = context_.launcher_factory(secrets());
  if (context_.store != nullptr) app_store_ = std::make_unique<StateStoreAppStore>(context_.store);
  ApplicationManagerOptions app_options = settings.apps;
  app_options.cluster_timestamp_ms = recovered->cluster_timestamp.value_or(start_ms_);
  app_options.epoch = recovered->epoch;
  apps_ =
      std::make_unique<ApplicationManager>(app_options, pool_.get(), containers_.get(),
                                           launcher_.get(), nodes_.get(), clock, app_store_.get());
  apps_->SetAmLimits(context_.queues->Current(), AmLimitContextNow(pool_->cell().Capacity()));
  apps_->SetClientToAmTokens(client_to_am_tokens_.get());
  AttemptAllocatorDeps allocator;
  allocator.apps = apps_.get();
  allocator.nodes = nodes_.get();
  allocator.containers = containers_.get();
  allocator.pool = pool_.get();
  allocator.amrm_tokens = amrm_tokens_.get();
  allocator.container_tokens = container_tokens_.get();
  allocator.nm_tokens = nm_tokens_.get();
  allocator.client_to_am_tokens = client_to_am_tokens_.get();
  allocator.clock = clock;
  allocator.token_service = context_.node_token_service;
  allocator.store = app_store_.get();
  allocator.placements_held = [this] { return holding_.load(); };
  allocator.rules = settings.hadoop().am_rules;
  allocator.queues = context_.queues;
  allocator.node_labels = node_labels_.get();
  // The monitor is built right after the allocator, before anything serves.
  allocator.take_preemption = [this](const ApplicationAttemptId& attempt) {
    return preemption_monitor_ != nullptr ? preemption_monitor_->TakeMessage(attempt)
                                          : std::nullopt;
  };
  attempt_allocator_ = std::make_unique<AttemptAllocator>(allocator);
  if (settings.preemption.enabled) {
    PreemptionMonitorDeps monitor;
    monitor.options = settings.preemption;
    monitor.queues = context_.queues;
    monitor.pool = pool_.get();
    monitor.containers = containers_.get();
    monitor.node_labels = node_labels_.get();
    monitor.apps = apps_.get();
    monitor.allocator = attempt_allocator_.get();
    monitor.minimum_allocation = settings.apps.min_allocation;
    monitor.clock = clock;
    preemption_monitor_ = std::make_unique<PreemptionMonitor>(std::move(monitor));
  }
  ApplicationManager::Listener listener;
  listener.attempt_ended = [this](const RmApp&, const RmAttempt& attempt) {
    // RMAppAttemptImpl.removeCredentials, on every final transition
    // (finished, failed, killed, expired): the ClientToAM key and the AMRM
    // token go together.
    if (client_to_am_tokens_ != nullptr) client_to_am_tokens_->UnregisterApplication(attempt.id);
    amrm_tokens_->AttemptFinished(attempt.id);
    nm_tokens_->UnregisterAttempt(attempt.id);
    attempt_allocator_->AttemptEnded(attempt.id);
    if (context_.attempt_ended) context_.attempt_ended(attempt.id);
  };
  apps_->SetListener(std::move(listener));
  node_tracker_ =
      std::make_unique<NodeTracker>(nodes_.get(), containers_.get(), apps_.get(),
                                    container_tokens_.get(), nm_tokens_.get(), start_ms_);
  if (context_.store == nullptr) return Status::OK();

  SaveKeys();
  // The AM container's partition, from the stored context (its expression)
  // and its queue now, as Hadoop recovers the AM request (isRecovery: no
  // label checks).
  {
    const std::shared_ptr<const QueueTree> tree = context_.queues->Current();
    for (RmApp& app : recovered->apps) {
      Submission& s = app.submission;
      if (s.unmanaged_am) continue;
      s.am_partition = RecoveredRequestLabel({"*", s.am_label_expression}, tree->FindLeaf(s.queue));
    }
  }
  apps_->Recover(std::move(recovered->apps), recovered->last_app_id);
  for (const RmApp& app : apps_->ListApps()) {
    const RmAttempt* attempt = app.current_attempt();
    if (attempt != nullptr && attempt->state == AttemptState::kLaunched) {
      amrm_tokens_->AddRecoveredAttempt(attempt->id);
    }
  }
  attempt_allocator_->SetRecoveredAsks(recovered->asks);
  // This RM writes rows (stored_ask_rows.h); an older one wrote whole tables.
  attempt_allocator_->SetRecoveredRows(recovered->attempt_rows);
  awaited_nodes_ = std::move(recovered->nodes);
  holding_ = !awaited_nodes_.empty();
  return Status::OK();
}

void ActiveServices::RefreshPoolQueues(bool force) {
  MutexLock lock(&pool_queues_mu_);
  const pool::Resource capacity = pool_->cell().Capacity();
  // With labelled nodes, a queue's default share is of the default
  // partition's resources and its share of a label of that label's
  // (RMNodeLabelsManager.getResourceByLabel).
  std::vector<std::pair<pool::LabelId, pool::Resource>> by_label;
  if (pool_->cell().labelled_nodes() > 0) by_label = pool_->cell().CapacityByLabel();
  if (!force && capacity.memory_mb() == last_capacity_mb_ && by_label == last_label_capacity_) {
    return;
  }
  last_capacity_mb_ = capacity.memory_mb();
  last_label_capacity_ = by_label;
  pool::Resource default_partition = capacity;
  if (!by_label.empty()) {
    default_partition =
        by_label.front().first == pool::kDefaultLabel ? by_label.front().second : pool::Resource();
  }
  std::vector<LabelResources> labels;
  if (node_labels_ != nullptr) {
    for (const ClusterNodeLabel& label : node_labels_->ClusterLabels()) {
      LabelResources entry{label.name, pool::Resource()};
      const pool::LabelId id = pool_->InternLabel(label.name);
      for (const auto& [l, resources] : by_label) {
        if (l == id) entry.resources = resources;
      }
      labels.push_back(std::move(entry));
    }
  }
  const CoreSettings& settings = *context_.settings;
  UserLimitContext users;
  users.minimum_allocation = settings.apps.min_allocation;
  users.calculator = settings.apps.resource_calculator == ResourceCalculator::kDominant
                         ? pool::LimitCalculator::kDominant
                         : pool::LimitCalculator::kMemory;
  users.line = settings.line;
  const auto tree = context_.queues->Current();
  auto specs = tree->ToQueueSpecs(default_partition, users, labels);
  Status s = pool_->SetQueues(specs).status();
  if (!s.ok()) LOG(ERROR) << "cannot apply the queue tree to the scheduler: " << s.ToString();
  // The leaves' AM limits follow the cluster and the tree (apps_ is built
  // after the first call; Build applies them then).
  if (apps_ != nullptr) {
    AmLimitContext am = AmLimitContextNow(capacity);
    if (!by_label.empty()) am.default_partition = default_partition;
    apps_->SetAmLimits(tree, am);
  }
}

AmLimitContext ActiveServices::AmLimitContextNow(const pool::Resource& cluster) const {
  const CoreSettings& settings = *context_.settings;
  AmLimitContext am;
  am.line = settings.line;
  am.calculator = settings.apps.resource_calculator;
  am.min_allocation = settings.apps.min_allocation;
  am.cluster = cluster;
  return am;
}

void ActiveServices::Housekeeping() {
  const Clock* clock = context_.clock;
  auto last_slow = clock->Now();
  while (!stopping_.load()) {
    apps_->Tick();
    if (holding_) ReleaseHoldIfDue();
    // SchedulingMonitor: only while active and placing.
    if (preemption_monitor_ != nullptr && !holding_) preemption_monitor_->RunIfDue(clock->Now());
    // The node list is stored as soon as it changes: a restart waits for
    // the nodes that were there.
    if (const uint64_t version = nodes_->membership_version(); version != saved_nodes_version_) {
      if (SaveNodes()) saved_nodes_version_ = version;
    }
    const auto now = clock->Now();
    if (now - last_slow >= kSlowTick) {
      last_slow = now;
      node_tracker_->OnNodesGone(nodes_->ExpireSilentNodes());
      RefreshPoolQueues(/*force=*/false);
      // Every family advances, whichever rolled.
      const bool amrm_rolled = amrm_tokens_->Advance().any();
      const bool nm_rolled = nm_tokens_->Advance().any();
      const bool container_rolled = container_tokens_->Advance().any();
      if (amrm_rolled || nm_rolled || container_rolled) SaveKeys();
      delegation_tokens_->Advance();
    } else {
      RefreshPoolQueues(/*force=*/false);
    }
    std::this_thread::sleep_for(kTick);
  }
}

void ActiveServices::SaveKeys() {
  if (context_.store == nullptr) return;
  persist::StoreBatch batch;
  PutKeyState(KeyFamily::kAmrmTokens, amrm_tokens_->Keys(), &batch);
  PutKeyState(KeyFamily::kNmTokens, nm_tokens_->Keys(), &batch);
  PutKeyState(KeyFamily::kContainerTokens, container_tokens_->Keys(), &batch);
  Status saved = context_.store->Apply(batch);
  if (!saved.ok()) LOG(ERROR) << "cannot store the master keys: " << saved.ToString();
}

Status ActiveServices::StartCellService() {
  const std::string& address = context_.settings->pool.remote_address;
  pool::remote::CellStateService* service = pool_->remote_service();
  if (address.empty() || service == nullptr || !context_.cell_service_server) return Status::OK();
  Result<std::unique_ptr<CellServiceServer>> server =
      context_.cell_service_server(service, address);
  if (!server.ok()) {
    return server.status().WithContext("cannot serve the cell-state service on " + address +
                                       " (spindle.scheduler.remote.address)");
  }
  cell_server_ = std::move(server).value();
  cell_service_port_ = cell_server_->port();
  LOG(INFO) << "cell-state service for spindle scheduler processes on " << address << " (port "
            << cell_server_->port() << "), " << context_.settings->pool.remote_schedulers
            << " remote slot(s) beside " << pool_->num_schedulers() << " in-process scheduler(s)";
  return Status::OK();
}

void ActiveServices::ReleaseHoldIfDue() {
  // The node list is read only when someone joined since the last look.
  if (const uint64_t version = nodes_->membership_version(); version != hold_checked_version_) {
    hold_checked_version_ = version;
    for (const NodeReport& node : nodes_->Nodes()) {
      if (node.state == NodeState::kRunning || node.state == NodeState::kUnhealthy) {
        awaited_nodes_.erase(node.info.id.ToString());
      }
    }
  }
  const bool timed_out = context_.clock->Now() >= hold_until_;
  if (!awaited_nodes_.empty() && !timed_out) return;
  if (timed_out && !awaited_nodes_.empty()) {
    LOG(WARNING) << awaited_nodes_.size()
                 << " node(s) of the previous run did not come back within the recovery "
                    "scheduling wait; placing without them";
  } else {
    LOG(INFO) << "every node of the previous run is back; placing";
  }
  Status started = pool_->Start();
  if (!started.ok()) LOG(ERROR) << "cannot start the schedulers: " << started.ToString();
  if (Status served = StartCellService(); !served.ok()) {
    LOG(ERROR) << "the remote schedulers' applications wait: " << served.ToString();
  }
  holding_ = false;
  // Those that did not come back are no longer part of the cluster.
  awaited_nodes_.clear();
  saved_nodes_version_ = ~uint64_t{0};
}

bool ActiveServices::SaveNodes() {
  if (context_.store == nullptr) return true;
  std::set<std::string> live;
  for (const NodeReport& node : nodes_->Nodes()) {
    switch (node.state) {
      case NodeState::kRunning:
      case NodeState::kUnhealthy:
      case NodeState::kDecommissioning:
        live.insert(node.info.id.ToString());
        break;
      default:
        break;
    }
  }
  // Nodes still awaited stay listed: a second restart waits for them too.
  live.insert(awaited_nodes_.begin(), awaited_nodes_.end());
  if (live == stored_nodes_) return true;
  persist::StoreBatch batch;
  for (const auto& node : live) {
    // The id is the record (DecodeRmState reads only ids): empty bytes, which
    // the ZooKeeper store keeps in the node's name alone and Load then need
    // not read (a new active reads every record before it serves).
    if (stored_nodes_.count(node) == 0) batch.PutNode(node, "");
  }
  for (const auto& node : stored_nodes_) {
    if (live.count(node) == 0) batch.DeleteNode(node);
  }
  Status saved = context_.store->Apply(batch);
  if (!saved.ok()) {
    LOG(ERROR) << "cannot store the node list: " << saved.ToString();
    return false;
  }
  stored_nodes_ = std::move(live);
  return true;
}

}  // namespace spindle::rm
