#include "web/rest/cluster_metrics.h"

#include <algorithm>
#include <utility>

#include "am_protocol/client_service/queue_statistics.h"
#include "web/rest/resource_info.h"

namespace spindle::web::rest {

ClusterResources SnapshotClusterResources(const ClusterWebDeps& deps) {
  ClusterResources out;
  for (const rm::NodeReport& node : deps.nodes->Nodes()) {
    if (node.state == rm::NodeState::kRunning || node.state == rm::NodeState::kDecommissioning) {
      out.total += node.capability;
    }
  }
  if (deps.pool != nullptr) {
    const auto tree = deps.queues->Current();
    for (const rm::CsQueue* leaf : tree->Leaves()) {
      auto id = deps.pool->FindQueue(rm::QueueTree::PoolQueueName(*leaf));
      if (id.ok()) out.allocated += deps.pool->queues().Usage(*id);
    }
  }
  return out;
}

RestDocument ClusterMetricsDocument(const ClusterWebDeps& deps) {
  client_service::QueueStats apps;
  for (const rm::RmApp& app : deps.apps->ListApps()) client_service::CountApp(app, &apps);
  const ClusterResources resources = SnapshotClusterResources(deps);
  const pool::Resource& allocated = resources.allocated;
  const int64_t available_mb =
      std::max<int64_t>(0, resources.total.memory_mb() - allocated.memory_mb());
  const int64_t available_vcores =
      std::max<int64_t>(0, resources.total.vcores() - allocated.vcores());
  int64_t containers = 0;
  if (deps.containers != nullptr) {
    for (const auto& [node, count] : deps.containers->LiveCountByNode()) containers += count;
  }
  const rm::ClusterNodeCounts counts = deps.nodes->Counts();
  const int64_t active = counts.active - counts.decommissioning;
  const int64_t total_nodes = active + counts.lost + counts.decommissioned + counts.rebooted +
                              counts.unhealthy + counts.decommissioning + counts.shutdown;

  RestNode m;
  m.Int("appsSubmitted", apps.submitted)
      .Int("appsCompleted", apps.completed)
      .Int("appsPending", apps.pending)
      .Int("appsRunning", apps.running)
      .Int("appsFailed", apps.failed)
      .Int("appsKilled", apps.killed)
      .Int("reservedMB", 0)
      .Int("availableMB", available_mb)
      .Int("allocatedMB", allocated.memory_mb())
      .Int("pendingMB", 0)
      .Int("reservedVirtualCores", 0)
      .Int("availableVirtualCores", available_vcores)
      .Int("allocatedVirtualCores", allocated.vcores())
      .Int("pendingVirtualCores", 0)
      .Int("containersAllocated", containers)
      .Int("containersReserved", 0)
      .Int("containersPending", 0)
      .Int("totalMB", available_mb + allocated.memory_mb())
      .Int("totalVirtualCores", available_vcores + allocated.vcores())
      .Int("totalNodes", total_nodes)
      .Int("lostNodes", counts.lost)
      .Int("unhealthyNodes", counts.unhealthy)
      .Int("decommissioningNodes", counts.decommissioning)
      .Int("decommissionedNodes", counts.decommissioned)
      .Int("rebootedNodes", counts.rebooted)
      .Int("activeNodes", active)
      .Int("shutdownNodes", counts.shutdown)
      .Put("totalUsedResourcesAcrossPartition", ResourceInfoNode(allocated))
      .Put("totalClusterResourcesAcrossPartition", ResourceInfoNode(resources.total))
      .Put("totalReservedResourcesAcrossPartition", ResourceInfoNode(pool::Resource()))
      .Int("totalAllocatedContainersAcrossPartition", containers)
      .Bool("crossPartitionMetricsAvailable", true);
  return RestDocument("clusterMetrics", std::move(m));
}

}  // namespace spindle::web::rest
