// NodeRegistry: the RM's view of its NodeManagers (WIRE.md 5.5): who is
// registered, their YARN state, capability, health, liveliness and the
// heartbeat response-id protocol. Each registered node is also a node of the
// scheduler pool's cell state. Master keys and container bookkeeping are not
// here: nm_shim/tracker combines this with rm/security and the container
// registry.
//
// Thread contract: all public methods are thread-safe (one mutex). The pool
// is called with it held (AddNode/UpdateNode take the pool's own partition
// locks only), so that the registry and the cell state never disagree.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/nodes/node_directory.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

// NodeStateProto numbers.
enum class NodeState : uint8_t {
  kNew = 1,
  kRunning = 2,
  kUnhealthy = 3,
  kDecommissioned = 4,
  kLost = 5,
  kRebooted = 6,
  kDecommissioning = 7,
  kShutdown = 8,
};
std::string_view Name(NodeState state);

// NodeActionProto numbers.
enum class NodeAction : uint8_t { kNormal = 0, kResync = 1, kShutdown = 2 };

// What a NodeManager measured (ResourceUtilizationProto, Hadoop 2.8+):
// physical and virtual memory in MB and CPU as a fraction of the node's
// processors.
struct ResourceUtilization {
  int32_t pmem_mb = 0;
  int32_t vmem_mb = 0;
  float cpu = 0;
};

struct NodeReport {
  NodeInfo info;
  NodeState state = NodeState::kNew;
  pool::Resource capability;
  pool::Resource used;
  int32_t num_containers = 0;
  bool healthy = true;
  std::string health_report;
  int64_t last_health_report_ms = 0;
  std::string nm_version;
  pool::NodeId pool_node;
  // From the last heartbeat, as RMNodeImpl keeps them: unset when that
  // heartbeat carried none.
  std::optional<ResourceUtilization> node_utilization;
  std::optional<ResourceUtilization> containers_utilization;
  // The node's labels (NodeReport.node_labels): not the registry's, filled
  // by the RM's reports from its NodeLabels.
  std::vector<std::string> labels;
};

struct ClusterNodeCounts {
  int32_t active = 0;  // RUNNING (and DECOMMISSIONING, which still runs work)
  int32_t decommissioned = 0;
  int32_t lost = 0;
  int32_t unhealthy = 0;
  int32_t rebooted = 0;
  int32_t shutdown = 0;
  int32_t decommissioning = 0;
};

struct NodeRegistryOptions {
  // yarn.nm.liveness-monitor.expiry-interval-ms. Default: 600000.
  Duration expiry = std::chrono::milliseconds(600000);
  // yarn.scheduler.minimum-allocation-{mb,vcores}: smaller nodes are told to
  // shut down at registration. Default: 1024 MB, 1.
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // yarn.resourcemanager.nodes.include-path / exclude-path contents (host
  // names or IPs). An empty include list admits every host. Default: empty.
  std::set<std::string> include_hosts;
  std::set<std::string> exclude_hosts;
  // The topology table (topology_table.h): a registering node's rack, by
  // host; a host not listed keeps the registration's rack (/default-rack).
  // Default: empty.
  std::map<std::string, std::string> racks;
};

struct NodeRegistration {
  NodeId id;
  int32_t http_port = 0;
  pool::Resource capability;
  std::string nm_version;
  std::string rack = "/default-rack";
  // The pool partition of its node label (the RM's NodeLabels). Default:
  // the default partition.
  pool::LabelId label = pool::kDefaultLabel;
};

struct RegistrationResult {
  NodeAction action = NodeAction::kNormal;
  std::string diagnostics;
  pool::NodeId pool_node;  // the node in the pool, when admitted
  // A node the RM already knew registered again (its agent restarted):
  // Hadoop's "Reconnect from the node" (ResourceTrackerService).
  bool reconnected = false;
};

struct NodeHeartbeat {
  NodeId id;
  int32_t response_id = 0;
  bool healthy = true;
  std::string health_report;
  int64_t last_health_report_ms = 0;
  // Live containers the node reported.
  int32_t num_containers = 0;
  std::optional<ResourceUtilization> node_utilization;
  std::optional<ResourceUtilization> containers_utilization;
};

struct HeartbeatVerdict {
  NodeAction action = NodeAction::kNormal;
  // The response id to answer with (last + 1), or the last one when the NM
  // repeated its previous heartbeat (`duplicate`).
  int32_t response_id = 0;
  bool duplicate = false;
  std::string diagnostics;
  pool::NodeId pool_node;
};

class NodeRegistry : public NodeDirectory {
 public:
  // `pool` and `clock` must outlive the registry.
  NodeRegistry(const NodeRegistryOptions& options, pool::SchedulerPool* pool, const Clock* clock);

  // registerNodeManager. A known node re-registering is a reconnect: its
  // response id restarts at 0 and its capability is updated.
  RegistrationResult Register(const NodeRegistration& registration);

  // nodeHeartbeat's response-id protocol and health (WIRE.md 5.5): unknown
  // node -> RESYNC; excluded -> SHUTDOWN; response_id + 1 == last ->
  // duplicate; response_id != last -> RESYNC; else last + 1.
  HeartbeatVerdict Heartbeat(const NodeHeartbeat& heartbeat);
  // Heartbeat for each of `heartbeats`, in order, under one lock (the wind
  // tunnel reports many nodes' completions in one call): each verdict is
  // the one Heartbeat would give it.
  std::vector<HeartbeatVerdict> HeartbeatAll(const std::vector<const NodeHeartbeat*>& heartbeats);

  // unRegisterNodeManager: the node becomes SHUTDOWN and leaves the pool.
  Status Unregister(const NodeId& id);

  // Nodes silent past the expiry become LOST and leave the pool; returns them
  // so the caller can complete their containers.
  std::vector<NodeId> ExpireSilentNodes();

  // Replaces include/exclude lists (refreshNodes); running nodes no longer
  // admitted become DECOMMISSIONED and leave the pool. Returns them.
  std::vector<NodeId> RefreshHostLists(std::set<std::string> include,
                                       std::set<std::string> exclude);

  std::optional<NodeInfo> Find(pool::NodeId node) const override;
  // Find for each of `nodes` (same order), under one lock: an allocate
  // resolves the nodes of all the containers it hands out at once.
  std::vector<std::optional<NodeInfo>> FindAll(const std::vector<pool::NodeId>& nodes) const;
  // Usable pool nodes on a host (by host name, as AMs name them in asks),
  // in port order.
  std::vector<pool::NodeId> PoolNodesOnHost(const std::string& host) const;
  // The same, appended to `out` (no vector of its own per host: an ask
  // resolves one row per preferred host).
  void AddPoolNodesOnHost(const std::string& host, std::vector<pool::NodeId>* out) const;
  std::optional<NodeReport> Get(const NodeId& id) const;
  std::vector<NodeReport> Nodes() const;
  ClusterNodeCounts Counts() const;
  // Number of nodes that can run containers (for allocate responses): a
  // counter kept as nodes change state, read without the lock every
  // heartbeat takes.
  int32_t NumUsableNodes() const override;
  // Changes whenever a node joins or leaves the cluster (registers, comes
  // back, shuts down, is lost or decommissioned): a cheap "anything to
  // look at?" for those who keep the member list elsewhere.
  uint64_t membership_version() const {
    return membership_version_.load(std::memory_order_relaxed);
  }

 private:
  struct Entry {
    NodeReport report;
    int32_t last_response_id = 0;
    TimePoint last_heard;
  };
  bool AdmittedLocked(const std::string& host) const REQUIRES(mu_);
  std::optional<NodeInfo> FindLocked(pool::NodeId node) const REQUIRES(mu_);
  // Every change of a node's state goes through here (the usable count).
  void SetStateLocked(NodeReport& report, NodeState state) REQUIRES(mu_);
  void LeavePoolLocked(Entry& entry, NodeState state) REQUIRES(mu_);
  Entry* FindEntryLocked(const NodeId& id) REQUIRES(mu_);
  HeartbeatVerdict HeartbeatLocked(const NodeHeartbeat& heartbeat) REQUIRES(mu_);

  const NodeRegistryOptions options_;
  pool::SchedulerPool* const pool_;
  const Clock* const clock_;

  std::atomic<uint64_t> membership_version_{0};
  // Entries of nodes_ whose state is Usable(); changed only under mu_.
  std::atomic<int64_t> usable_nodes_{0};
  mutable Mutex mu_;
  std::set<std::string> include_ GUARDED_BY(mu_);
  std::set<std::string> exclude_ GUARDED_BY(mu_);
  // Ordered for the reports; entries are never erased (a node that leaves
  // keeps its entry with its final state), so the indexes below can point
  // into it. The indexes are hashed: at 400,000 nodes (the wind tunnel at
  // 4x) the ordered map's host-name compares on every heartbeat, hand-out
  // and ask row were a fifth of the RM's time.
  std::map<NodeId, Entry> nodes_ GUARDED_BY(mu_);
  std::unordered_map<NodeId, Entry*> by_id_ GUARDED_BY(mu_);
  // The entry a pool node belongs to now.
  std::unordered_map<uint32_t, Entry*> by_pool_node_ GUARDED_BY(mu_);
  // Every entry of a host (one per NodeManager port).
  std::unordered_map<std::string, std::vector<Entry*>> by_host_ GUARDED_BY(mu_);
  // No live node was heard from before this (a lower bound, exact after each
  // scan): ExpireSilentNodes walks the nodes only when one may have
  // expired, not every housekeeping tick (a walk of 400,000 entries twice a
  // second was a tenth of the wind tunnel's CPU). last_heard only moves
  // forward, and a node that becomes live again is heard from now.
  TimePoint oldest_heard_ GUARDED_BY(mu_) = TimePoint::max();
};

}  // namespace spindle::rm
