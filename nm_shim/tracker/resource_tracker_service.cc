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

ResourceTrackerService::ResourceTrackerService(
    const ResourceTrackerOptions& options, rm::NodeRegistry* nodes,
    rm::ContainerRegistry* containers, rm::ApplicationManager* apps,
    const rm::ContainerTokenSecretManager* container_tokens, rm::NmTokenSecretManager* nm_tokens)
    : options_(options),
      nodes_(nodes),
      containers_(containers),
      apps_(apps),
      container_tokens_(container_tokens),
      nm_tokens_(nm_tokens) {}

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
  rm::NodeRegistration registration;
  registration.id = rm::FromProto(request.node_id());
  registration.http_port = request.http_port();
  registration.capability = FromProto(request.resource());
  registration.nm_version = request.nm_version();
  if (registration.id.host.empty()) {
    response->set_nodeaction(y::SHUTDOWN);
    response->set_diagnostics_message("registerNodeManager without a node id");
    return Status::OK();
  }
  const rm::RegistrationResult result = nodes_->Register(registration);
  response->set_nodeaction(ToProto(result.action));
  response->set_rm_identifier(options_.rm_identifier);
  response->set_rm_version(options_.rm_version);
  if (result.action != rm::NodeAction::kNormal) {
    response->set_diagnostics_message(result.diagnostics);
    return Status::OK();
  }
  nm_tokens_->RemoveNode(registration.id);
  ToProto(container_tokens_->CurrentKey(), response->mutable_container_token_master_key());
  ToProto(nm_tokens_->CurrentKey(), response->mutable_nm_token_master_key());
  {
    MutexLock lock(&last_mu_);
    last_responses_.erase(registration.id);
  }
  if (result.reconnected && request.runningapplications_size() == 0) {
    // A restarted agent that runs no application has lost whatever the RM
    // still placed on it: Hadoop's ReconnectNodeTransition (2.6.5 and 3.3)
    // removes the node from the scheduler, which completes each of its
    // containers as lost (ABORTED), and adds it back. Their AMs hear of it
    // at their next allocate; a lost AM container ends its attempt now.
    // (A node that does report running applications keeps its containers:
    // only what it reports is reconciled, as in Hadoop.)
    const std::vector<rm::CompletedContainer> lost = containers_->OnNodeLost(registration.id);
    if (!lost.empty()) {
      LOG(INFO) << "node " << registration.id.ToString()
                << " re-registered running no application: " << lost.size()
                << " of its containers completed as lost";
    }
    apps_->container_signals().Forget(registration.id);
    NotifyCompleted(lost);
  }
  // Containers the node says it still runs: complete those the RM has
  // finished with, keep the rest (their completion arrives by heartbeat).
  std::vector<rm::ReportedContainer> reported;
  for (const auto& status : request.container_statuses()) {
    const rm::ContainerId id = rm::FromProto(status.container_id());
    const bool complete = status.container_state() == y::C_COMPLETE;
    reported.push_back({id, complete, status.container_exit_status(), status.diagnostics()});
    if (containers_->Get(id).has_value()) continue;
    // After an RM restart: what kept running is taken back (work-preserving
    // recovery); an AM container that ended meanwhile ends its attempt.
    if (complete &&
        apps_->OnContainerFinished(id, status.container_exit_status(), status.diagnostics())) {
      continue;
    }
    // A task container that ended while the RM was down (or whose end the
    // previous run had not yet handed to its AM): taken back and completed
    // at once by OnNodeReport below, so that its AM hears of it (as
    // Hadoop's RMContainerImpl recovers a COMPLETE container).
    rm::ReportedRunningContainer running;
    running.id = id;
    running.node = registration.id;
    running.pool_node = result.pool_node;
    running.resource = FromProto(status.resource());
    running.priority = status.priority().priority();
    running.allocation_request_id = status.allocation_request_id();
    running.created_ms = status.creation_time();
    apps_->RecoverContainer(running);
  }
  apps_->OnNodeReregistered(registration.id);
  if (!reported.empty()) {
    NotifyCompleted(containers_->OnNodeReport(registration.id, reported).completed);
  }
  return Status::OK();
}

Status ResourceTrackerService::NodeHeartbeat(const y::NodeHeartbeatRequestProto& request,
                                             y::NodeHeartbeatResponseProto* response) {
  const auto& status = request.node_status();
  rm::NodeHeartbeat heartbeat;
  heartbeat.id = rm::FromProto(status.node_id());
  heartbeat.response_id = status.response_id();
  heartbeat.healthy = !status.has_nodehealthstatus() || status.nodehealthstatus().is_node_healthy();
  heartbeat.health_report = status.nodehealthstatus().health_report();
  heartbeat.last_health_report_ms = status.nodehealthstatus().last_health_report_time();
  int32_t live = 0;
  std::vector<rm::ReportedContainer> reported;
  for (const auto& c : status.containersstatuses()) {
    const bool complete = c.state() == y::C_COMPLETE;
    live += complete ? 0 : 1;
    reported.push_back(
        {rm::FromProto(c.container_id()), complete, c.exit_status(), c.diagnostics()});
  }
  heartbeat.num_containers = live;
  if (status.has_node_utilization()) {
    heartbeat.node_utilization = FromProto(status.node_utilization());
  }
  if (status.has_containers_utilization()) {
    heartbeat.containers_utilization = FromProto(status.containers_utilization());
  }

  const rm::HeartbeatVerdict verdict = nodes_->Heartbeat(heartbeat);
  if (verdict.duplicate) {
    MutexLock lock(&last_mu_);
    auto it = last_responses_.find(heartbeat.id);
    if (it != last_responses_.end()) {
      *response = it->second;
      return Status::OK();
    }
  }
  response->set_nodeaction(ToProto(verdict.action));
  response->set_nextheartbeatinterval(options_.heartbeat_interval_ms);
  if (verdict.action != rm::NodeAction::kNormal) {
    response->set_response_id(verdict.response_id);
    response->set_diagnostics_message(verdict.diagnostics);
    return Status::OK();
  }
  response->set_response_id(verdict.response_id);

  rm::NodeContainerActions actions = containers_->OnNodeReport(heartbeat.id, reported);
  NotifyCompleted(actions.completed);
  for (const auto& id : actions.to_cleanup) rm::ToProto(id, response->add_containers_to_cleanup());
  for (const auto& id : actions.to_remove_from_nm) {
    rm::ToProto(id, response->add_containers_to_be_removed_from_nm());
  }
  for (const auto& app : actions.applications_to_cleanup) {
    rm::ToProto(app, response->add_applications_to_cleanup());
  }
  // signalToContainer: what clients asked since the last heartbeat
  // (RMNodeImpl.updateNodeHeartbeatResponseForContainersSignal).
  for (const rm::ContainerSignal& signal : apps_->container_signals().Take(heartbeat.id)) {
    y::SignalContainerRequestProto* to_signal = response->add_containers_to_signal();
    rm::ToProto(signal.container, to_signal->mutable_container_id());
    to_signal->set_command(static_cast<y::SignalContainerCommandProto>(signal.command));
  }

  // New master keys travel only while the node does not have them yet.
  std::optional<int32_t> container_key;
  if (request.has_last_known_container_token_master_key()) {
    container_key = request.last_known_container_token_master_key().key_id();
  }
  if (auto key = container_tokens_->KeyForHeartbeat(container_key); key.has_value()) {
    ToProto(*key, response->mutable_container_token_master_key());
  }
  std::optional<int32_t> nm_key;
  if (request.has_last_known_nm_token_master_key()) {
    nm_key = request.last_known_nm_token_master_key().key_id();
  }
  if (auto key = nm_tokens_->KeyForHeartbeat(nm_key); key.has_value()) {
    ToProto(*key, response->mutable_nm_token_master_key());
  }
  MutexLock lock(&last_mu_);
  last_responses_[heartbeat.id] = *response;
  return Status::OK();
}

Status ResourceTrackerService::UnRegisterNodeManager(
    const y::UnRegisterNodeManagerRequestProto& request,
    y::UnRegisterNodeManagerResponseProto* /*response*/) {
  const rm::NodeId id = rm::FromProto(request.node_id());
  Status s = nodes_->Unregister(id);
  if (!s.ok()) {
    LOG(WARNING) << "unRegisterNodeManager from unknown node " << id.ToString();
    return Status::OK();  // Hadoop answers an unknown node with an empty response too
  }
  NotifyCompleted(containers_->OnNodeLost(id));
  nm_tokens_->RemoveNode(id);
  apps_->container_signals().Forget(id);
  LOG(INFO) << "node " << id.ToString() << " unregistered";
  return Status::OK();
}

void ResourceTrackerService::ExpireNodes() {
  for (const rm::NodeId& id : nodes_->ExpireSilentNodes()) {
    NotifyCompleted(containers_->OnNodeLost(id));
    nm_tokens_->RemoveNode(id);
    apps_->container_signals().Forget(id);
    MutexLock lock(&last_mu_);
    last_responses_.erase(id);
  }
}

void ResourceTrackerService::NotifyCompleted(const std::vector<rm::CompletedContainer>& completed) {
  for (const auto& c : completed) {
    if (c.is_am) apps_->OnContainerFinished(c.id, c.exit_status, c.diagnostics);
  }
}

}  // namespace spindle::nm_shim
