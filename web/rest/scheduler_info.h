// SchedulerTypeInfo (root "scheduler") for the CapacityScheduler: GET
// /ws/v1/cluster/scheduler. {"scheduler":{"schedulerInfo":{"type":
// "capacityScheduler", capacity, usedCapacity, maxCapacity, queueName
// "root", queues:{"queue":[...]}}}}, each queue a CapacitySchedulerQueueInfo
// (queuePath, capacity, usedCapacity, maxCapacity, absoluteCapacity,
// absoluteMaxCapacity, absoluteUsedCapacity, numApplications, usedResources
// (2.x's "<memory:m, vCores:v>" string, kept for old clients), queueName,
// isAbsoluteResource, state, queues (parents), resourcesUsed,
// hideReservationQueues, nodeLabels, allocatedContainers,
// reservedContainers, pendingContainers) and leaves a
// "capacitySchedulerLeafQueueInfo" adding numActiveApplications,
// numPendingApplications, numContainers, maxApplications,
// maxApplicationsPerUser, userLimit, users, userLimitFactor,
// configuredMaxAMResourceLimit, AMResourceLimit, usedAMResource,
// userAMResourceLimit (3.3's, where the core reports AM activation),
// preemptionDisabled,
// intraQueuePreemptionDisabled, defaultPriority, isAutoCreatedLeafQueue,
// maxApplicationLifetime, defaultApplicationLifetime. Capacities are
// percentages. Usage is what getQueueInfo reports over RPC (ClientRmService,
// from the scheduler pool's queue usage); a leaf's active and pending
// applications, its users and its AM figures are LeafQueue's activation
// under the AM limits (rm::QueueStats::am), and its state may be 3.3's
// DRAINING.
// Not written (3.3 has them): capacities / resources per partition, health,
// effective capacities, maximumAllocation, queueAcls,
// queuePriority, orderingPolicyInfo.
//
// Thread-safety: reads thread-safe dependencies.
#pragma once

#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestDocument SchedulerDocument(const ClusterWebDeps& deps, const std::string& caller);

}  // namespace spindle::web::rest
