// ClusterModel: the wind tunnel's simulated nodes. Each node has the same
// number of 1-slot containers (<1024 MB, 1 vcore> each), a rack, and a
// slot-quality score drawn from Normal(mean, variance V) (ParSync §4.3;
// clamped to >= 0.1, as the pool wants positive scores). Once AddTo() has
// registered the nodes with a pool, the model maps between node indices
// (what the workload speaks) and the pool's NodeIds.
//
// Simulated nodes run nothing: a task only holds its slot until the driver
// releases it (see Tunnel).
//
// Thread-safety: const methods may be called from any thread after AddTo().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {
class SchedulerPool;
}

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
  pool::NodeSpec SpecOf(int index) const;

  // Registers every node with `pool`, in index order.
  Status AddTo(pool::SchedulerPool* pool);
  // After AddTo(): the pool's id of node `index`, and the score of a node
  // by id (0 for an id the model did not add).
  pool::NodeId id(int index) const { return ids_[static_cast<size_t>(index)]; }
  double ScoreOf(pool::NodeId id) const;

 private:
  const ClusterOptions options_;
  std::vector<double> scores_;
  std::vector<pool::NodeId> ids_;
  // [partition][slot] -> score.
  std::vector<std::vector<double>> by_id_;
};

}  // namespace spindle::windtunnel
