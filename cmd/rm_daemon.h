// RmDaemon: `spindle rm`, the ResourceManager process. It assembles the RM
// core (rm/), the scheduler pool, the protocol services (am_protocol/,
// nm_shim/) and their IPC servers on the four RM ports, from Hadoop
// configuration (core-site.xml, yarn-site.xml, capacity-scheduler.xml).
//
// Thread contract: Start() and Stop() from one controlling thread; the
// accessors are for tests and the embedding process.
#pragma once

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "am_protocol/admin_service/admin_service.h"
#include "am_protocol/am_service/am_service.h"
#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/ipc/rpc_client.h"
#include "am_protocol/ipc/rpc_server.h"
#include "cmd/command_line.h"
#include "nm_shim/am_launcher/ipc_am_launcher.h"
#include "nm_shim/tracker/resource_tracker_service.h"
#include "rm/apps/app_manager.h"
#include "rm/config/configuration.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/os_group_mapping.h"
#include "rm/queues/queue_manager.h"
#include "rm/recovery/recovery_config.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/store_app_store.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/amrm_token_secret_provider.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/rm_delegation_token_secret_provider.h"
#include "scheduler_pool/scheduler_pool.h"
#include "web/rm_webapp.h"

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

class RmDaemon : public am_protocol::AdminActions {
 public:
  // Reads and validates everything, opens the state store and recovers what
  // a previous run left in it (rm/recovery); nothing listens yet. Errors
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
  rm::AccessControlList AdminAcl() const override;
  std::vector<std::string> GroupsOf(const std::string& user) const override;

  // `spindle rm --format-state-store`: wipes the configured state store
  // (whatever it holds, even a store Create() refuses).
  static Status FormatStateStore(const rm::Configuration& conf);

  // Binds the four RPC ports and the web port and starts the schedulers and the housekeeping
  // thread. IoError if a port cannot be bound. After a recovery, the
  // schedulers start placing only once every node of the previous run has
  // registered again, or the recovery scheduling wait is over.
  Status Start();
  void Stop();

  // The bound ports (after Start; useful with port 0).
  uint16_t client_port() const { return client_server_->port(); }
  uint16_t scheduler_port() const { return scheduler_server_->port(); }
  uint16_t resource_tracker_port() const { return tracker_server_->port(); }
  uint16_t admin_port() const { return admin_server_->port(); }
  uint16_t web_port() const { return web_->port(); }
  // Calls the ResourceTracker port has answered (registrations, heartbeats).
  int64_t resource_tracker_calls() const { return tracker_server_->calls_served(); }

  rm::ApplicationManager& apps() { return *apps_; }
  rm::NodeRegistry& nodes() { return *nodes_; }
  pool::SchedulerPool& pool() { return *pool_; }
  const rm::Configuration& conf() const { return conf_; }
  // refreshQueues so far, over every run that shared the state store.
  int64_t queue_config_version() const {
    MutexLock lock(&queue_version_mu_);
    return queue_config_version_;
  }
  // True while new placements wait for the previous run's nodes.
  bool holding_placements() const { return holding_.load(); }
  // What `spindle rm` exits with once stopped: 1 after the state store
  // failed a write under fail-fast (the RM then raised SIGTERM to stop
  // itself, as Hadoop's ExitUtil.terminate(1)), else 0.
  int exit_code() const { return exit_code_.load(); }

 private:
  RmDaemon(rm::Configuration conf, std::string conf_dir, const Clock* clock)
      : conf_(std::move(conf)), conf_dir_(std::move(conf_dir)), clock_(clock) {}
  // The configuration as the files say now (or the one given, without a dir).
  Result<rm::Configuration> Reread() const;
  Status Init();
  void Housekeeping();
  Status RefreshAdminAclFrom(const rm::Configuration& conf);
  // Pushes the queue tree's specs for the current cluster capacity.
  void RefreshPoolQueues();
  // Opens the store and reads what a previous run left; writes the cluster
  // timestamp (`start_ms` for a new store) and this run's epoch.
  Status OpenStore(int64_t start_ms, rm::RecoveredRmState* recovered);
  // Stores every token family's keys (at start, and after a roll).
  void SaveKeys();
  // Housekeeping after a recovery: starts the schedulers once the previous
  // run's nodes are back (or the wait is over).
  void ReleaseHoldIfDue();
  // Keeps the store's list of cluster nodes in step with the registry;
  // false if the store refused.
  bool SaveNodes();

  rm::Configuration conf_;
  const std::string conf_dir_;
  const Clock* const clock_;
  rm::RecoveryConfig recovery_;
  // The configured store behind a StoreFailureGuard.
  std::unique_ptr<persist::StateStore> store_;
  std::atomic<int> exit_code_{0};
  std::unique_ptr<rm::StateStoreAppStore> app_store_;
  // Recovery: nodes of the previous run not registered again yet, and when
  // the schedulers start regardless (set by Start()). Housekeeping only.
  std::set<std::string> awaited_nodes_;
  TimePoint hold_until_;
  uint64_t hold_checked_version_ = ~uint64_t{0};
  std::atomic<bool> holding_{false};
  // The node ids the store lists. Housekeeping only (after Init).
  std::set<std::string> stored_nodes_;
  uint64_t saved_nodes_version_ = 0;
  mutable Mutex queue_version_mu_;
  int64_t queue_config_version_ GUARDED_BY(queue_version_mu_) = 0;
  std::unique_ptr<rm::OsGroupMapping> groups_;
  mutable Mutex admin_mu_;
  rm::AccessControlList admin_acl_ GUARDED_BY(admin_mu_);
  std::unique_ptr<am_protocol::AdminService> admin_service_;
  RmAddresses addresses_;
  std::unique_ptr<pool::SchedulerPool> pool_;
  std::unique_ptr<rm::QueueManager> queues_;
  std::unique_ptr<rm::NodeRegistry> nodes_;
  std::unique_ptr<rm::ContainerRegistry> containers_;
  std::unique_ptr<rm::AmrmTokenSecretManager> amrm_tokens_;
  std::unique_ptr<rm::ContainerTokenSecretManager> container_tokens_;
  std::unique_ptr<rm::NmTokenSecretManager> nm_tokens_;
  std::unique_ptr<rm::RmDelegationTokenSecretManager> delegation_tokens_;
  std::unique_ptr<rm::AmrmTokenSecretProvider> amrm_provider_;
  std::unique_ptr<rm::RmDelegationTokenSecretProvider> delegation_provider_;
  std::unique_ptr<ipc::RpcClient> nm_client_;
  std::unique_ptr<nm_shim::IpcAmLauncher> launcher_;
  std::unique_ptr<rm::ApplicationManager> apps_;
  std::unique_ptr<nm_shim::ResourceTrackerService> tracker_;
  std::unique_ptr<rm::AttemptAllocator> attempt_allocator_;
  std::unique_ptr<am_protocol::AmService> am_service_;
  std::unique_ptr<client_service::ClientRmService> client_service_;
  std::unique_ptr<ipc::RpcServer> client_server_;
  std::unique_ptr<ipc::RpcServer> scheduler_server_;
  std::unique_ptr<ipc::RpcServer> tracker_server_;
  std::unique_ptr<ipc::RpcServer> admin_server_;
  std::unique_ptr<web::RmWebApp> web_;
  std::atomic<bool> stopping_{false};
  std::thread housekeeping_;
  int64_t last_capacity_mb_ = -1;
  bool started_ = false;
};

// `spindle rm`'s flag table.
const CommandSpec& RmCommand();
// `spindle rm [--conf DIR]`: runs until SIGINT/SIGTERM.
int RmMain(const CommandLine& flags);

}  // namespace spindle
