#include "bench/sparrow/workload.h"

#include <algorithm>
#include <cmath>

#include "base/random.h"

namespace spindle::bench::sparrow {

namespace {

Duration FromSeconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// A draw in (0, 1], safe for log().
double OpenUnit(Random& rng) { return 1.0 - rng.NextDouble(); }

Duration DrawDuration(const ModelOptions& o, Random& rng) {
  const double mean = std::chrono::duration<double>(o.mean_task).count();
  switch (o.durations) {
    case DurationKind::kConstant:
      return o.mean_task;
    case DurationKind::kExponential:
      return std::max(Duration(1), FromSeconds(-mean * std::log(OpenUnit(rng))));
    case DurationKind::kPareto: {
      // Scale x_m so that the mean, x_m * a / (a - 1), is the requested one.
      const double xm = mean * (kParetoShape - 1) / kParetoShape;
      return FromSeconds(xm / std::pow(OpenUnit(rng), 1.0 / kParetoShape));
    }
  }
  return o.mean_task;
}

}  // namespace

std::vector<JobSpec> GenerateWorkload(const ModelOptions& options) {
  Random rng(options.seed);
  const double rate = options.JobRate();
  std::vector<JobSpec> jobs(static_cast<size_t>(options.jobs));
  double t = 0;
  std::vector<int> pick;
  for (JobSpec& job : jobs) {
    t += -std::log(OpenUnit(rng)) / rate;
    job.arrival = FromSeconds(t);
    const bool constrained = rng.NextDouble() < options.constrained_share;
    job.tasks.resize(static_cast<size_t>(options.tasks_per_job));
    for (TaskSpec& task : job.tasks) {
      task.duration = DrawDuration(options, rng);
      if (!constrained) continue;
      // preferred_nodes distinct nodes, by rejection (preferred_nodes is small).
      while (static_cast<int>(task.preferred.size()) < options.preferred_nodes) {
        const int n = static_cast<int>(rng.Uniform(static_cast<uint64_t>(options.nodes)));
        if (std::find(task.preferred.begin(), task.preferred.end(), n) == task.preferred.end()) {
          task.preferred.push_back(n);
        }
      }
    }
  }
  return jobs;
}

}  // namespace spindle::bench::sparrow
