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
  for (int q = 0; q < queues_->size(); ++q) {
    info.queues.push_back(queues_->Snapshot(QueueId(static_cast<uint32_t>(q))).spec.name);
  }
  return info;
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
  LOG(INFO) << "cell-state service: member " << token.member << " left";
  DropMember(token.member);
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
    LOG(WARNING) << "cell-state service: member " << id << " (" << members_[id].name
                 << ") did not renew its lease; its applications go to the others";
    ++counters_.leases_expired;
    DropMember(id);
  }
}

void CellStateService::DropMember(int64_t member) {
  members_.erase(member);
  for (auto& [id, app] : apps_) {
    if (app.owner != member) continue;
    ++counters_.apps_reassigned;
    Assign(&app, LeastLoaded(member));
  }
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
  Forward(app);
}

void CellStateService::Forward(App* app) {
  for (KeyState& k : app->keys) {
    k.forwarded = std::max<int64_t>(0, k.ask.count - k.untaken - k.taken_since);
  }
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
  // Claims for apps not pinned to this member (moved away, removed) are
  // refused; the rest go to the cell state as one transaction.
  sub_.conflict = txn.conflict;
  sub_.mode = txn.mode;
  sub_.claims.clear();
  sub_.owners.clear();
  sub_index_.clear();
  bool foreign = false;
  for (size_t i = 0; i < n; ++i) {
    auto it = apps_.find(txn.owners[i].app);
    if (it == apps_.end() || it->second.owner != me) {
      foreign = true;
      continue;
    }
    sub_.claims.push_back(txn.claims[i]);
    sub_index_.push_back(i);
  }
  // A gang with a foreign claim cannot go whole: none of it is applied.
  if (!(foreign && txn.mode == TransactionMode::kAllOrNothing) && !sub_.claims.empty()) {
    cell_->Commit(sub_, &sub_result_);
    for (size_t j = 0; j < sub_index_.size(); ++j) {
      result->outcomes[sub_index_[j]] = sub_result_.outcomes[j];
    }
    result->refreshed = sub_result_.refreshed;
  }
  const TimePoint now = clock_->Now();
  for (size_t i = 0; i < n; ++i) {
    if (result->outcomes[i] != ClaimOutcome::kCommitted) {
      ++result->conflicted;
      continue;
    }
    ++result->committed;
    const Claim& c = txn.claims[i];
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
    // The member reserved nothing in the pool's ledger: charge it now (as
    // RecoverPlacement does), so that releases and the pool's own
    // schedulers see the usage.
    queues_->ForceCharge(p.queue, p.resource, p.user, p.label);
    app.outbox.push_back(p);
  }
}

// ---- The board ----

Result<Assignments> CellStateService::AssignmentsSince(const MemberToken& token, uint64_t since) {
  MutexLock lock(&mu_);
  ExpireLocked(clock_->Now());
  ASSIGN_OR_RETURN(Member * m, Find(token));
  Assignments out;
  out.version = board_version_;
  for (const auto& [id, app] : apps_) {
    if (app.owner != token.member || app.version <= since) continue;
    AssignedApp& a = out.apps.emplace_back();
    a.spec = app.spec;
    for (const KeyState& k : app.keys) {
      Ask ask = k.ask;
      ask.count = k.forwarded;
      a.asks.push_back(std::move(ask));
    }
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
  Forward(&entry);
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
  entry.spec.queue = spec.queue;
  entry.spec.priority = spec.priority;
  entry.spec.held = spec.held;
  entry.version = ++board_version_;
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
