// ActiveServices: the part of the RM that runs only while it is the active
// RM, as Hadoop 3.3's ResourceManager.RMActiveServices: the state store
// opened and recovered from, the scheduler pool and its placement, the node
// and container registries, the application manager (with its AM and
// lifetime monitors), the secret managers (AMRM, NM, container, delegation
// and, in secure mode, ClientToAM tokens) and their key rolling, and the
// housekeeping thread that drives the liveliness monitors and the store
// writes that follow the registry (node list, master keys).
//
// One object is one activation: Activate() opens the store, recovers what it
// holds, builds every active object and starts the threads; Deactivate()
// stops them and closes the store. A later activation builds a new object
// from the store (Hadoop's transitionToStandby discards RMActiveServices and
// creates new ones too: ResourceManager.reinitialize(true)).
//
// Thread contract: Activate/Deactivate from the ResourceManager's lifecycle
// thread; accessors and the objects they return are thread-safe; the
// housekeeping fields are owned by the housekeeping thread.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "persist/state_store.h"
#include "rm/apps/am_launcher.h"
#include "rm/apps/app_manager.h"
#include "rm/containers/container_registry.h"
#include "rm/core/attempt_allocator.h"
#include "rm/core/cell_service_server.h"
#include "rm/core/core_settings.h"
#include "rm/core/node_tracker.h"
#include "rm/core/preemption_monitor.h"
#include "rm/nodes/node_labels.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/queue_manager.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/store_app_store.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/client_to_am_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

// The secret managers of one activation, for what is built around them
// (the AM launcher, the SASL token providers of the RPC ports).
struct SecretManagers {
  AmrmTokenSecretManager* amrm = nullptr;
  ContainerTokenSecretManager* container = nullptr;
  NmTokenSecretManager* nm = nullptr;
  RmDelegationTokenSecretManager* delegation = nullptr;
  // Secure mode only (null otherwise).
  ClientToAmTokenSecretManager* client_to_am = nullptr;
};

// Builds the AM launcher of an activation (nm_shim's IpcAmLauncher in the
// daemon, a fake in tests): it needs the activation's secret managers.
using AmLauncherFactory = std::function<std::unique_ptr<AmLauncher>(const SecretManagers&)>;

struct ActiveServicesContext {
  const CoreSettings* settings = nullptr;
  // The always-on queue tree: the pool's queues follow it.
  const QueueManager* queues = nullptr;
  // The RM's store (kept across activations; null: recovery is off).
  persist::StateStore* store = nullptr;
  // "the state store at <path>", for messages.
  std::string store_name;
  const Clock* clock = nullptr;
  AmLauncherFactory launcher_factory;
  // The service a node's tokens name (AttemptAllocatorDeps::token_service).
  std::function<std::string(const NodeId&)> node_token_service;
  // Every attempt's end, after the secret managers forgot it (the AM path's
  // hook, see ResourceManager::SetAttemptEndedHook).
  std::function<void(const ApplicationAttemptId&)> attempt_ended;
  // ResourceManagerOptions::start_pool_threads.
  bool start_pool_threads = true;
  // ResourceManagerOptions::security_enabled: the activation keeps
  // ClientToAMToken master keys (ClientToAmTokenSecretManager).
  bool security_enabled = false;
  // Builds the server of the pool's cell-state service when the pool has
  // one (spindle.scheduler.remote.address); null: none is served.
  CellServiceServerFactory cell_service_server;
};

class ActiveServices {
 public:
  // Opens and reads the store (Corruption or NotSupported name it and say
  // `spindle rm --format-state-store` wipes it; the data is left as it is),
  // writes this activation's epoch, builds every active object, recovers the
  // applications and starts the schedulers (after a recovery, only once the
  // previous run's nodes are back or the recovery scheduling wait is over)
  // and the housekeeping thread.
  static Result<std::unique_ptr<ActiveServices>> Activate(const ActiveServicesContext& context);
  // Stops the housekeeping thread, the cell-state service's server and the
  // schedulers, closes the store.
  // Idempotent; the destructor calls it.
  void Deactivate();
  ~ActiveServices();

  ApplicationManager& apps() { return *apps_; }
  NodeRegistry& nodes() { return *nodes_; }
  ContainerRegistry& containers() { return *containers_; }
  pool::SchedulerPool& pool() { return *pool_; }
  NodeTracker& node_tracker() { return *node_tracker_; }
  // The cluster's node labels, as the store had them at activation.
  NodeLabels& node_labels() { return *node_labels_; }
  // The AM path: register/allocate/finish of an attempt.
  AttemptAllocator& attempt_allocator() { return *attempt_allocator_; }
  // The port the pool's cell-state service listens on for `spindle
  // scheduler` processes; 0 while it is not served (not configured, or
  // placements held after a recovery).
  int cell_service_port() const { return cell_service_port_.load(); }
  // The preemption monitor; null unless yarn.resourcemanager.scheduler.
  // monitor.enable (the housekeeping thread runs it).
  PreemptionMonitor* preemption_monitor() { return preemption_monitor_.get(); }
  SecretManagers secrets() const {
    return {amrm_tokens_.get(), container_tokens_.get(), nm_tokens_.get(), delegation_tokens_.get(),
            client_to_am_tokens_.get()};
  }
  // Null when nothing is stored.
  AppStore* app_store() { return app_store_.get(); }
  // This activation's start (wall ms): what nodes see as the RM's identity
  // (rm_identifier) and container tokens carry, as Hadoop's
  // startActiveServices takes a new clusterTimeStamp.
  int64_t start_ms() const { return start_ms_; }
  // The epoch this activation hands out container ids in.
  int64_t epoch() const { return epoch_; }
  // refreshQueues so far, as the store had it at activation.
  int64_t recovered_queue_config_version() const { return recovered_queue_config_version_; }
  // True while new placements wait for the previous run's nodes.
  bool holding_placements() const { return holding_.load(); }
  // The store lists the registry's nodes as they are now.
  bool NodeListStoredForTest() const {
    return saved_nodes_version_.load() == nodes_->membership_version();
  }

  // Pushes the queue tree's specs to the pool when the cluster capacity or
  // a node-label partition's changed (or always, with `force`: after
  // refreshQueues and label changes).
  void RefreshPoolQueues(bool force);

 private:
  explicit ActiveServices(const ActiveServicesContext& context) : context_(context) {}
  Status OpenAndRecover(RecoveredRmState* recovered);
  Status Build(RecoveredRmState* recovered);
  void Housekeeping();
  void ReleaseHoldIfDue();
  // Starts serving the pool's cell-state service, if configured; with the
  // pool's placement, as the service's members place into the pool.
  Status StartCellService();
  // The AM limits' context (rm/queues/am_limits.h) for `cluster`.
  AmLimitContext AmLimitContextNow(const pool::Resource& cluster) const;
  bool SaveNodes();
  void SaveKeys();

  const ActiveServicesContext context_;
  int64_t start_ms_ = 0;
  int64_t epoch_ = 0;
  int64_t recovered_queue_config_version_ = 0;
  bool store_open_ = false;

  std::unique_ptr<pool::SchedulerPool> pool_;
  std::unique_ptr<NodeRegistry> nodes_;
  std::unique_ptr<NodeLabels> node_labels_;
  std::unique_ptr<ContainerRegistry> containers_;
  std::unique_ptr<AmrmTokenSecretManager> amrm_tokens_;
  std::unique_ptr<ContainerTokenSecretManager> container_tokens_;
  std::unique_ptr<NmTokenSecretManager> nm_tokens_;
  std::unique_ptr<RmDelegationTokenSecretManager> delegation_tokens_;
  // Secure mode only; before apps_, which registers keys in it.
  std::unique_ptr<ClientToAmTokenSecretManager> client_to_am_tokens_;
  std::unique_ptr<AmLauncher> launcher_;
  std::unique_ptr<StateStoreAppStore> app_store_;
  std::unique_ptr<ApplicationManager> apps_;
  std::unique_ptr<NodeTracker> node_tracker_;
  std::unique_ptr<AttemptAllocator> attempt_allocator_;
  std::unique_ptr<PreemptionMonitor> preemption_monitor_;
  // Built by the lifecycle thread, or by housekeeping after a recovery
  // hold; destroyed by Deactivate once housekeeping is joined.
  std::unique_ptr<CellServiceServer> cell_server_;
  std::atomic<int> cell_service_port_{0};

  Mutex pool_queues_mu_;
  int64_t last_capacity_mb_ GUARDED_BY(pool_queues_mu_) = -1;
  // Per node-label partition, when some node is labelled (else empty).
  std::vector<std::pair<pool::LabelId, pool::Resource>> last_label_capacity_
      GUARDED_BY(pool_queues_mu_);

  // Recovery: nodes of the previous run not registered again yet, and when
  // the schedulers start regardless. Housekeeping only (after Activate).
  std::set<std::string> awaited_nodes_;
  TimePoint hold_until_;
  uint64_t hold_checked_version_ = ~uint64_t{0};
  std::atomic<bool> holding_{false};
  // The node ids the store lists. Housekeeping only.
  std::set<std::string> stored_nodes_;
  // Written by the housekeeping thread only.
  std::atomic<uint64_t> saved_nodes_version_{0};

  std::atomic<bool> stopping_{false};
  std::thread housekeeping_;
};

}  // namespace spindle::rm
