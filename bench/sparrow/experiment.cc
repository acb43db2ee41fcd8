#include "bench/sparrow/experiment.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>

#include "bench/sparrow/cluster.h"

namespace spindle::bench::sparrow {

namespace {

double Ms(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Nearest-rank percentile of a sorted, non-empty vector.
double Percentile(const std::vector<double>& sorted, double p) {
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

PolicyResult RunPolicy(const ModelOptions& options, const std::vector<JobSpec>& jobs,
                       PolicyKind policy) {
  std::unique_ptr<Policy> impl = MakePolicy(policy);
  Cluster cluster(options, jobs, *impl);
  cluster.Run();

  PolicyResult r;
  r.policy = policy;
  const auto edge = static_cast<size_t>(options.edge_share * static_cast<double>(jobs.size()));
  std::vector<double> response;
  double wait_ms = 0;
  uint64_t tasks = 0;
  for (size_t j = edge; j + edge < jobs.size(); ++j) {
    const Cluster::JobRecord& rec = cluster.Records()[j];
    CHECK_EQ(rec.tasks_done, static_cast<int>(jobs[j].tasks.size())) << "job " << j;
    response.push_back(Ms(rec.finish - rec.arrival));
    wait_ms += Ms(rec.total_wait);
    tasks += jobs[j].tasks.size();
  }
  if (response.empty()) return r;
  r.jobs_measured = static_cast<int>(response.size());
  double sum = 0;
  for (double v : response) sum += v;
  r.mean_ms = sum / static_cast<double>(response.size());
  std::sort(response.begin(), response.end());
  r.p50_ms = Percentile(response, 50);
  r.p95_ms = Percentile(response, 95);
  r.p99_ms = Percentile(response, 99);
  r.mean_task_wait_ms = tasks == 0 ? 0 : wait_ms / static_cast<double>(tasks);
  r.get_tasks = cluster.GetTaskRequests();
  r.no_ops = cluster.NoOps();
  r.events = cluster.Events();
  Duration work{};
  for (const JobSpec& job : jobs) {
    for (const TaskSpec& t : job.tasks) work += t.duration;
  }
  const double capacity = Ms(cluster.Makespan()) * options.nodes * options.slots_per_node;
  if (capacity > 0) {
    r.busy_share = Ms(work) / capacity;
    r.held_share = Ms(cluster.HeldSlotTime()) / capacity;
  }
  return r;
}

Result<std::vector<PolicyResult>> RunPolicies(const ModelOptions& options,
                                              const std::vector<PolicyKind>& policies) {
  RETURN_NOT_OK(options.Validate());
  const std::vector<JobSpec> jobs = GenerateWorkload(options);
  std::vector<PolicyResult> out;
  out.reserve(policies.size());
  for (PolicyKind p : policies) out.push_back(RunPolicy(options, jobs, p));
  return out;
}

const PolicyResult* Find(const std::vector<PolicyResult>& results, PolicyKind policy) {
  for (const PolicyResult& r : results) {
    if (r.policy == policy) return &r;
  }
  return nullptr;
}

}  // namespace spindle::bench::sparrow
