#include "bench/sparrow/random_placement.h"

#include "bench/sparrow/cluster.h"

namespace spindle::bench::sparrow {

void RandomPlacement::OnJobArrival(int job, Cluster& cluster) {
  const JobSpec& spec = cluster.Job(job);
  Random& rng = cluster.Rng();
  for (int t = 0; t < static_cast<int>(spec.tasks.size()); ++t) {
    const auto& preferred = spec.tasks[static_cast<size_t>(t)].preferred;
    const int node = preferred.empty()
                         ? static_cast<int>(rng.Uniform(static_cast<uint64_t>(cluster.Nodes())))
                         : preferred[static_cast<size_t>(rng.Uniform(preferred.size()))];
    cluster.SendTask(node, job, t, cluster.Options().rtt / 2);
  }
}

}  // namespace spindle::bench::sparrow
