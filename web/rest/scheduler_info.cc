#include "web/rest/scheduler_info.h"

#include <utility>
#include <vector>

#include "web/rest/partition_info.h"
#include "web/rest/resource_info.h"

namespace spindle::web::rest {

namespace y = hadoop::yarn;

namespace {

float Percent(double numerator, double denominator) {
  return denominator > 0 ? static_cast<float>(numerator / denominator * 100) : 0.0f;
}

// The queue's users as 3.3's UsersInfo lists them (username, active and
// pending applications, AM resource used), from the AM activation report.
RestNode UsersNode(const rm::QueueAmReport& am) {
  if (am.users.empty()) return RestNode::Object();
  std::vector<RestNode> users;
  for (const auto& [name, user] : am.users) {
    RestNode u;
    u.Str("username", name)
        .Int("numPendingApplications", user.pending_apps)
        .Int("numActiveApplications", user.active_apps)
        .Put("AMResourceUsed", ResourceInfoNode(user.am_used));
    users.push_back(std::move(u));
  }
  RestNode node;
  node.Items("user", std::move(users));
  return node;
}

// `stats` is the queue's entry in the core's snapshot, null when the
// snapshot was taken over another tree.
RestNode QueueNode(const rm::QueueTree& tree, const rm::CsQueue& queue,
                   const y::QueueInfoProto& info, const pool::Resource& cluster,
                   const rm::QueueStatsSnapshot& snapshot, const SchedulerShape& shape) {
  const rm::QueueStats* queue_stats = nullptr;
  if (snapshot.tree.get() == &tree) {
    const size_t index = static_cast<size_t>(&queue - tree.queues().data());
    if (index < snapshot.stats.size()) queue_stats = &snapshot.stats[index];
  }
  const rm::QueueAmReport* am =
      queue_stats != nullptr && queue_stats->am.has_value() ? &*queue_stats->am : nullptr;
  const rm::QueueState state =
      queue_stats != nullptr && queue_stats->state.has_value() ? *queue_stats->state : queue.state;
  const y::QueueStatisticsProto& stats = info.queuestatistics();
  const pool::Resource used =
      pool::Resource::Of(stats.allocatedmemorymb(), stats.allocatedvcores());
  // LeafQueue's active and pending applications (activation under the AM
  // limits) where the core reports them; else getQueueInfo's counts.
  const int64_t active = am != nullptr ? am->active_apps : stats.numappsrunning();
  const int64_t pending = am != nullptr ? am->pending_apps : stats.numappspending();
  RestNode q;
  if (queue.is_leaf()) q.SetXsiType("capacitySchedulerLeafQueueInfo");
  q.Str("queuePath", queue.path)
      .Float("capacity", static_cast<float>(queue.capacity))
      .Float("usedCapacity", info.currentcapacity() * 100)
      .Float("maxCapacity", static_cast<float>(queue.maximum_capacity))
      .Float("absoluteCapacity", static_cast<float>(queue.absolute_capacity * 100))
      .Float("absoluteMaxCapacity", static_cast<float>(queue.absolute_maximum_capacity * 100))
      .Float("absoluteUsedCapacity", Percent(static_cast<double>(used.memory_mb()),
                                             static_cast<double>(cluster.memory_mb())))
      .Int("numApplications", active + pending)
      .Str("usedResources", "<memory:" + std::to_string(used.memory_mb()) +
                                ", vCores:" + std::to_string(used.vcores()) + ">")
      .Str("queueName", queue.name)
      .Bool("isAbsoluteResource", false)
      .Str("state", std::string(rm::Name(state)));
  if (!queue.is_leaf()) {
    std::vector<RestNode> children;
    for (size_t i = 0; i < queue.children.size(); ++i) {
      if (static_cast<int>(i) >= info.childqueues_size()) break;
      children.push_back(QueueNode(tree, tree.queues()[static_cast<size_t>(queue.children[i])],
                                   info.childqueues(static_cast<int>(i)), cluster, snapshot,
                                   shape));
    }
    RestNode queues;
    queues.Items("queue", std::move(children));
    q.Put("queues", std::move(queues));
  }
  q.Put("resourcesUsed", ResourceInfoNode(used))
      .Bool("hideReservationQueues", false)
      .StrItems("nodeLabels", queue.accessible_node_labels)
      .Int("allocatedContainers", stats.allocatedcontainers())
      .Int("reservedContainers", stats.reservedcontainers())
      .Int("pendingContainers", stats.pendingcontainers());
  if (AnswersPerPartition(shape.line)) {
    const PartitionInputs partitions{&queue, queue_stats, &snapshot, &shape};
    q.Put("capacities", QueueCapacitiesNode(partitions))
        .Put("resources", QueueResourcesNode(partitions));
  }
  if (queue.is_leaf()) {
    q.Int("numActiveApplications", active)
        .Int("numPendingApplications", pending)
        .Int("numContainers", stats.allocatedcontainers())
        .Int("maxApplications", queue.maximum_applications)
        .Int("maxApplicationsPerUser", queue.maximum_applications_per_user)
        .Float("userLimit", static_cast<float>(queue.minimum_user_limit_percent))
        .Put("users", am != nullptr ? UsersNode(*am) : RestNode::Object())
        .Float("userLimitFactor", static_cast<float>(queue.user_limit_factor))
        .Float("configuredMaxAMResourceLimit",
               static_cast<float>(queue.maximum_am_resource_fraction));
    if (am != nullptr && am->limited) {
      q.Put("AMResourceLimit", ResourceInfoNode(am->limits.queue_am_limit))
          .Put("usedAMResource", ResourceInfoNode(am->am_used))
          .Put("userAMResourceLimit", ResourceInfoNode(am->limits.user_am_limit));
    }
    // Intra-queue preemption is not supported: disabled everywhere.
    q.Bool("preemptionDisabled", queue.preemption_disabled)
        .Bool("intraQueuePreemptionDisabled", true)
        .Int("defaultPriority", 0)
        .Bool("isAutoCreatedLeafQueue", false)
        .Int("maxApplicationLifetime", -1)
        .Int("defaultApplicationLifetime", -1);
  }
  return q;
}

}  // namespace

RestDocument SchedulerDocument(const ClusterWebDeps& deps, const std::string& caller) {
  y::GetQueueInfoRequestProto request;
  request.set_queuename("root");
  request.set_includeapplications(false);
  request.set_includechildqueues(true);
  request.set_recursive(true);
  y::GetQueueInfoResponseProto response;
  client_service::ClientRmService::Who who;
  who.user = caller;
  // getQueueInfo of root cannot fail (root always exists).
  (void)deps.client->GetQueueInfo(who, request, &response);
  const rm::ClusterResources resources = deps.core->ClusterResourceReport();
  // The tree now in force; the answer above names its queues in the same
  // order (a refresh in between only shortens what is matched below).
  // The tree now in force with the core's per-queue figures over it.
  const rm::QueueStatsSnapshot snapshot = deps.core->QueueStatistics();
  const std::shared_ptr<const rm::QueueTree> tree =
      snapshot.tree != nullptr ? snapshot.tree : deps.core->QueueReport();
  const y::QueueInfoProto& root_info = response.queueinfo();
  const rm::CsQueue& root = tree->root();

  std::vector<RestNode> children;
  for (size_t i = 0; i < root.children.size(); ++i) {
    if (static_cast<int>(i) >= root_info.childqueues_size()) break;
    children.push_back(QueueNode(*tree, tree->queues()[static_cast<size_t>(root.children[i])],
                                 root_info.childqueues(static_cast<int>(i)), resources.total,
                                 snapshot, deps.scheduler));
  }
  RestNode queues;
  queues.Items("queue", std::move(children));
  RestNode info;
  info.SetXsiType("capacityScheduler")
      .Float("capacity", 100.0f)
      .Float("usedCapacity", Percent(static_cast<double>(resources.allocated.memory_mb()),
                                     static_cast<double>(resources.total.memory_mb())))
      .Float("maxCapacity", 100.0f)
      .Str("queueName", root.name)
      .Put("queues", std::move(queues));
  if (AnswersPerPartition(deps.scheduler.line)) {
    // CapacitySchedulerInfo's capacities: root's, per partition.
    const rm::QueueStats* root_stats =
        snapshot.tree == tree && !snapshot.stats.empty() ? &snapshot.stats.front() : nullptr;
    info.Put("capacities",
             QueueCapacitiesNode(PartitionInputs{&root, root_stats, &snapshot, &deps.scheduler}));
  }
  RestNode body;
  body.Put("schedulerInfo", std::move(info));
  return RestDocument("scheduler", std::move(body));
}

}  // namespace spindle::web::rest
