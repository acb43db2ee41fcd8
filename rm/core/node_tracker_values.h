// The values of the node protocol (NodeProtocol): what a NodeManager
// reports at registration and in heartbeats, and what the RM answers.
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rm/apps/container_signals.h"
#include "rm/nodes/node_registry.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/master_key.h"
#include "scheduler_pool/resources.h"

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

}  // namespace spindle::rm
