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
#include <string>
#include <vector>

#include "base/mutex.h"
#include "rm/apps/app_manager.h"
#include "rm/apps/container_signals.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/master_key.h"
#include "rm/security/nm_token_secret_manager.h"

namespace spindle::rm {

// A container a node reports (at registration or in a heartbeat).
struct NodeContainerReport {
  ContainerId id;
  bool complete = false;
  int32_t exit_status = 0;
  std::string diagnostics;
  // Registration only (work-preserving recovery of what kept running).
  pool::Resource resource;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  int64_t created_ms = 0;
};

struct NodeRegisterRequest {
  NodeRegistration registration;
  // The node said it still runs applications (runningApplications).
  bool runs_applications = false;
  std::vector<NodeContainerReport> containers;
};

struct NodeRegisterOutcome {
  NodeAction action = NodeAction::kNormal;
  std::string diagnostics;
  // This activation's start (rm_identifier), whatever the action.
  int64_t rm_identifier = 0;
  // Only with kNormal.
  std::optional<MasterKey> container_token_key;
  std::optional<MasterKey> nm_token_key;
};

struct NodeHeartbeatRequest {
  NodeHeartbeat heartbeat;
  std::vector<NodeContainerReport> containers;
  // The master keys the node has (last_known_*_master_key), if it said.
  std::optional<int32_t> last_container_token_key;
  std::optional<int32_t> last_nm_token_key;
};

struct NodeHeartbeatOutcome {
  NodeAction action = NodeAction::kNormal;
  int32_t response_id = 0;
  std::string diagnostics;
  std::vector<ContainerId> containers_to_cleanup;
  std::vector<ContainerId> containers_to_remove;
  std::vector<ApplicationId> applications_to_cleanup;
  std::vector<ContainerSignal> containers_to_signal;
  // New master keys, only while the node does not have them yet.
  std::optional<MasterKey> container_token_key;
  std::optional<MasterKey> nm_token_key;
};

class NodeTracker {
 public:
  // Every pointer must outlive the tracker. `rm_identifier`: the
  // activation's start (ActiveServices::start_ms).
  NodeTracker(NodeRegistry* nodes, ContainerRegistry* containers, ApplicationManager* apps,
              const ContainerTokenSecretManager* container_tokens, NmTokenSecretManager* nm_tokens,
              int64_t rm_identifier);

  NodeRegisterOutcome Register(const NodeRegisterRequest& request);
  // A repeated heartbeat (same response id) gets the answer it got before.
  NodeHeartbeatOutcome Heartbeat(const NodeHeartbeatRequest& request);
  // NotFound for a node the registry does not know (Hadoop answers it with
  // an empty response; the caller logs).
  Status Unregister(const NodeId& node);
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
  std::map<NodeId, NodeHeartbeatOutcome> last_outcomes_ GUARDED_BY(last_mu_);
};

}  // namespace spindle::rm
