#include "rm/core/attempt_allocator.h"

#include <glog/logging.h>

#include <algorithm>

#include "rm/core/allocate_rules.h"
#include "rm/recovery/attempt_asks_record.h"
#include "rm/security/token_identifiers.h"
#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

// SchedulerUtils.validateResourceRequest's words.
Status InvalidResource(const std::string& what, int64_t requested, int64_t max) {
  return Status::Remote(yarn::kInvalidResourceRequest,
                        "Invalid resource request, requested " + what + " < 0, or requested " +
                            what + " > max configured, requested=" + std::to_string(requested) +
                            ", max=" + std::to_string(max));
}

}  // namespace

// Hosts and racks as the node registry and the pool know them now.
class AttemptAllocator::RegistryPlaceNames : public PlaceNames {
 public:
  RegistryPlaceNames(const NodeRegistry* nodes, const pool::SchedulerPool* pool)
      : nodes_(nodes), pool_(pool) {}
  void AddNodesOnHost(const std::string& host, std::vector<pool::NodeId>* out) const override {
    nodes_->AddPoolNodesOnHost(host, out);
  }
  std::optional<pool::RackId> RackNamed(const std::string& rack) const override {
    auto found = pool_->FindRack(rack);
    if (!found.ok()) return std::nullopt;
    return *found;
  }

 private:
  const NodeRegistry* const nodes_;
  const pool::SchedulerPool* const pool_;
};

AttemptAllocator::AttemptAllocator(const AttemptAllocatorDeps& deps)
    : deps_(deps),
      normalizer_(deps.apps->options().resource_calculator, deps.apps->options().min_allocation,
                  deps.apps->options().max_allocation),
      place_names_(std::make_unique<RegistryPlaceNames>(deps.nodes, deps.pool)) {}

std::shared_ptr<AttemptAllocator::AttemptState> AttemptAllocator::StateOf(
    const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  auto it = attempts_.find(attempt);
  return it == attempts_.end() ? nullptr : it->second;
}

pool::Resource AttemptAllocator::PendingAsks(const ApplicationAttemptId& attempt) const {
  std::shared_ptr<AttemptState> state;
  {
    MutexLock lock(&mu_);
    auto it = attempts_.find(attempt);
    if (it == attempts_.end()) return pool::Resource();
    state = it->second;
  }
  MutexLock lock(&state->mu);
  return state->asks.Pending();
}

bool AttemptAllocator::PlacementsHeld() const {
  return deps_.placements_held != nullptr && deps_.placements_held();
}

void AttemptAllocator::AttemptEnded(const ApplicationAttemptId& attempt) {
  std::shared_ptr<AttemptState> state;
  bool whole_table_record = false;
  {
    MutexLock lock(&mu_);
    if (auto it = attempts_.find(attempt); it != attempts_.end()) {
      state = std::move(it->second);
      attempts_.erase(it);
    }
    if (auto it = recovered_asks_.find(attempt); it != recovered_asks_.end()) {
      // Never re-registered: what the previous run left goes now.
      whole_table_record = it->second.whole_table_record;
      AttemptRowChanges changes;
      for (const std::string& row : it->second.stored_rows) changes.erase.push_back(row);
      recovered_asks_.erase(it);
      if (deps_.store != nullptr && !changes.empty()) {
        deps_.store->SaveAttemptRows(attempt, changes).PermitUnchecked();
      }
    }
  }
  if (state != nullptr) {
    MutexLock lock(&state->mu);
    AttemptRowChanges changes;
    state->stored.EraseAll(&changes);
    whole_table_record = whole_table_record || state->whole_table_record;
    state->whole_table_record = false;
    if (deps_.store != nullptr && !changes.empty()) {
      Status removed = deps_.store->SaveAttemptRows(attempt, changes);
      if (!removed.ok()) LOG(WARNING) << "cannot drop the asks of " << attempt.ToString();
    }
  }
  if (deps_.store != nullptr && whole_table_record) {
    Status removed = deps_.store->SaveAsks(attempt, "");
    if (!removed.ok()) LOG(WARNING) << "cannot drop the asks of " << attempt.ToString();
  }
}

void AttemptAllocator::AddRecovered(const AttemptAsksRecord& record,
                                    RecoveredAsks* recovered) const {
  const AskTable keys(normalizer_);  // normalises stored capabilities as asks are
  for (const ResourceRequest& row : record.asks) {
    recovered->outstanding[RowKey{keys.KeyOf(row), row.resource_name}] = row.count;
  }
  for (const GrantedContainer& c : record.granted) {
    recovered->granted.emplace_back(
        c.id, pool::AskKey{c.priority, c.allocation_request_id, normalizer_.Normalize(c.resource)});
  }
}

void AttemptAllocator::SetRecoveredAsks(const std::map<ApplicationAttemptId, std::string>& asks) {
  MutexLock lock(&mu_);
  for (const auto& [attempt, bytes] : asks) {
    auto record = DecodeAttemptAsks(bytes);
    if (!record.ok()) {
      LOG(WARNING) << "the stored asks of " << attempt.ToString()
                   << " do not parse; its re-sent asks are taken as they come";
      continue;
    }
    if (recovered_asks_.count(attempt) != 0) {
      recovered_asks_[attempt].whole_table_record = true;  // the rows are newer
      continue;
    }
    RecoveredAsks& recovered = recovered_asks_[attempt];
    recovered.whole_table_record = true;
    AddRecovered(*record, &recovered);
  }
}

void AttemptAllocator::SetRecoveredRows(
    const std::map<ApplicationAttemptId, std::map<std::string, std::string>>& rows) {
  MutexLock lock(&mu_);
  for (const auto& [attempt, attempt_rows] : rows) {
    auto record = StoredAskRows::Decode(attempt_rows);
    if (!record.ok()) {
      LOG(WARNING) << "the stored asks of " << attempt.ToString() << " do not parse ("
                   << record.status().message() << "); its re-sent asks are taken as they come";
      continue;
    }
    RecoveredAsks recovered;
    recovered.whole_table_record = recovered_asks_.count(attempt) != 0;
    AddRecovered(*record, &recovered);
    for (const auto& [key, bytes] : attempt_rows) recovered.stored_rows.insert(key);
    recovered_asks_[attempt] = std::move(recovered);
  }
}

bool AttemptAllocator::HoldsRecoveredAsks(const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  return recovered_asks_.count(attempt) != 0;
}

void AttemptAllocator::CapResentAsks(AttemptState* state) {
  const RecoveredAsks& recovered = *state->recovered;
  // Grants of the previous run that no node reports now never reached a
  // running container: they may be granted again.
  std::map<pool::AskKey, int32_t, AskKeyLess> lost;
  for (const auto& [id, key] : recovered.granted) {
    if (!deps_.containers->Get(id).has_value()) ++lost[key];
  }
  state->asks.CapRows(
      [&](const pool::AskKey& key, const std::string& name) -> std::optional<int32_t> {
        auto outstanding = recovered.outstanding.find(RowKey{key, name});
        // Lost grants count on the key's total, the "*" row.
        auto again = name == kAnyResourceName ? lost.find(key) : lost.end();
        if (outstanding == recovered.outstanding.end() && again == lost.end()) {
          return std::nullopt;  // new
        }
        return (outstanding == recovered.outstanding.end() ? 0 : outstanding->second) +
               (again == lost.end() ? 0 : again->second);
      });
  state->recovered.reset();
}

void AttemptAllocator::SaveRows(const ApplicationAttemptId& attempt, AttemptRowChanges changes,
                                AttemptState* state) const {
  if (deps_.store == nullptr || changes.empty()) return;
  Status saved = deps_.store->SaveAttemptRows(attempt, changes);
  if (!saved.ok()) {
    LOG(WARNING) << "cannot keep the asks of " << attempt.ToString() << ": " << saved.ToString();
    return;
  }
  if (state->whole_table_record) {
    // The rows hold everything now: the previous run's record goes.
    if (deps_.store->SaveAsks(attempt, "").ok()) state->whole_table_record = false;
  }
}

Result<RegisterResponse> AttemptAllocator::Register(const ApplicationAttemptId& attempt,
                                                    const std::string& host, int32_t rpc_port,
                                                    const std::string& tracking_url) {
  RETURN_NOT_OK(deps_.apps->RegisterAm(attempt, host, rpc_port, tracking_url));
  // After an RM restart: what the previous run had for the attempt.
  std::optional<RecoveredAsks> recovered;
  {
    MutexLock lock(&mu_);
    auto it = recovered_asks_.find(attempt);
    if (it != recovered_asks_.end()) {
      recovered = std::move(it->second);
      recovered_asks_.erase(it);
    }
  }
  auto state = std::make_shared<AttemptState>(normalizer_);
  {
    MutexLock lock(&state->mu);
    if (recovered.has_value()) {
      state->stored.Seed(recovered->stored_rows);
      state->whole_table_record = recovered->whole_table_record;
    }
    state->recovered = std::move(recovered);
  }
  {
    MutexLock lock(&mu_);
    attempts_[attempt] = std::move(state);
  }
  deps_.nm_tokens->RegisterAttempt(attempt);
  RegisterResponse response;
  response.maximum_capability = deps_.apps->options().max_allocation;
  if (deps_.client_to_am_tokens != nullptr) {
    response.client_to_am_token_master_key = deps_.client_to_am_tokens->MasterKey(attempt);
  }
  auto app = deps_.apps->GetApp(attempt.app);
  if (app.ok()) {
    response.queue = app->submission.queue;
    response.submission_context = app->submission.context_bytes;
  }
  return response;
}

Result<bool> AttemptAllocator::Finish(const ApplicationAttemptId& attempt, FinalStatus final_status,
                                      const std::string& diagnostics,
                                      const std::string& tracking_url) {
  return deps_.apps->FinishAm(attempt, final_status, diagnostics, tracking_url);
}

Status AttemptAllocator::CheckAsk(const ResourceRequest& ask) const {
  return Validate({&ask, 1}, deps_.apps->options().max_allocation);
}

Status AttemptAllocator::Validate(std::span<const ResourceRequest> asks, const pool::Resource& max,
                                  AskPartitions* partitions) {
  // SchedulerUtils.normalizeAndValidateRequest, row by row, before anything
  // is applied.
  for (const ResourceRequest& ask : asks) {
    if (partitions != nullptr) RETURN_NOT_OK(partitions->CheckEnabled(ask));
    const int64_t memory = ask.capability.memory_mb();
    const int64_t vcores = ask.capability.vcores();
    if (memory < 0 || memory > max.memory_mb()) {
      return InvalidResource("memory", memory, max.memory_mb());
    }
    if (vcores < 0 || vcores > max.vcores()) {
      return InvalidResource("virtual cores", vcores, max.vcores());
    }
    if (ask.count < 0) {
      return Status::Remote(
          yarn::kInvalidResourceRequest,
          "Invalid resource request, num_containers < 0: " + std::to_string(ask.count));
    }
    if (partitions != nullptr) RETURN_NOT_OK(partitions->Add(ask));
  }
  return Status::OK();
}

Status AttemptAllocator::SyncBlacklist(pool::AppId pool_app, AttemptState* state) {
  if (state->asks.blacklist().empty() && state->blacklisted_nodes.empty() &&
      state->blacklisted_racks.empty()) {
    return Status::OK();
  }
  std::vector<pool::NodeId> nodes;
  std::vector<pool::RackId> racks;
  state->asks.ResolveBlacklist(*place_names_, &nodes, &racks);
  if (nodes == state->blacklisted_nodes && racks == state->blacklisted_racks) return Status::OK();
  state->blacklisted_nodes = nodes;
  state->blacklisted_racks = racks;
  return deps_.pool->SetBlacklist(pool_app, std::move(nodes), std::move(racks));
}

Status AttemptAllocator::UpdatePoolAsks(pool::AppId pool_app, const AskTable::Changes& changes,
                                        bool asked, AttemptState* state) {
  if (state->recovered.has_value()) {
    // After a restart the pool hears of the re-sent table only once it is
    // capped, and that waits until the nodes of the previous run are back
    // (placements are held until then), so that every grant they still run
    // is known.
    if (!state->recovered->resent || PlacementsHeld()) return Status::OK();
    CapResentAsks(state);
    return deps_.pool->SetAsks(pool_app, state->asks.PoolAsks(*place_names_));
  }
  if (!asked) return Status::OK();
  // Only the keys this call touched: a total the AM did not resend stays as
  // the pool has it (resending it would ask again for what was placed).
  std::vector<pool::Ask> asks = state->asks.PoolAsks(*place_names_, changes.touched);
  // Keys the AM dropped altogether are set to zero explicitly.
  for (const pool::AskKey& key : changes.dropped) {
    pool::Ask zero;
    zero.priority = key.priority;
    zero.allocation_request_id = key.allocation_request_id;
    zero.capability = key.capability;
    zero.count = 0;
    asks.push_back(std::move(zero));
  }
  return deps_.pool->SetAsks(pool_app, std::move(asks));
}

void AttemptAllocator::ReportAskActivity(const ApplicationAttemptId& attempt,
                                         std::span<const pool::AskKey> idle_totals,
                                         const AskTable::Changes& changes,
                                         const AllocateResponse& response, AttemptState* state) {
  // Plain loops, not std::any_of with a lambda: clang's thread-safety
  // analysis cannot see that a lambda runs under state->mu.
  ApplicationManager::AskActivity activity;
  for (const pool::AskKey& key : idle_totals) {
    if (state->asks.Count(key, kAnyResourceName) > 0) activity.newly_asking = true;
  }
  // A total written as zero, or one the containers handed out took to zero
  // (2.6.0 decrementOutstanding, 3.3 LocalityAppPlacementAllocator).
  activity.emptied = !changes.dropped.empty();
  for (const AllocatedContainer& c : response.allocated) {
    if (state->asks.Count(c.placement.key(), kAnyResourceName) <= 0) activity.emptied = true;
  }
  activity.outstanding = state->asks.Asking();
  // The app manager's lock only when something changed for it.
  if (!activity.newly_asking && !activity.emptied &&
      activity.outstanding == state->reported_outstanding) {
    return;
  }
  state->reported_outstanding = activity.outstanding;
  deps_.apps->OnAsksUpdated(attempt, activity);
}

void AttemptAllocator::AnswerUpdates(const ApplicationAttemptId& attempt,
                                     const AllocateRequest& request,
                                     AllocateResponse* response) const {
  // Container updates (2.8+: resize, promote, demote) are answered, never
  // dropped: each gets an update error the AMRMClient hands to the AM.
  for (const ContainerUpdateRequest& update : request.update_requests) {
    ContainerUpdateError& error = response->update_errors.emplace_back();
    error.echo = update.echo;
    const auto container = deps_.containers->Get(update.container_id);
    if (!container.has_value() || container->id.attempt != attempt) {
      error.reason = "INVALID_CONTAINER_ID";  // as RMServerUtils says it
    } else if (update.container_version != 0) {
      error.reason = "INCORRECT_CONTAINER_VERSION_ERROR";
      error.current_container_version = 0;
    } else {
      error.reason =
          "UPDATE_NOT_SUPPORTED: Spindle does not resize, promote or demote running containers";
      error.current_container_version = 0;
    }
  }
}

Status AttemptAllocator::HandOutPlacements(const ApplicationAttemptId& attempt,
                                           pool::AppId pool_app, const std::string& user,
                                           AttemptState* state, AllocateResponse* response) {
  std::vector<pool::Placement> placements;
  RETURN_NOT_OK(deps_.pool->TakePlacements(pool_app, &placements));
  if (placements.empty()) return Status::OK();
  // One call may hand out thousands of containers. The node registry, the
  // app manager and the container registry are each locked once for all of
  // them, not once per container: node heartbeats take the same locks
  // thousands of times a second, and a lock per container made a large
  // answer wait behind them once per container (hundreds of ms, measured in
  // bench/wire/README.md).
  std::vector<pool::NodeId> node_ids;
  node_ids.reserve(placements.size());
  for (const pool::Placement& p : placements) node_ids.push_back(p.node);
  std::vector<std::optional<NodeInfo>> nodes = deps_.nodes->FindAll(node_ids);
  std::vector<pool::Placement> unplaced;
  std::vector<size_t> placed;  // indexes of placements on a known node
  placed.reserve(placements.size());
  for (size_t i = 0; i < placements.size(); ++i) {
    if (placements[i].allocation_request_id == kAmAllocationRequestId || !nodes[i].has_value()) {
      unplaced.push_back(placements[i]);
    } else {
      placed.push_back(i);
    }
  }
  std::optional<ContainerId> first_id;
  if (!placed.empty()) {
    auto ids = deps_.apps->NextContainerIds(attempt, static_cast<int64_t>(placed.size()));
    if (ids.ok()) {
      first_id = *ids;
    } else {
      for (size_t i : placed) unplaced.push_back(placements[i]);
      placed.clear();
    }
  }
  const int64_t now_ms = deps_.clock->WallMillis();
  std::vector<RmContainer> containers;
  containers.reserve(placed.size());
  for (size_t k = 0; k < placed.size(); ++k) {
    ContainerId id = *first_id;
    id.id += static_cast<int64_t>(k);
    containers.push_back(RmContainer{id, nodes[placed[k]]->id, placements[placed[k]], false});
  }
  std::vector<ContainerId> known = deps_.containers->AddAll(containers);
  std::sort(known.begin(), known.end());
  std::vector<NmTokenSecretManager::NodeAddress> new_nodes;
  new_nodes.reserve(placed.size());
  response->allocated.reserve(response->allocated.size() + placed.size());
  for (size_t k = 0; k < placed.size(); ++k) {
    const pool::Placement& p = placements[placed[k]];
    const NodeInfo& node = *nodes[placed[k]];
    const ContainerId& container_id = containers[k].id;
    if (std::binary_search(known.begin(), known.end(), container_id)) {
      LOG(ERROR) << "container " << container_id.ToString() << " is already known";
      unplaced.push_back(p);
      continue;
    }
    std::string service = deps_.token_service(node.id);
    ContainerTokenRequest token_request;
    token_request.container_id = container_id;
    token_request.node_id = node.id;
    token_request.nm_service = service;
    token_request.app_submitter = user;
    token_request.resource.set_memory(p.resource.memory_mb());
    token_request.resource.set_virtual_cores(static_cast<int32_t>(p.resource.vcores()));
    token_request.priority = p.priority;
    token_request.creation_time_ms = now_ms;
    token_request.allocation_request_id = p.allocation_request_id;
    Token token = deps_.container_tokens->CreateContainerToken(token_request);
    // The table's outstanding counts go down as containers are handed out
    // (AppSchedulingInfo.allocate).
    state->asks.Allocate(p.key(), p.locality, node.id.host, node.rack);
    response->allocated.push_back(AllocatedContainer{container_id, node.id, node.http_address,
                                                     p.resource, p.priority,
                                                     p.allocation_request_id, std::move(token), p});
    new_nodes.push_back({node.id, std::move(service)});
  }
  // Placed on a node that is gone (or the attempt ended meanwhile): the
  // resources go back.
  if (!unplaced.empty()) deps_.pool->ReleaseBatch(unplaced).PermitUnchecked();
  response->nm_tokens = deps_.nm_tokens->CreateTokensForNewNodes(attempt, user, new_nodes);
  return Status::OK();
}

Result<std::shared_ptr<const AllocateResponse>> AttemptAllocator::Allocate(
    const ApplicationAttemptId& attempt, const AllocateRequest& request) {
  ASSIGN_OR_RETURN(const ApplicationManager::AmHeartbeatFacts app,
                   deps_.apps->AmHeartbeat(attempt, request.progress));
  auto state = StateOf(attempt);
  if (state == nullptr) {
    return Status::Remote(yarn::kApplicationMasterNotRegistered,
                          AmNotRegisteredMessage(deps_.rules, attempt));
  }
  MutexLock lock(&state->mu);
  // What a responseId that is not the last answer's gets depends on the
  // Hadoop line (allocate_rules.h).
  ASSIGN_OR_RETURN(
      const ResponseIdVerdict verdict,
      CheckResponseId(deps_.rules, attempt, request.response_id, state->last_response_id));
  if (verdict == ResponseIdVerdict::kResendLast) {
    // The AM lost our answer: the same one again (null before the first).
    return state->last_response;
  }
  // The partitions of the rows (their label expressions), checked with them.
  std::optional<AskPartitions> partitions;
  if (!request.asks.empty()) {
    partitions.emplace(*deps_.queues, app.queue, app.app_label_expression, *deps_.node_labels,
                       *deps_.pool);
  }
  RETURN_NOT_OK(Validate(request.asks, deps_.apps->options().max_allocation,
                         partitions.has_value() ? &*partitions : nullptr));
  RETURN_NOT_OK(AskTable::CheckBlacklistAdditions(request.blacklist_additions));
  RETURN_NOT_OK(deps_.containers->ReleaseAll(attempt, request.releases));
  // The ANY rows that asked for nothing before this call: one that now
  // asks makes the app active (3.3 AppSchedulingInfo.updatePendingResources).
  std::vector<pool::AskKey> idle_totals;
  for (const ResourceRequest& row : request.asks) {
    if (row.resource_name != kAnyResourceName || row.count <= 0) continue;
    const pool::AskKey key = state->asks.KeyOf(row);
    if (state->asks.Count(key, kAnyResourceName) <= 0) idle_totals.push_back(key);
  }
  const AskTable::Changes changes =
      state->asks.Update(request.asks, partitions.has_value() ? partitions->partitions()
                                                              : std::span<const pool::LabelId>());
  // The keys whose stored rows may change: those the call wrote, and those
  // containers are handed out for (below).
  std::vector<pool::AskKey> written = changes.written;
  const bool asked = !request.asks.empty();
  // The AM re-sends its whole table at once after re-registering.
  if (state->recovered.has_value() && asked) state->recovered->resent = true;
  ASSIGN_OR_RETURN(pool::AppId pool_app, deps_.apps->PoolAppOf(attempt));
  RETURN_NOT_OK(
      state->asks.UpdateBlacklist(request.blacklist_additions, request.blacklist_removals));
  RETURN_NOT_OK(SyncBlacklist(pool_app, state.get()));
  const bool was_recovered = state->recovered.has_value();
  RETURN_NOT_OK(UpdatePoolAsks(pool_app, changes, asked, state.get()));
  // The re-sent table was capped in this call: it is stored whole.
  const bool capped_now = was_recovered && !state->recovered.has_value();

  auto response = std::make_shared<AllocateResponse>();
  AnswerUpdates(attempt, request, response.get());
  RETURN_NOT_OK(HandOutPlacements(attempt, pool_app, app.user, state.get(), response.get()));
  ReportAskActivity(attempt, idle_totals, changes, *response, state.get());
  for (CompletedContainer& done : deps_.containers->TakeCompleted(attempt)) {
    if (done.is_am) continue;  // the AM does not hear of its own container
    response->completed.push_back(std::move(done));
  }
  // The user's headroom in its queue (LeafQueue.getHeadroom; the cell's free
  // resources where users are not limited, or once the app has left the pool).
  if (auto headroom = deps_.pool->Headroom(pool_app); headroom.ok()) {
    response->headroom = *headroom;
  } else {
    const pool::Resource capacity = deps_.pool->cell().Capacity();
    response->headroom = (capacity - deps_.pool->cell().Allocated()).Max(pool::Resource());
  }
  response->num_cluster_nodes = deps_.nodes->NumUsableNodes();
  response->application_priority = app.priority;
  if (deps_.take_preemption) response->preemption = deps_.take_preemption(attempt);
  if (auto id = DecodeAmrmTokenIdentifier(request.amrm_token_identifier);
      id.ok() && deps_.amrm_tokens->NeedsNewToken(id->key_id)) {
    response->amrm_token = deps_.amrm_tokens->CreateToken(attempt);
  }
  // Rows are built only for a store: an RM without one (the wind tunnel's)
  // writes nothing.
  if (deps_.store != nullptr && !state->recovered.has_value()) {
    // Only what changed (while a re-sent table is not capped yet, the
    // stored one stays).
    AttemptRowChanges rows;
    if (capped_now) {
      state->stored.SyncAll(state->asks, &rows);
      // The containers the previous run granted that nodes still run; its
      // other grants were given back to the asks by the caps.
      std::vector<GrantedContainer> live;
      for (const RmContainer& c : deps_.containers->LiveContainersOf(attempt)) {
        if (c.is_am) continue;
        live.push_back(GrantedContainer{c.id, c.placement.priority,
                                        c.placement.allocation_request_id, c.placement.resource});
      }
      state->stored.RegrantAll(live, &rows);
    } else {
      for (const AllocatedContainer& c : response->allocated) {
        written.push_back(pool::AskKey{c.priority, c.allocation_request_id, c.resource});
      }
      std::sort(written.begin(), written.end(), AskKeyLess());
      written.erase(std::unique(written.begin(), written.end()), written.end());
      state->stored.SyncKeys(state->asks, written, &rows);
    }
    std::vector<GrantedContainer> granted;
    granted.reserve(response->allocated.size());
    for (const AllocatedContainer& c : response->allocated) {
      granted.push_back(GrantedContainer{c.id, c.priority, c.allocation_request_id, c.resource});
    }
    state->stored.Granted(granted, &rows);
    std::vector<ContainerId> completed;
    completed.reserve(response->completed.size());
    for (const CompletedContainer& done : response->completed) completed.push_back(done.id);
    state->stored.Completed(completed, &rows);
    SaveRows(attempt, std::move(rows), state.get());
  }
  state->last_response_id = NextResponseId(deps_.rules, state->last_response_id);
  response->response_id = state->last_response_id;
  state->last_response = response;
  return std::shared_ptr<const AllocateResponse>(std::move(response));
}

}  // namespace spindle::rm
