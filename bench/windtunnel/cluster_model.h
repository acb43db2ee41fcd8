// ClusterModel: the wind tunnel's simulated nodes. Each node has the same
// number of 1-slot containers (<1024 MB, 1 vcore> each), a rack, and a
// slot-quality score drawn from Normal(mean, variance V) (ParSync §4.3;
// clamped to >= 0.1, as the pool wants positive scores). Nodes are named
// by index (Host()), which is how the workload's jobs name their preferred
// nodes and how the wind tunnel engine reports where a task went.
//
// Simulated nodes run nothing: a task only holds its slot until the engine
// releases it (replay/windtunnel).
//
// Thread-safety: const methods may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/trace/trace.h"
#include "scheduler_pool/resources.h"

namespace spindle::windtunnel {

struct ClusterOptions {
  // Simulated nodes. Default: 100,000 (the paper's 200k slots).
  int nodes = 100'000;
  // Slots per node. Default: 2.
  int slots_per_node = 2;
  // Nodes per rack. Default: 40.
  int nodes_per_rack = 40;
  // Slot scores ~ Normal(score_mean, score_variance). Default: 10, 2.
  double score_mean = 10;
  double score_variance = 2;
  // Seed of the scores. Default: 1.
  uint64_t seed = 1;
};

class ClusterModel {
 public:
  // The resource of one slot (one task).
  static pool::Resource Slot() { return pool::Resource::Of(1024, 1); }

  explicit ClusterModel(const ClusterOptions& options);

  const ClusterOptions& options() const { return options_; }
  int size() const { return static_cast<int>(scores_.size()); }
  int64_t total_slots() const {
    return static_cast<int64_t>(scores_.size()) * options_.slots_per_node;
  }
  const std::vector<double>& scores() const { return scores_; }
  // Node `index` as the engine takes it: host Host(index), its rack, its
  // slots' resources.
  replay::TraceNode NodeOf(int index) const;
  std::vector<replay::TraceNode> Nodes() const;
  static std::string Host(int index) { return "node" + std::to_string(index); }
  // The score of node `index`; 0 for an index outside the cluster.
  double ScoreAt(int64_t index) const {
    return index >= 0 && index < size() ? scores_[static_cast<size_t>(index)] : 0;
  }

 private:
  const ClusterOptions options_;
  std::vector<double> scores_;
};

}  // namespace spindle::windtunnel
