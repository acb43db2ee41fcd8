#include "cmd/rm_daemon.h"

#include <glog/logging.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "base/open_file_limit.h"
#include "base/process_user.h"
#include "rm/config/configuration_directory.h"
#include "rm/config/ha_config.h"
#include "rm/config/socket_address.h"
#include "rm/recovery/recovery_config.h"
#include "scheduler_pool/remote/thrift_server.h"
#include "security/daemon_login.h"
#include "wire/ipc/error_mapping.h"

namespace spindle {

namespace {

// The RM core's CellServiceServer as the Thrift server of
// scheduler_pool/remote (TFramedTransport + TCompactProtocol).
class ThriftCellServiceServer final : public rm::CellServiceServer {
 public:
  explicit ThriftCellServiceServer(std::unique_ptr<pool::remote::ThriftCellServer> server)
      : server_(std::move(server)) {}
  int port() const override { return server_->port(); }

 private:
  std::unique_ptr<pool::remote::ThriftCellServer> server_;
};

Result<std::unique_ptr<rm::CellServiceServer>> ServeCellState(
    pool::remote::CellStateService* service, const std::string& address) {
  const std::optional<rm::SocketAddress> where = rm::ParseSocketAddress(address);
  if (!where.has_value()) {
    return Status::InvalidArgument("spindle.scheduler.remote.address: '" + address +
                                   "' is not HOST:PORT");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<pool::remote::ThriftCellServer> server,
                   pool::remote::ThriftCellServer::Start(service, where->host, where->port));
  return std::unique_ptr<rm::CellServiceServer>(
      std::make_unique<ThriftCellServiceServer>(std::move(server)));
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

Result<rm::Configuration> RmDaemon::LoadConfiguration(const std::string& dir) {
  return rm::LoadConfigurationDirectory(dir);
}

Result<std::unique_ptr<RmDaemon>> RmDaemon::Create(rm::Configuration conf, std::string conf_dir,
                                                   const Clock* clock) {
  std::unique_ptr<RmDaemon> daemon(new RmDaemon(std::move(conf_dir)));
  RETURN_NOT_OK(daemon->Init(std::move(conf), clock));
  return daemon;
}

Status RmDaemon::FormatStateStore(const rm::Configuration& conf) {
  ASSIGN_OR_RETURN(rm::RecoveryConfig config, rm::RecoveryConfig::FromConfiguration(conf));
  std::unique_ptr<persist::StateStore> store = rm::MakeStateStore(config);
  if (store == nullptr) return Status::OK();
  RETURN_NOT_OK(rm::PrepareStoreDirectory(config));
  Status formatted = store->Format();
  if (!formatted.ok()) {
    return Status::IoError("cannot format " + rm::StoreDescription(config) + ": " +
                           formatted.message());
  }
  LOG(INFO) << rm::StoreDescription(config) << " formatted";
  return Status::OK();
}

Status RmDaemon::Init(rm::Configuration site_conf, const Clock* clock) {
  // With HA on, this RM binds its own rm-id's addresses (Hadoop's
  // HAUtil.verifyAndSetConfiguration sets the plain keys to them).
  ASSIGN_OR_RETURN(const rm::HaConfig ha, rm::HaConfig::FromConfiguration(site_conf));
  ASSIGN_OR_RETURN(rm::Configuration conf, rm::ConfigurationForThisRm(site_conf, ha));
  ASSIGN_OR_RETURN(addresses_, RmAddressesFromConfiguration(conf));
  // Hadoop 3.3 ResourceManager.doSecureLogin: _HOST is the host of
  // yarn.resourcemanager.address (getBindAddress), not of the bind-host.
  ASSIGN_OR_RETURN(
      const rm::SocketAddress client_address,
      conf.GetSocketAddress(
          "yarn.resourcemanager.address",
          conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0") + ":8032"));
  ASSIGN_OR_RETURN(identity_, security::LoginDaemon(conf, security::kResourceManagerLoginKeys,
                                                    client_address.host));
  ASSIGN_OR_RETURN(const nm_shim::NmConnectRetryPolicy nm_connect_retry,
                   nm_shim::NmConnectRetryPolicy::FromConfiguration(conf));
  // hadoop.rpc.protection for every RPC server and for the AM launcher's
  // calls to NMs (SaslPropertiesResolver reads the one key for both).
  ASSIGN_OR_RETURN(rpc_protection_,
                   ipc::ParseRpcProtection(conf.GetTrimmed(ipc::kRpcProtectionKey).value_or("")));
  ipc::RpcClientOptions nm_client_options;
  nm_client_options.qops = rpc_protection_;
  nm_client_ = std::make_unique<ipc::RpcClient>(nm_client_options);
  rm::ResourceManagerOptions options;
  options.conf_dir = conf_dir_;
  // Secure mode: the core keeps ClientToAMToken master keys for AMs.
  options.security_enabled = identity_->method == security::AuthenticationMethod::kKerberos;
  options.clock = clock;
  options.node_token_service = am_protocol::NodeTokenService;
  options.launcher_factory = [this, clock, nm_connect_retry](const rm::SecretManagers& secrets) {
    return std::make_unique<nm_shim::IpcAmLauncher>(
        nm_client_.get(), secrets.amrm, secrets.container, secrets.nm, clock, nm_connect_retry);
  };
  options.cell_service_server = ServeCellState;
  options.on_fatal_store_failure = [this] {
    // Stopped by RmMain, which waits for SIGTERM; the exit status says why.
    exit_code_.store(1);
    ::kill(::getpid(), SIGTERM);
  };
  ASSIGN_OR_RETURN(rm_, rm::ResourceManager::Create(std::move(conf), std::move(options)));
  // Not HA: the RM is active from the start (Hadoop 3.3 ResourceManager.serviceStart).
  // HA: it starts standby once its ports listen (Start), so that an RM
  // that wins the election can serve.
  if (!ha.enabled) RETURN_NOT_OK(rm_->Start());
  RETURN_NOT_OK(BuildServers());
  return BuildWeb();
}

Status RmDaemon::BuildServers() {
  const rm::Configuration& conf = rm_->conf();
  const rm::HadoopLineTraits& hadoop = rm_->hadoop();
  // Secure mode: KERBEROS on every port but the AMs' (8030 stays TOKEN only,
  // as Hadoop's ApplicationMasterService sets it), and no SIMPLE anywhere:
  // Hadoop's Server offers [TOKEN, KERBEROS] or [KERBEROS] then.
  const bool secure = identity_->method == security::AuthenticationMethod::kKerberos;
  if (secure) {
    kerberos_acceptor_.principal = identity_->credentials->principal();
    kerberos_acceptor_.keytab = identity_->credentials->keytab();
    kerberos_acceptor_.short_name = [rules =
                                         identity_->auth_to_local](const std::string& principal) {
      return rules.ShortName(principal);
    };
  }
  // Hadoop's authorizeConnection on every port: proxy users always, the
  // service ACLs of hadoop-policy.xml with hadoop.security.authorization.
  ASSIGN_OR_RETURN(security::RpcAuthorizerOptions authorization,
                   security::RpcAuthorizerOptions::FromConfiguration(conf));
  authorization.groups = [core = rm_.get()](const std::string& user) {
    return core->GroupsOf(user);
  };
  ASSIGN_OR_RETURN(const rm::Configuration policy, security::RpcAuthorizer::LoadPolicy(conf_dir_));
  authorizer_ = std::make_unique<security::RpcAuthorizer>(authorization, conf, policy);
  if (authorization.service_authorization) {
    LOG(INFO) << "Service authorization on: ACLs from "
              << (conf_dir_.empty() ? std::string("defaults") : conf_dir_ + "/hadoop-policy.xml");
  }
  const auto kerberized = [&](ipc::ServerSessionOptions session) {
    session.authorizer = authorizer_.get();
    if (secure) {
      session.simple_enabled = false;
      session.kerberos = &kerberos_acceptor_;
    }
    return session;
  };
  auto server = [&conf, this](
                    const std::string& name, const RmAddress& address,
                    const std::string& threads_key, std::shared_ptr<ipc::ServiceRegistry> services,
                    ipc::ServerSessionOptions session) -> Result<std::unique_ptr<ipc::RpcServer>> {
    ipc::RpcServerOptions options;
    options.name = name;
    options.bind_host = address.host;
    options.port = address.port;
    ASSIGN_OR_RETURN(int64_t threads, conf.GetInt(threads_key, 50));
    options.worker_threads = static_cast<int>(std::clamp<int64_t>(threads, 1, 256));
    // 64 MiB on 2.x, 128 MiB on 3.x (the line's core-default.xml).
    ASSIGN_OR_RETURN(int64_t max_length, conf.GetInt("ipc.maximum.data.length", 128 << 20));
    session.max_data_length = static_cast<uint32_t>(std::clamp<int64_t>(max_length, 1024, 1 << 30));
    // Hadoop 2.7+ (Server.ConnectionManager.isFull); <= 0 means no limit there too.
    ASSIGN_OR_RETURN(options.limits.max_connections, conf.GetInt("ipc.server.max.connections", 0));
    ASSIGN_OR_RETURN(options.limits.max_per_address,
                     conf.GetInt("spindle.ipc.server.max-connections-per-address", 0));
    session.qops = rpc_protection_;
    options.session = session;
    return std::make_unique<ipc::RpcServer>(options, std::move(services));
  };

  // ResourceTracker (8031): the node side's use cases of the core.
  nm_shim::ResourceTrackerOptions tracker_options;
  tracker_options.heartbeat_interval_ms = rm_->settings().heartbeat_interval_ms;
  tracker_options.rm_version = std::string(hadoop.version);
  tracker_ = std::make_unique<nm_shim::ResourceTrackerService>(tracker_options, rm_.get());
  auto tracker_services = std::make_shared<ipc::ServiceRegistry>();
  tracker_services->Add(tracker_->MakeRpcService());
  ASSIGN_OR_RETURN(tracker_server_,
                   server("ResourceTracker", addresses_.resource_tracker,
                          "yarn.resourcemanager.resource-tracker.client.thread-count",
                          tracker_services, kerberized({})));

  // ApplicationMasterProtocol (8030): decodes into the core's AttemptAllocator.
  // Both through the core: they answer for whichever activation is current
  // (StandbyException while standby).
  am_service_ = std::make_unique<am_protocol::AmService>(rm_.get());
  auto scheduler_services = std::make_shared<ipc::ServiceRegistry>();
  scheduler_services->Add(am_service_->MakeRpcService());
  amrm_provider_ = std::make_unique<am_protocol::AmrmTokenSecretProvider>(
      [core = rm_.get()](std::string_view identifier) {
        return core->RetrieveAmrmSecret(identifier);
      });
  ipc::ServerSessionOptions token_only;
  token_only.authorizer = authorizer_.get();
  token_only.simple_enabled = false;
  token_only.token_provider = amrm_provider_.get();
  ASSIGN_OR_RETURN(scheduler_server_, server("ApplicationMasterProtocol", addresses_.scheduler,
                                             "yarn.resourcemanager.scheduler.client.thread-count",
                                             scheduler_services, token_only));

  // ApplicationClientProtocol (8032).
  ASSIGN_OR_RETURN(auto client_options,
                   client_service::ClientRmServiceOptions::FromConfiguration(conf));
  // Through the core's facade: it answers for whichever activation is
  // current (StandbyException while standby).
  client_service_ = std::make_unique<client_service::ClientRmService>(client_options, rm_.get());
  auto client_services = std::make_shared<ipc::ServiceRegistry>();
  client_services->Add(client_service_->MakeRpcService());
  // Like Hadoop's RM, 8032 offers TOKEN (RM delegation tokens) and SIMPLE.
  delegation_provider_ = std::make_unique<am_protocol::RmDelegationTokenSecretProvider>(
      rm_.get(), [rules = identity_->auth_to_local](const std::string& owner) {
        return rules.ShortName(owner);
      });
  ipc::ServerSessionOptions token_or_simple;
  token_or_simple.token_provider = delegation_provider_.get();
  ASSIGN_OR_RETURN(client_server_, server("ApplicationClientProtocol", addresses_.client,
                                          "yarn.resourcemanager.client.thread-count",
                                          client_services, kerberized(token_or_simple)));

  // ResourceManagerAdministrationProtocol (8033): the core's admin refreshes.
  admin_service_ = std::make_unique<am_protocol::AdminService>(this);
  auto admin_services = std::make_shared<ipc::ServiceRegistry>();
  admin_services->Add(admin_service_->MakeRpcService());
  // HAServiceProtocol on the same port, only with HA on (Hadoop's
  // AdminService.startServer adds it under isHAEnabled).
  const rm::HaConfig& ha = rm_->settings().ha;
  if (ha.enabled) {
    am_protocol::HaServiceOptions ha_options;
    ha_options.automatic_failover = ha.automatic_failover;
    ha_options.daemon_user = ProcessUserName();
    ha_service_ = std::make_unique<am_protocol::HaService>(ha_options, this, this);
    admin_services->Add(ha_service_->MakeRpcService());
  }
  ASSIGN_OR_RETURN(admin_server_, server("ResourceManagerAdministrationProtocol", addresses_.admin,
                                         "yarn.resourcemanager.admin.client.thread-count",
                                         admin_services, kerberized({})));
  return Status::OK();
}

Status RmDaemon::BuildWeb() {
  const rm::HadoopLineTraits& hadoop = rm_->hadoop();
  web::RmWebAppDeps web_deps;
  web_deps.core = rm_.get();
  web_deps.client = client_service_.get();
  web_deps.identity.cluster_timestamp = rm_->ClusterTimestamp();
  web_deps.identity.version = std::string(hadoop.version);
  web_deps.identity.build_version = std::string(hadoop.version) + " from spindle";
  web_deps.identity.state_store_name = rm_->state_store_name();
  web_deps.scheduler.line = hadoop.line;
  web_deps.scheduler.minimum_allocation = rm_->settings().apps.min_allocation;
  web_deps.scheduler.maximum_allocation = rm_->settings().apps.max_allocation;
  web_deps.rpc_servers = {client_server_.get(), scheduler_server_.get(), tracker_server_.get(),
                          admin_server_.get()};
  web_deps.is_admin = [core = rm_.get()](const std::string& user) { return core->IsAdmin(user); };
  web_deps.conf = &rm_->conf();
  // ?doAs= on the web: the RPC side's proxy-user rules (Hadoop's ProxyUsers
  // is one for both), refreshed with them. The real user's keys are picked
  // by its short name (UGI.getShortUserName, hadoop.security.auth_to_local);
  // a principal those rules cannot map is refused (Java's User throws
  // IllegalArgumentException "Illegal principal name" there).
  web_deps.authorize_proxy = [this](const std::string& real_principal, const std::string& doas_user,
                                    const std::string& remote_address) {
    Result<std::string> short_name = identity_->auth_to_local.ShortName(real_principal);
    if (!short_name.ok()) {
      return Status::Remote(
          ipc::java::kAuthorization,
          "Illegal principal name " + real_principal + ": " + short_name.status().message(),
          Status::Code::kUnauthorized);
    }
    return authorizer_->AuthorizeProxyUser(doas_user, real_principal, *short_name, remote_address);
  };
  if (rm_->settings().ha.enabled) {
    // A standby redirects to the active RM found as RMHAUtils finds it.
    ASSIGN_OR_RETURN(active_finder_,
                     am_protocol::ActiveRmFinder::Create(rm_->conf(), ProcessUserName()));
    web_deps.find_active_url = [finder = active_finder_.get()] {
      return finder->FindActiveWebUrl();
    };
  }
  ASSIGN_OR_RETURN(
      web_, web::RmWebApp::Create(rm_->conf(), addresses_.web.host, addresses_.web.port, web_deps));
  return Status::OK();
}

RmDaemon::~RmDaemon() { Stop(); }

Status RmDaemon::Start() {
  CHECK(!started_) << "RmDaemon started twice";
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
  if (rm_->settings().ha.enabled) {
    // Standby; the embedded elector joins the election.
    if (Status joined = rm_->Start(); !joined.ok()) {
      Stop();
      return joined;
    }
  }
  started_ = true;
  LOG(INFO) << "ResourceManager started: cluster timestamp " << rm_->cluster_timestamp()
            << ", client port " << client_port() << ", scheduler port " << scheduler_port()
            << ", resource-tracker port " << resource_tracker_port() << ", web port " << web_port()
            << (cell_service_port() != 0
                    ? ", cell-state port " + std::to_string(cell_service_port())
                    : std::string());
  return Status::OK();
}

void RmDaemon::Stop() {
  // The web first: its handlers call into everything below.
  if (web_ != nullptr) web_->Stop();
  for (auto* s : {client_server_.get(), scheduler_server_.get(), tracker_server_.get(),
                  admin_server_.get()}) {
    if (s != nullptr) s->Stop();
  }
  if (rm_ != nullptr) rm_->Stop();
}

Status RmDaemon::TransitionToStandby() {
  rm_->TransitionToStandby();
  return Status::OK();
}

Status RmDaemon::RefreshAdminAcls() { return rm_->RefreshAdminAcls(); }
Status RmDaemon::RefreshQueues() { return rm_->RefreshQueues(); }
Status RmDaemon::RefreshNodes() { return rm_->RefreshNodes(); }
void RmDaemon::RefreshGroups() { rm_->RefreshUserToGroups(); }
Status RmDaemon::AddToClusterNodeLabels(std::vector<rm::ClusterNodeLabel> labels) {
  return rm_->AddToClusterNodeLabels(std::move(labels));
}
Status RmDaemon::RemoveFromClusterNodeLabels(const std::vector<std::string>& labels) {
  return rm_->RemoveFromClusterNodeLabels(labels);
}
Status RmDaemon::ReplaceLabelsOnNodes(const std::map<rm::NodeId, std::set<std::string>>& labels,
                                      bool fail_on_unknown_nodes) {
  return rm_->ReplaceLabelsOnNodes(labels, fail_on_unknown_nodes);
}
rm::AccessControlList RmDaemon::AdminAcl() const { return rm_->AdminAcl(); }
std::vector<std::string> RmDaemon::GroupsOf(const std::string& user) const {
  return rm_->GroupsOf(user);
}
bool RmDaemon::ServiceAuthorizationEnabled() const { return authorizer_->service_authorization(); }
Status RmDaemon::RefreshServiceAcls() {
  RETURN_NOT_OK(rm_->CheckActive());
  ASSIGN_OR_RETURN(const rm::Configuration policy, security::RpcAuthorizer::LoadPolicy(conf_dir_));
  return authorizer_->RefreshServiceAcls(policy);
}
Status RmDaemon::RefreshSuperUserGroups() {
  RETURN_NOT_OK(rm_->CheckActive());
  // Hadoop re-reads core-site.xml and yarn-site.xml.
  if (conf_dir_.empty()) {
    authorizer_->RefreshSuperUserGroups(rm_->conf());
    return Status::OK();
  }
  ASSIGN_OR_RETURN(const rm::Configuration site, LoadConfiguration(conf_dir_));
  authorizer_->RefreshSuperUserGroups(site);
  return Status::OK();
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
                        "resource-tracker, admin, web, and cell-state when "
                        "spindle.scheduler.remote.address is served) here, for "
                        "configurations with port 0"),
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
        // Only while served: an active RM with spindle.scheduler.remote.address.
        ((*daemon)->cell_service_port() != 0 &&
         std::fprintf(f, "cell-state=%d\n", (*daemon)->cell_service_port()) < 0) ||
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
