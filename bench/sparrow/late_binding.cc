#include "bench/sparrow/late_binding.h"

#include <algorithm>

#include "bench/sparrow/cluster.h"

namespace spindle::bench::sparrow {

void LateBinding::OnJobArrival(int job, Cluster& cluster) {
  if (jobs_.empty()) jobs_.resize(static_cast<size_t>(cluster.JobCount()));
  const JobSpec& spec = cluster.Job(job);
  const ModelOptions& o = cluster.Options();
  const Duration flight = o.rtt / 2;
  const int m = static_cast<int>(spec.tasks.size());
  if (!spec.Constrained()) {
    for (int node :
         sampler_.FromAll(ProbeCount(o.probe_ratio, m), cluster.Nodes(), cluster.Rng())) {
      cluster.SendReservation(node, job, flight);
    }
    return;
  }
  jobs_[static_cast<size_t>(job)].launched.assign(static_cast<size_t>(m), false);
  const int per_task = ProbeCount(o.probe_ratio, 1);
  for (const TaskSpec& task : spec.tasks) {
    for (int node : ProbeSampler::FromSet(per_task, task.preferred, cluster.Rng())) {
      cluster.SendReservation(node, job, flight);
    }
  }
}

std::optional<int> LateBinding::OnGetTask(int job, int node, Cluster& cluster) {
  const JobSpec& spec = cluster.Job(job);
  JobState& state = jobs_[static_cast<size_t>(job)];
  const int m = static_cast<int>(spec.tasks.size());
  if (!spec.Constrained()) {
    if (state.next >= m) return std::nullopt;
    return state.next++;
  }
  for (int t = 0; t < m; ++t) {
    if (state.launched[static_cast<size_t>(t)]) continue;
    const auto& preferred = spec.tasks[static_cast<size_t>(t)].preferred;
    if (std::find(preferred.begin(), preferred.end(), node) == preferred.end()) continue;
    state.launched[static_cast<size_t>(t)] = true;
    return t;
  }
  return std::nullopt;
}

}  // namespace spindle::bench::sparrow
