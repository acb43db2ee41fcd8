#include "rm/nodes/node_registry.h"

#include <glog/logging.h>

#include <algorithm>

namespace spindle::rm {

std::string_view Name(NodeState state) {
  switch (state) {
    case NodeState::kNew:
      return "NEW";
    case NodeState::kRunning:
      return "RUNNING";
    case NodeState::kUnhealthy:
      return "UNHEALTHY";
    case NodeState::kDecommissioned:
      return "DECOMMISSIONED";
    case NodeState::kLost:
      return "LOST";
    case NodeState::kRebooted:
      return "REBOOTED";
    case NodeState::kDecommissioning:
      return "DECOMMISSIONING";
    case NodeState::kShutdown:
      return "SHUTDOWN";
  }
  return "?";
}

namespace {
bool Usable(NodeState state) {
  return state == NodeState::kRunning || state == NodeState::kDecommissioning;
}
}  // namespace

NodeRegistry::NodeRegistry(const NodeRegistryOptions& options, pool::SchedulerPool* pool,
                           const Clock* clock)
    : options_(options),
      pool_(pool),
      clock_(clock),
      include_(options.include_hosts),
      exclude_(options.exclude_hosts) {}

bool NodeRegistry::AdmittedLocked(const std::string& host) const {
  if (exclude_.count(host) != 0) return false;
  return include_.empty() || include_.count(host) != 0;
}

RegistrationResult NodeRegistry::Register(const NodeRegistration& registration) {
  // The RM, not the node, knows the rack (Hadoop's RackResolver).
  NodeRegistration r = registration;
  if (auto rack = options_.racks.find(r.id.host); rack != options_.racks.end()) {
    r.rack = rack->second;
  }
  MutexLock lock(&mu_);
  const std::string node = r.id.ToString();
  if (!AdmittedLocked(r.id.host)) {
    LOG(WARNING) << "disallowed NodeManager " << node << ": not in the include list or excluded";
    return {NodeAction::kShutdown,
            "Disallowed NodeManager from  " + r.id.host +
                ", Sending SHUTDOWN signal to the NodeManager.",
            pool::NodeId()};
  }
  if (r.capability.memory_mb() < options_.min_allocation.memory_mb() ||
      r.capability.vcores() < options_.min_allocation.vcores()) {
    LOG(WARNING) << "NodeManager " << node << " has too few resources";
    return {NodeAction::kShutdown,
            "NodeManager from  " + r.id.host +
                " doesn't satisfy minimum allocations, Sending SHUTDOWN signal to the "
                "NodeManager.",
            pool::NodeId()};
  }
  Entry* known = FindEntryLocked(r.id);
  if (known != nullptr && known->report.state != NodeState::kDecommissioned &&
      known->report.state != NodeState::kShutdown && known->report.pool_node.valid()) {
    // Reconnect: same node, maybe new capability; back to running.
    Entry& entry = *known;
    pool::NodeUpdate update;
    update.set_total = true;
    update.total = r.capability;
    update.set_status = true;
    update.status = pool::NodeStatus::kRunning;
    update.set_label = true;
    update.label = r.label;
    if (pool_->UpdateNode(entry.report.pool_node, update).ok()) {
      entry.report.capability = r.capability;
      entry.report.info.http_address = r.id.host + ":" + std::to_string(r.http_port);
      entry.report.nm_version = r.nm_version;
      SetStateLocked(entry.report, NodeState::kRunning);
      membership_version_.fetch_add(1, std::memory_order_relaxed);
      entry.report.healthy = true;
      entry.last_response_id = 0;
      entry.last_heard = clock_->Now();
      oldest_heard_ = std::min(oldest_heard_, entry.last_heard);
      LOG(INFO) << "NodeManager " << node << " reconnected with " << r.capability.memory_mb()
                << " MB, " << r.capability.vcores() << " vcores";
      return {NodeAction::kNormal, "", entry.report.pool_node, /*reconnected=*/true};
    }
  }
  auto added = pool_->AddNode({r.capability, r.rack, 1.0, r.label});
  if (!added.ok()) {
    LOG(ERROR) << "cannot add node " << node << ": " << added.status().ToString();
    return {NodeAction::kShutdown, added.status().message(), pool::NodeId()};
  }
  Entry entry;
  entry.report.info = NodeInfo{r.id, r.id.host + ":" + std::to_string(r.http_port), r.rack};
  // Counted as it enters the map below (replacing any entry of the same id).
  entry.report.state = NodeState::kRunning;
  membership_version_.fetch_add(1, std::memory_order_relaxed);
  entry.report.capability = r.capability;
  entry.report.nm_version = r.nm_version;
  entry.report.pool_node = *added;
  entry.last_heard = clock_->Now();
  oldest_heard_ = std::min(oldest_heard_, entry.last_heard);
  if (known != nullptr) {
    by_pool_node_.erase(known->report.pool_node.value());
    if (Usable(known->report.state)) usable_nodes_.fetch_sub(1, std::memory_order_relaxed);
    *known = std::move(entry);
  } else {
    known = &nodes_.emplace(r.id, std::move(entry)).first->second;
    by_id_.emplace(r.id, known);
    // Kept in port order, as the ordered map lists a host's nodes.
    std::vector<Entry*>& on_host = by_host_[r.id.host];
    on_host.insert(std::upper_bound(
                       on_host.begin(), on_host.end(), r.id.port,
                       [](int32_t port, const Entry* e) { return port < e->report.info.id.port; }),
                   known);
  }
  usable_nodes_.fetch_add(1, std::memory_order_relaxed);
  by_pool_node_[added->value()] = known;
  LOG(INFO) << "NodeManager from node " << r.id.host << "(cmPort: " << r.id.port
            << " httpPort: " << r.http_port
            << ") registered with capability: <memory:" << r.capability.memory_mb()
            << ", vCores:" << r.capability.vcores() << ">, assigned nodeId " << node;
  return {NodeAction::kNormal, "", *added};
}

HeartbeatVerdict NodeRegistry::Heartbeat(const NodeHeartbeat& heartbeat) {
  MutexLock lock(&mu_);
  return HeartbeatLocked(heartbeat);
}

std::vector<HeartbeatVerdict> NodeRegistry::HeartbeatAll(
    const std::vector<const NodeHeartbeat*>& heartbeats) {
  std::vector<HeartbeatVerdict> verdicts;
  verdicts.reserve(heartbeats.size());
  MutexLock lock(&mu_);
  for (const NodeHeartbeat* h : heartbeats) verdicts.push_back(HeartbeatLocked(*h));
  return verdicts;
}

HeartbeatVerdict NodeRegistry::HeartbeatLocked(const NodeHeartbeat& h) {
  HeartbeatVerdict verdict;
  Entry* found = FindEntryLocked(h.id);
  if (found == nullptr ||
      (!Usable(found->report.state) && found->report.state != NodeState::kUnhealthy)) {
    if (found != nullptr && (found->report.state == NodeState::kDecommissioned ||
                             found->report.state == NodeState::kShutdown)) {
      verdict.action = NodeAction::kShutdown;
      verdict.diagnostics =
          "Disallowed NodeManager nodeId: " + h.id.ToString() + " hostname:" + h.id.host;
      return verdict;
    }
    verdict.action = NodeAction::kResync;
    verdict.diagnostics = "Node not found resyncing " + h.id.ToString();
    return verdict;
  }
  Entry& entry = *found;
  if (!AdmittedLocked(h.id.host)) {
    LeavePoolLocked(entry, NodeState::kDecommissioned);
    verdict.action = NodeAction::kShutdown;
    verdict.diagnostics =
        "Disallowed NodeManager nodeId: " + h.id.ToString() + " hostname:" + h.id.host;
    return verdict;
  }
  verdict.pool_node = entry.report.pool_node;
  if (h.response_id + 1 == entry.last_response_id) {
    verdict.duplicate = true;
    verdict.response_id = entry.last_response_id;
    entry.last_heard = clock_->Now();
    return verdict;
  }
  if (h.response_id != entry.last_response_id) {
    verdict.action = NodeAction::kResync;
    verdict.diagnostics =
        "Too far behind rm response id:" + std::to_string(entry.last_response_id) +
        " nm response id:" + std::to_string(h.response_id);
    return verdict;
  }
  entry.last_heard = clock_->Now();
  entry.last_response_id = (entry.last_response_id + 1) & 0x7fffffff;
  verdict.response_id = entry.last_response_id;
  entry.report.health_report = h.health_report;
  entry.report.last_health_report_ms = h.last_health_report_ms;
  entry.report.num_containers = h.num_containers;
  entry.report.node_utilization = h.node_utilization;
  entry.report.containers_utilization = h.containers_utilization;
  if (h.healthy != entry.report.healthy) {
    entry.report.healthy = h.healthy;
    pool::NodeUpdate update;
    update.set_status = true;
    // An unhealthy node keeps its containers and takes no new ones.
    update.status = h.healthy ? pool::NodeStatus::kRunning : pool::NodeStatus::kDecommissioning;
    pool_->UpdateNode(entry.report.pool_node, update).PermitUnchecked();
    SetStateLocked(entry.report, h.healthy ? NodeState::kRunning : NodeState::kUnhealthy);
    LOG(INFO) << "node " << h.id.ToString() << " is now " << Name(entry.report.state) << ": "
              << h.health_report;
  }
  return verdict;
}

void NodeRegistry::LeavePoolLocked(Entry& entry, NodeState state) {
  pool::NodeUpdate update;
  update.set_status = true;
  update.status = pool::NodeStatus::kLost;
  if (state == NodeState::kLost) {
    pool_->UpdateNode(entry.report.pool_node, update).PermitUnchecked();
  } else {
    pool_->RemoveNode(entry.report.pool_node).PermitUnchecked();
  }
  SetStateLocked(entry.report, state);
  membership_version_.fetch_add(1, std::memory_order_relaxed);
  entry.report.num_containers = 0;
  LOG(INFO) << "node " << entry.report.info.id.ToString() << " is now " << Name(state);
}

Status NodeRegistry::Unregister(const NodeId& id) {
  MutexLock lock(&mu_);
  Entry* entry = FindEntryLocked(id);
  if (entry == nullptr) return Status::NotFound("node " + id.ToString() + " is not registered");
  if (Usable(entry->report.state) || entry->report.state == NodeState::kUnhealthy) {
    LeavePoolLocked(*entry, NodeState::kShutdown);
  }
  return Status::OK();
}

std::vector<NodeId> NodeRegistry::ExpireSilentNodes() {
  MutexLock lock(&mu_);
  std::vector<NodeId> lost;
  const TimePoint now = clock_->Now();
  if (oldest_heard_ == TimePoint::max() || now - oldest_heard_ <= options_.expiry) return lost;
  TimePoint oldest = TimePoint::max();
  for (auto& [id, entry] : nodes_) {
    const bool live = Usable(entry.report.state) || entry.report.state == NodeState::kUnhealthy;
    if (!live) continue;
    if (now - entry.last_heard > options_.expiry) {
      LOG(WARNING) << "Expired:" << id.ToString() << " Timed out after "
                   << std::chrono::duration_cast<std::chrono::seconds>(options_.expiry).count()
                   << " secs";
      LeavePoolLocked(entry, NodeState::kLost);
      lost.push_back(id);
    } else {
      oldest = std::min(oldest, entry.last_heard);
    }
  }
  oldest_heard_ = oldest;
  return lost;
}

std::vector<NodeId> NodeRegistry::RefreshHostLists(std::set<std::string> include,
                                                   std::set<std::string> exclude) {
  MutexLock lock(&mu_);
  include_ = std::move(include);
  exclude_ = std::move(exclude);
  std::vector<NodeId> gone;
  for (auto& [id, entry] : nodes_) {
    const bool live = Usable(entry.report.state) || entry.report.state == NodeState::kUnhealthy;
    if (live && !AdmittedLocked(id.host)) {
      LeavePoolLocked(entry, NodeState::kDecommissioned);
      gone.push_back(id);
    }
  }
  return gone;
}

std::optional<NodeInfo> NodeRegistry::Find(pool::NodeId node) const {
  MutexLock lock(&mu_);
  return FindLocked(node);
}

std::vector<std::optional<NodeInfo>> NodeRegistry::FindAll(
    const std::vector<pool::NodeId>& nodes) const {
  std::vector<std::optional<NodeInfo>> out;
  out.reserve(nodes.size());
  MutexLock lock(&mu_);
  for (pool::NodeId node : nodes) out.push_back(FindLocked(node));
  return out;
}

std::optional<NodeInfo> NodeRegistry::FindLocked(pool::NodeId node) const {
  auto it = by_pool_node_.find(node.value());
  if (it == by_pool_node_.end() || it->second->report.pool_node != node) return std::nullopt;
  return it->second->report.info;
}

NodeRegistry::Entry* NodeRegistry::FindEntryLocked(const NodeId& id) {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

std::vector<pool::NodeId> NodeRegistry::PoolNodesOnHost(const std::string& host) const {
  std::vector<pool::NodeId> out;
  AddPoolNodesOnHost(host, &out);
  return out;
}

void NodeRegistry::AddPoolNodesOnHost(const std::string& host,
                                      std::vector<pool::NodeId>* out) const {
  MutexLock lock(&mu_);
  auto it = by_host_.find(host);
  if (it == by_host_.end()) return;
  for (const Entry* entry : it->second) {
    if (Usable(entry->report.state)) out->push_back(entry->report.pool_node);
  }
}

std::optional<NodeReport> NodeRegistry::Get(const NodeId& id) const {
  MutexLock lock(&mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  NodeReport report = it->second->report;
  if (auto state = pool_->cell().GetNode(report.pool_node); state.ok()) {
    report.used = state->allocated;
  }
  return report;
}

std::vector<NodeReport> NodeRegistry::Nodes() const {
  MutexLock lock(&mu_);
  std::vector<NodeReport> out;
  out.reserve(nodes_.size());
  for (const auto& [id, entry] : nodes_) {
    NodeReport report = entry.report;
    if (auto state = pool_->cell().GetNode(report.pool_node); state.ok()) {
      report.used = state->allocated;
    }
    out.push_back(std::move(report));
  }
  return out;
}

ClusterNodeCounts NodeRegistry::Counts() const {
  MutexLock lock(&mu_);
  ClusterNodeCounts counts;
  for (const auto& [id, entry] : nodes_) {
    switch (entry.report.state) {
      case NodeState::kNew:
      case NodeState::kRunning:
        ++counts.active;
        break;
      case NodeState::kDecommissioning:
        ++counts.active;
        ++counts.decommissioning;
        break;
      case NodeState::kUnhealthy:
        ++counts.unhealthy;
        break;
      case NodeState::kDecommissioned:
        ++counts.decommissioned;
        break;
      case NodeState::kLost:
        ++counts.lost;
        break;
      case NodeState::kRebooted:
        ++counts.rebooted;
        break;
      case NodeState::kShutdown:
        ++counts.shutdown;
        break;
    }
  }
  return counts;
}

int32_t NodeRegistry::NumUsableNodes() const {
  return static_cast<int32_t>(usable_nodes_.load(std::memory_order_relaxed));
}

void NodeRegistry::SetStateLocked(NodeReport& report, NodeState state) {
  const bool was = Usable(report.state);
  const bool is = Usable(state);
  report.state = state;
  if (was != is) usable_nodes_.fetch_add(is ? 1 : -1, std::memory_order_relaxed);
}

}  // namespace spindle::rm
