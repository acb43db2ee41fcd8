#include "rm/core/node_tracker.h"

#include <glog/logging.h>

#include <utility>

namespace spindle::rm {

NodeTracker::NodeTracker(NodeRegistry* nodes, ContainerRegistry* containers,
                         ApplicationManager* apps,
                         const ContainerTokenSecretManager* container_tokens,
                         NmTokenSecretManager* nm_tokens, int64_t rm_identifier)
    : nodes_(nodes),
      containers_(containers),
      apps_(apps),
      container_tokens_(container_tokens),
      nm_tokens_(nm_tokens),
      rm_identifier_(rm_identifier) {}

Result<NodeRegisterOutcome> NodeTracker::RegisterNode(const NodeRegisterRequest& request) {
  const NodeRegistration& registration = request.registration;
  NodeRegisterOutcome outcome;
  outcome.rm_identifier = rm_identifier_;
  if (registration.id.host.empty()) {
    outcome.action = NodeAction::kShutdown;
    outcome.diagnostics = "registerNodeManager without a node id";
    return outcome;
  }
  const RegistrationResult result = nodes_->Register(registration);
  outcome.action = result.action;
  if (result.action != NodeAction::kNormal) {
    outcome.diagnostics = result.diagnostics;
    return outcome;
  }
  nm_tokens_->RemoveNode(registration.id);
  outcome.container_token_key = container_tokens_->CurrentKey();
  outcome.nm_token_key = nm_tokens_->CurrentKey();
  ForgetLastOutcome(registration.id);
  if (result.reconnected && !request.runs_applications) {
    // A restarted agent that runs no application has lost whatever the RM
    // still placed on it: Hadoop's ReconnectNodeTransition (2.6.5 and 3.3)
    // removes the node from the scheduler, which completes each of its
    // containers as lost (ABORTED), and adds it back. Their AMs hear of it
    // at their next allocate; a lost AM container ends its attempt now.
    // (A node that does report running applications keeps its containers:
    // only what it reports is reconciled, as in Hadoop.)
    const std::vector<CompletedContainer> lost = containers_->OnNodeLost(registration.id);
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
  std::vector<ReportedContainer> reported;
  for (const NodeContainerReport& container : request.containers) {
    reported.push_back(
        {container.id, container.complete, container.exit_status, container.diagnostics});
    if (containers_->Get(container.id).has_value()) continue;
    // After an RM restart: what kept running is taken back (work-preserving
    // recovery); an AM container that ended meanwhile ends its attempt.
    if (container.complete &&
        apps_->OnContainerFinished(container.id, container.exit_status, container.diagnostics)) {
      continue;
    }
    // A task container that ended while the RM was down (or whose end the
    // previous run had not yet handed to its AM): taken back and completed
    // at once by OnNodeReport below, so that its AM hears of it (as
    // Hadoop's RMContainerImpl recovers a COMPLETE container).
    ReportedRunningContainer running;
    running.id = container.id;
    running.node = registration.id;
    running.pool_node = result.pool_node;
    running.resource = container.resource;
    running.priority = container.priority;
    running.allocation_request_id = container.allocation_request_id;
    running.created_ms = container.created_ms;
    apps_->RecoverContainer(running);
  }
  apps_->OnNodeReregistered(registration.id);
  if (!reported.empty()) {
    NotifyCompleted(containers_->OnNodeReport(registration.id, reported).completed);
  }
  return outcome;
}

Result<NodeHeartbeatOutcome> NodeTracker::NodeHeartbeat(const NodeHeartbeatRequest& request) {
  const HeartbeatVerdict verdict = nodes_->Heartbeat(request.heartbeat);
  const NodeId& node = request.heartbeat.id;
  if (verdict.duplicate) {
    MutexLock lock(&last_mu_);
    auto it = last_outcomes_.find(node);
    if (it != last_outcomes_.end()) return it->second;
  }
  NodeHeartbeatOutcome outcome;
  outcome.action = verdict.action;
  outcome.response_id = verdict.response_id;
  if (verdict.action != NodeAction::kNormal) {
    outcome.diagnostics = verdict.diagnostics;
    return outcome;
  }
  std::vector<ReportedContainer> reported;
  reported.reserve(request.containers.size());
  for (const NodeContainerReport& c : request.containers) {
    reported.push_back({c.id, c.complete, c.exit_status, c.diagnostics});
  }
  NodeContainerActions actions = containers_->OnNodeReport(node, reported);
  NotifyCompleted(actions.completed);
  outcome.containers_to_cleanup = std::move(actions.to_cleanup);
  outcome.containers_to_remove = std::move(actions.to_remove_from_nm);
  outcome.applications_to_cleanup = std::move(actions.applications_to_cleanup);
  // signalToContainer: what clients asked since the last heartbeat
  // (RMNodeImpl.updateNodeHeartbeatResponseForContainersSignal).
  outcome.containers_to_signal = apps_->container_signals().Take(node);
  outcome.container_token_key =
      container_tokens_->KeyForHeartbeat(request.last_container_token_key);
  outcome.nm_token_key = nm_tokens_->KeyForHeartbeat(request.last_nm_token_key);
  // Copied before the lock every heartbeat shares, swapped in under it.
  NodeHeartbeatOutcome kept = outcome;
  {
    MutexLock lock(&last_mu_);
    std::swap(last_outcomes_[node], kept);
  }
  return outcome;
}

Status NodeTracker::UnregisterNode(const NodeId& node) {
  RETURN_NOT_OK(nodes_->Unregister(node));
  NotifyCompleted(containers_->OnNodeLost(node));
  nm_tokens_->RemoveNode(node);
  apps_->container_signals().Forget(node);
  ForgetLastOutcome(node);
  LOG(INFO) << "node " << node.ToString() << " unregistered";
  return Status::OK();
}

void NodeTracker::OnNodesGone(const std::vector<NodeId>& nodes) {
  for (const NodeId& node : nodes) {
    NotifyCompleted(containers_->OnNodeLost(node));
    nm_tokens_->RemoveNode(node);
    apps_->container_signals().Forget(node);
    ForgetLastOutcome(node);
  }
}

void NodeTracker::ForgetLastOutcome(const NodeId& node) {
  MutexLock lock(&last_mu_);
  last_outcomes_.erase(node);
}

void NodeTracker::NotifyCompleted(const std::vector<CompletedContainer>& completed) {
  for (const auto& c : completed) {
    if (c.is_am) apps_->OnContainerFinished(c.id, c.exit_status, c.diagnostics);
  }
}

}  // namespace spindle::rm
