// Queue statistics: usage and application counts of every queue of the
// CapacityScheduler tree, as getQueueInfo's QueueStatistics and the web
// side's QueueMetrics beans report them. Leaves take their usage from the
// scheduler pool's queue ledger, their container counts from the container
// registry and their app counts from the RM's apps; parents sum their
// children. One place for ClientRMService and web/metrics.
//
// What each QueueStatistics field means in Hadoop 3.3 (AbstractCSQueue.
// getQueueStatistics reads the queue's QueueMetrics):
//   allocated{MemoryMB,VCores,Containers}: what the queue's live containers
//     hold (QueueMetrics.allocateResources/releaseResources);
//   available{MemoryMB,VCores}: CSQueueUtils.getMaxAvailableResourceToQueue-
//     Partition, the queue's guaranteed share (its effective capacity,
//     cluster x absolute capacity) minus what it uses, zero once it uses its
//     share or more (memory decides, as DefaultResourceCalculator compares);
//     so available + allocated = the queue's share while within it, and the
//     top-level queues' figures add up to the cluster (less the truncation of
//     each share, as Resources.multiply truncates effectiveMinResource);
//   pending{MemoryMB,VCores,Containers}: asks not yet satisfied; Spindle
//     counts the AM containers waiting for a place (the pool does not expose
//     the AMs' own outstanding asks);
//   reserved*: 0 (Spindle does not reserve on nodes).
//
// Thread-safety: free functions over values and thread-safe readers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rm/apps/active_applications.h"
#include "rm/apps/am_activation.h"
#include "rm/apps/rm_app.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/queue_tree.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

// One user's part of a queue (Hadoop's QueueMetrics.getUserMetrics: a
// queue's metrics "for user '<user>' in queue '<queue>'"). Each update of a
// user's figures also updates the parent queue's metrics of that user
// (QueueMetrics.submitApp, runAppAttempt, finishApp, allocateResources,
// activateApp ... call parent.X(user)), so every ancestor has the user too,
// with the sums; the 3.3 AM figures (CSQueueMetrics.incAMUsed,
// setAMResouceLimitForUser) stay in the leaf. Same on 2.6, 2.7 and 3.3.
// Applications as Hadoop's QueueMetrics count them (CountApp).
struct AppCounts {
  int64_t submitted = 0;
  int64_t running = 0;
  int64_t pending = 0;
  int64_t completed = 0;
  int64_t killed = 0;
  int64_t failed = 0;

  void Add(const AppCounts& other);
};

struct UserQueueStats : AppCounts {
  // The user's live containers in the queue and their resources.
  pool::Resource allocated;
  int64_t allocated_containers = 0;
  // The user's apps with outstanding requests (QueueMetrics.activateApp).
  int64_t active_apps = 0;
  // Leaves: AM resources of the user's active apps and the user's AM limit
  // (LeafQueue.activateApplications); unset without AM limits.
  std::optional<pool::Resource> am_used;
  std::optional<pool::Resource> am_limit;
};

// AppCounts: the queue's applications (ClassifyApp).
struct QueueStats : AppCounts {
  pool::Resource used;               // committed plus reserved in the pool's ledger
  int64_t allocated_containers = 0;  // live in the container registry
  pool::Resource pending_resource;   // AM containers not yet placed
  int64_t pending_containers = 0;
  // QueueMetrics.activeApplications: apps with outstanding requests
  // (rm/apps/active_applications.h); a parent's are its children's sum, as
  // QueueMetrics.activateApp adds to every ancestor.
  int64_t active_apps = 0;
  // Leaves: the users of those apps (QueueMetrics.activeUsers). Parents:
  // none, as Hadoop's ActiveUsersManager / UsersManager counts only in the
  // leaf's metrics (incrActiveUsers does not go up the tree).
  std::set<std::string> active_users;
  // The state reports show (3.3: DRAINING while a stopped queue still has
  // applications; ApplicationManager::QueueStateOf). Default: as configured.
  std::optional<QueueState> state;
  // Leaves: activation under the AM limits (ApplicationManager::AmReport,
  // LeafQueue's activeApplications / pendingApplications); unset where the
  // snapshot was taken without the application manager.
  std::optional<QueueAmReport> am;
  // 3.3's QueueMetrics preemption aggregates (a parent's are its
  // children's sums): set on the 3.3 line (zero while no monitor runs),
  // unset on 2.6 / 2.7, whose QueueMetrics have none.
  std::optional<ResourceSeconds> preempted;
  // What it uses of each node-label partition other than the default
  // (AbstractCSQueue's queueUsage per partition; parents sum their
  // children), for the labels of QueueStatsSnapshot::label_resources.
  std::map<std::string, pool::Resource> used_by_label;
  // By user name: the users with an application the RM still holds in the
  // queue (in a leaf) or below it (in a parent).
  std::map<std::string, UserQueueStats> users;
};

struct QueueStatsSnapshot {
  // The tree the stats were taken over (what `stats` is indexed by); may be
  // null in a snapshot built by hand.
  std::shared_ptr<const QueueTree> tree;
  // RUNNING and DECOMMISSIONING nodes' capability.
  pool::Resource cluster;
  std::vector<QueueStats> stats;  // by index in QueueTree::queues()
  // The running nodes' resources of each node label the tree names
  // (RMNodeLabelsManager.getResourceByLabel), when some node is labelled.
  std::map<std::string, pool::Resource> label_resources;
  // 3.3's CSQueueMetrics figures (AMResourceLimit*, UsedAMResource*) are
  // the line's: set on the 3.3 line.
  bool am_metrics = false;
};

// The scheduler's cluster resource: RUNNING and DECOMMISSIONING nodes'
// capability.
pool::Resource ClusterResource(const NodeRegistry& nodes);

// An application's share of its queue and of the cluster, in percent, as
// Hadoop 3.3's SchedulerApplicationAttempt.getResourceUsageReport computes
// them with the DefaultResourceCalculator (memory): used / (cluster x the
// leaf's capacity, relative to its parent as QueueInfo.getCapacity gives it,
// truncated) x 100, 0 when that share is 0; used / cluster x 100. Both 0 for
// an empty cluster.
struct UsagePercentages {
  float queue = 0;
  float cluster = 0;
};
UsagePercentages UsagePercentagesOf(const pool::Resource& used, const CsQueue& leaf,
                                    const pool::Resource& cluster);

// `pool` may be null (usage zero); `containers` may be null (no container
// counts); `activity` (ApplicationManager::ActivityReport, by the apps'
// queue names) may be null (no active apps or users).
QueueStatsSnapshot SnapshotQueueStats(
    const QueueTree& tree, const std::vector<RmApp>& apps, const NodeRegistry& nodes,
    const pool::SchedulerPool* pool, const ContainerRegistry* containers = nullptr,
    const std::map<std::string, QueueActivity>* activity = nullptr);

// What a queue may still use of its guaranteed share (see above).
pool::Resource AvailableToQueue(const pool::Resource& guaranteed, const pool::Resource& used);

// `fraction` of `cluster`, rounded down per resource type (a queue's
// guaranteed or maximum share).
pool::Resource ScaledResource(const pool::Resource& cluster, double fraction);

// Where Hadoop's QueueMetrics count an application, the same on every line
// (release-2.6.0, rel/release-2.7.7 and rel/release-3.3.0 alike):
//  - submitted once the scheduler took it (CapacityScheduler.addApplication
//    calls submitApp after LeafQueue.submitApplication accepted it; an app
//    the scheduler rejected is never counted, nor failed: doneApplication
//    does not know it). Spindle creates the first attempt as it accepts.
//  - pending from its attempt's addition to the scheduler (LeafQueue.
//    submitApplicationAttempt -> submitAppAttempt, whether or not the AM
//    limit activates it) until the scheduler allocates the attempt's first
//    container (AppSchedulingInfo -> runAppAttempt; RmAttempt::
//    first_allocation_ms): an AM held by the AM limit, or an unmanaged AM
//    that registered but has no container yet, is pending; then running,
//    whatever the app's state (ACCEPTED with its AM container placed, or
//    FINISHING until the AM container exits).
//  - neither once the attempt left the scheduler (finishAppAttempt) while
//    the next one is not yet added.
//  - completed / killed / failed when the application ends (finishApp).
enum class AppCount { kUncounted, kPending, kRunning, kCompleted, kKilled, kFailed };
AppCount ClassifyApp(const RmApp& app);
// Adds `app` to `stats`' submitted count (unless kUncounted before the
// scheduler took it) and its class's count.
void CountApp(const RmApp& app, AppCounts* stats);

}  // namespace spindle::rm
