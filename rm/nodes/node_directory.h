// NodeDirectory: how the RM core finds a node's YARN identity from the
// pool's node id. Implemented by the node registry (ResourceTracker side).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rm/records/yarn_ids.h"
#include "scheduler_pool/ids.h"

namespace spindle::rm {

struct NodeInfo {
  NodeId id;                 // host:port of its ContainerManagementProtocol
  std::string http_address;  // host:http_port
  std::string rack;
};

class NodeDirectory {
 public:
  virtual ~NodeDirectory() = default;
  // Thread-safe. nullopt for a node that is gone.
  virtual std::optional<NodeInfo> Find(pool::NodeId node) const = 0;
  // Thread-safe. Nodes that can run containers now (Hadoop's
  // getNumClusterNodes); 0 where the directory does not track them.
  virtual int32_t NumUsableNodes() const { return 0; }
};

}  // namespace spindle::rm
