// NodeTracker: the RM side of the ResourceTracker protocol in plain values
// (registerNodeManager, nodeHeartbeat, unRegisterNodeManager), turned into
// calls on the node registry, the container registry, the application
// manager (AM container exits, recovered containers, container signals) and
// the secret managers (master keys), as Hadoop's ResourceTrackerService with
// RMNodeImpl do. nm_shim/tracker only decodes the protobuf, calls this and
// encodes the answer. One tracker belongs to one activation (ActiveServices).
//
// Thread contract: every method is thread-safe; calls run concurrently on
// the IPC worker pool; the last answer per node has its own mutex, never
// held while calling out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/mutex.h"
#include "rm/apps/app_manager.h"
#include "rm/containers/container_registry.h"
#include "rm/core/node_protocol.h"
#include "rm/nodes/node_registry.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"

namespace spindle::rm {

class NodeTracker final : public NodeProtocol {
 public:
  // Every pointer must outlive the tracker. `rm_identifier`: the
  // activation's start (ActiveServices::start_ms).
  NodeTracker(NodeRegistry* nodes, ContainerRegistry* containers, ApplicationManager* apps,
              const ContainerTokenSecretManager* container_tokens, NmTokenSecretManager* nm_tokens,
              int64_t rm_identifier);

  // NodeProtocol; never StandbyException.
  Result<NodeRegisterOutcome> RegisterNode(const NodeRegisterRequest& request) override;
  Result<NodeHeartbeatOutcome> NodeHeartbeat(const NodeHeartbeatRequest& request) override;
  // The heartbeats of many nodes in one call (the wind tunnel's nodes
  // report their ended tasks together): each answer, in order, is exactly
  // what NodeHeartbeat would answer that request if the requests were
  // passed to it one after another, but the registries are locked once per
  // call rather than once per node, and what completes goes back to the
  // pool in one release (a release per node woke a scheduler thread per
  // node). A node may appear more than once.
  std::vector<NodeHeartbeatOutcome> NodeHeartbeats(std::span<const NodeHeartbeatRequest> requests);
  Status UnregisterNode(const NodeId& node) override;
  // The nodes the registry dropped (expiry, unregistration, exclusion):
  // their containers complete (AM containers end their attempts), their NM
  // tokens and pending signals are forgotten.
  void OnNodesGone(const std::vector<NodeId>& nodes);

 private:
  // Tells the app manager about AM containers among `completed`.
  void NotifyCompleted(const std::vector<CompletedContainer>& completed);
  void ForgetLastOutcome(const NodeId& node);

  NodeRegistry* const nodes_;
  ContainerRegistry* const containers_;
  ApplicationManager* const apps_;
  const ContainerTokenSecretManager* const container_tokens_;
  NmTokenSecretManager* const nm_tokens_;
  const int64_t rm_identifier_;

  // The last answer per node, re-sent for a duplicate heartbeat
  // (RMNodeImpl's latestNodeHeartBeatResponse).
  Mutex last_mu_;
  // Looked up by node only: hashed (host-name compares of an ordered map
  // were a fifth of a heartbeat at 25,000 nodes).
  std::unordered_map<NodeId, NodeHeartbeatOutcome> last_outcomes_ GUARDED_BY(last_mu_);
};

}  // namespace spindle::rm
