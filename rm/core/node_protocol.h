// NodeProtocol: what a NodeManager asks of the RM core (ResourceTracker:
// registerNodeManager, nodeHeartbeat, unRegisterNodeManager), in plain rm
// values (node_tracker.h). nm_shim/tracker decodes the wire into these calls
// and encodes their outcome. ResourceManager implements it for the daemon
// (StandbyException while standby); NodeTracker implements it for one
// activation (and for tests that assemble an RM core by hand).
//
// Thread contract: implementations are thread-safe.
#pragma once

#include "base/result.h"
#include "rm/core/node_tracker_values.h"

namespace spindle::rm {

class NodeProtocol {
 public:
  virtual ~NodeProtocol() = default;
  virtual Result<NodeRegisterOutcome> RegisterNode(const NodeRegisterRequest& request) = 0;
  // A repeated heartbeat (same response id) gets the answer it got before.
  virtual Result<NodeHeartbeatOutcome> NodeHeartbeat(const NodeHeartbeatRequest& request) = 0;
  // NotFound for a node the registry does not know (Hadoop answers it with
  // an empty response; the caller logs).
  virtual Status UnregisterNode(const NodeId& node) = 0;
};

}  // namespace spindle::rm
