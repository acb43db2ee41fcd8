#include "web/rest/node_info.h"

#include <algorithm>
#include <string>
#include <utility>

#include "web/rest/resource_info.h"

namespace spindle::web::rest {

bool IsInactiveNode(rm::NodeState state) {
  return state == rm::NodeState::kLost || state == rm::NodeState::kDecommissioned ||
         state == rm::NodeState::kRebooted || state == rm::NodeState::kShutdown;
}

RestNode NodeInfoNode(const rm::NodeReport& node, int32_t num_containers) {
  const bool inactive = IsInactiveNode(node.state);
  // Inactive nodes have no scheduler node report: usage shows as zero.
  const pool::Resource used = inactive ? pool::Resource() : node.used;
  pool::Resource available;
  if (!inactive) {
    available =
        pool::Resource::Of(std::max<int64_t>(0, node.capability.memory_mb() - used.memory_mb()),
                           std::max<int64_t>(0, node.capability.vcores() - used.vcores()));
  }
  // ResourceUtilizationInfo (Hadoop 3.3): zeros where the node's last
  // heartbeat measured nothing.
  const rm::ResourceUtilization node_use =
      node.node_utilization.value_or(rm::ResourceUtilization{});
  const rm::ResourceUtilization containers_use =
      node.containers_utilization.value_or(rm::ResourceUtilization{});
  RestNode utilization;
  utilization.Int("nodePhysicalMemoryMB", node_use.pmem_mb)
      .Int("nodeVirtualMemoryMB", node_use.vmem_mb)
      .Float("nodeCPUUsage", node_use.cpu)
      .Int("aggregatedContainersPhysicalMemoryMB", containers_use.pmem_mb)
      .Int("aggregatedContainersVirtualMemoryMB", containers_use.vmem_mb)
      .Float("containersCPUUsage", containers_use.cpu);
  RestNode info;
  info.Str("rack", node.info.rack)
      .Str("state", std::string(rm::Name(node.state)))
      .Str("id", node.info.id.ToString())
      .Str("nodeHostName", node.info.id.host)
      .Str("nodeHTTPAddress", inactive ? "" : node.info.http_address)
      .Int("lastHealthUpdate", node.last_health_report_ms)
      .Str("version", node.nm_version)
      .Str("healthReport", node.health_report)
      .Int("numContainers", inactive ? 0 : num_containers)
      .Int("usedMemoryMB", used.memory_mb())
      .Int("availMemoryMB", available.memory_mb())
      .Int("usedVirtualCores", used.vcores())
      .Int("availableVirtualCores", available.vcores())
      .Int("numRunningOpportContainers", 0)
      .Int("usedMemoryOpportGB", 0)
      .Int("usedVirtualCoresOpport", 0)
      .Int("numQueuedContainers", 0)
      .StrItems("nodeLabels", node.labels)  // sorted (NodeInfo sorts them)
      .Put("allocationTags", RestNode::Object())
      .Put("resourceUtilization", std::move(utilization))
      .Put("usedResource", ResourceInfoNode(used))
      .Put("availableResource", ResourceInfoNode(available))
      .Put("totalResource", ResourceInfoNode(node.capability))
      .Put("nodeAttributesInfo", RestNode::Object());
  return info;
}

}  // namespace spindle::web::rest
