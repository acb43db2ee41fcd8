#include "bench/sparrow/omniscient.h"

#include <algorithm>

#include "bench/sparrow/cluster.h"

namespace spindle::bench::sparrow {

void Omniscient::Book(int slot, Duration free_at) {
  order_.erase({free_at_[static_cast<size_t>(slot)], slot});
  free_at_[static_cast<size_t>(slot)] = free_at;
  order_.insert({free_at, slot});
}

void Omniscient::OnJobArrival(int job, Cluster& cluster) {
  if (free_at_.empty()) {
    slots_per_node_ = cluster.Options().slots_per_node;
    const int slots = cluster.Nodes() * slots_per_node_;
    free_at_.assign(static_cast<size_t>(slots), Duration::zero());
    for (int s = 0; s < slots; ++s) order_.insert({Duration::zero(), s});
    planned_.resize(static_cast<size_t>(cluster.JobCount()));
  }
  const JobSpec& spec = cluster.Job(job);
  auto& planned = planned_[static_cast<size_t>(job)];
  planned.resize(spec.tasks.size());
  for (int t = 0; t < static_cast<int>(spec.tasks.size()); ++t) {
    const TaskSpec& task = spec.tasks[static_cast<size_t>(t)];
    int slot = order_.begin()->second;
    if (!task.preferred.empty()) {
      slot = -1;
      for (int node : task.preferred) {
        for (int i = 0; i < slots_per_node_; ++i) {
          const int s = node * slots_per_node_ + i;
          if (slot < 0 || free_at_[static_cast<size_t>(s)] < free_at_[static_cast<size_t>(slot)]) {
            slot = s;
          }
        }
      }
    }
    const Duration start = std::max(cluster.Now(), free_at_[static_cast<size_t>(slot)]);
    planned[static_cast<size_t>(t)] = start;
    Book(slot, start + task.duration);
    cluster.SendTask(slot / slots_per_node_, job, t, Duration::zero());
  }
}

Duration Omniscient::PlannedStartForTest(int job, int task) const {
  return planned_[static_cast<size_t>(job)][static_cast<size_t>(task)];
}

}  // namespace spindle::bench::sparrow
