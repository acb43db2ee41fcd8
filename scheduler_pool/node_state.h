// NodeState: one node as the cell state (master copy) and every scheduler's
// local view hold it (Ray's NodeResources{total, available}; the seqno of
// STYLE.md is `version`). Plain value, copied wholesale on sync.
#pragma once

#include <cstdint>
#include <string>

#include "scheduler_pool/ids.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

enum class NodeStatus : uint8_t {
  kRunning,          // takes new containers
  kDecommissioning,  // keeps its containers, takes no new ones
  kLost,             // went silent; takes nothing until it is running again
  kRemoved,          // gone for good; its NodeId is never reused
};
const char* NodeStatusName(NodeStatus status);

// A node-label partition (node_labels.h); kDefaultLabel is YARN's "".
using LabelId = uint16_t;
inline constexpr LabelId kDefaultLabel = 0;

// What the RM knows of a node when it registers.
struct NodeSpec {
  Resource total;
  // Rack name as YARN reports it (e.g. "/default-rack").
  std::string rack = "/default-rack";
  // Slot-quality score: higher is better (quality-first samples by it).
  // Default: 1.0.
  double score = 1.0;
  // Its node-label partition. Default: the default partition.
  LabelId label = kDefaultLabel;
};

// A change reported by a node heartbeat or the admin; unset fields keep
// their value.
struct NodeUpdate {
  bool set_total = false;
  Resource total;
  bool set_status = false;
  NodeStatus status = NodeStatus::kRunning;  // kRemoved is not allowed here
  bool set_score = false;
  double score = 0;
  bool set_label = false;
  LabelId label = kDefaultLabel;
};

struct NodeState {
  Resource total;
  Resource allocated;
  // Bumped by every change to this node (claim, release, capacity, status).
  uint64_t version = 0;
  double score = 1.0;
  RackId rack;
  NodeStatus status = NodeStatus::kRemoved;
  // The node-label partition it belongs to (node_labels.h).
  LabelId label = kDefaultLabel;
  // Set when a capacity change or a recovered container
  // (CellState::Recover) left allocated > total; cleared once the node fits
  // again. While set, the node takes no claims.
  bool overcommitted = false;

  Resource available() const { return total - allocated; }
  // True if a claim of `r` may be placed here now.
  bool CanFit(const Resource& r) const {
    return status == NodeStatus::kRunning && total.FitsWithin(allocated, r);
  }
};

}  // namespace spindle::pool
