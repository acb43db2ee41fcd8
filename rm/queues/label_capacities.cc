#include "rm/queues/label_capacities.h"

#include <algorithm>
#include <cmath>

#include "rm/queues/java_float.h"
#include "rm/queues/queue_tree.h"

namespace spindle::rm {

namespace {

constexpr char kAnyLabelName[] = "*";
constexpr std::string_view kLabelsPart = ".accessible-node-labels.";
// ParentQueue.PRECISION and CSQueueUtils.EPSILON, on fractions (floats).
constexpr float kSumPrecision = 0.0005f;
constexpr float kEpsilon = 0.0001f;

std::string LabelPrefix(const std::string& path, const std::string& label) {
  return std::string(kCapacitySchedulerPrefix) + path + std::string(kLabelsPart) + label + ".";
}

// "<file>: <key> = '<value>'", as the tree's other messages name a key.
std::string Where(const Configuration& conf, const std::string& key) {
  return conf.SourceOf(key) + ": " + key + " = '" + conf.Get(key).value_or("") + "'";
}

// A percentage as Java's getFloat reads it, as a fraction, or an error in
// `range_message`'s words when outside [0, 100].
Result<float> ReadFraction(const Configuration& conf, const std::string& key, float fallback,
                           const std::string& range_message) {
  auto text = conf.GetTrimmed(key);
  if (!text.has_value()) return fallback / 100.0f;
  if (text->empty() || text->front() == '[') {
    return Status::InvalidArgument(Where(conf, key) +
                                   ": absolute-resource capacities are not supported; use a "
                                   "percentage");
  }
  auto value = conf.GetDouble(key, fallback);
  if (!value.ok()) return value.status();
  const auto percent = static_cast<float>(*value);
  if (!std::isfinite(percent) || percent < 0.0f || percent > 100.0f) {
    return Status::InvalidArgument(Where(conf, key) + ": Illegal capacity of " +
                                   JavaFloat(percent) + range_message);
  }
  return percent / 100.0f;
}

bool AccessesEverything(const CsQueue& queue) {
  return std::find(queue.accessible_node_labels.begin(), queue.accessible_node_labels.end(),
                   kAnyLabelName) != queue.accessible_node_labels.end();
}

}  // namespace

LabelCapacity CsQueue::CapacityIn(std::string_view label) const {
  if (label.empty()) {
    return LabelCapacity{capacity / 100, maximum_capacity / 100, absolute_capacity,
                         absolute_maximum_capacity, true};
  }
  auto it = label_capacities.find(label);
  return it == label_capacities.end() ? LabelCapacity{} : it->second;
}

std::set<std::string> LabelsNamedIn(const Configuration& conf) {
  std::set<std::string> labels;
  for (const std::string& key : conf.KeysWithPrefix(kCapacitySchedulerPrefix)) {
    const size_t at = key.find(kLabelsPart);
    if (at == std::string::npos) continue;
    const size_t start = at + kLabelsPart.size();
    const size_t end = key.find('.', start);
    if (end == std::string::npos || end == start) continue;
    labels.insert(key.substr(start, end - start));
  }
  return labels;
}

Status ReadLabelCapacities(const Configuration& conf, HadoopLine line,
                           const std::set<std::string>& named_labels, CsQueue& queue,
                           const CsQueue* parent) {
  queue.label_capacities.clear();
  std::set<std::string> labels;
  if (line == HadoopLine::k2_6 && !AccessesEverything(queue)) {
    labels.insert(queue.accessible_node_labels.begin(), queue.accessible_node_labels.end());
  } else {
    labels = named_labels;
  }
  const std::string& path = queue.path;
  for (const std::string& label : labels) {
    const std::string prefix = LabelPrefix(path, label);
    // 2.7 / 3.3: only a label with keys under the queue is read; 2.6 reads
    // every label the queue may access.
    const bool configured = !conf.KeysWithPrefix(prefix).empty();
    float capacity = 0;
    float maximum = 0;
    if (configured || line == HadoopLine::k2_6) {
      const std::string in = " for node-label=" + label + " in queue=" + path +
                             ", valid capacity should in range of [0, 100].";
      ASSIGN_OR_RETURN(capacity, ReadFraction(conf, prefix + "capacity", 0, in));
      const std::string max_in =
          line == HadoopLine::k2_6 ? " for label=" + label + " in queue=" + path : in;
      ASSIGN_OR_RETURN(maximum, ReadFraction(conf, prefix + "maximum-capacity", 100, max_in));
    }
    const LabelCapacity above =
        parent == nullptr ? LabelCapacity{1, 1, 1, 1, true} : parent->CapacityIn(label);
    const float absolute = capacity * static_cast<float>(above.absolute_capacity);
    const float absolute_max = maximum * static_cast<float>(above.absolute_maximum_capacity);
    const std::string where =
        Where(conf, prefix + "capacity") + ", " + Where(conf, prefix + "maximum-capacity") + ": ";
    switch (line) {
      case HadoopLine::k2_6:
        // CSQueueUtils.checkAbsoluteCapacitiesByLabel.
        if (absolute_max < absolute - kEpsilon) {
          return Status::InvalidArgument(where + "Illegal call to setMaxCapacity. Queue '" + path +
                                         "' has an absolute capacity (" + JavaFloat(absolute) +
                                         ") greater than its absolute maximumCapacity (" +
                                         JavaFloat(absolute_max) + ") of label=" + label);
        }
        break;
      case HadoopLine::k2_7:
        // CSQueueUtils.capacitiesSanityCheck (2.7).
        if (capacity > maximum) {
          return Status::InvalidArgument(
              where + "Illegal queue capacity setting, (capacity=" + JavaFloat(capacity) +
              ") > (maximum-capacity=" + JavaFloat(maximum) + "). When label=[" + label + "]");
        }
        if (absolute > absolute_max) {
          return Status::InvalidArgument(
              where + "Illegal queue capacity setting, (abs-capacity=" + JavaFloat(absolute) +
              ") > (abs-maximum-capacity=" + JavaFloat(absolute_max) + "). When label=[" + label +
              "]");
        }
        break;
      case HadoopLine::k3_3:
        // CSQueueUtils.capacitiesSanityCheck (3.3).
        if (absolute > absolute_max) {
          return Status::InvalidArgument(
              where + "Illegal queue capacity setting (abs-capacity=" + JavaFloat(absolute) +
              ") > (abs-maximum-capacity=" + JavaFloat(absolute_max) + ") for queue=[" + path +
              "],label=[" + label + "]");
        }
        break;
    }
    queue.label_capacities[label] = LabelCapacity{capacity, maximum, absolute, absolute_max,
                                                  configured || line == HadoopLine::k2_6};
  }
  return Status::OK();
}

Status CheckAccessibleLabels(const CsQueue& queue, const CsQueue& parent) {
  if (parent.is_root() || AccessesEverything(parent)) return Status::OK();
  const std::string key =
      std::string(kCapacitySchedulerPrefix) + queue.path + ".accessible-node-labels";
  if (AccessesEverything(queue)) {
    return Status::InvalidArgument(key +
                                   ": Parent's accessible queue is not ANY(*), but child's "
                                   "accessible queue is *");
  }
  std::string extra;
  for (const std::string& label : queue.accessible_node_labels) {
    if (std::find(parent.accessible_node_labels.begin(), parent.accessible_node_labels.end(),
                  label) != parent.accessible_node_labels.end()) {
      continue;
    }
    if (!extra.empty()) extra += ",";
    extra += label;
  }
  if (!extra.empty()) {
    return Status::InvalidArgument(
        key + ": Some labels of child queue is not a subset of parent queue, these labels=[" +
        extra + "]");
  }
  return Status::OK();
}

Status CheckChildLabelCapacities(const std::vector<CsQueue>& queues, const CsQueue& parent,
                                 const std::set<std::string>& named_labels) {
  if (parent.children.empty()) return Status::OK();
  for (const std::string& label : named_labels) {
    const auto parent_capacity = static_cast<float>(parent.CapacityIn(label).capacity);
    float sum = 0;
    std::string keys;
    for (int child : parent.children) {
      const CsQueue& q = queues[static_cast<size_t>(child)];
      sum += static_cast<float>(q.CapacityIn(label).capacity);
      if (!keys.empty()) keys += ", ";
      keys += q.path + "=" + JavaFloat(static_cast<float>(q.CapacityIn(label).capacity * 100));
    }
    if ((parent_capacity > 0 && std::abs(1.0f - sum) > kSumPrecision) ||
        (parent_capacity == 0 && sum > 0)) {
      return Status::InvalidArgument(
          "Illegal capacity of " + JavaFloat(sum) + " for children of queue " + parent.name +
          " for label=" + label + " (" + std::string(kCapacitySchedulerPrefix) + "<path>" +
          std::string(kLabelsPart) + label + ".capacity: " + keys + ")");
    }
  }
  return Status::OK();
}

}  // namespace spindle::rm
