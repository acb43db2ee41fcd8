#include "rm/core/queue_statistics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace spindle::rm {

pool::Resource ScaledResource(const pool::Resource& cluster, double fraction) {
  pool::Resource r;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    r.Set(i, static_cast<int64_t>(std::floor(static_cast<double>(cluster.Get(i)) * fraction)));
  }
  return r;
}

pool::Resource AvailableToQueue(const pool::Resource& guaranteed, const pool::Resource& used) {
  pool::Resource available;
  if (guaranteed.memory_mb() <= used.memory_mb()) return available;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    available.Set(i, std::max<int64_t>(0, guaranteed.Get(i) - used.Get(i)));
  }
  return available;
}

pool::Resource ClusterResource(const NodeRegistry& nodes) {
  pool::Resource cluster;
  for (const NodeReport& node : nodes.Nodes()) {
    if (node.state == NodeState::kRunning || node.state == NodeState::kDecommissioning) {
      cluster += node.capability;
    }
  }
  return cluster;
}

UsagePercentages UsagePercentagesOf(const pool::Resource& used, const CsQueue& leaf,
                                    const pool::Resource& cluster) {
  UsagePercentages out;
  // DefaultResourceCalculator.isAllInvalidDivisor: no memory.
  if (cluster.memory_mb() == 0) return out;
  // Resources.multiply truncates; a 0 share divides to Inf or NaN, which
  // Hadoop turns into 0.
  const auto share =
      static_cast<int64_t>(static_cast<double>(cluster.memory_mb()) *
                           static_cast<double>(static_cast<float>(leaf.capacity / 100)));
  if (share > 0) {
    out.queue = static_cast<float>(used.memory_mb()) / static_cast<float>(share) * 100;
  }
  out.cluster =
      static_cast<float>(used.memory_mb()) / static_cast<float>(cluster.memory_mb()) * 100;
  return out;
}

QueueStatsSnapshot SnapshotQueueStats(const QueueTree& tree, const std::vector<RmApp>& apps,
                                      const NodeRegistry& nodes, const pool::SchedulerPool* pool,
                                      const ContainerRegistry* containers,
                                      const std::map<std::string, QueueActivity>* activity) {
  QueueStatsSnapshot snapshot;
  snapshot.cluster = ClusterResource(nodes);
  const auto& queues = tree.queues();
  snapshot.stats.resize(queues.size());
  std::map<const CsQueue*, size_t> index;
  for (size_t i = 0; i < queues.size(); ++i) index[&queues[i]] = i;
  // The labels the tree names (any queue has them all, label_capacities.h)
  // that the pool knows, with their ids.
  std::vector<std::pair<std::string, pool::LabelId>> labels;
  if (pool != nullptr && pool->cell().labelled_nodes() > 0) {
    const auto by_label = pool->cell().CapacityByLabel();
    std::set<std::string> names;
    for (const CsQueue& q : queues) {
      for (const auto& [name, capacity] : q.label_capacities) names.insert(name);
    }
    for (const std::string& name : names) {
      const std::optional<pool::LabelId> id = pool->labels().Find(name);
      if (!id.has_value() || *id == pool::kDefaultLabel) continue;
      labels.emplace_back(name, *id);
      pool::Resource& resources = snapshot.label_resources[name];
      for (const auto& [l, r] : by_label) {
        if (l == *id) resources = r;
      }
    }
  }
  if (pool != nullptr) {
    for (size_t i = 0; i < queues.size(); ++i) {
      if (!queues[i].is_leaf()) continue;
      auto id = pool->FindQueue(QueueTree::PoolQueueName(queues[i]));
      if (!id.ok()) continue;
      snapshot.stats[i].used = pool->queues().Usage(*id);
      for (const auto& [name, label] : labels) {
        snapshot.stats[i].used_by_label[name] = pool->queues().UsageIn(*id, label);
      }
    }
  }
  for (const RmApp& app : apps) {
    const CsQueue* leaf = tree.FindLeaf(app.submission.queue);
    if (leaf == nullptr) continue;
    QueueStats& stats = snapshot.stats[index[leaf]];
    CountApp(app, &stats);
    // Hadoop's user metrics come with the app's submitApp, once the
    // scheduler took it (CountApp: it has an attempt).
    if (app.current_attempt() == nullptr) continue;
    UserQueueStats& user = stats.users[app.submission.user];
    CountApp(app, &user);
    if (!app.in_pool) continue;
    if (containers != nullptr) {
      // Containers of earlier attempts an app kept count too.
      for (const RmAttempt& attempt : app.attempts) {
        for (const RmContainer& container : containers->LiveContainersOf(attempt.id)) {
          ++stats.allocated_containers;
          ++user.allocated_containers;
          user.allocated += container.placement.resource;
        }
      }
    }
    const RmAttempt* attempt = app.current_attempt();
    if (attempt != nullptr && !app.submission.unmanaged_am &&
        (attempt->state == AttemptState::kSubmitted ||
         attempt->state == AttemptState::kScheduled)) {
      stats.pending_resource += app.submission.am_resource;
      ++stats.pending_containers;
    }
  }
  if (activity != nullptr) {
    for (const auto& [queue, figures] : *activity) {
      const CsQueue* leaf = tree.FindLeaf(queue);
      if (leaf == nullptr) continue;
      QueueStats& stats = snapshot.stats[index[leaf]];
      stats.active_apps += figures.active_apps;
      for (const auto& [user, count] : figures.users) {
        stats.active_users.insert(user);
        stats.users[user].active_apps += count;
      }
    }
  }
  // Children come after their parent in pre-order: fold bottom-up.
  for (size_t i = queues.size(); i-- > 1;) {
    QueueStats& child = snapshot.stats[i];
    QueueStats& parent = snapshot.stats[static_cast<size_t>(queues[i].parent)];
    parent.used += child.used;
    for (const auto& [name, used] : child.used_by_label) parent.used_by_label[name] += used;
    parent.allocated_containers += child.allocated_containers;
    parent.pending_resource += child.pending_resource;
    parent.pending_containers += child.pending_containers;
    parent.Add(child);
    parent.active_apps += child.active_apps;
    for (const auto& [name, mine] : child.users) {
      UserQueueStats& theirs = parent.users[name];
      theirs.Add(mine);
      theirs.allocated += mine.allocated;
      theirs.allocated_containers += mine.allocated_containers;
      theirs.active_apps += mine.active_apps;
    }
    // Active users are not summed: Hadoop 3.3 counts them only in the leaf's
    // QueueMetrics (UsersManager -> QueueMetrics.incrActiveUsers, which does
    // not propagate to the parent), so a parent queue reports 0.
  }
  return snapshot;
}

AppCount ClassifyApp(const RmApp& app) {
  // The first attempt comes with the scheduler's acceptance: no attempt,
  // not (or never) taken by the scheduler.
  const RmAttempt* attempt = app.current_attempt();
  if (attempt == nullptr) return AppCount::kUncounted;
  switch (app.state) {
    case AppState::kFinished:
      return AppCount::kCompleted;
    case AppState::kKilled:
      return AppCount::kKilled;
    case AppState::kFailed:
      return AppCount::kFailed;
    default:
      break;
  }
  if (attempt->state == AttemptState::kNew || IsFinal(attempt->state)) return AppCount::kUncounted;
  return attempt->first_allocation_ms.has_value() ? AppCount::kRunning : AppCount::kPending;
}

void AppCounts::Add(const AppCounts& other) {
  submitted += other.submitted;
  running += other.running;
  pending += other.pending;
  completed += other.completed;
  killed += other.killed;
  failed += other.failed;
}

void CountApp(const RmApp& app, AppCounts* stats) {
  const AppCount count = ClassifyApp(app);
  if (app.current_attempt() != nullptr) ++stats->submitted;
  switch (count) {
    case AppCount::kUncounted:
      break;
    case AppCount::kPending:
      ++stats->pending;
      break;
    case AppCount::kRunning:
      ++stats->running;
      break;
    case AppCount::kCompleted:
      ++stats->completed;
      break;
    case AppCount::kKilled:
      ++stats->killed;
      break;
    case AppCount::kFailed:
      ++stats->failed;
      break;
  }
}

}  // namespace spindle::rm
