#include "bench/windtunnel/cluster_model.h"

#include <algorithm>
#include <cmath>

#include "base/random.h"

namespace spindle::windtunnel {

ClusterModel::ClusterModel(const ClusterOptions& options) : options_(options) {
  Random rng(options.seed ^ 0x5c0e5c0e5c0e5c0eULL);
  const double sd = std::sqrt(std::max(0.0, options.score_variance));
  scores_.reserve(static_cast<size_t>(std::max(0, options.nodes)));
  for (int i = 0; i < options.nodes; ++i) {
    scores_.push_back(std::max(0.1, rng.Normal(options.score_mean, sd)));
  }
}

replay::TraceNode ClusterModel::NodeOf(int index) const {
  const pool::Resource total = Slot() * options_.slots_per_node;
  replay::TraceNode node;
  node.host = Host(index);
  node.rack = "/rack" + std::to_string(index / std::max(1, options_.nodes_per_rack));
  node.memory_mb = total.memory_mb();
  node.vcores = static_cast<int32_t>(total.vcores());
  return node;
}

std::vector<replay::TraceNode> ClusterModel::Nodes() const {
  std::vector<replay::TraceNode> nodes;
  nodes.reserve(scores_.size());
  for (int i = 0; i < size(); ++i) nodes.push_back(NodeOf(i));
  return nodes;
}

}  // namespace spindle::windtunnel
