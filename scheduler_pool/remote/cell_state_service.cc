#include "scheduler_pool/remote/cell_state_service.h"

#include <glog/logging.h>

#include <algorithm>
#include <utility>

namespace spindle::pool::remote {

namespace {

// Placement ids of the service: bit 62 set, so they never meet the pool's
// (scheduler index << 44 | sequence) or its recovered ones (bit 63).
constexpr uint64_t kServicePlacementBit = uint64_t{1} << 62;

AskKey KeyOf(const Ask& a) { return AskKey::Of(a); }

bool ValidClaimResource(const Resource& r) {
  bool positive = false;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (r.Get(i) < 0) return false;
    positive |= r.Get(i) > 0;
  }
  return positive;
}

}  // namespace

CellStateService::CellStateService(CellState* cell, QueueLedger* queues, const Clock* clock,
                                   const CellStateServiceOptions& options)
    : cell_(cell),
      queues_(queues),
      clock_(clock),
      lease_(options.lease),
      epoch_(options.epoch != 0 ? options.epoch : std::max<int64_t>(1, clock->WallMillis())) {}

// ---- Membership ----

Result<JoinInfo> CellStateService::Join(const std::string& name) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  const int64_t id = next_member_++;
  Member& m = members_[id];
  m.name = name;
  m.deadline = clock_->Now() + lease_;
  ++counters_.joins;
  // Apps nobody serves (no member was alive) go to the newcomer.
  for (auto& [app_id, app] : apps_) {
    if (app.owner == 0) Assign(&app, id);
  }
  LOG(INFO) << "cell-state service: member " << id << " (" << name << ") joined";
  JoinInfo info;
  info.token = MemberToken{id, epoch_};
  info.lease = lease_;
  info.num_partitions = cell_->num_partitions();
  // The generation first: specs changed after it are sent again.
  info.queues_generation = queues_->generation();
  info.queues = MemberQueues();
  return info;
}

std::vector<MemberQueue> CellStateService::MemberQueues() const {
  std::vector<MemberQueue> out;
  for (int q = 0; q < queues_->size(); ++q) {
    const QueueSpec spec = queues_->Snapshot(QueueId(static_cast<uint32_t>(q))).spec;
    out.push_back(MemberQueue{spec.name, spec.ordering, spec.fair_size_based_weight});
  }
  return out;
}

Status CellStateService::Renew(const MemberToken& token, const MemberReport& report) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  ASSIGN_OR_RETURN(Member * m, Find(token));
  m->deadline = clock_->Now() + lease_;
  m->report = report;
  return Status::OK();
}

Status CellStateService::Leave(const MemberToken& token) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  RETURN_NOT_OK(Find(token).status());
  const int moved = DropMember(token.member);
  LOG(INFO) << "cell-state service: member " << token.member << " left; its " << moved
            << " application(s) go to the others";
  return Status::OK();
}

void CellStateService::ExpireLeases() {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
}

void CellStateService::ExpireLocked(TimePoint now) {
  std::vector<int64_t> lapsed;
  for (const auto& [id, m] : members_) {
    if (now >= m.deadline) lapsed.push_back(id);
  }
  for (int64_t id : lapsed) {
    const std::string name = members_[id].name;
    ++counters_.leases_expired;
    const int moved = DropMember(id);
    LOG(WARNING) << "cell-state service: member " << id << " (" << name
                 << ") did not renew its lease; its " << moved
                 << " application(s) go to the others";
  }
}

int CellStateService::DropMember(int64_t member) {
  members_.erase(member);
  int moved = 0;
  for (auto& [id, app] : apps_) {
    if (app.owner != member) continue;
    ++counters_.apps_reassigned;
    ++moved;
    Assign(&app, LeastLoaded(member));
  }
  return moved;
}

Result<CellStateService::Member*> CellStateService::Find(const MemberToken& token) {
  if (token.epoch != epoch_) {
    return Status::Aborted("member token of another cell-state service epoch (" +
                           std::to_string(token.epoch) + ", now " + std::to_string(epoch_) + ")");
  }
  auto it = members_.find(token.member);
  if (it == members_.end()) {
    return Status::Aborted("member " + std::to_string(token.member) +
                           ": lease expired or left; join again");
  }
  return &it->second;
}

int64_t CellStateService::LeastLoaded(int64_t except) const {
  int64_t best = 0;
  int best_apps = 0;
  for (const auto& [id, m] : members_) {
    if (id == except) continue;
    if (best == 0 || m.apps < best_apps) {
      best = id;
      best_apps = m.apps;
    }
  }
  return best;
}

void CellStateService::Assign(App* app, int64_t member) {
  if (app->owner != 0) {
    auto it = members_.find(app->owner);
    if (it != members_.end()) {
      --it->second.apps;
      it->second.removed.emplace_back(board_version_ + 1, app->spec.id);
    }
  }
  app->owner = member;
  app->version = ++board_version_;
  if (member != 0) ++members_[member].apps;
}

int64_t CellStateService::Forwarded(const KeyState& k) {
  return std::max<int64_t>(0, k.ask.count - k.untaken - k.taken_since);
}

// ---- Sync and commit ----

Status CellStateService::Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
                              std::vector<PartitionSlice>* slices, CellFigures* figures) {
  {
    MutexLock lock(&mu_);
    ExpireLocked(clock_->Now());
    RETURN_NOT_OK(Find(token).status());
  }
  // A stale member's sync is harmless: it reads only.
  for (const PartitionWant& w : wants) {
    if (w.partition < 0 || w.partition >= cell_->num_partitions()) {
      return Status::InvalidArgument("sync: no partition " + std::to_string(w.partition));
    }
  }
  slices->clear();
  for (const PartitionWant& w : wants) {
    PartitionSlice& s = slices->emplace_back();
    s.partition = w.partition;
    s.info = cell_->ChangesSince(w.partition, w.have_copy, w.since_version, w.copy_size, &s.nodes,
                                 &s.changes);
    // The partition's size as the slice leaves the copy.
    uint32_t size = s.info.full ? static_cast<uint32_t>(s.nodes.size()) : w.copy_size;
    for (const auto& [slot, state] : s.changes) size = std::max(size, slot + 1);
    s.node_count = size;
  }
  figures->capacity = cell_->Capacity();
  figures->labelled_nodes = cell_->labelled_nodes();
  figures->utilisation = cell_->Utilisation();
  return Status::OK();
}

Status CellStateService::Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                                CommitResult* result) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  Result<Member*> found = Find(token);
  if (!found.ok()) {
    ++counters_.commits_refused;
    return found.status();
  }
  Member* m = *found;
  if (seq == m->last_seq && seq != 0) {
    ++counters_.commits_replayed;
    result->outcomes = m->last_result.outcomes;
    result->refreshed = m->last_result.refreshed;
    result->committed = m->last_result.committed;
    result->conflicted = m->last_result.conflicted;
    return Status::OK();
  }
  if (seq < m->last_seq || seq == 0) {
    ++counters_.commits_refused;
    return Status::Aborted("stale commit " + std::to_string(seq) + " (member " +
                           std::to_string(token.member) + " is at " + std::to_string(m->last_seq) +
                           ")");
  }
  if (txn.owners.size() != txn.claims.size()) {
    ++counters_.commits_refused;
    return Status::InvalidArgument("commit: " + std::to_string(txn.claims.size()) + " claims but " +
                                   std::to_string(txn.owners.size()) + " owners");
  }
  for (const Claim& c : txn.claims) {
    if (!ValidClaimResource(c.resource)) {
      ++counters_.commits_refused;
      return Status::InvalidArgument("commit: a claim's resource must be positive");
    }
  }
  CommitLocked(token.member, txn, result);
  ++counters_.commits;
  m->last_seq = seq;
  m->last_result.outcomes = result->outcomes;
  m->last_result.refreshed = result->refreshed;
  m->last_result.committed = result->committed;
  m->last_result.conflicted = result->conflicted;
  // A commit is progress: it renews the lease as a Renew would.
  m->deadline = clock_->Now() + lease_;
  return Status::OK();
}

void CellStateService::CommitLocked(int64_t me, const Transaction& txn, CommitResult* result) {
  const size_t n = txn.claims.size();
  result->outcomes.assign(n, ClaimOutcome::kAborted);
  result->refreshed.clear();
  result->committed = 0;
  result->conflicted = 0;
  sub_.conflict = txn.conflict;
  sub_.mode = txn.mode;
  sub_.claims.clear();
  sub_.owners.clear();
  sub_index_.clear();
  charges_.assign(n, Charge{});
  // Claims for apps not pinned to this member (moved away, removed) are
  // refused.
  bool refused = false;
  for (size_t i = 0; i < n; ++i) {
    auto it = apps_.find(txn.owners[i].app);
    if (it == apps_.end() || it->second.owner != me) refused = true;
  }
  // The pool's queue rules, met where an in-process scheduler meets them
  // (Scheduler::PlaceAndCommit reserves before it chooses nodes): the claim
  // is reserved in the pool's ledger (QueueLedger::Reserve: the queue's
  // maximum in the claim's partition, the user's limit, the queue's
  // pool-wide order) before the cell state sees it, and a claim the ledger
  // does not grant is refused (kAborted) as one the cell refuses is. A
  // member's own ledger knows the queue names only, so this is the check.
  // One Reserve per run of claims of one app, resource and partition.
  for (size_t i = 0; i < n;) {
    auto it = apps_.find(txn.owners[i].app);
    if (it == apps_.end() || it->second.owner != me) {
      ++i;
      continue;
    }
    App& app = it->second;
    const Claim& c = txn.claims[i];
    size_t j = i + 1;
    while (j < n && txn.owners[j].app == txn.owners[i].app &&
           txn.claims[j].resource == c.resource && txn.claims[j].label == c.label) {
      ++j;
    }
    const auto run = static_cast<int64_t>(j - i);
    // The ask's own partition: a default-partition ask placed on a
    // non-exclusive partition's idle node borrows it, which no queue
    // maximum nor user limit limits (2.8+ IGNORE_PARTITION_EXCLUSIVITY;
    // Scheduler::PlaceLent charges it unchecked too).
    const AskKey key{txn.owners[i].priority, txn.owners[i].allocation_request_id, c.resource};
    LabelId ask_label = c.label;
    for (const KeyState& k : app.keys) {
      if (KeyOf(k.ask) == key) ask_label = k.ask.label;
    }
    int64_t granted = run;
    UserId user = app.spec.user;
    if (ask_label == kDefaultLabel && c.label != kDefaultLabel) {
      queues_->ForceCharge(app.spec.queue, c.resource * run, UserId(), c.label);
      user = UserId();
    } else {
      granted =
          queues_->Reserve(app.spec.queue, user, c.resource, run, c.label, app.spec.id).granted;
    }
    for (size_t k = i; k < j; ++k) {
      if (static_cast<int64_t>(k - i) >= granted) {
        refused = true;
        ++counters_.claims_refused_by_queue;
        continue;
      }
      charges_[k] = Charge{true, app.spec.queue, user};
    }
    i = j;
  }
  // A gang with a refused claim cannot go whole: none of it is applied.
  const bool gang = txn.mode == TransactionMode::kAllOrNothing;
  for (size_t i = 0; i < n; ++i) {
    if (!charges_[i].reserved) continue;
    if (gang && refused) continue;
    sub_.claims.push_back(txn.claims[i]);
    sub_index_.push_back(i);
  }
  if (!sub_.claims.empty()) {
    cell_->Commit(sub_, &sub_result_);
    for (size_t j = 0; j < sub_index_.size(); ++j) {
      result->outcomes[sub_index_[j]] = sub_result_.outcomes[j];
    }
    result->refreshed = sub_result_.refreshed;
  }
  // A claim the service refused itself (the ledger's, or an app pinned
  // elsewhere) never reached the cell state, which reports no node for it:
  // its node goes back to the member as the master holds it, or the
  // member's view keeps the claim and a DiffSync, which sends only nodes
  // changed since the member's version, never clears it.
  for (size_t i = 0; i < n; ++i) {
    if (result->outcomes[i] == ClaimOutcome::kCommitted) continue;
    const NodeId node = txn.claims[i].node;
    const bool known = std::any_of(result->refreshed.begin(), result->refreshed.end(),
                                   [node](const auto& r) { return r.first == node; });
    if (known) continue;
    Result<NodeState> state = cell_->GetNode(node);
    if (state.ok()) result->refreshed.emplace_back(node, *state);
  }
  const TimePoint now = clock_->Now();
  for (size_t i = 0; i < n; ++i) {
    const Claim& c = txn.claims[i];
    if (result->outcomes[i] != ClaimOutcome::kCommitted) {
      ++result->conflicted;
      // What the ledger reserved for it goes back.
      const Charge& charge = charges_[i];
      if (charge.reserved) queues_->Release(charge.queue, c.resource, charge.user, c.label);
      continue;
    }
    ++result->committed;
    const ClaimOwner& o = txn.owners[i];
    App& app = apps_.at(o.app);
    Placement p;
    p.id = kServicePlacementBit | next_placement_++;
    p.app = o.app;
    p.queue = app.spec.queue;
    p.user = app.spec.user;
    p.node = c.node;
    p.label = c.label;
    p.resource = c.resource;
    p.priority = o.priority;
    p.allocation_request_id = o.allocation_request_id;
    p.locality = static_cast<Locality>(std::min<uint8_t>(o.locality, 2));
    p.preferred = o.preferred;
    p.asked_at = app.asked_at;
    p.committed_at = now;
    const AskKey key = p.key();
    for (KeyState& k : app.keys) {
      if (KeyOf(k.ask) == key) ++k.untaken;
    }
    // Its reservation in the pool's ledger is now its usage.
    app.usage += c.resource;
    app.outbox.push_back(p);
  }
  // The ledger's picture of the apps: what is still wanted, who is active.
  AppId last;
  for (size_t i = 0; i < n; ++i) {
    if (txn.owners[i].app == last) continue;
    last = txn.owners[i].app;
    auto it = apps_.find(last);
    if (it != apps_.end()) ReportToLedger(it->second);
  }
}

int64_t CellStateService::Wanted(const App& app, bool default_label_only, Resource* unit) {
  int64_t wanted = 0;
  for (const KeyState& k : app.keys) {
    const int64_t left = std::max<int64_t>(0, k.ask.count - k.untaken - k.taken_since);
    if (left == 0 || (default_label_only && k.ask.label != kDefaultLabel)) continue;
    if (wanted == 0 && unit != nullptr) *unit = k.ask.capability;
    wanted += left;
  }
  return wanted;
}

void CellStateService::ReportToLedger(const App& app) {
  const AppSpec& spec = app.spec;
  // As Scheduler::SyncUserActivity: the user is active while the app asks
  // (or is held where the queue's line counts held apps).
  if (spec.user.valid()) {
    const bool active =
        Wanted(app, false, nullptr) > 0 || (spec.held && queues_->CountsHeldApps(spec.queue));
    queues_->SetAppActive(spec.queue, spec.user, spec.id, active);
  }
  // As Scheduler::ReportDemand: the app's place in its queue's pool-wide
  // order, with what it still asks for in the default partition.
  if (!queues_->OrdersPoolWide(spec.queue)) return;
  AppDemand d;
  d.app = spec.id;
  d.user = spec.user;
  d.priority = spec.priority;
  d.order = spec.order;
  d.used = app.usage;
  if (!spec.held) d.pending = Wanted(app, true, &d.unit);
  queues_->SetAppDemand(spec.queue, d);
}

void CellStateService::Forget(const App& app) {
  const AppSpec& spec = app.spec;
  if (spec.user.valid()) queues_->SetAppActive(spec.queue, spec.user, spec.id, false);
  if (queues_->OrdersPoolWide(spec.queue)) {
    AppDemand d;
    d.app = spec.id;
    d.user = spec.user;
    queues_->SetAppDemand(spec.queue, d);  // pending 0: forgotten
  }
}

void CellStateService::OnReleased(AppId app, const Resource& amount) {
  MutexLock lock(&mu_);
  auto it = apps_.find(app);
  if (it == apps_.end()) return;
  App& entry = it->second;
  entry.usage = (entry.usage - amount).Max(Resource());
  // The app's place in a fair-ordered queue moved: its owner orders it by
  // this figure (AssignedApp::used), as the ledger does.
  if (entry.owner != 0 && queues_->Contains(entry.spec.queue) &&
      queues_->Snapshot(entry.spec.queue).spec.ordering == QueueOrdering::kFair) {
    entry.version = ++board_version_;
  }
}

// ---- The board ----

Result<Assignments> CellStateService::AssignmentsSince(const MemberToken& token, uint64_t since,
                                                       uint64_t queues_since) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  ASSIGN_OR_RETURN(Member * m, Find(token));
  Assignments out;
  out.version = board_version_;
  const uint64_t generation = queues_->generation();
  if (generation != queues_since) {
    out.queues_changed = true;
    out.queues_generation = generation;
    out.queues = MemberQueues();
  }
  for (const auto& [id, app] : apps_) {
    if (app.owner != token.member || app.version <= since) continue;
    AssignedApp& a = out.apps.emplace_back();
    a.spec = app.spec;
    for (const KeyState& k : app.keys) {
      Ask ask = k.ask;
      ask.count = Forwarded(k);
      a.asks.push_back(std::move(ask));
    }
    a.used = app.usage;
    a.blacklist_nodes = app.blacklist_nodes;
    a.blacklist_racks = app.blacklist_racks;
  }
  for (const auto& [version, app] : m->removed) {
    if (version > since) out.removed.push_back(app);
  }
  // What every later call is past can be forgotten.
  std::erase_if(m->removed, [&](const auto& r) { return r.first <= since; });
  return out;
}

Status CellStateService::AddApp(const AppSpec& spec) {
  if (!spec.id.valid()) return Status::InvalidArgument("invalid application id");
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  auto [it, added] = apps_.try_emplace(spec.id);
  if (!added) {
    return Status::AlreadyExists("application " + std::to_string(spec.id.value()) +
                                 " already added");
  }
  it->second.spec = spec;
  it->second.asked_at = clock_->Now();
  Assign(&it->second, LeastLoaded(0));
  return Status::OK();
}

Status CellStateService::SetAsks(AppId app, const std::vector<Ask>& asks) {
  for (const Ask& a : asks) {
    if (a.count < 0) return Status::InvalidArgument("ask with a negative count");
    if (a.capability.AnyNegative() || (a.count > 0 && a.capability.IsZero())) {
      return Status::InvalidArgument("ask capability must be positive: " + a.capability.ToString());
    }
  }
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  App& entry = it->second;
  for (const Ask& a : asks) {
    auto k = std::find_if(entry.keys.begin(), entry.keys.end(),
                          [&](const KeyState& s) { return s.ask.SameKey(a); });
    if (k == entry.keys.end()) {
      k = entry.keys.insert(entry.keys.end(), KeyState{});
    }
    k->ask = a;
    // The RM's new total counts what it handed the app so far.
    k->taken_since = 0;
  }
  entry.asked_at = clock_->Now();
  entry.version = ++board_version_;
  ReportToLedger(entry);
  return Status::OK();
}

Status CellStateService::UpdateApp(const AppSpec& spec) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  auto it = apps_.find(spec.id);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(spec.id.value()) + " not found");
  }
  App& entry = it->second;
  for (Placement& p : entry.outbox) {
    queues_->Move(p.queue, spec.queue, p.resource, p.user, p.label);
    p.queue = spec.queue;
  }
  if (entry.spec.queue != spec.queue) Forget(entry);
  entry.spec.queue = spec.queue;
  entry.spec.priority = spec.priority;
  entry.spec.held = spec.held;
  entry.version = ++board_version_;
  ReportToLedger(entry);
  return Status::OK();
}

Status CellStateService::SetBlacklist(AppId app, std::vector<NodeId> nodes,
                                      std::vector<RackId> racks) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  it->second.blacklist_nodes = std::move(nodes);
  it->second.blacklist_racks = std::move(racks);
  it->second.version = ++board_version_;
  return Status::OK();
}

Status CellStateService::RemoveApp(AppId app, std::vector<Placement>* untaken) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  Assign(&it->second, 0);
  Forget(it->second);
  untaken->insert(untaken->end(), it->second.outbox.begin(), it->second.outbox.end());
  apps_.erase(it);
  return Status::OK();
}

Status CellStateService::TakePlacements(AppId app, std::vector<Placement>* out) {
  MutexLock lock(&mu_);
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  App& entry = it->second;
  for (const Placement& p : entry.outbox) {
    const AskKey key = p.key();
    for (KeyState& k : entry.keys) {
      if (KeyOf(k.ask) == key) {
        --k.untaken;
        ++k.taken_since;
      }
    }
    out->push_back(p);
  }
  entry.outbox.clear();
  return Status::OK();
}

Result<int64_t> CellStateService::OwnerOf(AppId app) const {
  MutexLock lock(&mu_);
  auto it = apps_.find(app);
  if (it == apps_.end()) {
    return Status::NotFound("application " + std::to_string(app.value()) + " not found");
  }
  return it->second.owner;
}

ServiceMetrics CellStateService::Metrics() const {
  MutexLock lock(&mu_);
  ServiceMetrics out = counters_;
  out.members.clear();
  for (const auto& [id, m] : members_) {
    out.members.push_back(MemberStatus{id, m.name, m.apps, m.report});
  }
  return out;
}

}  // namespace spindle::pool::remote
