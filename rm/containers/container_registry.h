// ContainerRegistry: every container the RM has handed out, from allocation
// to completion. It is where a container's end is decided once, whichever
// way it ends (the node reports it complete, the AM releases it, its node is
// lost, its attempt ends): the pool gets the resources back exactly once, the
// owning attempt is told in its next allocate response, and the node is told
// to kill what it should no longer run and to forget what completed.
//
// A node may forget a completed container (containers_to_be_removed_from_nm)
// once the AM has it, as Hadoop's RMAppAttemptImpl decides: a completion
// handed to the AM by one allocate is acknowledged at the AM's next allocate,
// or when its AM container completes or the attempt ends; the AM container
// itself is acknowledged as soon as its node reports it complete.
//
// Thread contract: all public methods are thread-safe (one mutex); the pool
// is called with it held (Release takes only the pool's own locks).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

// ContainerExitStatus values the RM itself assigns.
inline constexpr int32_t kExitAborted = -100;     // released, lost node, app done
inline constexpr int32_t kExitKilledByRm = -106;  // KILLED_BY_RESOURCEMANAGER
inline constexpr int32_t kExitInvalid = -1000;
inline constexpr int32_t kExitDisksFailed = -101;  // DISKS_FAILED
inline constexpr int32_t kExitPreempted = -102;    // PREEMPTED

// What a container lost with its node is completed with (ABORTED), as
// Hadoop's SchedulerUtils.LOST_CONTAINER words it.
inline constexpr char kLostContainerDiagnostics[] = "Container released on a *lost* node";

struct RmContainer {
  ContainerId id;
  NodeId node;
  pool::Placement placement;
  bool is_am = false;
  // When the RM allocated it (wall ms); 0 = stamped by Add().
  int64_t created_ms = 0;
};

// Aggregate resource allocation of an application: resource x time summed
// over its containers, as Hadoop's RMAppMetrics reports it (MB-seconds and
// vcore-seconds, rounded down per container and per report), with what
// preemption took from it (RMAppAttemptMetrics.updatePreemptionInfo and
// updateAggregatePreemptedAppResourceUsage, summed over its attempts).
struct ResourceSeconds {
  int64_t memory_seconds = 0;
  int64_t vcore_seconds = 0;
  // The preempted containers' resources, their count without the AM
  // containers, the preempted AM containers (attempts whose AM was
  // preempted), and their resource x time.
  pool::Resource preempted;
  int32_t num_non_am_preempted = 0;
  int32_t num_am_preempted = 0;
  int64_t preempted_memory_seconds = 0;
  int64_t preempted_vcore_seconds = 0;
};

// Adds `more`'s preemption figures (resources, counts, resource x time) to
// `total`'s: a queue's aggregates are its containers' and its children's.
inline void AddPreemptionFigures(ResourceSeconds* total, const ResourceSeconds& more) {
  total->preempted += more.preempted;
  total->num_am_preempted += more.num_am_preempted;
  total->num_non_am_preempted += more.num_non_am_preempted;
  total->preempted_memory_seconds += more.preempted_memory_seconds;
  total->preempted_vcore_seconds += more.preempted_vcore_seconds;
}

// What a container the RM preempts completes with (PREEMPTED, -102),
// SchedulerUtils.PREEMPTED_CONTAINER's words (2.6, 2.7, 3.3).
inline constexpr char kPreemptedContainerDiagnostics[] = "Container preempted by scheduler";

struct CompletedContainer {
  ContainerId id;
  int32_t exit_status = 0;
  std::string diagnostics;
  bool is_am = false;
};

// What a node reports of one container in a heartbeat.
struct ReportedContainer {
  ContainerId id;
  bool complete = false;
  int32_t exit_status = 0;
  std::string diagnostics;
};

// What a node heartbeat answer must carry for the containers.
struct NodeContainerActions {
  std::vector<ContainerId> to_cleanup;         // kill these
  std::vector<ContainerId> to_remove_from_nm;  // completed: forget them
  std::vector<ApplicationId> applications_to_cleanup;
  // Newly completed on this report (the caller tells the app manager of AMs).
  std::vector<CompletedContainer> completed;
};

// One node's heartbeat report, for OnNodeReports (both must outlive the call).
struct NodeReportRef {
  const NodeId* node = nullptr;
  const std::vector<ReportedContainer>* reported = nullptr;
};

class ContainerRegistry {
 public:
  // `clock` stamps allocation and completion times (for ResourceSeconds).
  explicit ContainerRegistry(pool::SchedulerPool* pool, const Clock* clock = SystemClock::Get())
      : pool_(pool), clock_(clock) {}

  // A container was allocated. AlreadyExists if its id is known.
  Status Add(const RmContainer& container);
  // The containers one allocate hands out, under one lock (an allocate may
  // hand out thousands; a lock per container made the call queue behind
  // every node heartbeat once per container). Returns the ids that were
  // already known and so not added (Add's AlreadyExists), in input order.
  std::vector<ContainerId> AddAll(const std::vector<RmContainer>& containers);
  std::optional<RmContainer> Get(const ContainerId& id) const;
  // Live containers of an attempt (for reports and recovery).
  std::vector<RmContainer> LiveContainersOf(const ApplicationAttemptId& attempt) const;
  // How many live containers each node holds (node reports' numContainers),
  // in one pass.
  std::map<NodeId, int32_t> LiveCountByNode() const;
  // Every live container, in id order (what the preemption monitor chooses
  // from), in one pass.
  std::vector<RmContainer> AllLive() const;
  bool IsLive(const ContainerId& id) const;

  // The RM takes a live container back (the preemption monitor's kill, as
  // CapacityScheduler.markContainerForKillable without lazy preemption):
  // completed now as PREEMPTED (kPreemptedContainerDiagnostics), its
  // resources back to the pool, killed on its node at the next heartbeat,
  // handed to its AM at the next allocate, and counted in its app's
  // preemption figures. Returns the completion (the caller tells the app
  // manager of an AM container), nullopt if the container is not live.
  // `figures`, if given, receives this container's own preemption figures
  // (what its app's ResourceSeconds gained: for the queue's metrics).
  std::optional<CompletedContainer> Preempt(const ContainerId& id,
                                            ResourceSeconds* figures = nullptr);

  // The app's aggregate allocation so far: its completed containers plus its
  // live ones up to now. Kept after the app finishes, until Forget().
  ResourceSeconds UsageSecondsOf(const ApplicationId& app) const;

  // The app was retired from the RM's memory: drop what is kept of it.
  void ForgetApplication(const ApplicationId& app);

  // The app moved to another pool queue: its live containers are charged
  // to `to` from now on (the pool's ledger moves their resources), so that
  // their release credits the queue that holds them.
  void MoveApplicationQueue(const ApplicationId& app, pool::QueueId to);

  // A node's heartbeat: completes what it reports complete, asks it to kill
  // live containers the RM does not know (or no longer wants), and hands
  // over pending cleanups and acknowledgements (see above).
  NodeContainerActions OnNodeReport(const NodeId& node,
                                    const std::vector<ReportedContainer>& reported);
  // OnNodeReport for each of `reports`, in order, under one lock, with what
  // they complete given back to the pool in one batch (a pool release per
  // heartbeat woke a scheduler thread per heartbeat). Stops after the first
  // report that completes an AM container: the caller must tell the app
  // manager (whose end of the attempt changes what later nodes are told)
  // before it passes the rest. Returns the actions of the reports taken, in
  // order: each exactly what OnNodeReport would have answered.
  std::vector<NodeContainerActions> OnNodeReports(std::span<const NodeReportRef> reports);

  // The AM gives a container back: completed now (ABORTED, "Container
  // released by application"), killed on its node at the next heartbeat.
  // InvalidContainerReleaseException if the container is another
  // application's. An id of the attempt's own application that the RM does
  // not know is ignored (OK), as Hadoop's scheduler ignores it: after an RM
  // restart an AM re-sends the releases it has no answer for, and a
  // container an earlier run allocated but never saw running is unknown.
  Status Release(const ApplicationAttemptId& attempt, const ContainerId& id);
  // Release for every id one allocate call gives back, under one lock, their
  // resources returned to the pool in one batch. Every id is checked before
  // any is released: InvalidContainerReleaseException for the first that is
  // another application's, and then nothing is released (Hadoop's
  // ApplicationMasterService.allocate runs RMServerUtils.
  // validateContainerReleaseRequest over the whole list before the
  // scheduler releases any).
  Status ReleaseAll(const ApplicationAttemptId& attempt, const std::vector<ContainerId>& ids);

  // The node is gone (expired, unregistered, or re-registered by a restarted
  // agent that runs no application): its containers complete as ABORTED
  // (kLostContainerDiagnostics) and are handed to their AMs at their next
  // allocate.
  std::vector<CompletedContainer> OnNodeLost(const NodeId& node);

  // The attempt ended: its live containers are killed (unless kept for the
  // next attempt) and complete as ABORTED; its undelivered completions are
  // dropped.
  void OnAttemptEnded(const ApplicationAttemptId& attempt, bool keep_containers);

  // The application is over: nodes that ran it are told to clean it up.
  void OnApplicationFinished(const ApplicationId& app);

  // Completions not yet delivered to the attempt's AM (allocate response);
  // those the previous call delivered are acknowledged to their nodes.
  std::vector<CompletedContainer> TakeCompleted(const ApplicationAttemptId& attempt);

 private:
  struct Entry {
    RmContainer container;
    bool completed = false;
    bool am_acked = false;  // an AM container's completion was acknowledged
  };
  // Marks a live container completed and frees its resources; `kill` also
  // queues it for killing on its node. With `freed`, its placement is
  // appended there for the caller to release in one batch (under mu_)
  // instead of being released now.
  void CompleteLocked(Entry& entry, int32_t exit_status, const std::string& diagnostics, bool kill,
                      std::vector<CompletedContainer>* out,
                      std::vector<pool::Placement>* freed = nullptr) REQUIRES(mu_);
  Status AddLocked(const RmContainer& container) REQUIRES(mu_);
  // OnNodeReport's work; what it completes is appended to `freed`.
  NodeContainerActions OnNodeReportLocked(const NodeId& node,
                                          const std::vector<ReportedContainer>& reported,
                                          std::vector<pool::Placement>* freed) REQUIRES(mu_);
  // Gives what CompleteLocked freed back to the pool in one batch.
  Status ReleaseFreedLocked(const std::vector<pool::Placement>& freed) REQUIRES(mu_);
  // InvalidContainerReleaseException if `id` is not of the attempt's app.
  static Status CheckReleasable(const ApplicationAttemptId& attempt, const ContainerId& id);
  // Nodes may forget what the attempt's AM has been sent.
  void AckSentToAmLocked(const ApplicationAttemptId& attempt) REQUIRES(mu_);

  pool::SchedulerPool* const pool_;
  const Clock* const clock_;
  mutable Mutex mu_;
  std::map<ContainerId, Entry> containers_ GUARDED_BY(mu_);
  std::map<ApplicationAttemptId, std::vector<CompletedContainer>> undelivered_ GUARDED_BY(mu_);
  // Completions the AM was sent, not yet acknowledged to their nodes.
  std::map<ApplicationAttemptId, std::vector<std::pair<NodeId, ContainerId>>> sent_to_am_
      GUARDED_BY(mu_);
  // What a node's next heartbeat answer hands over.
  struct NodeQueues {
    std::set<ContainerId> to_cleanup;  // kill these
    std::set<ContainerId> to_ack;      // forget these (containers_to_be_removed_from_nm)
    std::set<ApplicationId> apps_to_cleanup;
    bool empty() const { return to_cleanup.empty() && to_ack.empty() && apps_to_cleanup.empty(); }
  };
  // By node, looked up only (never walked in order): hashed, since an
  // ordered map's host-name compares were ~10% of the wind tunnel's RM time
  // at 25,000 nodes. One record per node rather than a map per queue: at
  // 100,000 nodes each lookup of a node's entry is a cache miss or two, and
  // a heartbeat looked in three maps.
  std::unordered_map<NodeId, NodeQueues> node_queues_ GUARDED_BY(mu_);
  // The nodes each application ran a container on (what a finished app
  // cleans up: Hadoop's RMAppImpl ranNodes). Kept by application only: a
  // node's apps are never asked for, and a second index by node cost a hash
  // insert per container handed out and a lookup per node of a finished app.
  std::map<ApplicationId, std::unordered_set<NodeId>> nodes_of_app_ GUARDED_BY(mu_);
  std::set<ApplicationId> finished_apps_ GUARDED_BY(mu_);
  // ResourceSeconds of each app's completed containers.
  std::map<ApplicationId, ResourceSeconds> completed_seconds_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
