#include "am_protocol/am_service/am_service.h"

#include "rm/security/token.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/token_service.h"

namespace spindle::am_protocol {

namespace y = hadoop::yarn;

namespace {

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

Result<rm::ApplicationAttemptId> AttemptOf(const ipc::ConnectionIdentity& who) {
  if (who.auth_method != ipc::AuthMethod::kToken) {
    return Status::Remote(rm::yarn::kYarnException, "No AMRMToken found for user " + who.user);
  }
  auto attempt = rm::ApplicationAttemptId::Parse(who.user);
  if (!attempt.ok()) {
    return Status::Remote(rm::yarn::kYarnException, "No AMRMToken found for user " + who.user);
  }
  return attempt;
}

rm::AllocateRequest Decode(const ipc::ConnectionIdentity& who,
                           const y::AllocateRequestProto& request) {
  rm::AllocateRequest out;
  out.response_id = request.response_id();
  out.progress = request.progress();
  out.asks.reserve(static_cast<size_t>(request.ask_size()));
  for (const y::ResourceRequestProto& ask : request.ask()) {
    out.asks.push_back(rm::ResourceRequest{
        ask.priority().priority(), ask.allocation_request_id(), ask.resource_name(),
        pool::Resource::Of(ask.capability().memory(), ask.capability().virtual_cores()),
        ask.num_containers(), ask.relax_locality(),
        ask.has_node_label_expression() ? std::optional<std::string>(ask.node_label_expression())
                                        : std::nullopt});
  }
  for (const y::ContainerIdProto& id : request.release()) out.releases.push_back(rm::FromProto(id));
  const y::ResourceBlacklistRequestProto& blacklist = request.blacklist_request();
  out.blacklist_additions.assign(blacklist.blacklist_additions().begin(),
                                 blacklist.blacklist_additions().end());
  out.blacklist_removals.assign(blacklist.blacklist_removals().begin(),
                                blacklist.blacklist_removals().end());
  for (const y::UpdateContainerRequestProto& update : request.update_requests()) {
    out.update_requests.push_back(rm::ContainerUpdateRequest{rm::FromProto(update.container_id()),
                                                             update.container_version(),
                                                             update.SerializePartialAsString()});
  }
  out.amrm_token_identifier = who.token_identifier;
  return out;
}

// PreemptionMessage (the negotiable contract the CapacityScheduler sends:
// rm/core/preemption_message.h). Each PreemptionResourceRequest holds a
// ResourceRequest as ResourceRequest.newInstance / newBuilder leaves it:
// relaxLocality true, no allocation request id.
void Encode(const rm::PreemptionMessage& message, y::PreemptionMessageProto* out) {
  y::PreemptionContractProto* contract = out->mutable_contract();
  for (const rm::ResourceRequest& r : message.contract_requests) {
    y::ResourceRequestProto* request = contract->add_resource()->mutable_resource();
    request->mutable_priority()->set_priority(r.priority);
    request->set_resource_name(r.resource_name);
    ToProto(r.capability, request->mutable_capability());
    request->set_num_containers(r.count);
    request->set_relax_locality(r.relax_locality);
  }
  for (const rm::ContainerId& id : message.contract_containers) {
    rm::ToProto(id, contract->add_container()->mutable_id());
  }
}

void Encode(const rm::AllocateResponse& answer, y::AllocateResponseProto* response) {
  for (const rm::ContainerUpdateError& e : answer.update_errors) {
    y::UpdateContainerErrorProto* error = response->add_update_errors();
    error->mutable_update_request()->ParsePartialFromString(e.echo);
    error->set_reason(e.reason);
    if (e.current_container_version.has_value()) {
      error->set_current_container_version(*e.current_container_version);
    }
  }
  for (const rm::AllocatedContainer& a : answer.allocated) {
    y::ContainerProto* c = response->add_allocated_containers();
    rm::ToProto(a.id, c->mutable_id());
    rm::ToProto(a.node, c->mutable_nodeid());
    c->set_node_http_address(a.node_http_address);
    ToProto(a.resource, c->mutable_resource());
    c->mutable_priority()->set_priority(a.priority);
    rm::ToTokenProto(a.container_token, c->mutable_container_token());
    c->set_execution_type(y::GUARANTEED);
    c->set_allocation_request_id(a.allocation_request_id);
  }
  for (const auto& nm : answer.nm_tokens) {
    y::NMTokenProto* t = response->add_nm_tokens();
    rm::ToProto(nm.node, t->mutable_nodeid());
    rm::ToTokenProto(nm.token, t->mutable_token());
  }
  for (const rm::CompletedContainer& done : answer.completed) {
    y::ContainerStatusProto* s = response->add_completed_container_statuses();
    rm::ToProto(done.id, s->mutable_container_id());
    s->set_state(y::C_COMPLETE);
    s->set_diagnostics(done.diagnostics);
    s->set_exit_status(done.exit_status);
  }
  ToProto(answer.headroom, response->mutable_limit());
  response->set_num_cluster_nodes(answer.num_cluster_nodes);
  response->mutable_application_priority()->set_priority(answer.application_priority);
  if (answer.preemption.has_value()) Encode(*answer.preemption, response->mutable_preempt());
  if (answer.amrm_token.has_value()) {
    rm::ToTokenProto(*answer.amrm_token, response->mutable_am_rm_token());
  }
  response->set_response_id(answer.response_id);
}

}  // namespace

std::string NodeTokenService(const rm::NodeId& node) {
  return ipc::TokenService(node.host, node.port);
}

AmService::AmService(rm::AttemptProtocol* allocator) : allocator_(allocator) {}

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

Status AmService::Register(const ipc::ConnectionIdentity& who,
                           const y::RegisterApplicationMasterRequestProto& request,
                           y::RegisterApplicationMasterResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  ASSIGN_OR_RETURN(
      rm::RegisterResponse answer,
      allocator_->Register(attempt, request.host(), request.rpc_port(), request.tracking_url()));
  ToProto(answer.maximum_capability, response->mutable_maximumcapability());
  if (answer.queue.has_value()) {
    response->set_queue(*answer.queue);
    y::ApplicationSubmissionContextProto context;
    if (context.ParseFromString(answer.submission_context)) {
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
  if (answer.client_to_am_token_master_key.has_value()) {
    response->set_client_to_am_token_master_key(*answer.client_to_am_token_master_key);
  }
  return Status::OK();
}

Status AmService::Allocate(const ipc::ConnectionIdentity& who,
                           const y::AllocateRequestProto& request,
                           y::AllocateResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  ASSIGN_OR_RETURN(std::shared_ptr<const rm::AllocateResponse> answer,
                   allocator_->Allocate(attempt, Decode(who, request)));
  // Null: the registration's empty answer, repeated.
  if (answer != nullptr) Encode(*answer, response);
  return Status::OK();
}

Status AmService::Finish(const ipc::ConnectionIdentity& who,
                         const y::FinishApplicationMasterRequestProto& request,
                         y::FinishApplicationMasterResponseProto* response) {
  ASSIGN_OR_RETURN(rm::ApplicationAttemptId attempt, AttemptOf(who));
  ASSIGN_OR_RETURN(bool unregistered,
                   allocator_->Finish(attempt, FromProto(request.final_application_status()),
                                      request.diagnostics(), request.tracking_url()));
  response->set_isunregistered(unregistered);
  return Status::OK();
}

}  // namespace spindle::am_protocol
