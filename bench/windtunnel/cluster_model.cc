#include "bench/windtunnel/cluster_model.h"

#include <algorithm>
#include <cmath>

#include "base/random.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::windtunnel {

ClusterModel::ClusterModel(const ClusterOptions& options) : options_(options) {
  Random rng(options.seed ^ 0x5c0e5c0e5c0e5c0eULL);
  const double sd = std::sqrt(std::max(0.0, options.score_variance));
  scores_.reserve(static_cast<size_t>(std::max(0, options.nodes)));
  for (int i = 0; i < options.nodes; ++i) {
    scores_.push_back(std::max(0.1, rng.Normal(options.score_mean, sd)));
  }
}

pool::NodeSpec ClusterModel::SpecOf(int index) const {
  pool::NodeSpec spec;
  spec.total = Slot() * options_.slots_per_node;
  spec.rack = "/rack" + std::to_string(index / std::max(1, options_.nodes_per_rack));
  spec.score = scores_[static_cast<size_t>(index)];
  return spec;
}

Status ClusterModel::AddTo(pool::SchedulerPool* pool) {
  ids_.clear();
  by_id_.clear();
  ids_.reserve(scores_.size());
  for (int i = 0; i < size(); ++i) {
    ASSIGN_OR_RETURN(pool::NodeId id, pool->AddNode(SpecOf(i)));
    ids_.push_back(id);
    if (by_id_.size() <= id.partition()) by_id_.resize(id.partition() + 1);
    auto& part = by_id_[id.partition()];
    if (part.size() <= id.slot()) part.resize(id.slot() + 1, 0.0);
    part[id.slot()] = scores_[static_cast<size_t>(i)];
  }
  return Status::OK();
}

double ClusterModel::ScoreOf(pool::NodeId id) const {
  if (!id.valid() || id.partition() >= by_id_.size()) return 0;
  const auto& part = by_id_[id.partition()];
  return id.slot() < part.size() ? part[id.slot()] : 0;
}

}  // namespace spindle::windtunnel
