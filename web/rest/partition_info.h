// Hadoop 3.3's per-partition figures of a CapacityScheduler queue in the
// scheduler answer (GET /ws/v1/cluster/scheduler), from the Java DAOs of
// rel/release-3.3.x and checked against a Java RM 3.3.6's JSON with a
// labelled queue:
//   "capacities": QueueCapacitiesInfo, {"queueCapacitiesByPartition":[
//     PartitionQueueCapacitiesInfo: partitionName, capacity, usedCapacity,
//     maxCapacity, absoluteCapacity, absoluteUsedCapacity,
//     absoluteMaxCapacity, maxAMLimitPercentage, configuredMinResource,
//     configuredMaxResource, effectiveMinResource, effectiveMaxResource]}
//     on root, parents and leaves;
//   "resources": ResourcesInfo, {"resourceUsagesByPartition":[
//     PartitionResourcesInfo: partitionName, used, reserved, pending, and on
//     leaves amUsed, amLimit, userAmLimit]} on parents and leaves.
// Hadoop 2.6 and 2.7 answer none of it (their CapacitySchedulerQueueInfo
// ends at resourcesUsed; QueueCapacitiesInfo and ResourcesInfo come with
// 2.8): nothing is written for those lines.
//
// Which partitions, in which order: QueueCapacities has the default
// partition "" and the labels the queue has an entry for (3.3: the labels
// named in the file, rm/queues/label_capacities.h); ResourceUsage has ""
// and the labels the queue may use (LeafQueue pre-computes their AM limits
// over AbstractCSQueue.getNodeLabelsForQueue) or holds resources in. Each
// list is in its Java HashMap's order (java_hash_order.h).
// The numbers, per partition P (resources of P: its running nodes', the
// default partition the unlabelled nodes'):
//   capacity, maxCapacity (0 -> 100, as for the queue), absolute* as
//   configured, in percent; usedCapacity = used in P / max(P x absolute
//   capacity, minimum allocation), absoluteUsedCapacity = used in P / P
//   (CSQueueUtils.updateUsedCapacity, memory as DefaultResourceCalculator
//   divides; 0 for an empty partition); maxAMLimitPercentage the queue's
//   maximum-am-resource-percent on leaves for a configured partition, 0
//   otherwise and on parents (considerAMUsage false);
//   configured{Min,Max}Resource: zero (Spindle reads percentages only),
//   carrying the allocation bounds where the queue is configured for P,
//   and root's the partition's resources; effective{Min,Max}Resource: P x
//   absolute (maximum) capacity.
//   used: what the queue holds in P; reserved 0 (Spindle does not reserve
//   on nodes); pending: the AM containers waiting (default partition);
//   amUsed, amLimit, userAmLimit: the AM activation's figures in the
//   default partition (AMs count there); in a label P the queue may use,
//   amLimit = normalizeUp(P x absolute capacity x AM percent), vcores 1 as
//   DefaultResourceCalculator.multiplyAndNormalizeUp builds it
//   (LeafQueue.calculateAndGetAMResourceLimitPerPartition), else none.
// Per-user resourceUsagesByPartition (3.3's UserInfo.resources) is not
// written: the pool's ledger keeps users' usage but the core's snapshot
// does not carry it.
//
// Thread-safety: pure functions over values.
#pragma once

#include "rm/core/queue_statistics.h"
#include "rm/queues/queue_config.h"
#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

struct PartitionInputs {
  const rm::CsQueue* queue = nullptr;
  // The queue's entry in the snapshot (null: no figures, all usage 0).
  const rm::QueueStats* stats = nullptr;
  const rm::QueueStatsSnapshot* snapshot = nullptr;
  const SchedulerShape* shape = nullptr;
};

// Whether the line answers per partition (3.3).
bool AnswersPerPartition(rm::HadoopLine line);

// {"queueCapacitiesByPartition":[...]} of the queue.
RestNode QueueCapacitiesNode(const PartitionInputs& in);
// {"resourceUsagesByPartition":[...]} of a parent or leaf.
RestNode QueueResourcesNode(const PartitionInputs& in);

}  // namespace spindle::web::rest
