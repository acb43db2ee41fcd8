#include "bench/sparrow/per_task_sampling.h"

#include <utility>

#include "bench/sparrow/cluster.h"

namespace spindle::bench::sparrow {

void PerTaskSampling::OnJobArrival(int job, Cluster& cluster) {
  cluster.Loop().After(cluster.Options().rtt / 2,
                       [this, job, &cluster] { PlaceNow(job, cluster, sampler_); });
}

void PerTaskSampling::PlaceNow(int job, Cluster& cluster, ProbeSampler& sampler) {
  const JobSpec& spec = cluster.Job(job);
  const ModelOptions& o = cluster.Options();
  const int per_task = ProbeCount(o.probe_ratio, 1);
  // (node, tasks of this job already sent there).
  std::vector<std::pair<int, int>> mine;
  auto placed_here = [&mine](int node) {
    for (const auto& [n, count] : mine) {
      if (n == node) return count;
    }
    return 0;
  };
  for (int t = 0; t < static_cast<int>(spec.tasks.size()); ++t) {
    const auto& preferred = spec.tasks[static_cast<size_t>(t)].preferred;
    const std::vector<int> probes = preferred.empty()
                                        ? sampler.FromAll(per_task, cluster.Nodes(), cluster.Rng())
                                        : ProbeSampler::FromSet(per_task, preferred, cluster.Rng());
    int best = probes.front();
    int best_load = cluster.QueueLength(best) + placed_here(best);
    for (size_t i = 1; i < probes.size(); ++i) {
      const int load = cluster.QueueLength(probes[i]) + placed_here(probes[i]);
      if (load < best_load) {
        best = probes[i];
        best_load = load;
      }
    }
    bool found = false;
    for (auto& [n, count] : mine) {
      if (n == best) {
        ++count;
        found = true;
      }
    }
    if (!found) mine.emplace_back(best, 1);
    // The probe's reply travels back, then the task travels out.
    cluster.SendTask(best, job, t, o.rtt);
  }
}

}  // namespace spindle::bench::sparrow
