// ClusterResources: the cluster's usable capability and what the scheduler
// pool has allocated of it, as /ws/v1/cluster/metrics, /ws/v1/cluster/
// scheduler and the ClusterMetrics bean report them.
//
// Thread-safety: a free function over thread-safe readers.
#pragma once

#include "rm/nodes/node_registry.h"
#include "rm/queues/queue_tree.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

struct ClusterResources {
  // RUNNING and DECOMMISSIONING nodes' capability (the scheduler's cluster
  // resource).
  pool::Resource total;
  // What the pool charges the tree's leaf queues, summed.
  pool::Resource allocated;
};

// `pool` may be null (nothing allocated).
ClusterResources SnapshotClusterResources(const NodeRegistry& nodes, const QueueTree& tree,
                                          const pool::SchedulerPool* pool);

}  // namespace spindle::rm
