// ApplicationManager: owns every application and attempt and drives them
// through YARN's state machines (app_states.h): submission, the AM container
// (asked of the scheduler pool, launched through AmLauncher), registration,
// unregistration, AM container exit, liveliness, retries and kills.
//
// Errors carry the Java exception class a Hadoop client expects
// (Status::Remote), so protocol handlers pass them through unchanged.
//
// Thread contract: all public methods are thread-safe (one mutex). Calls out
// (AmLauncher, the pool) are made without holding it. Tick() is called
// periodically by the RM (or by a test with a ManualClock).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/apps/active_applications.h"
#include "rm/apps/am_activation.h"
#include "rm/apps/am_launcher.h"
#include "rm/apps/app_lifetime_monitor.h"
#include "rm/apps/app_store.h"
#include "rm/apps/attempt_retry_rule.h"
#include "rm/apps/container_signals.h"
#include "rm/apps/rm_app.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_directory.h"
#include "rm/queues/am_limits.h"
#include "rm/queues/queue_tree.h"
#include "rm/scheduling/resource_normalizer.h"
#include "rm/security/client_to_am_token_secret_manager.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

struct ApplicationManagerOptions {
  // RM start time: the cluster timestamp in every id. Default: 0 = the
  // clock's wall time at construction.
  int64_t cluster_timestamp_ms = 0;
  // yarn.resourcemanager.am.max-attempts: default and cap of an app's
  // attempts. Default: 2.
  int32_t max_attempts = 2;
  // The line's retry rules (AttemptRetryRule); global_max_attempts is
  // max_attempts. Default: Hadoop 3.3's.
  bool single_attempt_never_retried = true;
  // yarn.resourcemanager.am-scheduling.node-blacklisting-enabled (2.8+ and
  // 3.x; the daemon leaves it off on the 2.6 and 2.7 lines, which have no AM
  // blacklisting) and ...-disable-threshold: a new attempt's AM container
  // avoids the nodes earlier AM containers failed on (am_node_blacklist.h).
  // Default: false, 0.2.
  bool am_blacklisting_enabled = false;
  double am_blacklist_disable_threshold = 0.2;
  // yarn.am.liveness-monitor.expiry-interval-ms. Default: 600000.
  Duration am_expiry = std::chrono::milliseconds(600000);
  // yarn.scheduler.minimum-allocation-{mb,vcores}. Default: 1024 MB, 1.
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // yarn.scheduler.maximum-allocation-{mb,vcores}. Default: 8192 MB, 4.
  pool::Resource max_allocation = pool::Resource::Of(8192, 4);
  // yarn.scheduler.capacity.resource-calculator: how asks are normalised
  // (rm/scheduling/resource_normalizer.h). Default: DefaultResourceCalculator.
  ResourceCalculator resource_calculator = ResourceCalculator::kDefault;
  // yarn.resourcemanager.max-completed-applications. Default: 10000.
  int32_t max_completed_apps = 10000;
  // This RM start's epoch (restarts with recovery so far): the high bits of
  // every container id it hands out, so that ids never repeat across
  // restarts. Default: 0.
  int64_t epoch = 0;
  // Application sequence numbers reserved in the store at a time (one
  // synced write per block; a restart skips what is left of a block).
  // Default: 1000.
  int32_t app_id_block = 1000;
};

// A container a node reports at registration that this RM has no record of:
// after a restart, the containers that kept running while it was down.
struct ReportedRunningContainer {
  ContainerId id;
  NodeId node;
  pool::NodeId pool_node;
  pool::Resource resource;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  int64_t created_ms = 0;
};

class ApplicationManager {
 public:
  // Every pointer must outlive the manager. AM containers are recorded in
  // `containers`, which also ends an attempt's containers with it. `store`
  // (may be null: nothing is persisted) makes submissions, attempts and
  // final states durable.
  ApplicationManager(const ApplicationManagerOptions& options, pool::SchedulerPool* pool,
                     ContainerRegistry* containers, AmLauncher* launcher,
                     const NodeDirectory* nodes, const Clock* clock, AppStore* store = nullptr);

  int64_t cluster_timestamp() const { return cluster_timestamp_; }
  const ApplicationManagerOptions& options() const { return options_; }

  // getNewApplication: the next id (application_<clusterTs>_<seq>). An
  // IOException if the store cannot reserve more ids.
  Result<ApplicationId> NewApplicationId();

  // RM restart: resumes from the applications a previous run stored (each
  // with its attempts, as rm/recovery decodes them) before anything else is
  // called. Finished apps are kept up to max_completed_apps (older ones are
  // removed from the store); an unfinished app is back in the pool, waiting
  // for its AM to re-register (its current attempt had an AM container or an
  // unmanaged AM) or for a new AM container; an app whose queue is gone
  // fails. New ids continue after `last_app_id` and after every recovered
  // id of this manager's cluster timestamp.
  void Recover(std::vector<RmApp> apps, int32_t last_app_id);

  // A running container a node reports that the RM has no record of (see
  // ReportedRunningContainer). If it belongs to a live attempt of a
  // recovered app (or to an earlier attempt whose containers the app keeps)
  // it is recorded again, in the pool on its node and in the container
  // registry, and true is returned; otherwise false (the node should kill
  // it).
  bool RecoverContainer(const ReportedRunningContainer& container);
  // A node registered after a restart and reported what it runs (after
  // RecoverContainer for each): AM containers of recovered attempts that
  // were placed on it and that it did not report are gone (the RM stopped
  // before their launch, or they ended and the node forgot them). Their
  // attempts fail now, as after an AM container exit, rather than after
  // the AM expiry.
  void OnNodeReregistered(const NodeId& node);

  // submitApplication. Returns once the app is in the store. Synchronous errors: duplicate id
  // (YarnException), an AM resource outside [0, max allocation] (InvalidResourceRequestException),
  // an id this RM never handed out. An unknown or non-leaf queue is not an
  // error here: as in Hadoop the app is rejected and ends FAILED with a
  // diagnostic the client sees when it polls.
  Status Submit(Submission submission);

  // forceKillApplication: true once the app is in a final state (YarnClient
  // repeats the call until then; an app still being saved is left alone
  // until it is). ApplicationNotFoundException if unknown.
  Result<bool> Kill(const ApplicationId& app, const std::string& diagnostics);

  // moveApplicationAcrossQueues to the pool queue `queue` (checked by the
  // caller for existence and ACLs). YarnException if the app is not active
  // or the target queue is full (its limits); ApplicationNotFoundException.
  Status Move(const ApplicationId& app, const std::string& queue, const QueueLimits& limits);

  // updateApplicationPriority, already capped by the caller. Returns the
  // priority now in force (a completed app keeps its own, as in Hadoop).
  // YarnException if the app is not yet accepted or is finishing.
  Result<int32_t> UpdatePriority(const ApplicationId& app, int32_t priority);

  // failApplicationAttempt: fails the attempt as an AM crash would (it
  // counts towards the app's attempts; another starts if any remain). An
  // attempt that is over or unregistered is left alone.
  // ApplicationAttemptNotFoundException if unknown.
  Status FailAttempt(const ApplicationAttemptId& attempt, const std::string& diagnostics);

  // updateApplicationTimeouts (LIFETIME): the app now ends at `expiry_ms`
  // (wall ms, already checked by the caller against the clock), stored
  // before it takes effect, as Hadoop's RMAppManager.updateApplicationTimeout
  // does. kAppCompleted (nothing changed) for an app in one of Hadoop's
  // completed states (FINISHING, FINISHED, FAILED, KILLING, KILLED,
  // FINAL_SAVING); YarnException "Application is in <STATE> state can not
  // update timeout." before it is SUBMITTED; YarnException if the store
  // cannot keep it; ApplicationNotFoundException.
  enum class LifetimeUpdate { kUpdated, kAppCompleted };
  Result<LifetimeUpdate> UpdateLifetime(const ApplicationId& app, int64_t expiry_ms);

  // Snapshots for reports. ApplicationNotFoundException if unknown.
  Result<RmApp> GetApp(const ApplicationId& app) const;
  std::vector<RmApp> ListApps() const;

  // ---- ApplicationMasterProtocol ----
  // registerApplicationMaster. ApplicationAttemptNotFoundException for an
  // attempt that is not the app's current one; InvalidApplicationMasterRequest
  // if already registered.
  Status RegisterAm(const ApplicationAttemptId& attempt, const std::string& host, int32_t rpc_port,
                    const std::string& tracking_url);
  // What an allocate needs of its app, read under the lock that records the
  // heartbeat: one lock per call, and no copy of the app (its submission
  // context can be kilobytes).
  struct AmHeartbeatFacts {
    std::string user;
    std::string queue;
    std::optional<std::string> app_label_expression;
    int32_t priority = 0;  // the app's, as updateApplicationPriority left it
  };
  // Every allocate: liveliness and progress. ApplicationMasterNotRegistered
  // if the AM has not registered; ApplicationAttemptNotFound if unknown.
  Result<AmHeartbeatFacts> AmHeartbeat(const ApplicationAttemptId& attempt, float progress);
  // finishApplicationMaster: true once unregistered (the final state is
  // stored); AMs call again until true.
  Result<bool> FinishAm(const ApplicationAttemptId& attempt, FinalStatus final_status,
                        const std::string& diagnostics, const std::string& tracking_url);
  // The pool id of the attempt's app, if the attempt is current and live.
  Result<pool::AppId> PoolAppOf(const ApplicationAttemptId& attempt) const;
  // Assigns the next container id of a live attempt.
  Result<ContainerId> NextContainerId(const ApplicationAttemptId& attempt);
  // Assigns the next `count` (> 0) container ids of a live attempt at once;
  // returns the first, the others follow it in sequence. One lock for an
  // allocate that hands out thousands of containers. The attempt's first
  // allocation (RmAttempt::first_allocation_ms) if it had none.
  Result<ContainerId> NextContainerIds(const ApplicationAttemptId& attempt, int64_t count);
  // What an allocate call did to the attempt's ask table (AttemptAllocator),
  // for the queue's active applications (active_applications.h).
  struct AskActivity {
    // An ANY row went from no containers to some (3.3 AppSchedulingInfo.
    // updatePendingResources activates then; 2.x activates on every
    // positive ANY row, which adds nothing once active).
    bool newly_asking = false;
    // An ANY row went to zero, written or by allocation (the moments
    // Hadoop calls checkForDeactivation).
    bool emptied = false;
    // The table still asks for containers.
    bool outstanding = false;
  };
  // Ignored for an attempt that is not its app's current one.
  void OnAsksUpdated(const ApplicationAttemptId& attempt, const AskActivity& activity);
  // The leaves' active applications and users (QueueMetrics
  // ActiveApplications / ActiveUsers), by the apps' queue names.
  std::map<std::string, QueueActivity> ActivityReport() const;

  // ---- Node side ----
  // A container reported complete by its node. If it is an AM container, the
  // attempt reacts (finish, or fail and maybe retry). Returns true if it was
  // an AM container.
  bool OnContainerFinished(const ContainerId& container, int32_t exit_status,
                           const std::string& diagnostics);

  // signalToContainer's signals on their way to the nodes (the client
  // service queues, the resource tracker hands them out by heartbeat).
  ContainerSignals& container_signals() { return container_signals_; }

  // Picks up AM placements, launches AMs, expires silent AMs, kills apps
  // past their lifetime (kLifetimeExceededDiagnostics).
  void Tick();

  // ---- AM limits (am_activation.h) ----
  // The queue tree and the cluster the leaves' AM limits follow, set by the
  // RM core at start, when the cluster's resources change and after
  // refreshQueues; every queue's pending attempts are then reconsidered.
  // Until it is called (or with a null tree) queues have no AM limits.
  // Each attempt of an app joins its queue's pending attempts when it
  // starts; its AM container is asked of the pool only once it is active.
  // A pending attempt is reconsidered when another leaves its queue (its
  // AM finished, its app was killed, failed or moved) and on this call.
  void SetAmLimits(std::shared_ptr<const QueueTree> tree, const AmLimitContext& context);
  // ---- Queue states for running apps ----
  // A leaf that is not RUNNING (configured STOPPED, or DRAINING) takes no
  // new application (submission: rejected -> FAILED with Hadoop's
  // "Queue <path> is STOPPED. Cannot accept submission of application: <id>";
  // moveApplicationAcrossQueues: YarnException with the same text); the apps
  // already in it run to their end, on every line.
  // On 3.3 (LeafQueue.stopQueue / appFinished) a queue set STOPPED by
  // refreshQueues while it has applications is DRAINING until its last
  // application leaves, then STOPPED; a stopped parent is DRAINING while a
  // leaf under it is. Other lines, and queues stopped from the start, show the
  // configured state. `queue` is any queue of the tree SetAmLimits gave.
  QueueState QueueStateOf(const CsQueue& queue) const;
  // refreshQueues' veto (QueueManager::Reload's `accept`): on 3.3 a DRAINING
  // queue may not be set RUNNING ("The queue:<path> is in the Stopping
  // process. Please wait for the queue getting fully STOPPED.").
  Status CheckQueueRefresh(const QueueTree& next) const;

  // Numbers for reports of one leaf (pool queue name): active and pending
  // apps, AM resource used, the queue and user AM limits, per user.
  QueueAmReport AmReport(const std::string& queue) const;
  // The attempt is active under its queue's AM limit (its AM container is
  // asked of the pool, or placed): its AM resource is part of its queue's
  // demand (LeafQueue's pending resources count active apps only).
  bool AmActive(const ApplicationAttemptId& attempt) const;

  // Attempt lifecycle hooks for the rest of the RM (tokens, allocation state).
  struct Listener {
    std::function<void(const RmApp&, const RmAttempt&)> attempt_started;
    std::function<void(const RmApp&, const RmAttempt&)> attempt_ended;
  };
  void SetListener(Listener listener);

  // Secure mode (UserGroupInformation.isSecurityEnabled): each attempt gets
  // a ClientToAMToken master key when it starts (RMAppAttemptImpl.
  // AttemptStartedTransition), registered with `keys` once the attempt's
  // record is stored (AttemptStoredTransition and
  // UnmanagedAMAttemptSavedTransition, 2.7 and 3.3; 2.6 registers at AM
  // launch), and a recovered live attempt's stored key is registered again
  // (recoverAppAttemptCredentials). Dropping it when the attempt ends is the
  // caller's (the attempt_ended listener). Null (the default): no keys, and
  // a recovered attempt's stored key is forgotten, as Hadoop's with security
  // off. Set before Recover and before any submission; `keys` must outlive
  // the manager.
  void SetClientToAmTokens(ClientToAmTokenSecretManager* keys);

 private:
  using Actions = std::vector<std::function<void()>>;

  RmApp* FindLocked(const ApplicationId& id) REQUIRES(mu_);
  // The app, or ApplicationNotFoundException.
  Result<RmApp*> FindOrNotFoundLocked(const ApplicationId& id) REQUIRES(mu_);
  Result<RmAttempt*> CurrentAttemptLocked(const ApplicationAttemptId& id, RmApp** app)
      REQUIRES(mu_);
  // Applies an app event; logs and ignores invalid transitions.
  void AppEventLocked(RmApp& app, AppEvent event, Actions* actions) REQUIRES(mu_);
  void AttemptEventLocked(RmApp& app, RmAttempt& attempt, AttemptEvent event, Actions* actions)
      REQUIRES(mu_);
  void EnterAppState(RmApp& app, AppState next, Actions* actions) REQUIRES(mu_);
  void EnterAttemptState(RmApp& app, RmAttempt& attempt, AttemptState next, Actions* actions)
      REQUIRES(mu_);
  void StartAttemptLocked(RmApp& app, Actions* actions) REQUIRES(mu_);
  void AttemptEndedLocked(RmApp& app, RmAttempt& attempt, Actions* actions) REQUIRES(mu_);
  void RejectLocked(RmApp& app, const std::string& diagnostics, Actions* actions) REQUIRES(mu_);
  // Kills a live app (forceKillApplication, lifetime expiry); nothing for an
  // app being saved, killed, finishing or over.
  void KillLocked(RmApp& app, const std::string& diagnostics, Actions* actions) REQUIRES(mu_);
  void RetireCompletedLocked() REQUIRES(mu_);
  // Store writes made under the lock, in the order the state changed. A
  // failure is logged: the RM goes on with what it has in memory.
  void SaveAppLocked(const RmApp& app) REQUIRES(mu_);
  void SaveAttemptLocked(const RmApp& app, const RmAttempt& attempt) REQUIRES(mu_);
  // The attempt's first record is stored: its ClientToAM key is registered.
  void AttemptStoredLocked(const RmAttempt& attempt) REQUIRES(mu_);
  // Puts a recovered unfinished app back to work.
  void ResumeLocked(RmApp& app, Actions* actions) REQUIRES(mu_);
  // The first container sequence number of an attempt started (or resumed)
  // by this RM.
  int64_t FirstContainerSequence() const {
    return (options_.epoch << ContainerId::kEpochShift) + 1;
  }
  Result<pool::QueueId> PoolQueueLocked(const std::string& name) const REQUIRES(mu_);
  // Why `app` cannot (now) be in `queue` under `limits`, or "" if it can.
  std::string QueueFullLocked(const RmApp& app, const std::string& queue,
                              const QueueLimits& limits) const REQUIRES(mu_);
  // Every change of RmApp::in_pool goes through here, so that the queue
  // counts QueueFullLocked reads stay true.
  // The pool's spec of `app` in `queue` at `priority` (user kept, held
  // as last told).
  pool::AppSpec PoolSpecLocked(const RmApp& app, pool::QueueId queue, int32_t priority) const
      REQUIRES(mu_);
  void SetPoolHeldLocked(RmApp& app, bool held) REQUIRES(mu_);
  void SetInPoolLocked(RmApp& app, bool in_pool) REQUIRES(mu_);
  void CountInQueueLocked(const RmApp& app, int32_t delta) REQUIRES(mu_);
  static void Run(Actions& actions);
  // Recomputes the leaves' AM limit inputs from the tree, the cluster and
  // the queues' usage now.
  void RefreshAmInputsLocked() REQUIRES(mu_);
  // The attempt joins its queue's pending attempts; those activated get
  // their AM container asked for.
  // `attempt` of `app` as the AM activation sees it.
  AmApplicant AmApplicantOf(const RmApp& app, const RmAttempt& attempt) const;
  void JoinAmQueueLocked(RmApp& app, const RmAttempt& attempt) REQUIRES(mu_);
  // The attempt leaves its queue (if it was in one); others may go.
  void LeaveAmQueueLocked(const ApplicationAttemptId& attempt) REQUIRES(mu_);
  void ActivateAmQueueLocked(const std::string& queue) REQUIRES(mu_);
  // Asks for the AM containers of newly active attempts and records why
  // the others wait (3.3's AM launch diagnostics).
  void ApplyAmPassLocked(const AmActivationPass& pass) REQUIRES(mu_);
  // Takes the pool's placements of `app` and makes the AM container of its
  // scheduled `attempt` of the first that is its AM ask's (Tick).
  void PickUpAmContainerLocked(RmApp& app, RmAttempt& attempt, Actions* actions) REQUIRES(mu_);
  // Asks the pool for the AM container of `app`'s current attempt.
  void AskForAmContainerLocked(RmApp& app) REQUIRES(mu_);
  // A container of `attempt` was allocated (or recovered): the first one
  // makes it count running in the queue metrics (RmAttempt::
  // first_allocation_ms).
  void NoteAllocationLocked(RmAttempt& attempt) REQUIRES(mu_);
  // The pool ask of the app's AM container (in its am_partition).
  pool::Ask AmAskOf(const RmApp& app) const;
  bool DrainingLocked(const CsQueue& queue) const REQUIRES(mu_);
  // ActiveApplications.Activate for `app` in its queue, with its user's
  // AM-activated apps there (3.3's gate).
  void ActivateAppLocked(const RmApp& app) REQUIRES(mu_);
  // AppSchedulingInfo.checkForDeactivation: inactive once neither the AM
  // ask nor the AM's own asks want containers.
  void CheckDeactivationLocked(const RmApp& app, const RmAttempt& attempt) REQUIRES(mu_);

  const ApplicationManagerOptions options_;
  pool::SchedulerPool* const pool_;
  ContainerRegistry* const containers_;
  AmLauncher* const launcher_;
  const NodeDirectory* const nodes_;
  const Clock* const clock_;
  AppStore* const store_;
  const int64_t cluster_timestamp_;

  mutable Mutex mu_;
  int32_t next_app_seq_ GUARDED_BY(mu_) = 1;
  // Sequence numbers up to here are reserved in the store.
  int32_t reserved_app_seq_ GUARDED_BY(mu_) = 0;
  uint64_t next_pool_app_ GUARDED_BY(mu_) = 1;
  std::map<ApplicationId, RmApp> apps_ GUARDED_BY(mu_);
  // Apps in the pool (accepted, not finished) per queue and per user in it,
  // as LeafQueue counts them: a submission is checked without a walk over
  // every app.
  struct QueueCount {
    int32_t apps = 0;
    std::map<std::string, int32_t> by_user;
  };
  std::map<std::string, QueueCount> in_queue_ GUARDED_BY(mu_);
  std::vector<ApplicationId> completed_order_ GUARDED_BY(mu_);
  std::map<ContainerId, ApplicationAttemptId> am_containers_ GUARDED_BY(mu_);
  // Recovered AM containers no node has reported yet, by node.
  std::map<NodeId, std::set<ContainerId>> unconfirmed_am_containers_ GUARDED_BY(mu_);
  Listener listener_ GUARDED_BY(mu_);
  ClientToAmTokenSecretManager* client_to_am_tokens_ GUARDED_BY(mu_) = nullptr;
  ContainerSignals container_signals_;
  // Which attempts may have their AM placed (pending vs active apps).
  AmActivation am_activation_ GUARDED_BY(mu_);
  // Which apps have outstanding requests (QueueMetrics' active apps/users).
  ActiveApplications active_apps_ GUARDED_BY(mu_);
  std::shared_ptr<const QueueTree> am_tree_ GUARDED_BY(mu_);
  // 3.3: leaves (pool names) stopped by a refresh while they had apps.
  std::set<std::string> draining_ GUARDED_BY(mu_);
  // Set while Recover() runs: the attempts it starts are "recovering".
  bool recovering_ GUARDED_BY(mu_) = false;
  // Apps whose current attempt entered SCHEDULED (waits for its AM
  // container) and that Tick has not yet seen leave it: Tick picks up AM
  // placements of these only.
  std::set<ApplicationId> am_pickups_ GUARDED_BY(mu_);
  // At or below the last_heard of every unfinished app's current attempt:
  // Tick walks the apps for silent AMs only once this is older than the
  // expiry.
  TimePoint heard_floor_ GUARDED_BY(mu_){};
  // Apps with a lifetime, until they end.
  AppLifetimeMonitor lifetimes_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
