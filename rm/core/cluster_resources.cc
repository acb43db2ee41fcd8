#include "rm/core/cluster_resources.h"

#include "rm/core/queue_statistics.h"

namespace spindle::rm {

ClusterResources SnapshotClusterResources(const NodeRegistry& nodes, const QueueTree& tree,
                                          const pool::SchedulerPool* pool) {
  ClusterResources out;
  out.total = ClusterResource(nodes);
  if (pool == nullptr) return out;
  for (const CsQueue* leaf : tree.Leaves()) {
    auto id = pool->FindQueue(QueueTree::PoolQueueName(*leaf));
    if (id.ok()) out.allocated += pool->queues().Usage(*id);
  }
  return out;
}

}  // namespace spindle::rm
