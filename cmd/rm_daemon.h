// RmDaemon: `spindle rm`, the ResourceManager process. It builds one RM core
// (rm::ResourceManager, rm/core) from Hadoop configuration (core-site.xml,
// yarn-site.xml, capacity-scheduler.xml) and puts around it what opens
// sockets: the protocol services (am_protocol/, nm_shim/), their IPC servers
// on the four RM ports, the AM launcher's NM client and the web server.
//
// Thread contract: Start() and Stop() from one controlling thread; the
// accessors are for tests and the embedding process.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "am_protocol/admin_service/admin_service.h"
#include "am_protocol/admin_service/ha_service.h"
#include "am_protocol/am_service/am_service.h"
#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/rm_proxy/active_rm_finder.h"
#include "am_protocol/tokens/amrm_token_secret_provider.h"
#include "am_protocol/tokens/rm_delegation_token_secret_provider.h"
#include "base/flags/command_line.h"
#include "nm_shim/am_launcher/ipc_am_launcher.h"
#include "nm_shim/tracker/resource_tracker_service.h"
#include "rm/config/configuration.h"
#include "rm/core/resource_manager.h"
#include "security/daemon_login.h"
#include "security/rpc_authorizer.h"
#include "web/rm_webapp.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "wire/ipc/sasl_qop.h"

namespace spindle {

using RmAddress = rm::SocketAddress;

// Where each RM server listens (yarn.resourcemanager.*address, with
// yarn.resourcemanager.bind-host overriding the host to bind).
struct RmAddresses {
  RmAddress client;            // 8032
  RmAddress scheduler;         // 8030
  RmAddress resource_tracker;  // 8031
  RmAddress admin;             // 8033
  RmAddress web;               // 8088: REST API, metrics and UI
};

Result<RmAddresses> RmAddressesFromConfiguration(const rm::Configuration& conf);

class RmDaemon : public am_protocol::AdminActions, public am_protocol::HaTransitions {
 public:
  // Reads and validates everything, builds the RM core and, without HA,
  // makes it active: it opens the state store and recovers what a previous
  // run left in it (rm/recovery) and starts placing (after a recovery, once
  // the previous run's nodes are back); no port listens yet. With HA the
  // core stays standby (its elector connected to ZooKeeper) until Start. Errors
  // name the file, key and value; a corrupt store, or one of another format,
  // is refused with a message naming it, and left as it is. `conf_dir` (may be empty) is where
  // refreshQueues, refreshNodes and refreshAdminAcls re-read their files from.
  static Result<std::unique_ptr<RmDaemon>> Create(rm::Configuration conf, std::string conf_dir = "",
                                                  const Clock* clock = SystemClock::Get());
  ~RmDaemon() override;

  // Loads core-site.xml, yarn-site.xml and capacity-scheduler.xml from `dir`
  // (each optional, in that order; an empty directory is fine; without a
  // capacity-scheduler.xml nor yarn.scheduler.capacity.* keys elsewhere, the
  // one Hadoop ships applies: queue "default" with all of root's capacity).
  // A `dir` that
  // does not exist (IoError), is not a directory (InvalidArgument) or cannot
  // be read (IoError) fails with a message naming it.
  static Result<rm::Configuration> LoadConfiguration(const std::string& dir);

  // AdminActions.
  Status RefreshQueues() override;
  Status RefreshNodes() override;
  Status RefreshAdminAcls() override;
  void RefreshGroups() override;
  Status AddToClusterNodeLabels(std::vector<rm::ClusterNodeLabel> labels) override;
  Status RemoveFromClusterNodeLabels(const std::vector<std::string>& labels) override;
  Status ReplaceLabelsOnNodes(const std::map<rm::NodeId, std::set<std::string>>& labels,
                              bool fail_on_unknown_nodes) override;
  rm::AccessControlList AdminAcl() const override;
  std::vector<std::string> GroupsOf(const std::string& user) const override;
  bool ServiceAuthorizationEnabled() const override;
  Status RefreshServiceAcls() override;
  Status RefreshSuperUserGroups() override;
  rm::HadoopLine Line() const override { return rm_->hadoop().line; }

  // HaTransitions (HAServiceProtocol's state changes act on the core).
  rm::HaState ha_state() const override { return rm_->ha_state(); }
  bool ActiveServicesRunning() const override { return rm_->active(); }
  Status TransitionToActive() override { return rm_->TransitionToActive(); }
  Status TransitionToStandby() override;

  // HAServiceProtocol on the admin port; null with HA off. The embedded
  // elector's transitions go through it (HaRequestSource::
  // kFailoverController), as Hadoop's elector calls AdminService.
  am_protocol::HaService* ha_service() { return ha_service_.get(); }

  // `spindle rm --format-state-store`: wipes the configured state store
  // (whatever it holds, even a store Create() refuses).
  static Status FormatStateStore(const rm::Configuration& conf);

  // Binds the four RPC ports and the web port (IoError if a port cannot be
  // bound); with HA, then starts the core standby and joins the election.
  Status Start();
  void Stop();

  // The bound ports (after Start; useful with port 0).
  uint16_t client_port() const { return client_server_->port(); }
  uint16_t scheduler_port() const { return scheduler_server_->port(); }
  uint16_t resource_tracker_port() const { return tracker_server_->port(); }
  uint16_t admin_port() const { return admin_server_->port(); }
  uint16_t web_port() const { return web_->port(); }
  // The cell-state service's port (spindle.scheduler.remote.address) while
  // this RM is active and serves it; else 0.
  int cell_service_port() const { return rm_->cell_service_port(); }
  // Calls the ResourceTracker port has answered (registrations, heartbeats).
  int64_t resource_tracker_calls() const { return tracker_server_->calls_served(); }

  rm::ResourceManager& core() { return *rm_; }
  rm::ApplicationManager& apps() { return rm_->apps(); }
  rm::NodeRegistry& nodes() { return rm_->nodes(); }
  pool::SchedulerPool& pool() { return rm_->pool(); }
  const rm::Configuration& conf() const { return rm_->conf(); }
  // refreshQueues so far, over every run that shared the state store.
  int64_t queue_config_version() const { return rm_->queue_config_version(); }
  // True while new placements wait for the previous run's nodes.
  bool holding_placements() const { return rm_->holding_placements(); }
  // What `spindle rm` exits with once stopped: 1 after the state store
  // failed a write under fail-fast (the RM then raised SIGTERM to stop
  // itself, as Hadoop's ExitUtil.terminate(1)), else 0.
  int exit_code() const { return exit_code_.load(); }

 private:
  explicit RmDaemon(std::string conf_dir) : conf_dir_(std::move(conf_dir)) {}
  Status Init(rm::Configuration conf, const Clock* clock);
  // The RPC servers and the services they carry, around the active core.
  Status BuildServers();
  Status BuildWeb();

  const std::string conf_dir_;
  std::atomic<int> exit_code_{0};
  RmAddresses addresses_;
  // Who this RM runs as: the Kerberos log-in in secure mode.
  std::optional<security::DaemonIdentity> identity_;
  // hadoop.rpc.protection: what every RPC server offers and the AM
  // launcher's NM calls accept.
  ipc::SaslQops rpc_protection_ = {ipc::SaslQop::kAuth};
  // What the RPC servers accept Kerberos callers as (secure mode only).
  ipc::KerberosAcceptor kerberos_acceptor_;
  // Proxy users and service ACLs of every RPC port (after the context is
  // read). Declared before the servers that point at it.
  std::unique_ptr<security::RpcAuthorizer> authorizer_;
  // The AM launcher's NM client: declared before the core, so destroyed
  // after it, as the launcher each activation builds uses it.
  std::unique_ptr<ipc::RpcClient> nm_client_;
  std::unique_ptr<rm::ResourceManager> rm_;
  std::unique_ptr<am_protocol::AdminService> admin_service_;
  // HA only: HAServiceProtocol beside the admin protocol, and the standby
  // web app's search for the active RM.
  std::unique_ptr<am_protocol::HaService> ha_service_;
  std::unique_ptr<am_protocol::ActiveRmFinder> active_finder_;
  // Every service, the SASL token providers and the web app call the core's
  // facade and hold nothing of an activation, so they outlive transitions
  // (StandbyException while standby).
  std::unique_ptr<am_protocol::AmrmTokenSecretProvider> amrm_provider_;
  std::unique_ptr<am_protocol::RmDelegationTokenSecretProvider> delegation_provider_;
  std::unique_ptr<nm_shim::ResourceTrackerService> tracker_;
  std::unique_ptr<am_protocol::AmService> am_service_;
  std::unique_ptr<client_service::ClientRmService> client_service_;
  std::unique_ptr<ipc::RpcServer> client_server_;
  std::unique_ptr<ipc::RpcServer> scheduler_server_;
  std::unique_ptr<ipc::RpcServer> tracker_server_;
  std::unique_ptr<ipc::RpcServer> admin_server_;
  std::unique_ptr<web::RmWebApp> web_;
  bool started_ = false;
};

// `spindle rm`'s flag table.
const CommandSpec& RmCommand();
// `spindle rm [--conf DIR]`: runs until SIGINT/SIGTERM.
int RmMain(const CommandLine& flags);

}  // namespace spindle
