#include "scheduler_pool/scheduler.h"

#include <glog/logging.h>

#include <algorithm>
#include <thread>

#include "scheduler_pool/strategies/locality.h"

namespace spindle::pool {

namespace {

PickBlock BlockOf(ReserveBlock block) {
  switch (block) {
    case ReserveBlock::kUserLimit:
      return PickBlock::kUserLimit;
    case ReserveBlock::kOrder:
      return PickBlock::kOrder;
    default:
      return PickBlock::kQuota;
  }
}

// How often a monolithic scheduler with nothing to do looks again.
constexpr Duration kMonolithicPoll = std::chrono::milliseconds(5);
constexpr Duration kSecond = std::chrono::seconds(1);
}  // namespace

Scheduler::Scheduler(int index, const PoolOptions& options, const SchedulerContext& context,
                     std::unique_ptr<SchedulingPolicy> policy,
                     std::unique_ptr<PlacementStrategy> strategy)
    : index_(index),
      options_(options),
      ctx_(context),
      policy_(std::move(policy)),
      strategy_(std::move(strategy)),
      records_owners_(context.cell->RecordsClaimOwners()),
      view_(context.cell->num_partitions(), options.min_unit),
      rng_(options.seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(index) + 1) {
  const int np = view_.num_partitions();
  // Start each scheduler's next-fit cursors in different places so that
  // schedulers with the same view (StateSync) do not all chase node 0.
  for (int p = 0; p < np; ++p) view_.partition(p).cursor = static_cast<uint32_t>(rng_.Next());
  freshness_order_.resize(static_cast<size_t>(np));
  for (int p = 0; p < np; ++p) freshness_order_[static_cast<size_t>(p)] = p;
  step_.scheduler = index_;
  MutexLock lock(&metrics_mu_);
  metrics_.scheduler = index_;
}

Scheduler::~Scheduler() = default;

// ---- Inbox and outbox (any thread) ----

void Scheduler::Post(Message m, bool wake) {
  bool signal = false;
  {
    MutexLock lock(&inbox_mu_);
    inbox_.push_back(std::move(m));
    signal = wake && !urgent_;
    if (wake) urgent_ = true;
  }
  // Only the first waking message of a batch signals: WaitForWork does not
  // wait while one is queued, so later ones are drained with it. (Every
  // released container posted one; a signal each was a futex wake-up per
  // container under `spindle bench wire`.) Signalled after the unlock, so
  // that the woken owner does not block on inbox_mu_ at once.
  if (signal) inbox_cv_.Signal();
}

void Scheduler::AddApp(const AppSpec& spec) {
  {
    MutexLock lock(&outbox_mu_);
    outboxes_.try_emplace(spec.id);
  }
  Message m;
  m.kind = Message::Kind::kAddApp;
  m.spec = spec;
  Post(std::move(m));
}

std::vector<Placement> Scheduler::RemoveApp(AppId app) {
  std::vector<Placement> untaken;
  {
    MutexLock lock(&outbox_mu_);
    auto it = outboxes_.find(app);
    if (it != outboxes_.end()) {
      untaken = std::move(it->second.ready);
      outboxes_.erase(it);
    }
  }
  Message m;
  m.kind = Message::Kind::kRemoveApp;
  m.spec.id = app;
  Post(std::move(m));
  return untaken;
}

void Scheduler::UpdateApp(const AppSpec& spec) {
  {
    MutexLock lock(&outbox_mu_);
    auto it = outboxes_.find(spec.id);
    if (it != outboxes_.end()) {
      for (Placement& p : it->second.ready) {
        ctx_.queues->Move(p.queue, spec.queue, p.resource, p.user, p.label);
        p.queue = spec.queue;
      }
    }
  }
  Message m;
  m.kind = Message::Kind::kUpdateApp;
  m.spec = spec;
  Post(std::move(m));
}

void Scheduler::SetAsks(AppId app, std::vector<Ask> asks) {
  Message m;
  m.kind = Message::Kind::kSetAsks;
  m.spec.id = app;
  m.at = ctx_.clock->Now();
  m.taken.assign(asks.size(), 0);
  {
    MutexLock lock(&outbox_mu_);
    auto it = outboxes_.find(app);
    if (it != outboxes_.end()) {
      for (size_t i = 0; i < asks.size(); ++i) {
        const AskKey key = AskKey::Of(asks[i]);
        for (const auto& [k, n] : it->second.taken) {
          if (k == key) m.taken[i] = n;
        }
      }
    }
  }
  m.asks = std::move(asks);
  Post(std::move(m));
}

void Scheduler::SetBlacklist(AppId app, std::vector<NodeId> nodes, std::vector<RackId> racks) {
  Message m;
  m.kind = Message::Kind::kSetBlacklist;
  m.spec.id = app;
  m.nodes = std::move(nodes);
  m.racks = std::move(racks);
  Post(std::move(m));
}

namespace {

// A message about an app's usage (released, recovered, set).
template <typename Message>
Message UsageMessage(typename Message::Kind kind, AppId app, const Resource& amount) {
  Message m;
  m.kind = kind;
  m.spec.id = app;
  m.amount = amount;
  return m;
}

}  // namespace

void Scheduler::OnReleased(AppId app, const Resource& amount) {
  Post(UsageMessage<Message>(Message::Kind::kReleased, app, amount), /*wake=*/false);
}

void Scheduler::OnRecovered(AppId app, const Resource& amount) {
  Post(UsageMessage<Message>(Message::Kind::kRecovered, app, amount));
}

void Scheduler::SetUsage(AppId app, const Resource& used) {
  Post(UsageMessage<Message>(Message::Kind::kSetUsage, app, used));
}

void Scheduler::TakePlacements(AppId app, std::vector<Placement>* out) {
  MutexLock lock(&outbox_mu_);
  auto it = outboxes_.find(app);
  if (it == outboxes_.end()) return;
  Outbox& box = it->second;
  for (Placement& p : box.ready) {
    const AskKey key = p.key();
    bool found = false;
    for (auto& [k, n] : box.taken) {
      if (k == key) {
        ++n;
        found = true;
        break;
      }
    }
    if (!found) box.taken.emplace_back(key, 1);
    out->push_back(std::move(p));
  }
  box.ready.clear();
}

void Scheduler::WaitForWork(TimePoint deadline) {
  MutexLock lock(&inbox_mu_);
  while (!urgent_ && !woken_) {
    const TimePoint now = ctx_.clock->Now();
    if (now >= deadline) break;
    inbox_cv_.WaitFor(&inbox_mu_, deadline - now);
  }
  woken_ = false;
}

void Scheduler::Wake() {
  MutexLock lock(&inbox_mu_);
  woken_ = true;
  inbox_cv_.SignalAll();
}

SchedulerMetrics Scheduler::Metrics() const {
  MutexLock lock(&metrics_mu_);
  return metrics_;
}

std::vector<SeriesPoint> Scheduler::Series() const {
  MutexLock lock(&metrics_mu_);
  return series_;
}

// ---- The owner ----

void Scheduler::ProcessInbox() {
  std::vector<Message> mail;
  {
    MutexLock lock(&inbox_mu_);
    urgent_ = false;
    if (inbox_.empty()) return;
    mail.swap(inbox_);
  }
  for (Message& m : mail) {
    const AppId id = m.spec.id;
    auto it = apps_.find(id);
    switch (m.kind) {
      case Message::Kind::kAddApp: {
        if (it != apps_.end()) break;
        auto app = std::make_unique<AppState>();
        app->spec = m.spec;
        app->seq = next_app_seq_++;
        app_list_.push_back(app.get());
        AppState* added = app.get();
        apps_.emplace(id, std::move(app));
        // A held app's user may count at once. An app without asks has
        // nothing to withdraw: the pool may already have activated it for
        // asks this inbox holds (SchedulerPool::SetAsks).
        if (added->spec.held) SyncUserActivity(added);
        break;
      }
      case Message::Kind::kRemoveApp: {
        if (it == apps_.end()) break;
        backlog_ -= it->second->outstanding;
        it->second->outstanding = 0;
        it->second->spec.held = false;
        SyncUserActivity(it->second.get());
        app_list_.erase(std::find(app_list_.begin(), app_list_.end(), it->second.get()));
        apps_.erase(it);
        break;
      }
      case Message::Kind::kUpdateApp:
        // Commits from now on charge the new queue (the step that reserved
        // quota for the old one has finished: the inbox is read between steps).
        if (it != apps_.end()) {
          AppState* app = it->second.get();
          const int64_t outstanding = app->outstanding;
          if (m.spec.queue != app->spec.queue) {
            app->outstanding = 0;  // inactive in the old queue
            app->spec.held = false;
            SyncUserActivity(app);
          }
          app->spec.queue = m.spec.queue;
          app->spec.priority = m.spec.priority;
          app->spec.held = m.spec.held;
          app->outstanding = outstanding;
          SyncUserActivity(app);
        }
        break;
      case Message::Kind::kSetAsks:
        if (it != apps_.end()) ApplySetAsks(it->second.get(), m);
        break;
      case Message::Kind::kSetBlacklist:
        if (it != apps_.end()) {
          it->second->blacklist_nodes = std::move(m.nodes);
          it->second->blacklist_racks = std::move(m.racks);
        }
        break;
      case Message::Kind::kReleased:
        if (it != apps_.end()) {
          it->second->usage -= m.amount;
          it->second->usage = it->second->usage.Max(Resource());
        }
        break;
      case Message::Kind::kRecovered:
        if (it != apps_.end()) it->second->usage += m.amount;
        break;
      case Message::Kind::kSetUsage:
        if (it != apps_.end()) it->second->usage = m.amount;
        break;
    }
  }
}

void Scheduler::ApplySetAsks(AppState* app, const Message& m) {
  for (size_t i = 0; i < m.asks.size(); ++i) {
    const Ask& ask = m.asks[i];
    auto pos = std::lower_bound(app->asks.begin(), app->asks.end(), ask,
                                [](const AskState& s, const Ask& a) { return s.ask.KeyLess(a); });
    if (pos == app->asks.end() || !pos->ask.SameKey(ask)) {
      if (ask.count <= 0) continue;
      AskState fresh;
      fresh.ask = ask;
      pos = app->asks.insert(pos, std::move(fresh));
    }
    AskState& s = *pos;
    s.ask = ask;
    // The app's total does not know of placements it has not taken yet.
    const int64_t unseen = std::max<int64_t>(0, s.committed_total - m.taken[i]);
    const int64_t target = std::max<int64_t>(0, ask.count - unseen);
    if (target > s.outstanding) {
      s.arrivals.push_back(Arrival{m.at, target - s.outstanding});
    } else {
      int64_t drop = s.outstanding - target;
      while (drop > 0 && !s.arrivals.empty()) {
        Arrival& last = s.arrivals.back();
        const int64_t d = std::min(drop, last.count);
        last.count -= d;
        drop -= d;
        if (last.count == 0) s.arrivals.pop_back();
      }
    }
    const int64_t delta = target - s.outstanding;
    s.outstanding = target;
    app->outstanding += delta;
    backlog_ += delta;
  }
  SyncUserActivity(app);
}

void Scheduler::SyncUserActivity(AppState* app) {
  ReportDemand(*app, /*can_place=*/true);
  // An app held by the AM limit counts where the line says so.
  if (!app->spec.user.valid()) return;
  const bool active =
      app->outstanding > 0 || (app->spec.held && ctx_.queues->CountsHeldApps(app->spec.queue));
  // Said every time (the ledger keeps a set of active apps): the pool may
  // have activated the app when its asks arrived (SchedulerPool::SetAsks),
  // before this scheduler read them.
  ctx_.queues->SetAppActive(app->spec.queue, app->spec.user, app->spec.id, active);
}

bool Scheduler::MayHoldItsPlace(const AppState& app, TimePoint now) const {
  if (!app.none_fit) return true;
  // A monolithic scheduler's view is the master copy: no node fits now.
  const Duration round =
      ctx_.schedule->mode() == SyncMode::kMonolithic ? Duration::zero() : options_.sync_gap;
  return now - app.none_fit_since < round;
}

void Scheduler::ReportDemand(const AppState& app, bool can_place) {
  if (!ctx_.queues->OrdersPoolWide(app.spec.queue)) return;
  AppDemand d;
  d.app = app.spec.id;
  d.user = app.spec.user;
  d.priority = app.spec.priority;
  d.order = app.spec.order;
  d.used = app.usage;
  // A held app is not served (QuotaDrfPolicy), so it claims nothing; nor
  // does one whose asks found no node this step (LeafQueue skips an app a
  // node does not fit and offers the node to the next).
  if (can_place && !app.spec.held && app.outstanding > 0) {
    for (const AskState& ask : app.asks) {
      if (ask.ask.label != kDefaultLabel || ask.pending() <= 0) continue;
      if (d.pending == 0) d.unit = ask.ask.capability;
      d.pending += ask.pending();
    }
  }
  ctx_.queues->SetAppDemand(app.spec.queue, d);
}

void Scheduler::UpdateFreshnessOrder() {
  const int np = view_.num_partitions();
  const int n = std::max(1, options_.effective_schedulers());
  const int rotation = static_cast<int>(static_cast<int64_t>(index_) * np / n);
  // Once sorted, the order only needs the partitions synced since put in
  // their places (a step syncs a slice or two of them).
  if (freshness_sorted_) {
    view_.AdvanceFreshnessOrder(rotation, synced_now_, &freshness_order_);
  } else {
    view_.FreshnessOrder(rotation, &freshness_order_);
    freshness_sorted_ = true;
  }
}

int64_t Scheduler::SyncDue(TimePoint now) {
  const SyncSchedule& schedule = *ctx_.schedule;
  const int np = view_.num_partitions();
  int64_t synced = 0;
  synced_now_.clear();
  const auto sync = [&](int p) {
    const SyncInfo info = view_.Sync(*ctx_.cell, p, now);
    synced_now_.push_back(p);
    ++synced;
    if (info.full) ++step_.full_syncs;
  };
  const int64_t slot = schedule.SlotAt(now - ctx_.epoch);
  if (!synced_once_ || schedule.mode() == SyncMode::kMonolithic) {
    // The first step loads the whole view; a monolithic scheduler works on
    // the master copy, so it catches up before every step (cheaply: only
    // what changed since its last step is copied).
    for (int p = 0; p < np; ++p) sync(p);
    synced_once_ = true;
    last_slot_ = slot;
  } else if (slot > last_slot_) {
    // Every slot since the last step, at most one full round of slices.
    const int64_t from = std::max(last_slot_ + 1, slot - schedule.num_slices() + 1);
    for (int64_t s = from; s <= slot; ++s) {
      const PartitionRange range = schedule.RangeFor(index_, s);
      for (int p = range.first; p < range.end; ++p) sync(p);
    }
    last_slot_ = slot;
  }
  if (synced > 0) UpdateFreshnessOrder();
  step_.partition_syncs += synced;
  return synced;
}

TimePoint Scheduler::NextSyncTime(TimePoint now) const {
  if (ctx_.schedule->mode() == SyncMode::kMonolithic) return now + kMonolithicPoll;
  return ctx_.epoch + ctx_.schedule->SlotStart(last_slot_ + 1);
}

StepResult Scheduler::RunOnce(TimePoint now) {
  StepResult result;
  ProcessInbox();
  result.partitions_synced = SyncDue(now);
  result.next_sync = NextSyncTime(now);
  int64_t busy = 0;
  const TimePoint t0 = ctx_.clock->Now();
  // The clock stands still during a stamped step: its decisions start now
  // (or when the last step's ended, if a driver woke it earlier).
  if (StampsDecisions()) deciding_since_ = std::max(deciding_since_, t0);
  if (backlog_ > 0) {
    PlaceAndCommit(now, &result);
    busy = ((StampsDecisions() ? deciding_since_ : ctx_.clock->Now()) - t0).count();
  }
  result.decided_until = StampsDecisions() ? deciding_since_ : ctx_.clock->Now();
  result.backlog = backlog_;
  Account(now, result.partitions_synced, busy);
  return result;
}

void Scheduler::PlaceAndCommit(TimePoint now, StepResult* result) {
  const bool gang = options_.transaction == TransactionMode::kAllOrNothing;
  txn_.conflict = options_.conflict;
  txn_.mode = options_.transaction;
  PolicyInput input;
  input.apps = &app_list_;
  input.queues = ctx_.queues;
  input.capacity = ctx_.cell->Capacity();
  ctx_.queues->SetCellCapacity(input.capacity);
  input.may_borrow = ctx_.cell->labelled_nodes() > 0;
  StrategyContext sctx;
  sctx.view = &view_;
  sctx.rng = &rng_;
  sctx.now = now;
  sctx.freshness_order = &freshness_order_;

  for (int round = 0; round <= options_.max_retries; ++round) {
    if (options_.emulated_decision_cost.count() > 0 && !StampsDecisions()) {
      deciding_since_ = ctx_.clock->Now();
    }
    policy_->Begin(input);
    txn_.claims.clear();
    txn_.owners.clear();
    meta_.clear();
    int64_t budget = options_.max_tasks_per_step;
    int64_t conflicts = 0;
    PolicyPick pick;
    while (budget > 0 && policy_->Next(&pick)) {
      AskState& ask = *pick.ask;
      const Resource& unit = ask.ask.capability;
      const QueueId queue = pick.app->spec.queue;
      const UserId user = pick.app->spec.user;
      const LabelId label = ask.ask.label;
      const int64_t want = std::min(pick.max_tasks, budget);
      // The queue's share of the ask's own partition (and the user's limit
      // in the default one), reserved before choosing nodes.
      // In a queue ordered pool-wide, also what the apps the queue serves
      // first leave (QueueLedger::Reserve).
      const Reservation reserved =
          ctx_.queues->Reserve(queue, user, unit, want, label, pick.app->spec.id);
      const int64_t granted = reserved.granted;
      const PickBlock reserve_block = BlockOf(reserved.block);
      const bool borrows = MayBorrow(ask.ask);
      if (granted == 0 && !borrows) {
        // Not its turn (the room is the queue's max, its user's limit or
        // the apps served first): a "no node fits" episode does not run on
        // through it, so its next unplaced grant opens a fresh one with its
        // round of grace (see below). An episode left open while the cell
        // was full took the app out of its queue's order at the first
        // unplaced grant of its next wave, and the other queue's scheduler
        // that synced the freed nodes first took them all.
        pick.app->none_fit = false;
        policy_->Report(pick, 0, reserve_block);
        continue;
      }
      choices_.clear();
      int64_t placed = granted > 0 ? PlaceInPartition(*pick.app, ask.ask, granted, sctx) : 0;
      // 2.8+ non-exclusive partitions (IGNORE_PARTITION_EXCLUSIVITY): once
      // the ask's own partition has no room for it, idle resources of a
      // non-exclusive partition, up to the whole of it: neither the queue's
      // maximum nor the user limit applies there (3.3 getCurrentLimitResource
      // and UsersManager.computeUserLimit), and the container counts in the
      // node's partition.
      size_t own = choices_.size();
      if (borrows && placed < want) placed += PlaceLent(*pick.app, ask.ask, want - placed, sctx);
      if (gang && placed < granted) {
        // A gang goes whole or not at all: give the view back its nodes.
        for (size_t i = choices_.size(); i-- > 0;) view_.Unclaim(choices_[i].node, unit);
        choices_.clear();
        own = 0;
        placed = 0;
      }
      const auto own_placed = static_cast<int64_t>(own);
      // What the view has no node for stays claimed from the apps the queue
      // serves after it until the view has been synced whole (ParSync: one
      // round, G); then it is not (LeafQueue offers a node that does not
      // fit an app to the next). Any node found ends that state, whether
      // or not the whole grant fitted: an app that places again holds its
      // place again (its commit reports its demand).
      AppState& app = *pick.app;
      if (own_placed > 0) {
        app.none_fit = false;
      } else if (granted > 0 && !app.none_fit) {
        app.none_fit = true;
        app.none_fit_since = now;
      }
      if (own_placed < granted) {
        ctx_.queues->Release(queue, unit * (granted - own_placed), user, label);
        ReportDemand(app, MayHoldItsPlace(app, now));
      }
      for (size_t i = 0; i < choices_.size(); ++i) {
        const Choice& c = choices_[i];
        const NodeState* seen = view_.Find(c.node);
        const LabelId node_label = seen != nullptr ? seen->label : kDefaultLabel;
        if (i >= own) ctx_.queues->ForceCharge(queue, unit, UserId(), node_label);
        txn_.claims.push_back(Claim{c.node, unit, c.seen_version, node_label});
        if (records_owners_) {
          txn_.owners.push_back(
              ClaimOwner{pick.app->spec.id, ask.ask.priority, ask.ask.allocation_request_id,
                         static_cast<uint8_t>(c.locality), IsPreferred(ask.ask, c.locality)});
        }
        meta_.push_back(ClaimMeta{pick.app, pick.ask, c.locality});
      }
      ask.in_flight += placed;
      budget -= placed;
      PickBlock block = PickBlock::kNone;
      if (placed < want) {
        block = (granted < want && placed == granted) ? reserve_block : PickBlock::kNoFit;
      }
      policy_->Report(pick, placed, block);
      if (gang && placed > 0) conflicts += CommitPending(result);
    }
    if (!txn_.claims.empty()) conflicts += CommitPending(result);
    if (conflicts == 0) break;
  }
}

bool Scheduler::MayBorrow(const Ask& ask) const {
  // 2.8+ RegularContainerAllocator: only default-partition asks, never an
  // AM container, and only while some node is labelled.
  return ask.label == kDefaultLabel && !ask.am_container && ctx_.cell->labelled_nodes() > 0;
}

int64_t Scheduler::PlaceInPartition(const AppState& app, const Ask& ask, int64_t count,
                                    StrategyContext& sctx) {
  // Labels not in use (no labelled node, a default-partition ask): nothing
  // to hide beyond the blacklist.
  const bool partitioned = ask.label != kDefaultLabel || ctx_.cell->labelled_nodes() > 0;
  const bool blacklisted = !app.blacklist_nodes.empty() || !app.blacklist_racks.empty();
  if (blacklisted) HideBlacklist(app);
  if (partitioned) HideOtherPartitions(ask.label, /*lent=*/false);
  const int64_t placed = PlaceWithLocality(ask, count, strategy_.get(), sctx, &choices_);
  if (blacklisted || partitioned) view_.UnhideAll();
  return placed;
}

int64_t Scheduler::PlaceLent(const AppState& app, const Ask& ask, int64_t count,
                             StrategyContext& sctx) {
  // "Non-partitioned resource request should be scheduled to non-partitioned
  // partition first" (RegularContainerAllocator): the caller tried the
  // default partition already; lent only while no ask of the partition
  // waits.
  const bool blacklisted = !app.blacklist_nodes.empty() || !app.blacklist_racks.empty();
  if (blacklisted) HideBlacklist(app);
  HideOtherPartitions(kDefaultLabel, /*lent=*/true);
  const int64_t placed = PlaceWithLocality(ask, count, strategy_.get(), sctx, &choices_);
  view_.UnhideAll();
  return placed;
}

void Scheduler::HideBlacklist(const AppState& app) {
  for (NodeId n : app.blacklist_nodes) view_.Hide(n);
  for (RackId r : app.blacklist_racks) {
    for (NodeId n : view_.NodesInRack(r)) view_.Hide(n);
  }
}

void Scheduler::HideOtherPartitions(LabelId label, bool lent) {
  for (int p = 0; p < view_.num_partitions(); ++p) {
    const std::vector<NodeState>& nodes = view_.partition(p).nodes;
    for (size_t slot = 0; slot < nodes.size(); ++slot) {
      const LabelId node_label = nodes[slot].label;
      const bool usable = lent ? ctx_.labels->Lends(node_label) : node_label == label;
      if (!usable) view_.Hide(NodeId(static_cast<uint32_t>(p), static_cast<uint32_t>(slot)));
    }
  }
}

void Scheduler::PaceDecisions(size_t decisions) {
  if (options_.emulated_decision_cost.count() <= 0 || decisions == 0) return;
  const double factor = strategy_->active() == StrategyKind::kQualityFirst
                            ? options_.emulated_quality_cost_factor
                            : 1.0;
  const auto cost = std::chrono::duration_cast<Duration>(options_.emulated_decision_cost *
                                                         (factor * static_cast<double>(decisions)));
  if (StampsDecisions()) {
    deciding_since_ += cost;
    return;
  }
  std::this_thread::sleep_until(deciding_since_ + cost);
}

int64_t Scheduler::CommitPending(StepResult* result) {
  PaceDecisions(txn_.claims.size());
  ctx_.cell->Commit(txn_, &commit_);
  ++step_.transactions;
  const TimePoint committed_at =
      StampsDecisions() ? std::max(deciding_since_, ctx_.clock->Now()) : ctx_.clock->Now();
  deciding_since_ = committed_at;
  int64_t conflicts = 0;
  // Quota reserved for refused claims goes back, one ledger call per run of
  // claims of one queue and user.
  QueueId refund_queue;
  UserId refund_user;
  LabelId refund_label = kDefaultLabel;
  Resource refund;
  for (size_t i = 0; i < txn_.claims.size(); ++i) {
    const Claim& c = txn_.claims[i];
    const ClaimMeta& m = meta_[i];
    AskState& ask = *m.ask;
    --ask.in_flight;
    if (commit_.outcomes[i] != ClaimOutcome::kCommitted) {
      ++conflicts;
      if (refund_queue.valid() && (refund_queue != m.app->spec.queue ||
                                   refund_user != m.app->spec.user || refund_label != c.label)) {
        ctx_.queues->Release(refund_queue, refund, refund_user, refund_label);
        refund = Resource();
      }
      refund_queue = m.app->spec.queue;
      refund_user = m.app->spec.user;
      refund_label = c.label;
      refund += c.resource;
      continue;
    }
    --ask.outstanding;
    ++ask.committed_total;
    if (--m.app->outstanding == 0) SyncUserActivity(m.app);
    --backlog_;
    m.app->usage += c.resource;
    TimePoint asked_at = committed_at;
    if (!ask.arrivals.empty()) {
      Arrival& front = ask.arrivals.front();
      asked_at = front.at;
      if (--front.count == 0) ask.arrivals.pop_front();
    }
    Placement p;
    p.id = (static_cast<uint64_t>(index_) << 44) | next_placement_++;
    p.app = m.app->spec.id;
    p.queue = m.app->spec.queue;
    p.user = m.app->spec.user;
    p.node = c.node;
    p.label = c.label;
    p.resource = c.resource;
    p.priority = ask.ask.priority;
    p.allocation_request_id = ask.ask.allocation_request_id;
    p.locality = m.locality;
    p.preferred = IsPreferred(ask.ask, m.locality);
    p.asked_at = asked_at;
    p.committed_at = committed_at;
    const Duration delay = committed_at - asked_at;
    delays_.push_back(delay.count());
    strategy_->ObserveDelay(delay);
    if (!ask.ask.nodes.empty() || !ask.ask.racks.empty()) {
      ++step_.with_preference;
      step_.preferred += p.preferred;
    }
    if (const NodeState* n = view_.Find(c.node)) step_.score_sum += n->score;
    committed_.push_back(p);
  }
  if (refund_queue.valid()) ctx_.queues->Release(refund_queue, refund, refund_user, refund_label);
  // The ledger's picture of the apps' demand: what was refused is wanted
  // again, what was committed is held.
  const AppState* reported = nullptr;
  for (const ClaimMeta& m : meta_) {
    if (m.app == reported) continue;
    reported = m.app;
    ReportDemand(*m.app, MayHoldItsPlace(*m.app, committed_at));
  }
  for (const auto& [node, state] : commit_.refreshed) view_.Refresh(node, state);
  step_.placements += commit_.committed;
  step_.conflicts += conflicts;
  result->placed += commit_.committed;
  result->conflicts += conflicts;
  txn_.claims.clear();
  txn_.owners.clear();
  meta_.clear();
  Deliver();
  return conflicts;
}

void Scheduler::Deliver() {
  if (committed_.empty()) return;
  to_release_.clear();
  {
    MutexLock lock(&outbox_mu_);
    AppId last;
    Outbox* box = nullptr;
    for (Placement& p : committed_) {
      if (!last.valid() || p.app != last) {
        auto it = outboxes_.find(p.app);
        box = it == outboxes_.end() ? nullptr : &it->second;
        last = p.app;
      }
      if (box != nullptr) {
        box->ready.push_back(p);
      } else {
        to_release_.push_back(p);  // the app is gone
      }
    }
  }
  committed_.clear();
  for (const Placement& p : to_release_) {
    ctx_.cell->Release(p.node, p.resource).PermitUnchecked();
    ctx_.queues->Release(p.queue, p.resource, p.user, p.label);
    auto it = apps_.find(p.app);
    if (it != apps_.end()) it->second->usage -= p.resource;
  }
}

void Scheduler::Account(TimePoint now, int64_t synced, int64_t busy_nanos) {
  (void)synced;
  const double staleness_ms =
      std::chrono::duration<double, std::milli>(view_.AverageStaleness(now)).count();
  step_.steps += 1;
  step_.busy_nanos += busy_nanos;
  step_.staleness_sum_ms += staleness_ms;
  step_.staleness_samples += 1;
  step_.max_staleness_ms = std::max(step_.max_staleness_ms, staleness_ms);

  // The time series: close the previous second when a new one starts.
  const int64_t second = (now - ctx_.epoch) / kSecond;
  if (cur_second_ >= 0 && second != cur_second_) CloseSecond(second);
  if (cur_second_ != second) {
    cur_second_ = second;
    cur_report_ = SecondReport();
    cur_report_.second = second;
    cur_delay_.Clear();
  }
  for (int64_t d : delays_) cur_delay_.RecordNanos(static_cast<uint64_t>(d));
  cur_report_.placements += step_.placements;
  cur_report_.conflicts += step_.conflicts;
  cur_report_.with_preference += step_.with_preference;
  cur_report_.preferred += step_.preferred;
  cur_report_.staleness_sum_ms += staleness_ms;
  cur_report_.staleness_samples += 1;
  cur_report_.backlog = backlog_;

  MutexLock lock(&metrics_mu_);
  for (int64_t d : delays_) metrics_.delay.RecordNanos(static_cast<uint64_t>(d));
  delays_.clear();
  metrics_.steps += step_.steps;
  metrics_.placements += step_.placements;
  metrics_.conflicts += step_.conflicts;
  metrics_.transactions += step_.transactions;
  metrics_.partition_syncs += step_.partition_syncs;
  metrics_.full_syncs += step_.full_syncs;
  metrics_.with_preference += step_.with_preference;
  metrics_.preferred += step_.preferred;
  metrics_.score_sum += step_.score_sum;
  metrics_.busy_nanos += step_.busy_nanos;
  metrics_.staleness_sum_ms += step_.staleness_sum_ms;
  metrics_.staleness_samples += step_.staleness_samples;
  metrics_.max_staleness_ms = std::max(metrics_.max_staleness_ms, step_.max_staleness_ms);
  metrics_.backlog = backlog_;
  metrics_.active_strategy = strategy_->active();
  const int scheduler = step_.scheduler;
  step_ = SchedulerMetrics();
  step_.scheduler = scheduler;
}

void Scheduler::CloseSecond(int64_t next_second) {
  (void)next_second;
  cur_report_.utilisation = ctx_.cell->Utilisation();
  cur_report_.delay = &cur_delay_;
  if (ctx_.series != nullptr) ctx_.series->Add(cur_report_);
  SeriesPoint p;
  p.second = cur_report_.second;
  p.placements = cur_report_.placements;
  p.conflicts = cur_report_.conflicts;
  p.delay_p50 = cur_delay_.Percentile(0.50);
  p.delay_p90 = cur_delay_.Percentile(0.90);
  p.delay_p99 = cur_delay_.Percentile(0.99);
  p.backlog = cur_report_.backlog;
  p.mean_staleness_ms =
      cur_report_.staleness_samples == 0
          ? 0
          : cur_report_.staleness_sum_ms / static_cast<double>(cur_report_.staleness_samples);
  p.utilisation = cur_report_.utilisation;
  p.quality = cur_report_.with_preference == 0
                  ? 0
                  : static_cast<double>(cur_report_.preferred) / cur_report_.with_preference;
  MutexLock lock(&metrics_mu_);
  series_.push_back(p);
  if (series_.size() > static_cast<size_t>(options_.series_seconds)) {
    series_.erase(series_.begin());
  }
}

}  // namespace spindle::pool
