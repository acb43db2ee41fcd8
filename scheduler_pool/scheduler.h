// Scheduler: one optimistic scheduler of the pool (ParSync's scheduler,
// Omega's): it keeps a local view of the cell, syncs it on its schedule
// (SyncSchedule), orders its applications' asks by its policy, chooses
// nodes in its view by its strategy, reserves the queues' quota, commits a
// transaction to the cell state, and on conflict refreshes the nodes
// involved and tries again (up to max_retries rounds per step).
//
// A step is RunOnce(now): drive it from a thread in real time (the pool does)
// or from a discrete-event simulator on a virtual clock. Nothing in a step
// sleeps or waits for heartbeats; asks are placed at the next step after they
// arrive.
//
// Thread contract:
//  - RunOnce(), view() and partition_syncs() belong to one thread at a time
//    (the owner), like the view, the apps' pending state and the strategy.
//  - AddApp, RemoveApp, SetAsks, OnReleased, OnRecovered, TakePlacements, Metrics, Series,
//    WaitForWork and Wake may be called from any thread. Changes to apps and
//    asks go through an inbox the owner drains at the start of each step;
//    committed placements go to a per-app outbox.
// Lock order: inbox_mu_, outbox_mu_ and metrics_mu_ are leaves (never held
// together, never held while calling the cell state or the ledger).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/random.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/cell_state.h"
#include "scheduler_pool/cell_state_client.h"
#include "scheduler_pool/cell_view.h"
#include "scheduler_pool/metrics.h"
#include "scheduler_pool/node_labels.h"
#include "scheduler_pool/pending.h"
#include "scheduler_pool/policy/scheduling_policy.h"
#include "scheduler_pool/pool_options.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/strategies/placement_strategy.h"
#include "scheduler_pool/sync_schedule.h"
#include "scheduler_pool/transaction.h"

namespace spindle::pool {

// What the pool shares with each of its schedulers; all outlive them.
struct SchedulerContext {
  // The master copy: the pool's CellState in-process, a RemoteCell in
  // `spindle scheduler` (scheduler_pool/remote).
  CellStateClient* cell = nullptr;
  QueueLedger* queues = nullptr;
  const Clock* clock = nullptr;
  const SyncSchedule* schedule = nullptr;
  // The pool's node-label partitions (exclusivity, waiting asks). Required
  // once an ask or a node has a label.
  NodeLabelTable* labels = nullptr;
  MetricsSeries* series = nullptr;  // the pool's time series (may be null)
  // Slot 0 of the sync schedule and second 0 of the time series.
  TimePoint epoch;
};

struct StepResult {
  int64_t placed = 0;     // tasks committed
  int64_t conflicts = 0;  // claims refused
  int64_t backlog = 0;    // outstanding tasks after the step
  int64_t partitions_synced = 0;
  // When the next sync slot starts: an idle or blocked scheduler has
  // nothing new to try before then (unless new asks arrive).
  TimePoint next_sync;
  // When the step's decisions end: with DecisionPacing::kStamp the step's
  // start plus the modelled cost of its decisions (the clock stood still),
  // else the clock's time at the end of the step.
  TimePoint decided_until;
};

class Scheduler {
 public:
  Scheduler(int index, const PoolOptions& options, const SchedulerContext& context,
            std::unique_ptr<SchedulingPolicy> policy, std::unique_ptr<PlacementStrategy> strategy);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  int index() const { return index_; }

  // ---- Any thread ----
  void AddApp(const AppSpec& spec) EXCLUDES(inbox_mu_, outbox_mu_);
  // Forgets the app: its pending asks are dropped. Returns the placements it
  // had not taken (the caller releases them); any committed later are
  // released by the scheduler itself.
  std::vector<Placement> RemoveApp(AppId app) EXCLUDES(inbox_mu_, outbox_mu_);
  // New queue and priority for a known app. Placements committed but not
  // taken move their charge to the new queue now; later commits charge it.
  void UpdateApp(const AppSpec& spec) EXCLUDES(inbox_mu_, outbox_mu_);
  // Absolute totals per ask key (see Ask); keys not mentioned are unchanged.
  void SetAsks(AppId app, std::vector<Ask> asks) EXCLUDES(inbox_mu_, outbox_mu_);
  // The app's blacklist, whole (replaces the previous one).
  void SetBlacklist(AppId app, std::vector<NodeId> nodes, std::vector<RackId> racks)
      EXCLUDES(inbox_mu_);
  // The app's usage went down by `amount` (containers released). Does not
  // wake an idle owner: the freed room reaches its view only with a sync,
  // which its wait ends for anyway, so the usage is taken in at the next
  // step (a wake-up per released batch was most of the pool's context
  // switches under the wind tunnel's real clock).
  void OnReleased(AppId app, const Resource& amount) EXCLUDES(inbox_mu_);
  // The app's usage went up by `amount` (a running container recovered after
  // an RM restart; it never enters the outbox).
  void OnRecovered(AppId app, const Resource& amount) EXCLUDES(inbox_mu_);
  // The app's usage is `used` (what the cell-state service counts for an
  // app it pins to a member: remote/scheduler_member.h); a fair-ordered
  // queue orders its apps by it.
  void SetUsage(AppId app, const Resource& used) EXCLUDES(inbox_mu_);
  // Moves the app's committed placements to the end of `out`.
  void TakePlacements(AppId app, std::vector<Placement>* out) EXCLUDES(outbox_mu_);
  SchedulerMetrics Metrics() const EXCLUDES(metrics_mu_);
  std::vector<SeriesPoint> Series() const EXCLUDES(metrics_mu_);
  // Blocks until the inbox has mail, Wake() is called, or the clock passes
  // `deadline` (real clocks only: a ManualClock never advances by itself).
  void WaitForWork(TimePoint deadline) EXCLUDES(inbox_mu_);
  void Wake() EXCLUDES(inbox_mu_);

  // ---- The owner ----
  StepResult RunOnce(TimePoint now);
  const CellView& view() const { return view_; }
  int64_t partition_syncs(int p) const { return view_.partition(p).syncs; }
  const PlacementStrategy& strategy() const { return *strategy_; }

 private:
  struct Message {
    enum class Kind : uint8_t {
      kAddApp,
      kRemoveApp,
      kUpdateApp,
      kSetAsks,
      kSetBlacklist,
      kReleased,
      kRecovered,
      kSetUsage
    };
    Kind kind = Kind::kAddApp;
    AppSpec spec;
    std::vector<Ask> asks;
    std::vector<NodeId> nodes;  // kSetBlacklist
    std::vector<RackId> racks;
    std::vector<int64_t> taken;  // per ask: placements of its key taken so far
    Resource amount;
    TimePoint at;  // when the caller sent it (the tasks' ask time)
  };
  struct Outbox {
    std::vector<Placement> ready;
    std::vector<std::pair<AskKey, int64_t>> taken;
  };
  struct ClaimMeta {
    AppState* app;
    AskState* ask;
    Locality locality;
  };

  // Queues `m` for the owner's next step; `wake`: ends the owner's wait
  // (WaitForWork) if it is idle.
  void Post(Message m, bool wake = true) EXCLUDES(inbox_mu_);
  void ProcessInbox() EXCLUDES(inbox_mu_);
  void ApplySetAsks(AppState* app, const Message& m);
  // Tells the ledger whether the app has pending asks (its user is active
  // in its queue while one of its apps has).
  void SyncUserActivity(AppState* app);
  // Tells the ledger what the app asks for, in a queue ordered pool-wide
  // (QueueSpec::pool_wide_order); nothing with can_place false.
  void ReportDemand(const AppState& app, bool can_place);
  // Whether the app's demand still holds back the apps its queue serves
  // after it: yes unless its asks have found no node in the view for a
  // whole sync round (its view may be stale until then).
  bool MayHoldItsPlace(const AppState& app, TimePoint now) const;
  // Places up to `count` tasks of `ask` on nodes of its partition, the
  // app's blacklist hidden.
  int64_t PlaceInPartition(const AppState& app, const Ask& ask, int64_t count,
                           StrategyContext& sctx);
  // Whether `ask` may borrow idle non-exclusive partitions (MayBorrow) and
  // places up to `count` of its tasks there (PlaceLent).
  bool MayBorrow(const Ask& ask) const;
  int64_t PlaceLent(const AppState& app, const Ask& ask, int64_t count, StrategyContext& sctx);
  void HideBlacklist(const AppState& app);
  // Hides (CellView::Hide) every node the ask of `label` may not use: in
  // `lent` mode, every node but those of non-exclusive partitions that lend
  // now; otherwise every node outside `label`.
  void HideOtherPartitions(LabelId label, bool lent);
  int64_t SyncDue(TimePoint now);
  void UpdateFreshnessOrder();
  TimePoint NextSyncTime(TimePoint now) const;
  void PlaceAndCommit(TimePoint now, StepResult* result);
  // Commits txn_, applies the outcomes; returns the number of conflicts.
  int64_t CommitPending(StepResult* result);
  // With options_.emulated_decision_cost: `decisions` decisions made since
  // deciding_since_ last what they are to cost. kSleep: sleeps until then;
  // kStamp: moves deciding_since_ there (the commit's stamp).
  void PaceDecisions(size_t decisions);
  // Whether commits are stamped with their decisions' cost rather than
  // slept for (the virtual clock's DecisionPacing::kStamp).
  bool StampsDecisions() const { return options_.decision_pacing == DecisionPacing::kStamp; }
  void Deliver() EXCLUDES(outbox_mu_);
  void CloseSecond(int64_t second) EXCLUDES(metrics_mu_);
  void Account(TimePoint now, int64_t synced, int64_t busy_nanos) EXCLUDES(metrics_mu_);

  const int index_;
  const PoolOptions options_;
  const SchedulerContext ctx_;
  const std::unique_ptr<SchedulingPolicy> policy_;
  const std::unique_ptr<PlacementStrategy> strategy_;
  // The cell reads Transaction::owners (a remote cell): only then are they
  // built, one per claim.
  const bool records_owners_;

  // ---- Owner-thread state ----
  CellView view_;
  Random rng_;
  std::unordered_map<AppId, std::unique_ptr<AppState>> apps_;
  std::vector<AppState*> app_list_;
  uint64_t next_app_seq_ = 0;
  int64_t backlog_ = 0;
  bool synced_once_ = false;
  int64_t last_slot_ = 0;
  std::vector<int> freshness_order_;
  // Whether freshness_order_ is CellView::FreshnessOrder's (not the
  // constructor's placeholder), and the partitions SyncDue synced.
  bool freshness_sorted_ = false;
  std::vector<int> synced_now_;
  uint64_t next_placement_ = 0;
  // When the decisions of the transaction being built began (kStamp: when
  // the decisions made so far end).
  TimePoint deciding_since_;
  // Step scratch, reused.
  Transaction txn_;
  CommitResult commit_;
  std::vector<ClaimMeta> meta_;
  std::vector<Choice> choices_;
  std::vector<Placement> committed_;
  std::vector<int64_t> delays_;
  std::vector<Placement> to_release_;
  // Counters of the step, published under metrics_mu_ by Account().
  SchedulerMetrics step_;
  // The second being accumulated for the time series.
  int64_t cur_second_ = -1;
  SecondReport cur_report_;
  LatencyHistogram cur_delay_;

  mutable Mutex inbox_mu_;
  std::vector<Message> inbox_ GUARDED_BY(inbox_mu_);
  bool woken_ GUARDED_BY(inbox_mu_) = false;
  // The inbox holds a message that ends the owner's wait (Post's `wake`).
  bool urgent_ GUARDED_BY(inbox_mu_) = false;
  CondVar inbox_cv_;

  mutable Mutex outbox_mu_;
  std::unordered_map<AppId, Outbox> outboxes_ GUARDED_BY(outbox_mu_);

  mutable Mutex metrics_mu_;
  SchedulerMetrics metrics_ GUARDED_BY(metrics_mu_);
  std::vector<SeriesPoint> series_ GUARDED_BY(metrics_mu_);  // oldest first
};

}  // namespace spindle::pool
