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
  return std::move(NodeHeartbeats(std::span(&request, 1)).front());
}

std::vector<NodeHeartbeatOutcome> NodeTracker::NodeHeartbeats(
    std::span<const NodeHeartbeatRequest> requests) {
  const size_t n = requests.size();
  std::vector<const rm::NodeHeartbeat*> heartbeats;
  heartbeats.reserve(n);
  for (const NodeHeartbeatRequest& r : requests) heartbeats.push_back(&r.heartbeat);
  const std::vector<HeartbeatVerdict> verdicts = nodes_->HeartbeatAll(heartbeats);
  std::vector<NodeHeartbeatOutcome> out(n);
  // Requests that report their containers (and whose answer is kept for a
  // repeat), in order; a repeated heartbeat answered by an earlier request
  // of this call points at it.
  std::vector<size_t> reporting;
  reporting.reserve(n);
  std::vector<std::optional<size_t>> repeat_of(n);
  std::vector<bool> kept(n, false);
  {
    MutexLock lock(&last_mu_);
    for (size_t i = 0; i < n; ++i) {
      const HeartbeatVerdict& verdict = verdicts[i];
      const NodeId& node = requests[i].heartbeat.id;
      if (verdict.duplicate) {
        // The last answer this node got: from this call if an earlier
        // request of it was answered here, else from before.
        for (size_t j = i; j-- > 0;) {
          if (kept[j] && requests[j].heartbeat.id == node) {
            repeat_of[i] = j;
            break;
          }
        }
        if (repeat_of[i].has_value()) continue;
        if (auto it = last_outcomes_.find(node); it != last_outcomes_.end()) {
          out[i] = it->second;
          continue;
        }
      }
      out[i].action = verdict.action;
      out[i].response_id = verdict.response_id;
      if (verdict.action != NodeAction::kNormal) {
        out[i].diagnostics = verdict.diagnostics;
        continue;
      }
      kept[i] = true;
      reporting.push_back(i);
    }
  }
  std::vector<std::vector<ReportedContainer>> reported(reporting.size());
  std::vector<NodeReportRef> refs;
  refs.reserve(reporting.size());
  for (size_t k = 0; k < reporting.size(); ++k) {
    const NodeHeartbeatRequest& request = requests[reporting[k]];
    reported[k].reserve(request.containers.size());
    for (const NodeContainerReport& c : request.containers) {
      reported[k].push_back({c.id, c.complete, c.exit_status, c.diagnostics});
    }
    refs.push_back({&request.heartbeat.id, &reported[k]});
  }
  // The container registry stops after a report that ended an AM
  // container: the app manager hears of it before the next node's report,
  // as with one call per node.
  for (size_t done = 0; done < refs.size();) {
    std::vector<NodeContainerActions> actions =
        containers_->OnNodeReports(std::span(refs).subspan(done));
    for (NodeContainerActions& a : actions) {
      NotifyCompleted(a.completed);
      NodeHeartbeatOutcome& outcome = out[reporting[done++]];
      outcome.containers_to_cleanup = std::move(a.to_cleanup);
      outcome.containers_to_remove = std::move(a.to_remove_from_nm);
      outcome.applications_to_cleanup = std::move(a.applications_to_cleanup);
    }
  }
  for (size_t i : reporting) {
    const NodeHeartbeatRequest& request = requests[i];
    NodeHeartbeatOutcome& outcome = out[i];
    // signalToContainer: what clients asked since the last heartbeat
    // (RMNodeImpl.updateNodeHeartbeatResponseForContainersSignal).
    outcome.containers_to_signal = apps_->container_signals().Take(request.heartbeat.id);
    outcome.container_token_key =
        container_tokens_->KeyForHeartbeat(request.last_container_token_key);
    outcome.nm_token_key = nm_tokens_->KeyForHeartbeat(request.last_nm_token_key);
  }
  // Copied before the lock every heartbeat shares, swapped in under it.
  std::vector<NodeHeartbeatOutcome> copies;
  copies.reserve(reporting.size());
  for (size_t i : reporting) copies.push_back(out[i]);
  {
    MutexLock lock(&last_mu_);
    for (size_t k = 0; k < reporting.size(); ++k) {
      std::swap(last_outcomes_[requests[reporting[k]].heartbeat.id], copies[k]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (repeat_of[i].has_value()) out[i] = out[*repeat_of[i]];
  }
  return out;
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
