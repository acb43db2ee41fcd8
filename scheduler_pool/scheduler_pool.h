// SchedulerPool: the facade the RM uses for placement. It owns the cell state
// (nodes in P partitions), the queue ledger, N schedulers (or one, in
// monolithic mode) and, once started, one thread per scheduler that places
// asks as they arrive: nothing waits for node heartbeats.
//
//   auto pool = SchedulerPool::Create(options, SystemClock::Get());
//   pool->SetQueues({{"root.default"}});
//   NodeId n = *pool->AddNode({Resource::Of(8192, 8), "/rack1", 1.0});
//   pool->AddApp({app, queue});
//   pool->SetAsks(app, {ask});           // absolute totals, as YARN's
//   pool->Start();
//   ... pool->TakePlacements(app, &out);  // at the AM's next allocate
//   ... pool->Release(placement);          // container completed
//
// Two ways to drive the schedulers:
//  - Start()/Stop(): real time, one thread per scheduler.
//  - RunOnce(i, now) / RunAllOnce(now) without Start(): a caller (a test, a
//    benchmark, or the wind tunnel's discrete-event driver on a ManualClock)
//    steps each scheduler itself. Do not mix the two.
//
// Thread-safety: every method is thread-safe, except that RunOnce/RunAllOnce
// must not run concurrently for the same scheduler nor while started.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/cell_state.h"
#include "scheduler_pool/metrics.h"
#include "scheduler_pool/node_labels.h"
#include "scheduler_pool/pinning.h"
#include "scheduler_pool/policy/scheduling_policy.h"
#include "scheduler_pool/pool_options.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/scheduler.h"
#include "scheduler_pool/sync_schedule.h"

namespace spindle::pool {

namespace remote {
// scheduler_pool/remote/cell_state_service.h; declared here so that the RM's
// files, which include this header, do not recompile when the service does.
class CellStateService;
}  // namespace remote

struct PoolMetrics {
  SchedulerMetrics overall;  // summed over schedulers (scheduler == -1)
  std::vector<SchedulerMetrics> schedulers;
  Resource capacity;
  Resource allocated;
  double utilisation = 0;
};

// The placement strategy `options.strategy` names, as the pool's schedulers
// (and the cell-state service's members, scheduler_pool/remote) use it.
std::unique_ptr<PlacementStrategy> MakeStrategy(const PoolOptions& options);

// Builds a scheduler's policy; the default is QuotaDrfPolicy.
using PolicyFactory = std::unique_ptr<SchedulingPolicy> (*)(int scheduler);

class SchedulerPool {
 public:
  // InvalidArgument if the options do not validate. `clock` must outlive the
  // pool. `policy_factory` (may be null) overrides the default policy.
  static Result<std::unique_ptr<SchedulerPool>> Create(const PoolOptions& options,
                                                       const Clock* clock,
                                                       PolicyFactory policy_factory = nullptr);
  ~SchedulerPool();  // Stop()s
  SchedulerPool(const SchedulerPool&) = delete;
  SchedulerPool& operator=(const SchedulerPool&) = delete;

  // Starts one thread per scheduler. Aborted if already started.
  Status Start() EXCLUDES(threads_mu_);
  // Stops and joins the threads; idempotent.
  void Stop() EXCLUDES(threads_mu_);

  // ---- Queues ----
  // See QueueLedger::SetQueues; the user weights' names are interned
  // (InternUser) into their ids.
  Result<std::vector<QueueId>> SetQueues(const std::vector<QueueSpec>& specs);
  Result<QueueId> FindQueue(std::string_view name) const { return queues_.Find(name); }

  // ---- Users ----
  // The id of the user called `name` (an application's owner, for
  // AppSpec::user), the same for the same name for the pool's life.
  UserId InternUser(std::string_view name) EXCLUDES(users_mu_);

  // ---- Node-label partitions (node_labels.h) ----
  // The id of the partition called `name` ("": the default partition).
  LabelId InternLabel(std::string_view name) { return labels_.Intern(name); }
  void SetLabelExclusive(LabelId label, bool exclusive) { labels_.SetExclusive(label, exclusive); }
  const NodeLabelTable& labels() const { return labels_; }

  // ---- Nodes (registration and heartbeats) ----
  Result<NodeId> AddNode(const NodeSpec& spec) { return cell_->AddNode(spec); }
  Status UpdateNode(NodeId node, const NodeUpdate& update) {
    return cell_->UpdateNode(node, update);
  }
  Status RemoveNode(NodeId node) { return cell_->RemoveNode(node); }
  Result<RackId> FindRack(std::string_view name) const { return cell_->FindRack(name); }

  // ---- Applications ----
  // Pins the app to a scheduler. AlreadyExists if known; InvalidArgument for
  // an unknown queue.
  Status AddApp(const AppSpec& spec) EXCLUDES(apps_mu_);
  // Drops the app's asks and releases the placements it has not taken (and
  // any committed later). The RM releases the containers it handed out.
  // NotFound if unknown.
  Status RemoveApp(AppId app) EXCLUDES(apps_mu_);
  // Changes an app's queue and priority (YARN's moveApplicationAcrossQueues,
  // updateApplicationPriority). The app stays on its scheduler. Usage of
  // placements not yet taken moves with it; for placements already taken the
  // caller moves each with MoveCharge. NotFound for an unknown app;
  // InvalidArgument for an unknown queue.
  Status UpdateApp(const AppSpec& spec) EXCLUDES(apps_mu_);
  // Moves one taken placement's charge to queue `to` and rewrites its queue,
  // so that its release credits `to`. InvalidArgument for an unknown queue.
  Status MoveCharge(Placement* placement, QueueId to);
  // Sets absolute totals per ask key (see Ask). NotFound for an unknown app;
  // InvalidArgument (nothing applied) for a negative count, a non-positive
  // capability or a count with no capability.
  Status SetAsks(AppId app, std::vector<Ask> asks) EXCLUDES(apps_mu_);
  // Replaces the app's blacklist: its asks are placed on none of these nodes
  // or racks (preferences naming them included). NotFound for an unknown app.
  Status SetBlacklist(AppId app, std::vector<NodeId> nodes, std::vector<RackId> racks)
      EXCLUDES(apps_mu_);
  // Appends the app's committed placements to `out` (oldest first) and
  // forgets them. NotFound for an unknown app.
  Status TakePlacements(AppId app, std::vector<Placement>* out) EXCLUDES(apps_mu_);
  // A container of a placement completed: frees its node, queue and app
  // usage. InvalidArgument for an unknown queue; the node part follows
  // CellState::Release (a removed node is fine).
  Status Release(const Placement& placement) EXCLUDES(apps_mu_);
  Status ReleaseBatch(const std::vector<Placement>& placements) EXCLUDES(apps_mu_);

  // What the app's master may still be given (an allocate answer's
  // headroom): in a queue that limits users, LeafQueue.getHeadroom as the
  // queue's Hadoop line computes it (UserHeadroom in user_limit.h) from the
  // user's limit (for a minimum allocation), its usage, the queue's maximum
  // (at most the cell) and usage, and the cell's free resources; otherwise
  // the cell's free resources. NotFound for an unknown app.
  Result<Resource> Headroom(AppId app) const EXCLUDES(apps_mu_);

  // ---- Recovery (work-preserving RM restart) ----
  // Records a container that is already running on `node` for `app` (a live
  // app added with AddApp), as a NodeManager reports it when it re-registers
  // after an RM restart. Claims `resource` on the node in the cell state
  // (CellState::Recover: the commit path's claim, so the schedulers' views
  // see the node as used at their next sync), charges the app's queue
  // without checking its maximum (QueueLedger::ForceCharge) and counts it in
  // the app's usage. Returns a Placement with a fresh unique id, the app's
  // current queue, `node`, `resource`, `priority`, `allocation_request_id`,
  // locality kOffSwitch and asked_at = committed_at = now; Release() gives it
  // back exactly like a scheduled placement (and MoveCharge moves it, as a
  // taken one). It never appears in TakePlacements: it is already delivered,
  // and it does not count against the app's asks.
  //
  // Over-commit: if the node has no room for it (or takes no claims), it is
  // recorded anyway, since the node is running it: the node's allocation
  // exceeds its total, the cell state marks it overcommitted (as after a
  // capacity shrink) and it takes no new claims until releases bring it
  // back within its total. A WARNING is logged.
  //
  // NotFound (and no effect) for an unknown app or an unknown or removed
  // node; InvalidArgument for a negative or zero resource. Holds the app
  // table's lock throughout, so a concurrent RemoveApp either precedes it
  // (NotFound) or follows it (then the caller releases what it recovered,
  // as it does for the placements it took).
  Result<Placement> RecoverPlacement(AppId app, NodeId node, const Resource& resource,
                                     int32_t priority, int64_t allocation_request_id)
      EXCLUDES(apps_mu_);

  // ---- Driving without threads ----
  // The in-process schedulers.
  int num_schedulers() const { return static_cast<int>(schedulers_.size()); }
  // The scheduler an app is (or would be) pinned to: in-process below
  // num_schedulers(), one of the cell-state service's slots from there.
  int SchedulerFor(AppId app, std::string_view queue_name) const;
  StepResult RunOnce(int scheduler, TimePoint now);
  // RunOnce for every scheduler in turn; sums the results (next_sync is the
  // earliest, decided_until the latest).
  StepResult RunAllOnce(TimePoint now);

  // ---- Introspection ----
  PoolMetrics Metrics() const;
  // The pool's 1 s time series, oldest first.
  std::vector<SeriesPoint> Series() const { return series_.Points(); }
  const CellState& cell() const { return *cell_; }
  // With PoolOptions::remote_schedulers > 0, the cell-state service the
  // apps pinned past num_schedulers() go to (serve it to `spindle
  // scheduler` processes, or run SchedulerMembers over it); else null.
  remote::CellStateService* remote_service() { return remote_.get(); }
  const QueueLedger& queues() const { return queues_; }
  const PoolOptions& options() const { return options_; }
  const Scheduler& scheduler(int i) const { return *schedulers_[static_cast<size_t>(i)]; }
  TimePoint epoch() const { return epoch_; }

 private:
  SchedulerPool(const PoolOptions& options, const Clock* clock);
  void ThreadMain(int i);
  // The scheduler of a known app, or -1.
  int SchedulerOfApp(AppId app) const EXCLUDES(apps_mu_);
  // Whether scheduler slot `s` is the cell-state service's.
  bool IsRemote(int s) const { return s >= num_schedulers(); }

  const PoolOptions options_;
  const Clock* const clock_;
  const TimePoint epoch_;
  std::unique_ptr<CellState> cell_;
  QueueLedger queues_;
  NodeLabelTable labels_;
  MetricsSeries series_;
  std::unique_ptr<SyncSchedule> schedule_;
  Pinning pinning_;
  std::vector<std::unique_ptr<Scheduler>> schedulers_;
  std::unique_ptr<remote::CellStateService> remote_;

  struct AppEntry {
    int scheduler = -1;
    QueueId queue;  // its current queue (kept by AddApp/UpdateApp)
    UserId user;    // as added
    // Its ask keys outside the default partition with a total above zero:
    // each counts as waiting for its label (NodeLabelTable::AddWaiting).
    std::vector<std::pair<AskKey, LabelId>> labelled_asks;
    int32_t priority = 0;  // as added or updated
    uint64_t order = 0;    // AppSpec::order
  };

  // Lock order: apps_mu_ before the cell state's, the ledger's and the
  // schedulers' mutexes (only RecoverPlacement holds it across them).
  mutable Mutex apps_mu_;
  std::unordered_map<AppId, AppEntry> apps_ GUARDED_BY(apps_mu_);
  // AppSpec::order of the next app added.
  uint64_t next_app_order_ GUARDED_BY(apps_mu_) = 0;
  // Keeps the app's labelled ask keys and the labels' waiting counts as
  // SetAsks changes them.
  void CountLabelledAsks(AppEntry* entry, const std::vector<Ask>& asks) REQUIRES(apps_mu_);
  // Ids of recovered placements: bit 63 set, so they never meet the
  // schedulers' (scheduler index << 44 | sequence).
  std::atomic<uint64_t> next_recovered_{0};

  // A leaf.
  Mutex users_mu_;
  std::unordered_map<std::string, uint32_t> users_ GUARDED_BY(users_mu_);

  Mutex threads_mu_;
  std::vector<std::thread> threads_ GUARDED_BY(threads_mu_);
  bool started_ GUARDED_BY(threads_mu_) = false;
  std::atomic<bool> stopping_{false};
};

}  // namespace spindle::pool
