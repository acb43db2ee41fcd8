// ClusterMetricsInfo (root "clusterMetrics"): GET /ws/v1/cluster/metrics,
// as 3.3 writes it for the CapacityScheduler:
//   apps{Submitted,Completed,Pending,Running,Failed,Killed} (int) from the
//     applications' client-visible states (pending = not yet RUNNING);
//   {reserved,available,allocated,pending}MB and ...VirtualCores (long):
//     allocated is what the scheduler pool charges the leaf queues, available
//     the rest of the usable nodes' capability; reserved and pending are 0
//     (the pool neither reserves nor exposes outstanding demand);
//   containers{Allocated,Reserved,Pending} (int): live containers;
//   totalMB / totalVirtualCores = available + allocated + reserved;
//   {total,lost,unhealthy,decommissioning,decommissioned,rebooted,active,
//     shutdown}Nodes (int), as Hadoop's ClusterMetrics counts them;
//   totalUsedResourcesAcrossPartition, totalClusterResourcesAcrossPartition,
//     totalReservedResourcesAcrossPartition (ResourceInfo),
//     totalAllocatedContainersAcrossPartition (int),
//     crossPartitionMetricsAvailable (true).
// 2.6/2.7 had the ints and longs only (no decommissioning/shutdown nodes,
// no ResourceInfo fields).
//
// Thread-safety: reads thread-safe dependencies.
#pragma once

#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestDocument ClusterMetricsDocument(const ClusterWebDeps& deps);

}  // namespace spindle::web::rest
