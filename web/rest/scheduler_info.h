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
// configuredMaxAMResourceLimit, preemptionDisabled,
// intraQueuePreemptionDisabled, defaultPriority, isAutoCreatedLeafQueue,
// maxApplicationLifetime, defaultApplicationLifetime. Capacities are
// percentages. Usage and application counts are those getQueueInfo reports
// over RPC (ClientRmService, from the scheduler pool's queue usage).
// Not written (3.3 has them): capacities / resources per partition, health,
// effective capacities, AM resource limits, maximumAllocation, queueAcls,
// queuePriority, orderingPolicyInfo.
//
// Thread-safety: reads thread-safe dependencies.
#pragma once

#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestDocument SchedulerDocument(const ClusterWebDeps& deps, const std::string& caller);

}  // namespace spindle::web::rest
