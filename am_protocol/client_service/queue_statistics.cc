#include "am_protocol/client_service/queue_statistics.h"

#include <cmath>
#include <map>

namespace spindle::client_service {

bool IsLive(rm::YarnAppState state) {
  return state != rm::YarnAppState::kFinished && state != rm::YarnAppState::kFailed &&
         state != rm::YarnAppState::kKilled;
}

pool::Resource ScaledResource(const pool::Resource& cluster, double fraction) {
  pool::Resource r;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    r.Set(i, static_cast<int64_t>(std::floor(static_cast<double>(cluster.Get(i)) * fraction)));
  }
  return r;
}

QueueStatsSnapshot SnapshotQueueStats(const rm::QueueTree& tree, const std::vector<rm::RmApp>& apps,
                                      const rm::NodeRegistry& nodes,
                                      const pool::SchedulerPool* pool) {
  QueueStatsSnapshot snapshot;
  for (const rm::NodeReport& node : nodes.Nodes()) {
    if (node.state == rm::NodeState::kRunning || node.state == rm::NodeState::kDecommissioning) {
      snapshot.cluster += node.capability;
    }
  }
  const auto& queues = tree.queues();
  snapshot.stats.resize(queues.size());
  std::map<const rm::CsQueue*, size_t> index;
  for (size_t i = 0; i < queues.size(); ++i) index[&queues[i]] = i;
  if (pool != nullptr) {
    for (size_t i = 0; i < queues.size(); ++i) {
      if (!queues[i].is_leaf()) continue;
      auto id = pool->FindQueue(rm::QueueTree::PoolQueueName(queues[i]));
      if (id.ok()) snapshot.stats[i].used = pool->queues().Usage(*id);
    }
  }
  for (const rm::RmApp& app : apps) {
    const rm::CsQueue* leaf = tree.FindLeaf(app.submission.queue);
    if (leaf == nullptr) continue;
    QueueStats& stats = snapshot.stats[index[leaf]];
    ++stats.submitted;
    const rm::YarnAppState state = app.yarn_state();
    switch (state) {
      case rm::YarnAppState::kRunning:
        ++stats.running;
        break;
      case rm::YarnAppState::kFinished:
        ++stats.completed;
        break;
      case rm::YarnAppState::kKilled:
        ++stats.killed;
        break;
      case rm::YarnAppState::kFailed:
        ++stats.failed;
        break;
      default:
        ++stats.pending;
        break;
    }
    if (IsLive(state)) stats.active_users.insert(app.submission.user);
  }
  // Children come after their parent in pre-order: fold bottom-up.
  for (size_t i = queues.size(); i-- > 1;) {
    QueueStats& child = snapshot.stats[i];
    QueueStats& parent = snapshot.stats[static_cast<size_t>(queues[i].parent)];
    parent.used += child.used;
    parent.submitted += child.submitted;
    parent.running += child.running;
    parent.pending += child.pending;
    parent.completed += child.completed;
    parent.killed += child.killed;
    parent.failed += child.failed;
    parent.active_users.insert(child.active_users.begin(), child.active_users.end());
  }
  return snapshot;
}

}  // namespace spindle::client_service
