#include "nm_shim/tracker/resource_tracker_service.h"

#include <glog/logging.h>

#include "rm/security/yarn_id_protos.h"

namespace spindle::nm_shim {

namespace y = hadoop::yarn;

namespace {

void ToProto(const rm::MasterKey& key, y::MasterKeyProto* proto) {
  proto->set_key_id(key.key_id);
  proto->set_bytes(key.bytes);
}

y::NodeActionProto ToProto(rm::NodeAction action) {
  switch (action) {
    case rm::NodeAction::kNormal:
      return y::NORMAL;
    case rm::NodeAction::kResync:
      return y::RESYNC;
    case rm::NodeAction::kShutdown:
      return y::SHUTDOWN;
  }
  return y::NORMAL;
}

pool::Resource FromProto(const y::ResourceProto& r) {
  return pool::Resource::Of(r.memory(), r.virtual_cores());
}

rm::ResourceUtilization FromProto(const y::ResourceUtilizationProto& u) {
  return rm::ResourceUtilization{u.pmem(), u.vmem(), u.cpu()};
}

}  // namespace

ResourceTrackerService::ResourceTrackerService(const ResourceTrackerOptions& options,
                                               rm::NodeProtocol* core)
    : options_(options), core_(core) {}

std::unique_ptr<ipc::RpcService> ResourceTrackerService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kResourceTrackerProtocol);
  service->AddMethod<y::RegisterNodeManagerRequestProto, y::RegisterNodeManagerResponseProto>(
      "registerNodeManager",
      [this](const ipc::ConnectionIdentity&, const y::RegisterNodeManagerRequestProto& request,
             y::RegisterNodeManagerResponseProto* response) {
        return RegisterNodeManager(request, response);
      });
  service->AddMethod<y::NodeHeartbeatRequestProto, y::NodeHeartbeatResponseProto>(
      "nodeHeartbeat",
      [this](const ipc::ConnectionIdentity&, const y::NodeHeartbeatRequestProto& request,
             y::NodeHeartbeatResponseProto* response) { return NodeHeartbeat(request, response); });
  service->AddMethod<y::UnRegisterNodeManagerRequestProto, y::UnRegisterNodeManagerResponseProto>(
      "unRegisterNodeManager",
      [this](const ipc::ConnectionIdentity&, const y::UnRegisterNodeManagerRequestProto& request,
             y::UnRegisterNodeManagerResponseProto* response) {
        return UnRegisterNodeManager(request, response);
      });
  return service;
}

Status ResourceTrackerService::RegisterNodeManager(
    const y::RegisterNodeManagerRequestProto& request,
    y::RegisterNodeManagerResponseProto* response) {
  rm::NodeRegisterRequest call;
  rm::NodeRegistration& registration = call.registration;
  registration.id = rm::FromProto(request.node_id());
  registration.http_port = request.http_port();
  registration.capability = FromProto(request.resource());
  registration.nm_version = request.nm_version();
  call.runs_applications = request.runningapplications_size() > 0;
  call.containers.reserve(request.container_statuses_size());
  for (const auto& status : request.container_statuses()) {
    rm::NodeContainerReport& c = call.containers.emplace_back();
    c.id = rm::FromProto(status.container_id());
    c.complete = status.container_state() == y::C_COMPLETE;
    c.exit_status = status.container_exit_status();
    c.diagnostics = status.diagnostics();
    c.resource = FromProto(status.resource());
    c.priority = status.priority().priority();
    c.allocation_request_id = status.allocation_request_id();
    c.created_ms = status.creation_time();
  }
  ASSIGN_OR_RETURN(const rm::NodeRegisterOutcome outcome, core_->RegisterNode(call));
  response->set_nodeaction(ToProto(outcome.action));
  response->set_rm_identifier(outcome.rm_identifier);
  response->set_rm_version(options_.rm_version);
  if (outcome.action != rm::NodeAction::kNormal) {
    response->set_diagnostics_message(outcome.diagnostics);
    return Status::OK();
  }
  if (outcome.container_token_key.has_value()) {
    ToProto(*outcome.container_token_key, response->mutable_container_token_master_key());
  }
  if (outcome.nm_token_key.has_value()) {
    ToProto(*outcome.nm_token_key, response->mutable_nm_token_master_key());
  }
  return Status::OK();
}

Status ResourceTrackerService::NodeHeartbeat(const y::NodeHeartbeatRequestProto& request,
                                             y::NodeHeartbeatResponseProto* response) {
  const auto& status = request.node_status();
  rm::NodeHeartbeatRequest call;
  rm::NodeHeartbeat& heartbeat = call.heartbeat;
  heartbeat.id = rm::FromProto(status.node_id());
  heartbeat.response_id = status.response_id();
  heartbeat.healthy = !status.has_nodehealthstatus() || status.nodehealthstatus().is_node_healthy();
  heartbeat.health_report = status.nodehealthstatus().health_report();
  heartbeat.last_health_report_ms = status.nodehealthstatus().last_health_report_time();
  int32_t live = 0;
  call.containers.reserve(status.containersstatuses_size());
  for (const auto& c : status.containersstatuses()) {
    rm::NodeContainerReport& report = call.containers.emplace_back();
    report.id = rm::FromProto(c.container_id());
    report.complete = c.state() == y::C_COMPLETE;
    report.exit_status = c.exit_status();
    report.diagnostics = c.diagnostics();
    live += report.complete ? 0 : 1;
  }
  heartbeat.num_containers = live;
  if (status.has_node_utilization()) {
    heartbeat.node_utilization = FromProto(status.node_utilization());
  }
  if (status.has_containers_utilization()) {
    heartbeat.containers_utilization = FromProto(status.containers_utilization());
  }
  if (request.has_last_known_container_token_master_key()) {
    call.last_container_token_key = request.last_known_container_token_master_key().key_id();
  }
  if (request.has_last_known_nm_token_master_key()) {
    call.last_nm_token_key = request.last_known_nm_token_master_key().key_id();
  }

  ASSIGN_OR_RETURN(const rm::NodeHeartbeatOutcome outcome, core_->NodeHeartbeat(call));
  response->set_nodeaction(ToProto(outcome.action));
  response->set_nextheartbeatinterval(options_.heartbeat_interval_ms);
  response->set_response_id(outcome.response_id);
  if (outcome.action != rm::NodeAction::kNormal) {
    response->set_diagnostics_message(outcome.diagnostics);
    return Status::OK();
  }
  for (const auto& id : outcome.containers_to_cleanup) {
    rm::ToProto(id, response->add_containers_to_cleanup());
  }
  for (const auto& id : outcome.containers_to_remove) {
    rm::ToProto(id, response->add_containers_to_be_removed_from_nm());
  }
  for (const auto& app : outcome.applications_to_cleanup) {
    rm::ToProto(app, response->add_applications_to_cleanup());
  }
  for (const rm::ContainerSignal& signal : outcome.containers_to_signal) {
    y::SignalContainerRequestProto* to_signal = response->add_containers_to_signal();
    rm::ToProto(signal.container, to_signal->mutable_container_id());
    to_signal->set_command(static_cast<y::SignalContainerCommandProto>(signal.command));
  }
  if (outcome.container_token_key.has_value()) {
    ToProto(*outcome.container_token_key, response->mutable_container_token_master_key());
  }
  if (outcome.nm_token_key.has_value()) {
    ToProto(*outcome.nm_token_key, response->mutable_nm_token_master_key());
  }
  return Status::OK();
}

Status ResourceTrackerService::UnRegisterNodeManager(
    const y::UnRegisterNodeManagerRequestProto& request,
    y::UnRegisterNodeManagerResponseProto* /*response*/) {
  const rm::NodeId id = rm::FromProto(request.node_id());
  Status s = core_->UnregisterNode(id);
  if (s.code() == Status::Code::kNotFound) {
    LOG(WARNING) << "unRegisterNodeManager from unknown node " << id.ToString();
    return Status::OK();  // Hadoop answers an unknown node with an empty response too
  }
  return s;
}

}  // namespace spindle::nm_shim
