#include "bench/sparrow/batch_sampling.h"

#include <algorithm>
#include <utility>

#include "bench/sparrow/cluster.h"
#include "bench/sparrow/per_task_sampling.h"

namespace spindle::bench::sparrow {

void BatchSampling::OnJobArrival(int job, Cluster& cluster) {
  cluster.Loop().After(cluster.Options().rtt / 2, [this, job, &cluster] {
    if (cluster.Job(job).Constrained()) {
      PerTaskSampling::PlaceNow(job, cluster, sampler_);
    } else {
      PlaceNow(job, cluster);
    }
  });
}

void BatchSampling::PlaceNow(int job, Cluster& cluster) {
  const JobSpec& spec = cluster.Job(job);
  const ModelOptions& o = cluster.Options();
  const int m = static_cast<int>(spec.tasks.size());
  const std::vector<int> probes =
      sampler_.FromAll(ProbeCount(o.probe_ratio, m), cluster.Nodes(), cluster.Rng());
  // (queue length, probe index): the stable order of the m least loaded.
  std::vector<std::pair<int, int>> loads;
  loads.reserve(probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    loads.emplace_back(cluster.QueueLength(probes[i]), static_cast<int>(i));
  }
  std::sort(loads.begin(), loads.end());
  // With fewer nodes than tasks (d*m capped at the cluster), wrap around.
  for (int t = 0; t < m; ++t) {
    const int node =
        probes[static_cast<size_t>(loads[static_cast<size_t>(t) % loads.size()].second)];
    cluster.SendTask(node, job, t, o.rtt);
  }
}

}  // namespace spindle::bench::sparrow
