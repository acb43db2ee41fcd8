#include "cmd/rm_daemon.h"

#include <dirent.h>
#include <glog/logging.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/open_file_limit.h"
#include "rm/config/hadoop_line.h"
#include "rm/nodes/topology_table.h"
#include "rm/recovery/store_failure_guard.h"
#include "rm/scheduling/resource_normalizer.h"
#include "rm/security/amrm_token_secret_provider.h"
#include "rm/security/security_config.h"

namespace spindle {

namespace {

constexpr auto kTick = std::chrono::milliseconds(20);

// yarn.resourcemanager.nodes.include-path / exclude-path: host names
// separated by white space; '#' starts a comment.
Result<std::set<std::string>> ReadHostsFile(const rm::Configuration& conf, const std::string& key) {
  std::set<std::string> hosts;
  auto path = conf.GetTrimmed(key);
  if (!path.has_value()) return hosts;
  std::ifstream in(*path);
  if (!in) {
    return Status::IoError(conf.SourceOf(key) + ": " + key + " = '" + *path +
                           "': cannot read the hosts file");
  }
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string host;
    while (words >> host) hosts.insert(host);
  }
  return hosts;
}

Result<Duration> Millis(const rm::Configuration& conf, const std::string& key, int64_t fallback) {
  ASSIGN_OR_RETURN(int64_t ms, conf.GetInt(key, fallback));
  if (ms <= 0) {
    return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" + std::to_string(ms) +
                                   "' must be positive");
  }
  return Duration(std::chrono::milliseconds(ms));
}

}  // namespace

Result<RmAddresses> RmAddressesFromConfiguration(const rm::Configuration& conf) {
  const std::string host = conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0");
  RmAddresses a;
  ASSIGN_OR_RETURN(a.client, conf.GetSocketAddress("yarn.resourcemanager.address", host + ":8032"));
  ASSIGN_OR_RETURN(a.scheduler,
                   conf.GetSocketAddress("yarn.resourcemanager.scheduler.address", host + ":8030"));
  ASSIGN_OR_RETURN(
      a.resource_tracker,
      conf.GetSocketAddress("yarn.resourcemanager.resource-tracker.address", host + ":8031"));
  ASSIGN_OR_RETURN(a.admin,
                   conf.GetSocketAddress("yarn.resourcemanager.admin.address", host + ":8033"));
  ASSIGN_OR_RETURN(a.web,
                   conf.GetSocketAddress("yarn.resourcemanager.webapp.address", host + ":8088"));
  if (auto bind = conf.GetTrimmed("yarn.resourcemanager.bind-host"); bind.has_value()) {
    for (RmAddress* address : {&a.client, &a.scheduler, &a.resource_tracker, &a.admin, &a.web}) {
      address->host = *bind;
    }
  }
  return a;
}

namespace {

// A --conf (or $HADOOP_CONF_DIR) that is missing, a file or unreadable is an
// operator's mistake to report, not a reason to start on defaults.
Status CheckConfigurationDirectory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return Status::IoError(
        "configuration directory " + dir + ": " +
        (errno == ENOENT ? std::string("no such directory") : std::string(std::strerror(errno))));
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument("configuration directory " + dir +
                                   ": not a directory (name the directory that holds "
                                   "yarn-site.xml, not a file)");
  }
  // Readable, as the files in it are looked up by name.
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) {
    return Status::IoError("configuration directory " + dir +
                           ": cannot be read: " + std::strerror(errno));
  }
  ::closedir(listing);
  return Status::OK();
}

}  // namespace

Result<rm::Configuration> RmDaemon::LoadConfiguration(const std::string& dir) {
  RETURN_NOT_OK(CheckConfigurationDirectory(dir));
  rm::Configuration conf;
  for (const char* file : {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"}) {
    const std::string path = dir + "/" + file;
    if (std::ifstream(path).good()) {
      RETURN_NOT_OK(conf.AddResourceFile(path));
    } else if (std::string_view(file) == "capacity-scheduler.xml" &&
               conf.KeysWithPrefix("yarn.scheduler.capacity.").empty()) {
      // A Hadoop install always has one in etc/hadoop; without it (and
      // without queues in the other files) the queue tree is the one Hadoop
      // ships (one queue, "default").
      RETURN_NOT_OK(conf.AddResourceString(rm::ShippedCapacitySchedulerXml(),
                                           rm::kShippedCapacitySchedulerSource));
    }
  }
  return conf;
}

Result<rm::Configuration> RmDaemon::Reread() const {
  if (conf_dir_.empty()) return conf_;
  return LoadConfiguration(conf_dir_);
}

Result<std::unique_ptr<RmDaemon>> RmDaemon::Create(rm::Configuration conf, std::string conf_dir,
                                                   const Clock* clock) {
  std::unique_ptr<RmDaemon> daemon(new RmDaemon(std::move(conf), std::move(conf_dir), clock));
  RETURN_NOT_OK(daemon->Init());
  return daemon;
}

Status RmDaemon::FormatStateStore(const rm::Configuration& conf) {
  ASSIGN_OR_RETURN(rm::RecoveryConfig config, rm::RecoveryConfig::FromConfiguration(conf));
  std::unique_ptr<persist::StateStore> store = rm::MakeStateStore(config);
  if (store == nullptr) return Status::OK();
  RETURN_NOT_OK(rm::PrepareStoreDirectory(config));
  Status formatted = store->Format();
  if (!formatted.ok()) {
    return Status::IoError("cannot format the state store at " + config.store.path + ": " +
                           formatted.message());
  }
  LOG(INFO) << "state store at " << config.store.path << " formatted";
  return Status::OK();
}

Status RmDaemon::OpenStore(int64_t start_ms, rm::RecoveredRmState* recovered) {
  ASSIGN_OR_RETURN(recovery_, rm::RecoveryConfig::FromConfiguration(conf_));
  // As Hadoop: without recovery the RM neither reads nor writes a store.
  if (!recovery_.recovery_enabled) return Status::OK();
  std::unique_ptr<persist::StateStore> store = rm::MakeStateStore(recovery_);
  if (store == nullptr) return Status::OK();
  const std::string where =
      recovery_.kind == rm::StoreKind::kRocksDb ? " at " + recovery_.store.path : "";
  store_ = std::make_unique<rm::StoreFailureGuard>(std::move(store), "the state store" + where,
                                                   recovery_.on_store_failure, [this] {
                                                     // Stopped by RmMain, which waits for SIGTERM;
                                                     // the exit status says why.
                                                     exit_code_.store(1);
                                                     ::kill(::getpid(), SIGTERM);
                                                   });
  const std::string remedy = " (it is left as it is; `spindle rm --format-state-store` wipes it)";
  // The store's own refusals of lost data say what to do; others get the
  // remedy here. A full disk or a store in use is not a reason to wipe it.
  auto refused = [&](const Status& s, const std::string& what) {
    const bool wipe_helps =
        (s.code() == Status::Code::kCorruption || s.code() == Status::Code::kNotSupported) &&
        s.message().find("--format-state-store") == std::string::npos;
    return s.WithContext(what + where + (wipe_helps ? remedy : ""));
  };
  RETURN_NOT_OK(rm::PrepareStoreDirectory(recovery_));
  Status opened = store_->Open();
  if (!opened.ok()) return refused(opened, "cannot open the state store");
  auto loaded = store_->Load();
  if (!loaded.ok()) return refused(loaded.status(), "cannot read the state store");
  auto decoded = rm::DecodeRmState(*loaded);
  if (!decoded.ok()) {
    return Status::Corruption("the state store" + where + " holds a record this RM cannot read" +
                              remedy + ": " + decoded.status().message());
  }
  *recovered = std::move(decoded).value();
  persist::StoreBatch batch;
  batch.SetClusterValue(persist::ClusterField::kClusterTimestamp,
                        recovered->cluster_timestamp.value_or(start_ms));
  batch.SetClusterValue(persist::ClusterField::kEpoch,
                        recovered->cluster_timestamp.has_value() ? recovered->epoch + 1 : 0);
  Status saved = store_->Apply(batch);
  if (!saved.ok())
    return Status::IoError("cannot write the state store" + where + ": " + saved.message());
  if (!recovered->cluster_timestamp.has_value()) {
    recovered->cluster_timestamp = start_ms;
  } else {
    ++recovered->epoch;
    LOG(INFO) << "recovering from the state store" << where << ": " << recovered->apps.size()
              << " applications, " << recovered->nodes.size() << " nodes, epoch "
              << recovered->epoch;
  }
  stored_nodes_ = recovered->nodes;
  MutexLock lock(&queue_version_mu_);
  queue_config_version_ = recovered->queue_config_version;
  return Status::OK();
}

Status RmDaemon::Init() {
  ASSIGN_OR_RETURN(const rm::HadoopLine line, rm::HadoopLineOf(conf_));
  const rm::HadoopLineTraits& hadoop = rm::TraitsOf(line);
  LOG(INFO) << "following Hadoop " << hadoop.name << " (" << rm::kHadoopLineKey
            << "): reporting version " << hadoop.version;
  ASSIGN_OR_RETURN(addresses_, RmAddressesFromConfiguration(conf_));
  // Ids keep the first run's timestamp; what NMs see as the RM's identity
  // (and container tokens carry) is this run's start, as with Hadoop, so
  // that a token of a previous run is told apart.
  const int64_t start_ms = clock_->WallMillis();
  rm::RecoveredRmState recovered;
  RETURN_NOT_OK(OpenStore(start_ms, &recovered));
  const int64_t cluster_timestamp = recovered.cluster_timestamp.value_or(start_ms);

  std::map<std::string, std::string> pool_keys;
  for (const auto& key : conf_.KeysWithPrefix("spindle.scheduler.")) {
    pool_keys[key] = conf_.Get(key, "");
  }
  ASSIGN_OR_RETURN(pool::PoolOptions pool_options, pool::PoolOptions::FromMap(pool_keys));
  ASSIGN_OR_RETURN(pool_, pool::SchedulerPool::Create(pool_options, clock_));
  ASSIGN_OR_RETURN(queues_, rm::QueueManager::Create(conf_));
  RefreshPoolQueues();

  ASSIGN_OR_RETURN(int64_t min_mb, conf_.GetInt("yarn.scheduler.minimum-allocation-mb", 1024));
  ASSIGN_OR_RETURN(int64_t min_vcores, conf_.GetInt("yarn.scheduler.minimum-allocation-vcores", 1));
  ASSIGN_OR_RETURN(int64_t max_mb, conf_.GetInt("yarn.scheduler.maximum-allocation-mb", 8192));
  // The line's yarn-default.xml decides (32 on 2.x, 4 on 3.x): rm/config/hadoop_line.
  ASSIGN_OR_RETURN(int64_t max_vcores, conf_.GetInt("yarn.scheduler.maximum-allocation-vcores", 4));
  if (min_mb <= 0 || min_vcores <= 0 || max_mb < min_mb || max_vcores < min_vcores) {
    return Status::InvalidArgument(
        conf_.SourceOf("yarn.scheduler.maximum-allocation-mb") +
        ": Invalid resource scheduler memory/vcores allocation configuration: minimum " +
        std::to_string(min_mb) + " MB/" + std::to_string(min_vcores) + " vcores, maximum " +
        std::to_string(max_mb) + " MB/" + std::to_string(max_vcores) + " vcores");
  }

  rm::NodeRegistryOptions node_options;
  ASSIGN_OR_RETURN(node_options.expiry,
                   Millis(conf_, "yarn.nm.liveness-monitor.expiry-interval-ms", 600000));
  node_options.min_allocation = pool::Resource::Of(min_mb, min_vcores);
  ASSIGN_OR_RETURN(node_options.include_hosts,
                   ReadHostsFile(conf_, "yarn.resourcemanager.nodes.include-path"));
  ASSIGN_OR_RETURN(node_options.exclude_hosts,
                   ReadHostsFile(conf_, "yarn.resourcemanager.nodes.exclude-path"));
  ASSIGN_OR_RETURN(node_options.racks, rm::TopologyTableFromConfiguration(conf_));
  nodes_ = std::make_unique<rm::NodeRegistry>(node_options, pool_.get(), clock_);
  containers_ = std::make_unique<rm::ContainerRegistry>(pool_.get());

  rm::ApplicationManagerOptions app_options;
  app_options.cluster_timestamp_ms = cluster_timestamp;
  app_options.epoch = recovered.epoch;
  ASSIGN_OR_RETURN(int64_t max_attempts, conf_.GetInt("yarn.resourcemanager.am.max-attempts", 2));
  if (max_attempts <= 0) {
    return Status::InvalidArgument(conf_.SourceOf("yarn.resourcemanager.am.max-attempts") +
                                   ": yarn.resourcemanager.am.max-attempts = '" +
                                   std::to_string(max_attempts) + "' must be positive");
  }
  app_options.max_attempts = static_cast<int32_t>(max_attempts);
  app_options.single_attempt_never_retried = hadoop.single_attempt_never_retried;
  if (hadoop.am_node_blacklisting) {
    ASSIGN_OR_RETURN(
        app_options.am_blacklisting_enabled,
        conf_.GetBool("yarn.resourcemanager.am-scheduling.node-blacklisting-enabled", false));
    ASSIGN_OR_RETURN(
        const double threshold,
        conf_.GetDouble("yarn.resourcemanager.am-scheduling.node-blacklisting-disable-threshold",
                        0.2));
    // RMAppImpl: a threshold outside [0, 1] falls back to the default.
    app_options.am_blacklist_disable_threshold = threshold < 0 || threshold > 1 ? 0.2 : threshold;
  }
  ASSIGN_OR_RETURN(app_options.am_expiry,
                   Millis(conf_, "yarn.am.liveness-monitor.expiry-interval-ms", 600000));
  app_options.min_allocation = node_options.min_allocation;
  app_options.max_allocation = pool::Resource::Of(max_mb, max_vcores);
  // capacity-scheduler.xml; an unknown class fails the start, as in Hadoop.
  ASSIGN_OR_RETURN(app_options.resource_calculator,
                   rm::ParseResourceCalculator(conf_.GetTrimmed(rm::kResourceCalculatorKey)
                                                   .value_or(rm::kDefaultResourceCalculatorClass)));
  // 10000 on 2.x, 1000 on 3.x (the line's yarn-default.xml).
  ASSIGN_OR_RETURN(int64_t max_completed,
                   conf_.GetInt("yarn.resourcemanager.max-completed-applications", 1000));
  app_options.max_completed_apps = static_cast<int32_t>(max_completed);

  // Recovered keys keep the tokens of the previous run valid.
  auto recovered_keys = [&recovered](rm::KeyRollingOptions* options) {
    auto it = recovered.keys.find(options->family);
    if (it != recovered.keys.end()) options->recovered = it->second;
  };
  ASSIGN_OR_RETURN(auto amrm_keys,
                   rm::KeyRollingOptionsFromConfiguration(conf_, rm::KeyFamily::kAmrmTokens));
  recovered_keys(&amrm_keys);
  ASSIGN_OR_RETURN(amrm_tokens_, rm::AmrmTokenSecretManager::Create(amrm_keys, clock_));
  ASSIGN_OR_RETURN(auto nm_keys,
                   rm::KeyRollingOptionsFromConfiguration(conf_, rm::KeyFamily::kNmTokens));
  recovered_keys(&nm_keys);
  ASSIGN_OR_RETURN(nm_tokens_, rm::NmTokenSecretManager::Create(nm_keys, clock_));
  ASSIGN_OR_RETURN(auto container_options,
                   rm::ContainerTokenOptionsFromConfiguration(conf_, start_ms));
  recovered_keys(&container_options.keys);
  ASSIGN_OR_RETURN(container_tokens_,
                   rm::ContainerTokenSecretManager::Create(container_options, clock_));
  ASSIGN_OR_RETURN(auto delegation_options, rm::RmDelegationTokenOptionsFromConfiguration(conf_));
  if (store_ != nullptr) {
    delegation_options.recovered = std::move(recovered.delegation_tokens);
    delegation_options.listener = rm::StoringDelegationTokenListener(store_.get());
  }
  ASSIGN_OR_RETURN(delegation_tokens_,
                   rm::RmDelegationTokenSecretManager::Create(delegation_options, clock_));

  nm_client_ = std::make_unique<ipc::RpcClient>();
  ASSIGN_OR_RETURN(const nm_shim::NmConnectRetryPolicy nm_connect_retry,
                   nm_shim::NmConnectRetryPolicy::FromConfiguration(conf_));
  launcher_ = std::make_unique<nm_shim::IpcAmLauncher>(nm_client_.get(), amrm_tokens_.get(),
                                                       container_tokens_.get(), nm_tokens_.get(),
                                                       clock_, nm_connect_retry);
  if (store_ != nullptr) app_store_ = std::make_unique<rm::StateStoreAppStore>(store_.get());
  apps_ = std::make_unique<rm::ApplicationManager>(app_options, pool_.get(), containers_.get(),
                                                   launcher_.get(), nodes_.get(), clock_,
                                                   app_store_.get());

  nm_shim::ResourceTrackerOptions tracker_options;
  ASSIGN_OR_RETURN(tracker_options.heartbeat_interval_ms,
                   conf_.GetInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1000));
  tracker_options.rm_identifier = start_ms;
  tracker_options.rm_version = std::string(hadoop.version);
  tracker_ = std::make_unique<nm_shim::ResourceTrackerService>(
      tracker_options, nodes_.get(), containers_.get(), apps_.get(), container_tokens_.get(),
      nm_tokens_.get());

  rm::AttemptAllocatorDeps deps;
  deps.apps = apps_.get();
  deps.nodes = nodes_.get();
  deps.containers = containers_.get();
  deps.pool = pool_.get();
  deps.amrm_tokens = amrm_tokens_.get();
  deps.container_tokens = container_tokens_.get();
  deps.nm_tokens = nm_tokens_.get();
  deps.clock = clock_;
  deps.store = app_store_.get();
  deps.token_service = am_protocol::NodeTokenService;
  deps.placements_held = [this] { return holding_.load(); };
  deps.rules = hadoop.am_rules;
  attempt_allocator_ = std::make_unique<rm::AttemptAllocator>(deps);
  am_service_ = std::make_unique<am_protocol::AmService>(attempt_allocator_.get());

  rm::ApplicationManager::Listener listener;
  listener.attempt_ended = [this](const rm::RmApp&, const rm::RmAttempt& attempt) {
    amrm_tokens_->AttemptFinished(attempt.id);
    nm_tokens_->UnregisterAttempt(attempt.id);
    attempt_allocator_->AttemptEnded(attempt.id);
  };
  apps_->SetListener(std::move(listener));
  if (store_ != nullptr) {
    SaveKeys();
    apps_->Recover(std::move(recovered.apps), recovered.last_app_id);
    for (const rm::RmApp& app : apps_->ListApps()) {
      const rm::RmAttempt* attempt = app.current_attempt();
      if (attempt != nullptr && attempt->state == rm::AttemptState::kLaunched) {
        amrm_tokens_->AddRecoveredAttempt(attempt->id);
      }
    }
    attempt_allocator_->SetRecoveredAsks(recovered.asks);
    attempt_allocator_->SetRecoveredRows(recovered.attempt_rows);
    awaited_nodes_ = std::move(recovered.nodes);
    holding_ = !awaited_nodes_.empty();
  }

  auto server = [this](
                    const std::string& name, const RmAddress& address,
                    const std::string& threads_key, std::shared_ptr<ipc::ServiceRegistry> services,
                    ipc::ServerSessionOptions session) -> Result<std::unique_ptr<ipc::RpcServer>> {
    ipc::RpcServerOptions options;
    options.name = name;
    options.bind_host = address.host;
    options.port = address.port;
    ASSIGN_OR_RETURN(int64_t threads, conf_.GetInt(threads_key, 50));
    options.worker_threads = static_cast<int>(std::clamp<int64_t>(threads, 1, 256));
    // 64 MiB on 2.x, 128 MiB on 3.x (the line's core-default.xml).
    ASSIGN_OR_RETURN(int64_t max_length, conf_.GetInt("ipc.maximum.data.length", 128 << 20));
    session.max_data_length = static_cast<uint32_t>(std::clamp<int64_t>(max_length, 1024, 1 << 30));
    // Hadoop 2.7+ (Server.ConnectionManager.isFull); <= 0 means no limit there too.
    ASSIGN_OR_RETURN(options.limits.max_connections, conf_.GetInt("ipc.server.max.connections", 0));
    ASSIGN_OR_RETURN(options.limits.max_per_address,
                     conf_.GetInt("spindle.ipc.server.max-connections-per-address", 0));
    options.session = session;
    return std::make_unique<ipc::RpcServer>(options, std::move(services));
  };

  ASSIGN_OR_RETURN(auto group_options, rm::OsGroupMappingOptions::FromConfiguration(conf_));
  groups_ = std::make_unique<rm::OsGroupMapping>(group_options, clock_);
  ASSIGN_OR_RETURN(auto client_options,
                   client_service::ClientRmServiceOptions::FromConfiguration(conf_));
  client_service::ClientRmServiceDeps client_deps;
  client_deps.apps = apps_.get();
  client_deps.nodes = nodes_.get();
  client_deps.queues = queues_.get();
  client_deps.pool = pool_.get();
  client_deps.groups = groups_.get();
  client_deps.containers = containers_.get();
  client_deps.clock = clock_;
  client_deps.delegation_tokens = delegation_tokens_.get();
  // An unmanaged AM's owner gets its AMRM token in the application report
  // (RMAppImpl.createAndGetApplicationReport), as no container carries it.
  client_deps.amrm_token =
      [tokens = amrm_tokens_.get()](
          const rm::ApplicationAttemptId& attempt) -> std::optional<hadoop::common::TokenProto> {
    return rm::ToTokenProto(tokens->CreateToken(attempt));
  };
  client_service_ = std::make_unique<client_service::ClientRmService>(client_options, client_deps);
  auto client_services = std::make_shared<ipc::ServiceRegistry>();
  client_services->Add(client_service_->MakeRpcService());
  // Like Hadoop's RM, 8032 offers TOKEN (RM delegation tokens) and SIMPLE.
  delegation_provider_ =
      std::make_unique<rm::RmDelegationTokenSecretProvider>(delegation_tokens_.get());
  ipc::ServerSessionOptions token_or_simple;
  token_or_simple.token_provider = delegation_provider_.get();
  ASSIGN_OR_RETURN(client_server_, server("ApplicationClientProtocol", addresses_.client,
                                          "yarn.resourcemanager.client.thread-count",
                                          client_services, token_or_simple));

  auto scheduler_services = std::make_shared<ipc::ServiceRegistry>();
  scheduler_services->Add(am_service_->MakeRpcService());
  amrm_provider_ = std::make_unique<rm::AmrmTokenSecretProvider>(amrm_tokens_.get());
  ipc::ServerSessionOptions token_only;
  token_only.simple_enabled = false;
  token_only.token_provider = amrm_provider_.get();
  ASSIGN_OR_RETURN(scheduler_server_, server("ApplicationMasterProtocol", addresses_.scheduler,
                                             "yarn.resourcemanager.scheduler.client.thread-count",
                                             scheduler_services, token_only));

  auto tracker_services = std::make_shared<ipc::ServiceRegistry>();
  tracker_services->Add(tracker_->MakeRpcService());
  ASSIGN_OR_RETURN(
      tracker_server_,
      server("ResourceTracker", addresses_.resource_tracker,
             "yarn.resourcemanager.resource-tracker.client.thread-count", tracker_services, {}));

  RETURN_NOT_OK(RefreshAdminAclFrom(conf_));
  admin_service_ = std::make_unique<am_protocol::AdminService>(this);
  auto admin_services = std::make_shared<ipc::ServiceRegistry>();
  admin_services->Add(admin_service_->MakeRpcService());
  ASSIGN_OR_RETURN(admin_server_,
                   server("ResourceManagerAdministrationProtocol", addresses_.admin,
                          "yarn.resourcemanager.admin.client.thread-count", admin_services, {}));

  web::RmWebAppDeps web_deps;
  web_deps.apps = apps_.get();
  web_deps.client = client_service_.get();
  web_deps.nodes = nodes_.get();
  web_deps.queues = queues_.get();
  web_deps.pool = pool_.get();
  web_deps.containers = containers_.get();
  web_deps.identity.cluster_timestamp = apps_->cluster_timestamp();
  web_deps.identity.version = std::string(hadoop.version);
  web_deps.identity.build_version = std::string(hadoop.version) + " from spindle";
  web_deps.rpc_servers = {client_server_.get(), scheduler_server_.get(), tracker_server_.get(),
                          admin_server_.get()};
  web_deps.is_admin = [this](const std::string& user) {
    return AdminAcl().IsUserAllowed(user, GroupsOf(user));
  };
  if (store_ != nullptr) {
    // Hadoop names the store class; ours are not Java classes.
    web_deps.identity.state_store_name = recovery_.kind == rm::StoreKind::kRocksDb
                                             ? "spindle.RocksDbStateStore"
                                             : "spindle.MemoryStateStore";
  }
  web_deps.conf = &conf_;
  web_deps.clock = clock_;
  ASSIGN_OR_RETURN(
      web_, web::RmWebApp::Create(conf_, addresses_.web.host, addresses_.web.port, web_deps));
  return Status::OK();
}

RmDaemon::~RmDaemon() { Stop(); }

Status RmDaemon::Start() {
  CHECK(!started_) << "RmDaemon started twice";
  if (holding_) {
    hold_until_ = clock_->Now() + recovery_.scheduling_wait;
    LOG(INFO)
        << "new placements wait for " << awaited_nodes_.size()
        << " node(s) of the previous run, at most "
        << std::chrono::duration_cast<std::chrono::milliseconds>(recovery_.scheduling_wait).count()
        << " ms";
  } else {
    RETURN_NOT_OK(pool_->Start());
  }
  for (auto* s : {client_server_.get(), scheduler_server_.get(), tracker_server_.get(),
                  admin_server_.get()}) {
    Status started = s->Start();
    if (!started.ok()) {
      Stop();
      return started;
    }
  }
  if (Status started = web_->Start(); !started.ok()) {
    Stop();
    return started.WithContext("cannot start the web server on " + addresses_.web.host + ":" +
                               std::to_string(addresses_.web.port));
  }
  // Tracking URLs name the port the web app listens on, not a configured 0.
  client_service_->SetWebAppPort(web_->port());
  started_ = true;
  housekeeping_ = std::thread([this] { Housekeeping(); });
  LOG(INFO) << "ResourceManager started: cluster timestamp " << apps_->cluster_timestamp()
            << ", client port " << client_port() << ", scheduler port " << scheduler_port()
            << ", resource-tracker port " << resource_tracker_port() << ", web port " << web_port();
  return Status::OK();
}

void RmDaemon::Stop() {
  stopping_ = true;
  // The web first: its handlers call into everything below.
  if (web_ != nullptr) web_->Stop();
  if (housekeeping_.joinable()) housekeeping_.join();
  for (auto* s : {client_server_.get(), scheduler_server_.get(), tracker_server_.get(),
                  admin_server_.get()}) {
    if (s != nullptr) s->Stop();
  }
  if (pool_ != nullptr) pool_->Stop();
}

void RmDaemon::RefreshPoolQueues() {
  const pool::Resource capacity = pool_->cell().Capacity();
  if (capacity.memory_mb() == last_capacity_mb_) return;
  last_capacity_mb_ = capacity.memory_mb();
  auto specs = queues_->Current()->ToQueueSpecs(capacity);
  Status s = pool_->SetQueues(specs).status();
  if (!s.ok()) LOG(ERROR) << "cannot apply the queue tree to the scheduler: " << s.ToString();
}

void RmDaemon::Housekeeping() {
  auto last_slow = clock_->Now();
  while (!stopping_.load()) {
    apps_->Tick();
    if (holding_) ReleaseHoldIfDue();
    // The node list is stored as soon as it changes: a restart waits for
    // the nodes that were there.
    if (const uint64_t version = nodes_->membership_version(); version != saved_nodes_version_) {
      if (SaveNodes()) saved_nodes_version_ = version;
    }
    const auto now = clock_->Now();
    if (now - last_slow >= std::chrono::milliseconds(500)) {
      last_slow = now;
      tracker_->ExpireNodes();
      RefreshPoolQueues();
      // Every family advances, whichever rolled.
      const bool amrm_rolled = amrm_tokens_->Advance().any();
      const bool nm_rolled = nm_tokens_->Advance().any();
      const bool container_rolled = container_tokens_->Advance().any();
      const bool rolled = amrm_rolled || nm_rolled || container_rolled;
      if (rolled) SaveKeys();
      delegation_tokens_->Advance();
    } else {
      RefreshPoolQueues();
    }
    std::this_thread::sleep_for(kTick);
  }
}

void RmDaemon::SaveKeys() {
  if (store_ == nullptr) return;
  persist::StoreBatch batch;
  rm::PutKeyState(rm::KeyFamily::kAmrmTokens, amrm_tokens_->Keys(), &batch);
  rm::PutKeyState(rm::KeyFamily::kNmTokens, nm_tokens_->Keys(), &batch);
  rm::PutKeyState(rm::KeyFamily::kContainerTokens, container_tokens_->Keys(), &batch);
  Status saved = store_->Apply(batch);
  if (!saved.ok()) LOG(ERROR) << "cannot store the master keys: " << saved.ToString();
}

void RmDaemon::ReleaseHoldIfDue() {
  // The node list is read only when someone joined since the last look.
  if (const uint64_t version = nodes_->membership_version(); version != hold_checked_version_) {
    hold_checked_version_ = version;
    for (const rm::NodeReport& node : nodes_->Nodes()) {
      if (node.state == rm::NodeState::kRunning || node.state == rm::NodeState::kUnhealthy) {
        awaited_nodes_.erase(node.info.id.ToString());
      }
    }
  }
  const bool timed_out = clock_->Now() >= hold_until_;
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
  holding_ = false;
  // Those that did not come back are no longer part of the cluster.
  awaited_nodes_.clear();
  saved_nodes_version_ = ~uint64_t{0};
}

bool RmDaemon::SaveNodes() {
  if (store_ == nullptr) return true;
  std::set<std::string> live;
  for (const rm::NodeReport& node : nodes_->Nodes()) {
    switch (node.state) {
      case rm::NodeState::kRunning:
      case rm::NodeState::kUnhealthy:
      case rm::NodeState::kDecommissioning:
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
    if (stored_nodes_.count(node) == 0) batch.PutNode(node, node);
  }
  for (const auto& node : stored_nodes_) {
    if (live.count(node) == 0) batch.DeleteNode(node);
  }
  Status saved = store_->Apply(batch);
  if (!saved.ok()) {
    LOG(ERROR) << "cannot store the node list: " << saved.ToString();
    return false;
  }
  stored_nodes_ = std::move(live);
  return true;
}

Status RmDaemon::RefreshAdminAclFrom(const rm::Configuration& conf) {
  const std::string acl = conf.Get("yarn.admin.acl", "*");
  MutexLock lock(&admin_mu_);
  admin_acl_ = rm::AccessControlList::Parse(acl);
  return Status::OK();
}

Status RmDaemon::RefreshAdminAcls() {
  ASSIGN_OR_RETURN(rm::Configuration conf, Reread());
  return RefreshAdminAclFrom(conf);
}

Status RmDaemon::RefreshQueues() {
  ASSIGN_OR_RETURN(rm::Configuration conf, Reread());
  auto tree = queues_->Reload(conf);
  if (!tree.ok()) {
    return Status::Remote("java.io.IOException",
                          "Failed to re-init queues : " + tree.status().message());
  }
  last_capacity_mb_ = -1;  // re-apply at the current capacity
  RefreshPoolQueues();
  MutexLock lock(&queue_version_mu_);
  ++queue_config_version_;
  if (store_ != nullptr) {
    Status saved =
        store_->SetClusterValue(persist::ClusterField::kQueueConfigVersion, queue_config_version_);
    if (!saved.ok())
      LOG(ERROR) << "cannot store the queue configuration version: " << saved.ToString();
  }
  LOG(INFO) << "queue configuration version " << queue_config_version_;
  return Status::OK();
}

Status RmDaemon::RefreshNodes() {
  ASSIGN_OR_RETURN(rm::Configuration conf, Reread());
  ASSIGN_OR_RETURN(auto include, ReadHostsFile(conf, "yarn.resourcemanager.nodes.include-path"));
  ASSIGN_OR_RETURN(auto exclude, ReadHostsFile(conf, "yarn.resourcemanager.nodes.exclude-path"));
  for (const rm::NodeId& node : nodes_->RefreshHostLists(std::move(include), std::move(exclude))) {
    for (const auto& done : containers_->OnNodeLost(node)) {
      if (done.is_am) apps_->OnContainerFinished(done.id, done.exit_status, done.diagnostics);
    }
    nm_tokens_->RemoveNode(node);
  }
  return Status::OK();
}

void RmDaemon::RefreshGroups() { groups_->Refresh(); }

rm::AccessControlList RmDaemon::AdminAcl() const {
  MutexLock lock(&admin_mu_);
  return admin_acl_;
}

std::vector<std::string> RmDaemon::GroupsOf(const std::string& user) const {
  return groups_->GroupsOf(user);
}

const CommandSpec& RmCommand() {
  static const CommandSpec kSpec{
      "rm",
      "the ResourceManager: Hadoop's RM protocols and web UI, until SIGTERM",
      {FlagSpec::String("conf", "DIR", "",
                        "Hadoop configuration directory (core-site.xml, yarn-site.xml, "
                        "capacity-scheduler.xml)")
           .ComputedDefault("$HADOOP_CONF_DIR, else the current directory"),
       FlagSpec::String("ports-file", "FILE", "",
                        "once listening, write the bound ports (client, scheduler, "
                        "resource-tracker, admin, web) here, for configurations with port 0"),
       FlagSpec::Switch("format-state-store",
                        "delete every record in the configured state store, then exit")}};
  return kSpec;
}

int RmMain(const CommandLine& flags) {
  std::string dir = flags.GetString("conf", "");
  if (dir.empty()) {
    const char* env = std::getenv("HADOOP_CONF_DIR");
    dir = env != nullptr ? env : ".";
  }
  auto conf = RmDaemon::LoadConfiguration(dir);
  if (!conf.ok()) {
    std::fprintf(stderr, "spindle rm: %s\n", conf.status().message().c_str());
    return 1;
  }
  if (flags.GetBool("format-state-store")) {
    Status formatted = RmDaemon::FormatStateStore(*conf);
    if (!formatted.ok()) {
      std::fprintf(stderr, "spindle rm: %s\n", formatted.message().c_str());
      return 1;
    }
    std::printf("spindle rm: state store formatted\n");
    return 0;
  }
  // Before any server opens a socket; a failure is logged and is no reason not to start.
  RaiseOpenFileLimit("spindle rm").status().PermitUnchecked();
  // Blocked before any thread starts, so that every thread inherits the
  // mask and SIGINT/SIGTERM (also the one a fail-fast store failure raises)
  // reach sigwait below, never a default action.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto daemon = RmDaemon::Create(std::move(conf).value(), dir);
  if (!daemon.ok()) {
    std::fprintf(stderr, "spindle rm: %s\n", daemon.status().message().c_str());
    return 1;
  }
  Status started = (*daemon)->Start();
  if (!started.ok()) {
    std::fprintf(stderr, "spindle rm: %s\n", started.message().c_str());
    return 1;
  }
  if (flags.Has("ports-file")) {
    // For scripts that configure ports 0: where the RM actually listens,
    // written whole (rename) once every port is bound.
    const std::string path = flags.GetString("ports-file", "");
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (f == nullptr ||
        std::fprintf(f, "client=%u\nscheduler=%u\nresource-tracker=%u\nadmin=%u\nweb=%u\n",
                     (*daemon)->client_port(), (*daemon)->scheduler_port(),
                     (*daemon)->resource_tracker_port(), (*daemon)->admin_port(),
                     (*daemon)->web_port()) < 0 ||
        std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::fprintf(stderr, "spindle rm: cannot write --ports-file %s\n", path.c_str());
      (*daemon)->Stop();
      return 1;
    }
  }
  int signal = 0;
  sigwait(&signals, &signal);
  LOG(INFO) << "ResourceManager stopping on signal " << signal;
  (*daemon)->Stop();
  return (*daemon)->exit_code();
}

}  // namespace spindle
