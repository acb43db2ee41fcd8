#include "web/rest/partition_info.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "web/rest/java_hash_order.h"
#include "web/rest/resource_info.h"

namespace spindle::web::rest {

namespace {

// CapacitySchedulerQueueInfo.EPSILON.
constexpr float kEpsilon = 1e-8f;

float CapPercent(double fraction) {
  return std::clamp(static_cast<float>(fraction), 0.0f, 1.0f) * 100.0f;
}

// The resources of `label`'s partition (RMNodeLabelsManager.
// getResourceByLabel): the default partition's are the unlabelled nodes'.
pool::Resource PartitionResource(const rm::QueueStatsSnapshot& snapshot, const std::string& label) {
  if (label.empty()) {
    pool::Resource rest = snapshot.cluster;
    for (const auto& [name, resources] : snapshot.label_resources) rest -= resources;
    return rest;
  }
  auto it = snapshot.label_resources.find(label);
  return it == snapshot.label_resources.end() ? pool::Resource() : it->second;
}

// What the queue holds in `label`'s partition (stats.used is every
// partition's).
pool::Resource UsedIn(const rm::QueueStats* stats, const std::string& label) {
  if (stats == nullptr) return pool::Resource();
  if (label.empty()) {
    pool::Resource rest = stats->used;
    for (const auto& [name, used] : stats->used_by_label) rest -= used;
    return rest;
  }
  auto it = stats->used_by_label.find(label);
  return it == stats->used_by_label.end() ? pool::Resource() : it->second;
}

float MemoryRatio(const pool::Resource& a, const pool::Resource& b) {
  return b.memory_mb() > 0 ? static_cast<float>(a.memory_mb()) / static_cast<float>(b.memory_mb())
                           : 0.0f;
}

bool MayUse(const rm::CsQueue& queue, const std::string& label) {
  const auto& labels = queue.accessible_node_labels;
  if (std::find(labels.begin(), labels.end(), "*") != labels.end()) {
    return queue.label_capacities.count(label) > 0;
  }
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

RestNode PartitionCapacities(const PartitionInputs& in, const std::string& label) {
  const rm::CsQueue& queue = *in.queue;
  const rm::LabelCapacity share = queue.CapacityIn(label);
  const pool::Resource partition = PartitionResource(*in.snapshot, label);
  const pool::Resource used = UsedIn(in.stats, label);
  float used_capacity = 0;
  float absolute_used = 0;
  if (partition.memory_mb() > 0) {
    // CSQueueUtils.updateUsedCapacity: the guarantee is at least one
    // minimum allocation, so a queue with none shows what it borrowed.
    pool::Resource guaranteed = rm::ScaledResource(partition, share.absolute_capacity);
    if (guaranteed.memory_mb() < in.shape->minimum_allocation.memory_mb()) {
      guaranteed = in.shape->minimum_allocation;
    }
    used_capacity = MemoryRatio(used, guaranteed) * 100.0f;
    absolute_used = CapPercent(MemoryRatio(used, partition));
  }
  float max_capacity = static_cast<float>(share.maximum_capacity);
  if (max_capacity < kEpsilon || max_capacity > 1.0f) max_capacity = 1.0f;
  const bool leaf = queue.is_leaf();
  const float am_percent = leaf && share.configured
                               ? static_cast<float>(queue.maximum_am_resource_fraction) * 100.0f
                               : 0.0f;
  // Spindle reads percentages only: configured resources are zero, built
  // (where the queue has keys for the partition) with the scheduler's
  // allocation bounds; root's are the partition's.
  RestNode configured;
  if (queue.is_root()) {
    configured = ResourceInfoNode(partition);
  } else if (share.configured) {
    configured = ResourceInfoNode(pool::Resource(), ResourceBounds{in.shape->minimum_allocation,
                                                                   in.shape->maximum_allocation});
  } else {
    configured = ResourceInfoNode(pool::Resource());
  }
  RestNode p;
  p.Str("partitionName", label)
      .Float("capacity", static_cast<float>(share.capacity) * 100.0f)
      .Float("usedCapacity", used_capacity)
      .Float("maxCapacity", max_capacity * 100.0f)
      .Float("absoluteCapacity", CapPercent(share.absolute_capacity))
      .Float("absoluteUsedCapacity", absolute_used)
      .Float("absoluteMaxCapacity", CapPercent(share.absolute_maximum_capacity))
      .Float("maxAMLimitPercentage", am_percent)
      .Put("configuredMinResource", configured)
      .Put("configuredMaxResource", configured)
      .Put("effectiveMinResource",
           ResourceInfoNode(rm::ScaledResource(partition, share.absolute_capacity)))
      .Put("effectiveMaxResource",
           ResourceInfoNode(rm::ScaledResource(partition, share.absolute_maximum_capacity)));
  return p;
}

// LeafQueue.calculateAndGetAMResourceLimitPerPartition for a label: the
// partition's share x the AM percent, memory rounded up to the minimum
// allocation, vcores 1 (DefaultResourceCalculator.multiplyAndNormalizeUp).
pool::Resource LabelAmLimit(const PartitionInputs& in, const std::string& label) {
  const rm::CsQueue& queue = *in.queue;
  const pool::Resource usable = rm::ScaledResource(PartitionResource(*in.snapshot, label),
                                                   queue.CapacityIn(label).absolute_capacity);
  const auto memory = static_cast<int64_t>(static_cast<double>(usable.memory_mb()) *
                                           static_cast<float>(queue.maximum_am_resource_fraction));
  const int64_t step = std::max<int64_t>(1, in.shape->minimum_allocation.memory_mb());
  return pool::Resource::Of((memory + step - 1) / step * step, 1);
}

}  // namespace

bool AnswersPerPartition(rm::HadoopLine line) { return line == rm::HadoopLine::k3_3; }

RestNode QueueCapacitiesNode(const PartitionInputs& in) {
  std::vector<std::string> labels = {""};
  for (const auto& [label, share] : in.queue->label_capacities) labels.push_back(label);
  std::vector<RestNode> partitions;
  // QueueCapacities.getExistingNodeLabels: a HashSet copy of its map's keys.
  for (const std::string& label :
       InJavaHashOrder(labels, JavaHashSetCopyTableSize(labels.size()))) {
    partitions.push_back(PartitionCapacities(in, label));
  }
  RestNode node;
  node.Items("queueCapacitiesByPartition", std::move(partitions));
  return node;
}

RestNode QueueResourcesNode(const PartitionInputs& in) {
  const rm::CsQueue& queue = *in.queue;
  const bool leaf = queue.is_leaf();
  std::vector<std::string> labels = {""};
  for (const auto& [label, share] : queue.label_capacities) {
    const bool holds = in.stats != nullptr && in.stats->used_by_label.count(label) > 0 &&
                       in.stats->used_by_label.at(label).memory_mb() > 0;
    if (holds || (leaf && MayUse(queue, label))) labels.push_back(label);
  }
  const rm::QueueAmReport* am =
      in.stats != nullptr && in.stats->am.has_value() ? &*in.stats->am : nullptr;
  std::vector<RestNode> partitions;
  // ResourceUsage's map of partitions, iterated directly.
  for (const std::string& label : InJavaHashOrder(labels, JavaHashMapTableSize(labels.size()))) {
    const bool default_partition = label.empty();
    RestNode p;
    p.Str("partitionName", label)
        .Put("used", ResourceInfoNode(UsedIn(in.stats, label)))
        .Put("reserved", ResourceInfoNode(pool::Resource()))
        .Put("pending",
             ResourceInfoNode(default_partition && in.stats != nullptr ? in.stats->pending_resource
                                                                       : pool::Resource()));
    if (leaf) {
      pool::Resource am_limit;
      if (default_partition) {
        if (am != nullptr) am_limit = am->limits.queue_am_limit;
      } else if (MayUse(queue, label)) {
        am_limit = LabelAmLimit(in, label);
      }
      p.Put("amUsed",
            ResourceInfoNode(default_partition && am != nullptr ? am->am_used : pool::Resource()))
          .Put("amLimit", ResourceInfoNode(am_limit))
          .Put("userAmLimit",
               ResourceInfoNode(default_partition && am != nullptr ? am->limits.user_am_limit
                                                                   : pool::Resource()));
    }
    partitions.push_back(std::move(p));
  }
  RestNode node;
  node.Items("resourceUsagesByPartition", std::move(partitions));
  return node;
}

}  // namespace spindle::web::rest
