// ResourceManager: the RM core object. It is what the wire (am_protocol/,
// nm_shim/), the web side, replay and bench call: one facade with use-case
// methods (submit, kill, move, priority, lifetime; node register, heartbeat,
// unregister; reports; admin refreshes) in plain rm value types, in front of
// the objects it owns (application manager, node and container registries,
// queue tree, scheduler pool, secret managers, state store and recovery,
// liveliness and lifetime monitors). It opens no socket: cmd/rm_daemon puts
// the RPC and HTTP servers around it.
//
// Lifecycle (Hadoop 3.3 ResourceManager, whose split this follows):
//   always on   configuration (CoreSettings), the queue tree, the admin ACL
//               and the users' groups, the state store object, the hooks
//               front ends install; as Hadoop's ResourceManager services
//               (configuration, AdminService, web app).
//   active only ActiveServices (active_services.h): recovery from the store,
//               the pool's placement, the registries, the application
//               manager, the liveliness monitors, key rolling and every
//               store write; as Hadoop's RMActiveServices.
// Create() -> Start() (non-HA: TransitionToActive, as 3.3's serviceStart;
// HA: stays standby, as Hadoop's RM starts with HA on)
// -> [TransitionToStandby() <-> TransitionToActive()]* -> Stop().
// With HA and the embedded elector (yarn.resourcemanager.ha.automatic-
// failover.{enabled,embedded}), Create connects the elector
// (rm/ha/embedded_elector_service.h), Start joins the election, and the
// elector drives the transitions: won -> TransitionToActive (a failure: the
// elector gives the lock up and rejoins), lost -> TransitionToStandby; Stop
// quits the election first (deleting our breadcrumb when active).
// TransitionToStandby discards the active services (their threads stopped,
// the store closed); TransitionToActive builds new ones from the store, so
// whatever was stored is recovered each time. While standby, use-case
// methods answer StandbyException (rm::yarn::kStandby) or empty reports.
//
// Thread contract: the lifecycle methods may come from any thread (the
// daemon's, the elector's, an admin call's, a fatal event's standby
// thread): transitions are serialised by lifecycle_mu_ (Hadoop's
// synchronized transitionTo*); lock order: the elector's lock, then
// lifecycle_mu_, then state_mu_ (nothing holding lifecycle_mu_ calls into
// the elector). Every other method is thread-safe and may run concurrently with a transition (a
// call holds the activation it started on until it returns). The client
// service and the web side see it as a ClientFacade (client_facade.h). The
// accessors to the active objects (apps(), nodes(), pool()) are for the
// wind tunnel, benches and tests: what they return is valid until the next
// TransitionToStandby or Stop.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "persist/state_store.h"
#include "rm/apps/app_manager.h"
#include "rm/config/configuration.h"
#include "rm/core/active_services.h"
#include "rm/core/client_facade.h"
#include "rm/core/core_settings.h"
#include "rm/core/ha_state.h"
#include "rm/core/node_protocol.h"
#include "rm/core/node_tracker.h"
#include "rm/core/registry_facade.h"
#include "rm/ha/embedded_elector_service.h"
#include "rm/queues/access_control_list.h"
#include "rm/queues/os_group_mapping.h"
#include "rm/queues/queue_manager.h"

namespace spindle::rm {

struct ResourceManagerOptions {
  // Where the admin refreshes re-read core-site.xml, yarn-site.xml and
  // capacity-scheduler.xml from (LoadConfigurationDirectory). Default:
  // empty, they re-read the configuration the RM was created with.
  std::string conf_dir;
  // Default: the system clock.
  const Clock* clock = SystemClock::Get();
  // Builds each activation's AM launcher. Required.
  AmLauncherFactory launcher_factory;
  // The service a node's tokens name ("IP:port", Hadoop's
  // SecurityUtil.buildTokenService; the wire resolves it). Required.
  std::function<std::string(const NodeId&)> node_token_service;
  // Called (once, from the thread that wrote) when the state store failed a
  // write and the configuration says the RM exits then
  // (StoreFailureAction::kExit), and for the other fatal events Hadoop's
  // RMFatalEventDispatcher terminates on (OnStoreFenced without HA, an
  // elector failure on 2.6/2.7): the daemon stops itself with status 1.
  // Default: nothing more than the log line.
  std::function<void()> on_fatal_store_failure;
  // Builds each activation's server of the pool's cell-state service, when
  // spindle.scheduler.remote.address is set (cmd/rm_daemon: Thrift). Null:
  // none is served (apps pinned to remote slots wait).
  CellServiceServerFactory cell_service_server;
  // The embedded elector's pause after a failed activation (Hadoop: 1 s);
  // tests shorten it.
  std::chrono::milliseconds elector_sleep_after_failure{1000};

  // ---- In-process callers (the wind tunnel) ----
  // The scheduler pool's options in place of the spindle.scheduler.* keys,
  // for a caller whose options are no configuration values (the wind
  // tunnel's in-id-order pinning, emulated decision costs). Validated as the
  // keys are. Default: none (the keys decide).
  std::optional<pool::PoolOptions> pool;
  // Whether each activation starts the pool's scheduler threads. false: the
  // caller steps the schedulers itself (pool().RunOnce on a virtual clock)
  // or starts them when its run begins (pool().Start()). Default: true.
  bool start_pool_threads = true;

  // UserGroupInformation.isSecurityEnabled, as the daemon's login found
  // hadoop.security.authentication (kerberos: true): each activation keeps
  // the attempts' ClientToAMToken master keys (ActiveServices). Default:
  // false.
  bool security_enabled = false;
};

class ResourceManager final : public NodeProtocol, public ClientFacade, public AttemptProtocol {
 public:
  // Parses and checks the configuration (errors name the file, key and
  // value), reads the queue tree, makes the state store object (not opened:
  // that is TransitionToActive's). Nothing runs yet.
  static Result<std::unique_ptr<ResourceManager>> Create(Configuration conf,
                                                         ResourceManagerOptions options);
  ~ResourceManager() override;
  ResourceManager(const ResourceManager&) = delete;
  ResourceManager& operator=(const ResourceManager&) = delete;

  // ---- Lifecycle ----
  // Non-HA: TransitionToActive. HA: the RM stays standby; the embedded
  // elector (if configured) joins the election.
  Status Start();
  // Quits the election (if any), TransitionToStandby, then nothing can be
  // activated any more.
  void Stop();
  // Opens the store and recovers from it, builds and starts the active
  // services. OK if already active. On error the RM stays standby, with the
  // store closed and its data left as it is (a corrupt store or one of
  // another format is refused with a message naming it and saying
  // `spindle rm --format-state-store` wipes it).
  Status TransitionToActive();
  // Stops and discards the active services; nothing if already standby.
  // (An AM launch still in flight on the wire when its activation is
  // discarded is for the HA work to cancel first: the daemon never goes
  // standby before Stop.)
  void TransitionToStandby();
  HaState ha_state() const override;
  // The port the active pool's cell-state service listens on for `spindle
  // scheduler` processes; 0 while standby or not served.
  int cell_service_port() const;
  bool active() const { return ha_state() == HaState::kActive; }
  // The state store reports that another RM fenced it (Hadoop's
  // RMFatalEvent STATE_STORE_FENCED): with HA, a new thread transitions to
  // standby and (2.7, 3.3) makes the elector rejoin; 2.6 only goes standby
  // (ResourceManager.RMFatalEventDispatcher / handleTransitionToStandBy per
  // line). Without HA the RM stops with status 1 (on_fatal_store_failure),
  // as Hadoop terminates. Any thread; returns at once.
  void OnStoreFenced(const std::string& reason);
  // The embedded elector, null without one (HA off, or failover not
  // automatic and embedded).
  EmbeddedElectorService* elector() { return elector_.get(); }

  // ---- Always on ----
  const Configuration& conf() const { return conf_; }
  const Clock* clock() const override { return clock_; }
  const CoreSettings& settings() const { return settings_; }
  const HadoopLineTraits& hadoop() const { return settings_.hadoop(); }
  const QueueManager& queues() const { return *queues_; }
  const GroupMapping& groups() const override { return *groups_; }
  // yarn.admin.acl as last read.
  AccessControlList AdminAcl() const;
  std::vector<std::string> GroupsOf(const std::string& user) const;
  bool IsAdmin(const std::string& user) const;
  // refreshQueues so far, over every run that shared the state store.
  int64_t queue_config_version() const;
  // "spindle.RocksDbStateStore" / "spindle.MemoryStateStore" (Hadoop names
  // the store class; ours are not Java classes), Hadoop's class name for the
  // ZooKeeper and FileSystem stores (Hadoop's layouts); empty without a store.
  std::string state_store_name() const;

  // ---- Admin refreshes (ResourceManagerAdministrationProtocol) ----
  // refreshQueues: re-reads the files, reloads the queue tree under
  // Hadoop's rules (java.io.IOException "Failed to re-init queues : ..." if
  // refused, the tree unchanged) and applies it to the pool. StandbyException
  // while standby.
  Status RefreshQueues();
  // refreshNodes: re-reads the include/exclude host files; excluded nodes
  // are decommissioned, their containers completed. StandbyException while
  // standby.
  Status RefreshNodes();
  // refreshAdminAcls: re-reads yarn.admin.acl.
  Status RefreshAdminAcls();
  // refreshUserToGroupsMappings: forgets the cached group memberships.
  void RefreshUserToGroups();

  // ---- Node labels (resource_manager_labels.cc; AdminService) ----
  // StandbyException while standby; the refusals of NodeLabels (Hadoop's
  // java.io.IOException texts, kNodeLabelsNotEnabled when
  // yarn.node-labels.enabled is off). Each change is stored (when recovery
  // is on) before it answers, and the nodes' partitions follow it in the
  // pool.
  // addToClusterNodeLabels.
  Status AddToClusterNodeLabels(std::vector<ClusterNodeLabel> labels);
  // removeFromClusterNodeLabels: refused while a queue's
  // accessible-node-labels name a label.
  Status RemoveFromClusterNodeLabels(const std::vector<std::string>& labels);
  // replaceLabelsOnNodes; with `fail_on_unknown_nodes` (2.8+), refused
  // ("Failed to replace labels as there are unknown nodes:[...]") unless
  // every node (or host, port 0) is one the RM knows.
  Status ReplaceLabelsOnNodes(const std::map<NodeId, std::set<std::string>>& node_labels,
                              bool fail_on_unknown_nodes);

  // ---- ClientFacade: applications, reports, tokens (client_facade.h) ----
  // Each answers as RegistryFacade over the current activation; while
  // standby, StandbyException or an empty report as ClientFacade says.
  int64_t ClusterTimestamp() const override;
  std::shared_ptr<const QueueTree> QueueReport() const override { return queues_->Current(); }
  Result<ApplicationId> NewApplicationId() override;
  Result<pool::Resource> MaximumAllocation() const override;
  Status SubmitApplication(Submission submission) override;
  Result<bool> KillApplication(const ApplicationId& app, const std::string& diagnostics) override;
  Status MoveApplication(const ApplicationId& app, const std::string& queue,
                         const std::string& user, const std::vector<std::string>& groups) override;
  Result<int32_t> UpdateApplicationPriority(const ApplicationId& app, int32_t priority) override;
  Result<ApplicationManager::LifetimeUpdate> UpdateApplicationLifetime(const ApplicationId& app,
                                                                       int64_t expiry_ms) override;
  Status FailApplicationAttempt(const ApplicationAttemptId& attempt,
                                const std::string& diagnostics) override;
  Result<NodeId> SignalContainer(const ContainerId& container, SignalCommand command) override;
  Result<RmApp> ApplicationReport(const ApplicationId& app) const override;
  std::vector<RmApp> ApplicationReports() const override;
  // ApplicationAttemptNotFoundException / ApplicationNotFoundException.
  Result<RmAttempt> AttemptReport(const ApplicationAttemptId& attempt) const;
  std::vector<RmContainer> ContainerReports(const ApplicationAttemptId& attempt) const override;
  std::optional<RmContainer> ContainerReport(const ContainerId& container) const override;
  ResourceSeconds UsageSecondsOf(const ApplicationId& app) const override;
  std::vector<NodeReport> NodeReports() const override;
  std::optional<NodeReport> NodeReportOf(const NodeId& node) const override;
  ClusterNodeCounts NodeCounts() const override;
  QueueStatsSnapshot QueueStatistics() const override;
  ClusterResources ClusterResourceReport() const override;
  std::optional<PoolReport> PoolStatus() const override;
  Result<std::vector<ClusterNodeLabel>> ClusterNodeLabels() const override;
  Result<std::map<NodeId, std::set<std::string>>> NodeToLabels() const override;
  Result<std::map<std::string, std::set<NodeId>>> LabelsToNodes(
      const std::set<std::string>& only) const override;
  Result<Token> AmrmTokenOf(const ApplicationAttemptId& attempt) override;
  std::optional<Token> ClientToAmTokenOf(const ApplicationAttemptId& attempt,
                                         const std::string& client) const override;
  Result<Token> CreateDelegationToken(std::string_view owner, std::string_view renewer,
                                      std::string_view real_user) override;
  Result<int64_t> RenewDelegationToken(const Token& token, std::string_view renewer) override;
  Status CancelDelegationToken(const Token& token, std::string_view canceller) override;
  Result<RmDelegationTokenSecret> RetrieveDelegationTokenSecret(
      std::string_view identifier) const override;

  // ---- Nodes (ResourceTracker; NodeTracker) ----
  // StandbyException while standby (an HA NodeManager's RM proxy fails
  // over on it). UnregisterNode: NotFound for an unknown node.
  Result<NodeRegisterOutcome> RegisterNode(const NodeRegisterRequest& request) override;
  Result<NodeHeartbeatOutcome> NodeHeartbeat(const NodeHeartbeatRequest& request) override;
  // Many nodes' heartbeats in one call, each answered as NodeHeartbeat would
  // answer it (NodeTracker::NodeHeartbeats).
  Result<std::vector<NodeHeartbeatOutcome>> NodeHeartbeats(
      std::span<const NodeHeartbeatRequest> requests);
  Status UnregisterNode(const NodeId& node) override;

  // ---- The AM path (ApplicationMasterProtocol) ----
  // AttemptProtocol: the current activation's AttemptAllocator, or
  // StandbyException while standby. For the AM port, which outlives
  // activations.
  Result<RegisterResponse> Register(const ApplicationAttemptId& attempt, const std::string& host,
                                    int32_t rpc_port, const std::string& tracking_url) override;
  Result<std::shared_ptr<const AllocateResponse>> Allocate(const ApplicationAttemptId& attempt,
                                                           const AllocateRequest& request) override;
  Result<bool> Finish(const ApplicationAttemptId& attempt, FinalStatus final_status,
                      const std::string& diagnostics, const std::string& tracking_url) override;
  // An AMRM token's password and user (the AM port's SASL), from the
  // current activation's secret manager; StandbyException while standby.
  Result<AmrmTokenSecret> RetrieveAmrmSecret(std::string_view identifier) const;
  // Register / allocate / finish of an attempt (AttemptAllocator), owned by
  // each activation beside the application manager: it is told of every
  // attempt's end and given the recovered asks. CHECK-fails while standby;
  // valid until the next TransitionToStandby/Stop.
  AttemptAllocator& attempt_allocator();
  // The preemption monitor of the activation (null unless
  // yarn.resourcemanager.scheduler.monitor.enable); CHECK-fails while
  // standby. Valid until the next TransitionToStandby/Stop.
  PreemptionMonitor* preemption_monitor();
  // Also called after each attempt's end (once its tokens and allocate
  // state are forgotten), from the thread that ended it. Kept across
  // activations; may be set any time.
  void SetAttemptEndedHook(std::function<void(const ApplicationAttemptId&)> hook);
  // True while new placements wait for the previous run's nodes.
  bool holding_placements() const;

  // ---- In-process AMs and NMs (the wind tunnel) ----
  // submitApplication as the client wire takes it once decoded
  // (client_service/submission_translator, ClientRMService): the queue, by
  // leaf name or full path, resolved to the leaf's pool queue and limits and
  // the submit ACL checked as the line does (ResolveSubmissionQueue in
  // rm/core/submission_queue.h, with the settings' line and yarn.acl.enable).
  // Then as SubmitApplication.
  Status SubmitToQueue(Submission submission, const std::vector<std::string>& groups);
  // The pool scheduler the attempt's application is pinned to (a caller
  // that steps the schedulers itself asks it). NotFound for an unknown
  // attempt; StandbyException while standby.
  Result<int> SchedulerOf(const ApplicationAttemptId& attempt) const;
  // The slot-quality score the pool's placement strategies read for a
  // registered node. No NodeManager reports one; a simulated cluster (the
  // wind tunnel's node scores) sets it after the node registered. NotFound
  // for an unknown node; StandbyException while standby.
  Status SetNodeScore(const NodeId& node, double score);

  // ---- The active objects, for the wind tunnel, benches and tests ----
  // CHECK-fail while standby. Valid until the next TransitionToStandby/Stop.
  ApplicationManager& apps();
  NodeRegistry& nodes();
  pool::SchedulerPool& pool();
  SecretManagers secrets();
  // Null when nothing is stored.
  AppStore* app_store();
  // The first run's start (every application id's prefix) and this
  // activation's start (rm_identifier, container tokens). 0 while standby.
  int64_t cluster_timestamp() const;
  int64_t start_ms() const;
  // Active, and the store lists the registry's nodes as they are now.
  bool NodeListStoredForTest() const;

 private:
  ResourceManager(Configuration conf, CoreSettings settings, ResourceManagerOptions options);
  // The current activation, or null while standby.
  std::shared_ptr<ActiveServices> Active() const EXCLUDES(state_mu_);
  // Active() or StandbyException.
  Result<std::shared_ptr<ActiveServices>> ActiveOrStandby() const EXCLUDES(state_mu_);
  ActiveServices& ActiveOrDie() const;
  // The client-facing use cases over one activation (registry_facade.h).
  RegistryFacade FacadeOf(ActiveServices& active) const;
  // Stops the active services (if active) and hands them back, the RM then
  // standby.
  std::shared_ptr<ActiveServices> StopActiveServices() REQUIRES(lifecycle_mu_) EXCLUDES(state_mu_);
  Status TransitionToActiveLocked() REQUIRES(lifecycle_mu_) EXCLUDES(state_mu_);
  // Builds the embedded elector when the HA configuration runs one.
  Status CreateElector();
  // Hadoop's RMFatalEvent types this RM raises.
  enum class FatalEvent { kStateStoreFenced, kEmbeddedElectorFailed };
  // ResourceManager.RMFatalEventDispatcher, per line (see OnStoreFenced).
  void HandleFatalEvent(FatalEvent event, const std::string& message);
  // handleTransitionToStandByInNewThread: one such thread at a time; with
  // `rejoin`, the elector rejoins once the RM is standby.
  void TransitionToStandbyInNewThread(bool rejoin) EXCLUDES(standby_thread_mu_);
  // Hadoop's ExitUtil.terminate(1) through the daemon's hook.
  void Terminate(const std::string& why) const;
  // The configuration as the files say now (or the one given, without a dir).
  Result<Configuration> Reread() const;
  void AttemptEnded(const ApplicationAttemptId& attempt) EXCLUDES(hook_mu_);
  // Stores the activation's node labels (when recovery is on) and moves the
  // registered nodes into the partitions they now belong to.
  Status LabelsChanged(ActiveServices& active);
  // The AM container's partition (Submission::am_partition) from its label
  // expression and its queue (RMAppManager.validateAndCreateResourceRequest
  // -> SchedulerUtils.normalizeAndValidateRequest, 3.3): the refusals of
  // ResolveRequestLabel. A queue that is not a leaf is left to the
  // application manager's own refusal.
  Status ResolveAmPartition(ActiveServices& active, Submission* submission) const;
  // The pool's partitions as the labels say: each label's exclusivity, each
  // registered node's partition.
  void SyncPoolPartitions(ActiveServices& active);

  const Configuration conf_;
  const CoreSettings settings_;
  const ResourceManagerOptions options_;
  const Clock* const clock_;
  std::unique_ptr<QueueManager> queues_;
  std::unique_ptr<OsGroupMapping> groups_;
  // The configured store behind a StoreFailureGuard; null when recovery is
  // off. Opened by each activation, closed by each deactivation.
  std::unique_ptr<persist::StateStore> store_;
  std::string store_where_;

  // Serialises the transitions (see the thread contract).
  Mutex lifecycle_mu_ ACQUIRED_BEFORE(state_mu_);
  mutable Mutex state_mu_;
  HaState state_ GUARDED_BY(state_mu_) = HaState::kInitializing;
  // Shared with the calls in flight, so that a transition never frees what
  // a call still uses.
  std::shared_ptr<ActiveServices> active_ GUARDED_BY(state_mu_);
  // Stop()'s: stopped, kept until the destructor. Lifecycle thread only.
  std::shared_ptr<ActiveServices> final_activation_;

  // The last activation's cluster timestamp (ClusterTimestamp while
  // standby).
  std::atomic<int64_t> last_cluster_timestamp_{0};

  mutable Mutex admin_mu_;
  AccessControlList admin_acl_ GUARDED_BY(admin_mu_);
  // Serialises refreshQueues (reload, pool, version, store).
  mutable Mutex queue_version_mu_;
  int64_t queue_config_version_ GUARDED_BY(queue_version_mu_) = 0;

  Mutex hook_mu_;
  std::function<void(const ApplicationAttemptId&)> attempt_ended_hook_ GUARDED_BY(hook_mu_);

  // Set by Stop: no fatal event sends the RM back into the election.
  std::atomic<bool> stopping_{false};
  Mutex standby_thread_mu_;
  std::thread standby_thread_ GUARDED_BY(standby_thread_mu_);
  // A standby thread is under way (Hadoop's StandByTransitionRunnable
  // runs once however many events ask for it).
  std::atomic<bool> standby_thread_running_{false};
  // Last: destroyed first, so its threads never call into a half-destroyed
  // RM.
  std::unique_ptr<EmbeddedElectorService> elector_;
};

}  // namespace spindle::rm
