#include "am_protocol/am_service/am_service.h"

#include <glog/logging.h>

#include <set>

#include "am_protocol/am_service/allocate_rules.h"
#include "am_protocol/ipc/token_service.h"
#include "rm/security/token_identifiers.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"

namespace spindle::am_protocol {

namespace y = hadoop::yarn;

namespace {

constexpr char kAnyResource[] = "*";

rm::FinalStatus FromProto(y::FinalApplicationStatusProto status) {
  switch (status) {
    case y::APP_SUCCEEDED:
      return rm::FinalStatus::kSucceeded;
    case y::APP_FAILED:
      return rm::FinalStatus::kFailed;
    case y::APP_KILLED:
      return rm::FinalStatus::kKilled;
    case y::APP_ENDED:
      return rm::FinalStatus::kEnded;
    default:
      return rm::FinalStatus::kUndefined;
  }
}

void ToProto(const pool::Resource& r, y::ResourceProto* proto) {
  proto->set_memory(r.memory_mb());
  proto->set_virtual_cores(static_cast<int32_t>(r.vcores()));
}

// An ask's capability as the CapacityScheduler normalises it: memory up to
// a multiple of the minimum allocation, at least the minimum vcores.
pool::Resource Normalized(const y::ResourceProto& capability, const pool::Resource& min) {
  const int64_t step = std::max<int64_t>(1, min.memory_mb());
  return pool::Resource::Of(
      std::max(min.memory_mb(), (capability.memory() + step - 1) / step * step),
      std::max<int64_t>(min.vcores(), capability.virtual_cores()));
}

Status InvalidResource(const std::string& what, int64_t requested, int64_t max) {
  return Status::Remote(rm::yarn::kInvalidResourceRequest,
                        "Invalid resource request, requested " + what + " < 0, or requested " +
                            what + " > max configured, requested=" + std::to_string(requested) +
                            ", max=" + std::to_string(max));
}

}  // namespace

AmService::AmService(const AmServiceDeps& deps) : deps_(deps) {}

std::unique_ptr<ipc::RpcService> AmService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kApplicationMasterProtocol);
  service->AddMethod<y::RegisterApplicationMasterRequestProto,
                     y::RegisterApplicationMasterResponseProto>(
      "registerApplicationMaster",
      [this](const ipc::ConnectionIdentity& who,
             const y::RegisterApplicationMasterRequestProto& req,
             y::RegisterApplicationMasterResponseProto* resp) { return Register(who, req, resp); });
  service->AddMethod<y::AllocateRequestProto, y::AllocateResponseProto>(
      "allocate", [this](const ipc::ConnectionIdentity& who, const y::AllocateRequestProto& req,
                         y::AllocateResponseProto* resp) { return Allocate(who, req, resp); });
  service
      ->AddMethod<y::FinishApplicationMasterRequestProto, y::FinishApplicationMasterResponseProto>(
          "finishApplicationMaster",
          [this](const ipc::ConnectionIdentity& who,
                 const y::FinishApplicationMasterRequestProto& req,
                 y::FinishApplicationMasterResponseProto* resp) { return Finish(who, req, resp); });
  return service;
}

Result<rm::ApplicationAttemptId> AmService::AttemptOf(const ipc::ConnectionIdentity& who) const {
  if (who.auth_method != ipc::AuthMethod::kToken) {
    return Status::Remote(rm::yarn::kYarnException, "No AMRMToken found for user " + who.user);
  }
  auto attempt = rm::ApplicationAttemptId::Parse(who.user);
  if (!attempt.ok()) {
    return Status::Remote(rm::yarn::kYarnException, "No AMRMToken found for user " + who.user);
  }
  return attempt;
}

std::shared_ptr<AmService::AttemptState> AmService::StateOf(const rm::ApplicationAttemptId& attempt,
                                                            bool create) {
  MutexLock lock(&mu_);
  auto it = attempts_.find(attempt);
  if (it != attempts_.end()) return it->second;
  if (!create) return nullptr;
  auto state = std::make_shared<AttemptState>();
  attempts_[attempt] = state;
  return state;
}

void AmService::AttemptEnded(const rm::ApplicationAttemptId& attempt) {
  {
    MutexLock lock(&mu_);
    attempts_.erase(attempt);
    recovered_asks_.erase(attempt);
  }
  if (deps_.store != nullptr) {
    Status removed = deps_.store->SaveAsks(attempt, "");
    if (!removed.ok()) LOG(WARNING) << "cannot drop the asks of " << attempt.ToString();
  }
}

AmService::AskKey AmService::KeyOf(const y::ResourceRequestProto& ask) const {
  const pool::Resource capability =
      Normalized(ask.capability(), deps_.apps->options().min_allocation);
  return AskKey{ask.priority().priority(), ask.allocation_request_id(), ask.resource_name(),
                capability.memory_mb(), capability.vcores()};
}

void AmService::SetRecoveredAsks(const std::map<rm::ApplicationAttemptId, std::string>& asks) {
  MutexLock lock(&mu_);
  for (const auto& [attempt, bytes] : asks) {
    y::SpindleAttemptAsksProto table;
    if (!table.ParseFromString(bytes)) {
      LOG(WARNING) << "the stored asks of " << attempt.ToString()
                   << " do not parse; its re-sent asks are taken as they come";
      continue;
    }
    RecoveredAsks& recovered = recovered_asks_[attempt];
    for (const auto& ask : table.ask()) recovered.outstanding[KeyOf(ask)] = ask.num_containers();
    for (const auto& c : table.granted()) {
      recovered.granted.emplace_back(rm::FromProto(c.id()), GrantKey(c));
    }
  }
}

AmService::AskKey AmService::GrantKey(const y::ContainerProto& c) {
  return AskKey{c.priority().priority(), c.allocation_request_id(), kAnyResource,
                c.resource().memory(), c.resource().virtual_cores()};
}

bool AmService::PlacementsHeld() const {
  return deps_.placements_held != nullptr && deps_.placements_held();
}

void AmService::CapResentAsks(AttemptState* state) {
  const RecoveredAsks& recovered = *state->recovered;
  // Grants of the previous run that no node reports now never reached a
  // running container: they may be granted again.
  std::map<AskKey, int32_t> lost;
  for (const auto& [id, key] : recovered.granted) {
    if (!deps_.containers->Get(id).has_value()) ++lost[key];
  }
  for (auto& [key, row] : state->asks) {
    auto outstanding = recovered.outstanding.find(key);
    auto again = lost.find(key);
    if (outstanding == recovered.outstanding.end() && again == lost.end()) continue;  // new
    const int32_t cap = (outstanding == recovered.outstanding.end() ? 0 : outstanding->second) +
                        (again == lost.end() ? 0 : again->second);
    row.set_num_containers(std::min(row.num_containers(), cap));
  }
  state->recovered.reset();
}

void AmService::SaveAsks(const rm::ApplicationAttemptId& attempt, const AttemptState& state) {
  if (deps_.store == nullptr) return;
  y::SpindleAttemptAsksProto table;
  for (const auto& [key, ask] : state.asks) *table.add_ask() = ask;
  for (const rm::RmContainer& c : deps_.containers->LiveContainersOf(attempt)) {
    if (c.is_am) continue;
    y::ContainerProto* granted = table.add_granted();
    rm::ToProto(c.id, granted->mutable_id());
    ToProto(c.placement.resource, granted->mutable_resource());
    granted->mutable_priority()->set_priority(c.placement.priority);
    granted->set_allocation_request_id(c.placement.allocation_request_id);
  }
  // An empty table is still a table (nothing outstanding), not a removal.
  if (table.ask_size() == 0 && table.granted_size() == 0) table.add_ask();
  Status saved = deps_.store->SaveAsks(attempt, table.SerializeAsString());
  if (!saved.ok()) {
    LOG(WARNING) << "cannot keep the asks of " << attempt.ToString() << ": " << saved.ToString();
  }
}

Status AmService::Register(const ipc::ConnectionIdentity& who,
                           const y::RegisterApplicationMasterRequestProto& request,
                           y::RegisterApplicationMasterResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  RETURN_NOT_OK(
      deps_.apps->RegisterAm(attempt, request.host(), request.rpc_port(), request.tracking_url()));
  auto state = StateOf(attempt, /*create=*/true);
  {
    MutexLock lock(&state->mu);
    state->registered = true;
    state->last_response_id = 0;
    state->last_response.Clear();
    state->asks.clear();
  }
  {
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
    MutexLock lock(&state->mu);
    state->recovered = std::move(recovered);
  }
  deps_.nm_tokens->RegisterAttempt(attempt);
  ToProto(deps_.apps->options().max_allocation, response->mutable_maximumcapability());
  auto app = deps_.apps->GetApp(attempt.app);
  if (app.ok()) {
    response->set_queue(app->submission.queue);
    y::ApplicationSubmissionContextProto context;
    if (context.ParseFromString(app->submission.context_bytes)) {
      *response->mutable_application_acls() = context.am_container_spec().application_acls();
    }
  }
  response->add_scheduler_resource_types(y::MEMORY);
  response->add_scheduler_resource_types(y::CPU);
  auto* memory = response->add_resource_types();
  memory->set_name("memory-mb");
  memory->set_units("Mi");
  memory->set_type(y::COUNTABLE);
  auto* vcores = response->add_resource_types();
  vcores->set_name("vcores");
  vcores->set_units("");
  vcores->set_type(y::COUNTABLE);
  return Status::OK();
}

std::vector<pool::Ask> AmService::ToPoolAsks(
    const std::map<AskKey, y::ResourceRequestProto>& asks) const {
  // Group the table by (priority, allocation request id, capability): the
  // "*" row carries the total, host and rack rows are locality preferences.
  struct Group {
    pool::Ask ask;
    bool has_any = false;
  };
  std::map<std::tuple<int32_t, int64_t, int64_t, int64_t>, Group> groups;
  for (const auto& [key, request] : asks) {
    const auto& [priority, alloc_id, name, memory, vcores] = key;
    Group& g = groups[{priority, alloc_id, memory, vcores}];
    g.ask.priority = priority;
    g.ask.allocation_request_id = alloc_id;
    g.ask.capability = pool::Resource::Of(memory, vcores);
    if (name == kAnyResource) {
      g.has_any = true;
      g.ask.count = request.num_containers();
      g.ask.relax_locality = request.relax_locality();
    } else if (request.num_containers() > 0) {
      if (!name.empty() && name[0] == '/') {
        if (auto rack = deps_.pool->FindRack(name); rack.ok()) g.ask.racks.push_back(*rack);
      } else {
        for (pool::NodeId node : deps_.nodes->PoolNodesOnHost(name)) g.ask.nodes.push_back(node);
      }
    }
  }
  std::vector<pool::Ask> out;
  for (auto& [key, g] : groups) {
    if (!g.has_any) continue;  // no total: nothing is wanted for this key yet
    out.push_back(std::move(g.ask));
  }
  return out;
}

Status AmService::UpdateBlacklist(const y::ResourceBlacklistRequestProto& update,
                                  pool::AppId pool_app, AttemptState* state) {
  for (const auto& name : update.blacklist_additions()) state->blacklist.insert(name);
  for (const auto& name : update.blacklist_removals()) state->blacklist.erase(name);
  if (state->blacklist.empty() && state->blacklisted_nodes.empty() &&
      state->blacklisted_racks.empty()) {
    return Status::OK();
  }
  // A name is a host (every NodeManager on it) or a rack, as in YARN.
  std::vector<pool::NodeId> nodes;
  std::vector<pool::RackId> racks;
  for (const std::string& name : state->blacklist) {
    for (pool::NodeId node : deps_.nodes->PoolNodesOnHost(name)) nodes.push_back(node);
    if (auto rack = deps_.pool->FindRack(name); rack.ok()) racks.push_back(*rack);
  }
  if (nodes == state->blacklisted_nodes && racks == state->blacklisted_racks) return Status::OK();
  state->blacklisted_nodes = nodes;
  state->blacklisted_racks = racks;
  return deps_.pool->SetBlacklist(pool_app, std::move(nodes), std::move(racks));
}

Status AmService::Allocate(const ipc::ConnectionIdentity& who,
                           const y::AllocateRequestProto& request,
                           y::AllocateResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  RETURN_NOT_OK(deps_.apps->AmHeartbeat(attempt, request.progress()));
  auto state = StateOf(attempt, /*create=*/false);
  if (state == nullptr) {
    return Status::Remote(rm::yarn::kApplicationMasterNotRegistered,
                          AmNotRegisteredMessage(deps_.rules, attempt));
  }
  MutexLock lock(&state->mu);
  // What a responseId that is not the last answer's gets depends on the
  // Hadoop line (allocate_rules.h).
  ASSIGN_OR_RETURN(
      const ResponseIdVerdict verdict,
      CheckResponseId(deps_.rules, attempt, request.response_id(), state->last_response_id));
  if (verdict == ResponseIdVerdict::kResendLast) {
    *response = state->last_response;  // the AM lost our answer: send it again
    return Status::OK();
  }
  const pool::Resource max = deps_.apps->options().max_allocation;
  const pool::Resource min = deps_.apps->options().min_allocation;
  for (const auto& ask : request.ask()) {
    const int64_t memory = ask.capability().memory();
    const int64_t vcores = ask.capability().virtual_cores();
    if (memory < 0 || memory > max.memory_mb())
      return InvalidResource("memory", memory, max.memory_mb());
    if (vcores < 0 || vcores > max.vcores()) {
      return InvalidResource("virtual cores", vcores, max.vcores());
    }
    if (ask.num_containers() < 0) {
      return Status::Remote(
          rm::yarn::kInvalidResourceRequest,
          "Invalid resource request, num_containers < 0: " + std::to_string(ask.num_containers()));
    }
  }
  for (const auto& name : request.blacklist_request().blacklist_additions()) {
    if (name == kAnyResource) {
      // RMServerUtils.validateBlacklistRequest.
      return Status::Remote(rm::yarn::kInvalidResourceBlacklistRequest,
                            "Cannot add * to the blacklist!");
    }
  }
  for (const auto& id : request.release()) {
    RETURN_NOT_OK(deps_.containers->Release(attempt, rm::FromProto(id)));
  }
  for (const auto& ask : request.ask()) {
    const AskKey key = KeyOf(ask);
    if (ask.num_containers() == 0) {
      state->asks.erase(key);
      continue;
    }
    state->asks[key] = ask;
  }
  // The AM re-sends its whole table at once after re-registering.
  if (state->recovered.has_value() && request.ask_size() > 0) state->recovered->resent = true;
  ASSIGN_OR_RETURN(pool::AppId pool_app, deps_.apps->PoolAppOf(attempt));
  RETURN_NOT_OK(UpdateBlacklist(request.blacklist_request(), pool_app, state.get()));
  if (state->recovered.has_value()) {
    // After a restart the pool hears of the re-sent table only once it is
    // capped, and that waits until the nodes of the previous run are back
    // (placements are held until then), so that every grant they still run
    // is known.
    if (state->recovered->resent && !PlacementsHeld()) {
      CapResentAsks(state.get());
      RETURN_NOT_OK(deps_.pool->SetAsks(pool_app, ToPoolAsks(state->asks)));
    }
  } else if (request.ask_size() > 0) {
    // Only the keys this request touched: a total the AM did not resend
    // stays as the pool has it (resending it would ask again for what was
    // already placed).
    std::set<std::tuple<int32_t, int64_t, int64_t, int64_t>> touched;
    std::map<AskKey, y::ResourceRequestProto> changed;
    for (const auto& ask : request.ask()) {
      const pool::Resource capability = Normalized(ask.capability(), min);
      touched.insert({ask.priority().priority(), ask.allocation_request_id(),
                      capability.memory_mb(), capability.vcores()});
    }
    for (const auto& [key, ask] : state->asks) {
      const auto& [priority, alloc_id, name, memory, vcores] = key;
      if (touched.count({priority, alloc_id, memory, vcores}) != 0) changed.emplace(key, ask);
    }
    std::vector<pool::Ask> asks = ToPoolAsks(changed);
    // Keys the AM dropped altogether are set to zero explicitly.
    for (const auto& ask : request.ask()) {
      if (ask.resource_name() != kAnyResource || ask.num_containers() != 0) continue;
      pool::Ask zero;
      zero.priority = ask.priority().priority();
      zero.allocation_request_id = ask.allocation_request_id();
      zero.capability = Normalized(ask.capability(), min);
      zero.count = 0;
      asks.push_back(zero);
    }
    RETURN_NOT_OK(deps_.pool->SetAsks(pool_app, std::move(asks)));
  }

  // Container updates (2.8+: resize, promote, demote) are answered, never
  // dropped: each gets an update error the AMRMClient hands to the AM.
  for (const auto& update : request.update_requests()) {
    auto* error = response->add_update_errors();
    *error->mutable_update_request() = update;
    const auto container = deps_.containers->Get(rm::FromProto(update.container_id()));
    if (!container.has_value() || container->id.attempt != attempt) {
      error->set_reason("INVALID_CONTAINER_ID");  // as RMServerUtils says it
    } else if (update.container_version() != 0) {
      error->set_reason("INCORRECT_CONTAINER_VERSION_ERROR");
      error->set_current_container_version(0);
    } else {
      error->set_reason(
          "UPDATE_NOT_SUPPORTED: Spindle does not resize, promote or demote "
          "running containers");
      error->set_current_container_version(0);
    }
  }
  auto app = deps_.apps->GetApp(attempt.app);
  const std::string user = app.ok() ? app->submission.user : "";
  std::vector<pool::Placement> placements;
  RETURN_NOT_OK(deps_.pool->TakePlacements(pool_app, &placements));
  std::vector<rm::NmTokenSecretManager::NodeAddress> new_nodes;
  const int64_t now_ms = deps_.clock->WallMillis();
  for (const pool::Placement& p : placements) {
    auto node = p.allocation_request_id == rm::kAmAllocationRequestId ? std::nullopt
                                                                      : deps_.nodes->Find(p.node);
    if (!node.has_value()) {
      deps_.pool->Release(p).PermitUnchecked();
      continue;
    }
    auto container_id = deps_.apps->NextContainerId(attempt);
    if (!container_id.ok()) {
      deps_.pool->Release(p).PermitUnchecked();
      continue;
    }
    const std::string service = ipc::TokenService(node->id.host, node->id.port);
    rm::ContainerTokenRequest token_request;
    token_request.container_id = *container_id;
    token_request.node_id = node->id;
    token_request.nm_service = service;
    token_request.app_submitter = user;
    ToProto(p.resource, &token_request.resource);
    token_request.priority = p.priority;
    token_request.creation_time_ms = now_ms;
    token_request.allocation_request_id = p.allocation_request_id;
    const rm::Token token = deps_.container_tokens->CreateContainerToken(token_request);
    Status added = deps_.containers->Add(rm::RmContainer{*container_id, node->id, p, false});
    if (!added.ok()) {
      LOG(ERROR) << added.ToString();
      deps_.pool->Release(p).PermitUnchecked();
      continue;
    }
    // The table's outstanding totals go down as containers are handed out,
    // as YARN's AppSchedulingInfo does.
    const AskKey any_key{p.priority, p.allocation_request_id, kAnyResource, p.resource.memory_mb(),
                         p.resource.vcores()};
    if (auto it = state->asks.find(any_key); it != state->asks.end()) {
      it->second.set_num_containers(std::max(0, it->second.num_containers() - 1));
    }
    auto* c = response->add_allocated_containers();
    rm::ToProto(*container_id, c->mutable_id());
    rm::ToProto(node->id, c->mutable_nodeid());
    c->set_node_http_address(node->http_address);
    ToProto(p.resource, c->mutable_resource());
    c->mutable_priority()->set_priority(p.priority);
    rm::ToTokenProto(token, c->mutable_container_token());
    c->set_execution_type(y::GUARANTEED);
    c->set_allocation_request_id(p.allocation_request_id);
    new_nodes.push_back({node->id, service});
  }
  for (const auto& nm : deps_.nm_tokens->CreateTokensForNewNodes(attempt, user, new_nodes)) {
    auto* t = response->add_nm_tokens();
    rm::ToProto(nm.node, t->mutable_nodeid());
    rm::ToTokenProto(nm.token, t->mutable_token());
  }
  for (const rm::CompletedContainer& done : deps_.containers->TakeCompleted(attempt)) {
    if (done.is_am) continue;  // the AM does not hear of its own container
    auto* s = response->add_completed_container_statuses();
    rm::ToProto(done.id, s->mutable_container_id());
    s->set_state(y::C_COMPLETE);
    s->set_diagnostics(done.diagnostics);
    s->set_exit_status(done.exit_status);
  }
  // The cell's totals only: the pool's full metrics would copy every
  // scheduler's histograms on every allocate.
  const pool::Resource capacity = deps_.pool->cell().Capacity();
  const pool::Resource allocated = deps_.pool->cell().Allocated();
  pool::Resource headroom =
      pool::Resource::Of(std::max<int64_t>(0, capacity.memory_mb() - allocated.memory_mb()),
                         std::max<int64_t>(0, capacity.vcores() - allocated.vcores()));
  ToProto(headroom, response->mutable_limit());
  response->set_num_cluster_nodes(deps_.nodes->NumUsableNodes());
  if (auto id = rm::DecodeAmrmTokenIdentifier(who.token_identifier);
      id.ok() && deps_.amrm_tokens->NeedsNewToken(id->key_id)) {
    rm::ToTokenProto(deps_.amrm_tokens->CreateToken(attempt), response->mutable_am_rm_token());
  }
  if ((request.ask_size() > 0 || response->allocated_containers_size() > 0) &&
      !state->recovered.has_value()) {
    // (While a re-sent table is not capped yet, the stored one stays.)
    SaveAsks(attempt, *state);
  }
  state->last_response_id = NextResponseId(deps_.rules, state->last_response_id);
  response->set_response_id(state->last_response_id);
  state->last_response = *response;
  return Status::OK();
}

Status AmService::Finish(const ipc::ConnectionIdentity& who,
                         const y::FinishApplicationMasterRequestProto& request,
                         y::FinishApplicationMasterResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  ASSIGN_OR_RETURN(bool unregistered,
                   deps_.apps->FinishAm(attempt, FromProto(request.final_application_status()),
                                        request.diagnostics(), request.tracking_url()));
  response->set_isunregistered(unregistered);
  return Status::OK();
}

}  // namespace spindle::am_protocol
