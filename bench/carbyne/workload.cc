#include "bench/carbyne/workload.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/random.h"

namespace spindle::bench::carbyne {

namespace {

// Log-uniform in [lo, hi].
double LogUniform(Random& rng, double lo, double hi) {
  return lo * std::exp(rng.NextDouble() * std::log(hi / lo));
}

}  // namespace

std::vector<JobSpec> GenerateWorkload(const ModelOptions& o) {
  Random rng(o.seed);
  std::vector<JobSpec> jobs(static_cast<size_t>(o.jobs));
  double t = 0;
  for (JobSpec& job : jobs) {
    if (o.interarrival_s > 0) t += -o.interarrival_s * std::log(1.0 - rng.NextDouble());
    job.arrival = static_cast<Time>(t * 1000);
    const int stages = 2 + static_cast<int>(rng.Uniform(static_cast<uint64_t>(o.max_stages - 1)));
    job.stages.resize(static_cast<size_t>(stages));
    for (int s = 0; s < stages; ++s) {
      StageSpec& stage = job.stages[static_cast<size_t>(s)];
      // Shape: stage 0 is a root (an input scan); in the first half another
      // root now and then (a second input); else one parent, or a join of
      // two earlier stages (a barrier with several parents, §2.2).
      const double shape = rng.NextDouble();
      if (s > 0 && !(2 * s < stages && shape < 0.2)) {
        const int a = static_cast<int>(rng.Uniform(static_cast<uint64_t>(s)));
        stage.parents.push_back(shape < 0.55 ? s - 1 : a);
        if (shape >= 0.75 && s >= 2) {
          int b = static_cast<int>(rng.Uniform(static_cast<uint64_t>(s)));
          if (b == stage.parents[0]) b = (b + 1) % s;
          stage.parents.push_back(b);
          std::sort(stage.parents.begin(), stage.parents.end());
        }
      }
      const int tasks =
          std::clamp(static_cast<int>(LogUniform(rng, 1, o.max_tasks + 1)), 1, o.max_tasks);
      const double mean_s = LogUniform(rng, o.min_task_s, o.max_task_s);
      stage.demand.vcores = int64_t{1} << rng.Uniform(3);
      stage.demand.memory_mb =
          1024 *
          (1 + static_cast<int64_t>(rng.Uniform(static_cast<uint64_t>(o.max_task_memory_gb))));
      stage.durations.resize(static_cast<size_t>(tasks));
      for (Time& d : stage.durations) {
        d = std::max<Time>(1, static_cast<Time>(mean_s * (0.75 + 0.5 * rng.NextDouble()) * 1000));
      }
    }
  }
  return jobs;
}

Status ValidateJobs(const std::vector<JobSpec>& jobs, const ModelOptions& options) {
  Time last = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const JobSpec& job = jobs[j];
    const std::string name = "job " + std::to_string(j);
    if (job.arrival < last) return Status::InvalidArgument(name + ": arrivals out of order");
    last = job.arrival;
    if (job.stages.empty()) return Status::InvalidArgument(name + ": no stages");
    for (size_t s = 0; s < job.stages.size(); ++s) {
      const StageSpec& stage = job.stages[s];
      if (stage.durations.empty()) return Status::InvalidArgument(name + ": a stage has no task");
      for (Time d : stage.durations) {
        if (d <= 0) return Status::InvalidArgument(name + ": a task duration is <= 0");
      }
      for (int p : stage.parents) {
        if (p < 0 || static_cast<size_t>(p) >= s) {
          return Status::InvalidArgument(name + ": a parent stage is not an earlier stage");
        }
      }
      if (stage.demand.memory_mb < 1 || stage.demand.vcores < 1 ||
          !stage.demand.FitsIn(options.machine)) {
        return Status::InvalidArgument(name + ": a task demand is empty or exceeds a machine");
      }
    }
  }
  return Status::OK();
}

}  // namespace spindle::bench::carbyne
