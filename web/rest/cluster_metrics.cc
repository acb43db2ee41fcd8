#include "web/rest/cluster_metrics.h"

#include <algorithm>
#include <utility>

#include "rm/core/queue_statistics.h"
#include "web/rest/resource_info.h"

namespace spindle::web::rest {

RestDocument ClusterMetricsDocument(const ClusterWebDeps& deps) {
  rm::QueueStats apps;
  for (const rm::RmApp& app : deps.core->ApplicationReports()) rm::CountApp(app, &apps);
  const rm::ClusterResources resources = deps.core->ClusterResourceReport();
  const pool::Resource& allocated = resources.allocated;
  const int64_t available_mb =
      std::max<int64_t>(0, resources.total.memory_mb() - allocated.memory_mb());
  const int64_t available_vcores =
      std::max<int64_t>(0, resources.total.vcores() - allocated.vcores());
  int64_t containers = 0;
  for (const rm::NodeReport& node : deps.core->NodeReports()) containers += node.num_containers;
  const rm::ClusterNodeCounts counts = deps.core->NodeCounts();
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
