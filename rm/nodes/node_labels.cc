#include "rm/nodes/node_labels.h"

#include <glog/logging.h>

#include <algorithm>

namespace spindle::rm {

namespace {

constexpr char kIoException[] = "java.io.IOException";
// NodeLabelUtil.MAX_LABEL_LENGTH.
constexpr size_t kMaxLabelLength = 255;

Status IoException(const std::string& message) {
  LOG(WARNING) << message;
  return Status::Remote(kIoException, message);
}

bool IsAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string Join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ",";
    out += name;
  }
  return out;
}

std::set<std::string> Trimmed(const std::set<std::string>& names) {
  std::set<std::string> out;
  for (const auto& name : names) out.insert(TrimLabel(name));
  return out;
}

}  // namespace

std::string TrimLabel(const std::string& s) {
  size_t begin = 0;
  size_t end = s.size();
  while (begin < end && static_cast<unsigned char>(s[begin]) <= ' ') ++begin;
  while (end > begin && static_cast<unsigned char>(s[end - 1]) <= ' ') --end;
  return s.substr(begin, end - begin);
}

Status CheckLabelName(const std::string& label) {
  if (label.empty() || label.size() > kMaxLabelLength) {
    return IoException("label added is empty or exceeds " + std::to_string(kMaxLabelLength) +
                       " character(s)");
  }
  const std::string trimmed = TrimLabel(label);
  // ^[0-9a-zA-Z][0-9a-zA-Z-_]*
  bool match = !trimmed.empty() && IsAlnum(trimmed[0]);
  for (size_t i = 1; match && i < trimmed.size(); ++i) {
    match = IsAlnum(trimmed[i]) || trimmed[i] == '-' || trimmed[i] == '_';
  }
  if (!match) {
    return IoException(
        "label name should only contains {0-9, a-z, A-Z, -, _} and should not started with {-,_}"
        ", now it is= " +
        trimmed);
  }
  return Status::OK();
}

Status NodeLabels::CheckEnabled() const {
  if (!options_.enabled) return IoException(kNodeLabelsNotEnabled);
  return Status::OK();
}

Result<bool> NodeLabels::AddClusterLabels(std::vector<ClusterNodeLabel> labels) {
  RETURN_NOT_OK(CheckEnabled());
  for (auto& label : labels) label.name = TrimLabel(label.name);
  MutexLock lock(&mu_);
  // checkExclusivityMatch, then the names (3.3 addToCluserNodeLabels).
  std::string mismatched;
  for (const auto& label : labels) {
    auto it = labels_.find(label.name);
    if (it != labels_.end() && it->second != label.exclusive) {
      if (!mismatched.empty()) mismatched += ",";
      mismatched += "<" + label.name + ":exclusivity=" + (label.exclusive ? "true" : "false") + ">";
    }
  }
  if (!mismatched.empty()) {
    return IoException("Exclusivity cannot be modified for an existing label with : " + mismatched);
  }
  for (const auto& label : labels) RETURN_NOT_OK(CheckLabelName(label.name));
  bool added = false;
  for (const auto& label : labels) {
    if (labels_.emplace(label.name, label.exclusive).second) {
      added = true;
      LOG(INFO) << "Add label " << label.name << " (exclusivity=" << label.exclusive << ")";
    }
  }
  return added;
}

Status NodeLabels::RemoveClusterLabels(const std::vector<std::string>& names,
                                       const std::vector<QueueLabels>& queues) {
  RETURN_NOT_OK(CheckEnabled());
  std::set<std::string> remove;
  for (const auto& name : names) remove.insert(TrimLabel(name));
  MutexLock lock(&mu_);
  // RMNodeLabelsManager checks the queues before CommonNodeLabelsManager
  // checks the names.
  for (const auto& label : remove) {
    for (const auto& queue : queues) {
      if (std::find(queue.accessible.begin(), queue.accessible.end(), label) !=
          queue.accessible.end()) {
        return IoException("Cannot remove label=" + label + ", because queue=" + queue.queue +
                           " is using this label. Please remove label on queue before remove "
                           "the label");
      }
    }
  }
  for (const auto& label : remove) {
    if (label.empty()) return IoException("Label to be removed is null or empty");
    if (labels_.count(label) == 0) {
      return IoException("Node label=" + label +
                         " to be removed doesn't existed in cluster node labels collection.");
    }
  }
  for (auto& [name, host] : hosts_) {
    for (const auto& label : remove) host.labels.erase(label);
    for (auto& [port, own] : host.nodes) {
      if (!own.has_value()) continue;
      for (const auto& label : remove) own->erase(label);
    }
  }
  for (const auto& label : remove) labels_.erase(label);
  LOG(INFO) << "Remove labels: [" << Join(remove) << "]";
  return Status::OK();
}

Status NodeLabels::ReplaceLabelsOnNodes(
    const std::map<NodeId, std::set<std::string>>& node_labels) {
  RETURN_NOT_OK(CheckEnabled());
  std::map<NodeId, std::set<std::string>> normalized;
  for (const auto& [node, labels] : node_labels) normalized[node] = Trimmed(labels);
  MutexLock lock(&mu_);
  // checkReplaceLabelsOnNode (2.7+ refuses more than one label per host).
  for (const auto& [node, labels] : normalized) {
    if (labels.size() > 1) {
      return IoException(std::to_string(labels.size()) + " labels specified on host=" + node.host +
                         ", please note that we do not support specifying multiple labels on a "
                         "single host for now.");
    }
    for (const auto& label : labels) {
      if (labels_.count(label) == 0) {
        return IoException(
            "Not all labels being replaced contained by known label collections, please check, "
            "new labels=[" +
            Join(labels) + "]");
      }
    }
  }
  // internalUpdateLabelsOnNodes(REPLACE): a host's label replaces its own
  // and its NodeManagers' (they follow the host again); a NodeManager's
  // becomes its own.
  for (const auto& [node, labels] : normalized) {
    Host& host = hosts_[node.host];
    if (node.port == 0) {
      host.labels = labels;
      for (auto& [port, own] : host.nodes) own.reset();
    } else {
      host.nodes[node.port] = labels;
    }
    LOG(INFO) << "REPLACE labels on node " << node.ToString() << ": [" << Join(labels) << "]";
  }
  return Status::OK();
}

std::vector<ClusterNodeLabel> NodeLabels::ClusterLabels() const {
  MutexLock lock(&mu_);
  std::vector<ClusterNodeLabel> out;
  for (const auto& [name, exclusive] : labels_) out.push_back({name, exclusive});
  return out;
}

std::optional<ClusterNodeLabel> NodeLabels::Find(const std::string& name) const {
  MutexLock lock(&mu_);
  auto it = labels_.find(name);
  if (it == labels_.end()) return std::nullopt;
  return ClusterNodeLabel{it->first, it->second};
}

std::set<std::string> NodeLabels::LabelsOfLocked(const NodeId& node) const {
  auto host = hosts_.find(node.host);
  if (host == hosts_.end()) return {};
  if (node.port != 0) {
    auto own = host->second.nodes.find(node.port);
    if (own != host->second.nodes.end() && own->second.has_value()) return *own->second;
  }
  return host->second.labels;
}

std::set<std::string> NodeLabels::LabelsOf(const NodeId& node) const {
  MutexLock lock(&mu_);
  return LabelsOfLocked(node);
}

std::string NodeLabels::PartitionOf(const NodeId& node) const {
  MutexLock lock(&mu_);
  std::set<std::string> labels = LabelsOfLocked(node);
  return labels.empty() ? std::string(kNoLabel) : *labels.begin();
}

std::map<NodeId, std::set<std::string>> NodeLabels::NodeToLabels(
    const std::vector<NodeId>& running) const {
  MutexLock lock(&mu_);
  std::map<NodeId, std::set<std::string>> out;
  auto add = [&out](const NodeId& node, const std::set<std::string>& labels) {
    if (!labels.empty()) out[node] = labels;
  };
  for (const auto& [name, host] : hosts_) {
    add(NodeId{name, 0}, host.labels);
    for (const auto& [port, own] : host.nodes) add(NodeId{name, port}, own.value_or(host.labels));
  }
  for (const auto& node : running) add(node, LabelsOfLocked(node));
  return out;
}

std::map<std::string, std::set<NodeId>> NodeLabels::LabelsToNodes(
    const std::vector<NodeId>& running, const std::set<std::string>& only) const {
  std::map<std::string, std::set<NodeId>> out;
  for (const auto& [node, labels] : NodeToLabels(running)) {
    for (const auto& label : labels) {
      if (only.empty() || only.count(label) > 0) out[label].insert(node);
    }
  }
  return out;
}

NodeLabelsState NodeLabels::Snapshot() const {
  MutexLock lock(&mu_);
  NodeLabelsState state;
  for (const auto& [name, exclusive] : labels_) state.labels.push_back({name, exclusive});
  for (const auto& [name, host] : hosts_) {
    if (!host.labels.empty()) state.node_labels[NodeId{name, 0}] = host.labels;
    for (const auto& [port, own] : host.nodes) {
      if (own.has_value()) state.node_labels[NodeId{name, port}] = *own;
    }
  }
  return state;
}

void NodeLabels::Restore(NodeLabelsState state) {
  MutexLock lock(&mu_);
  labels_.clear();
  hosts_.clear();
  for (const auto& label : state.labels) labels_[label.name] = label.exclusive;
  for (auto& [node, labels] : state.node_labels) {
    Host& host = hosts_[node.host];
    if (node.port == 0) {
      host.labels = std::move(labels);
    } else {
      host.nodes[node.port] = std::move(labels);
    }
  }
}

}  // namespace spindle::rm
