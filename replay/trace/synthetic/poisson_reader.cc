#include "replay/trace/synthetic/poisson_reader.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace spindle::replay {

Result<std::unique_ptr<PoissonReader>> PoissonReader::Open(const PoissonOptions& options,
                                                           std::vector<TraceNode> nodes,
                                                           const ReadOptions& read) {
  const auto bad = [](const std::string& msg) {
    return Status::InvalidArgument("PoissonOptions::" + msg);
  };
  if (!(options.jobs_per_second > 0) || !std::isfinite(options.jobs_per_second)) {
    return bad("jobs_per_second: must be > 0");
  }
  if (options.jobs < 0) return bad("jobs: must be >= 0");
  if (options.horizon_ms < 0) return bad("horizon_ms: must be >= 0");
  if (options.jobs == 0 && options.horizon_ms == 0) {
    return bad("jobs, horizon_ms: one must be > 0 (the stream would never end)");
  }
  RETURN_NOT_OK(options.tasks_per_job.Validate("PoissonOptions::tasks_per_job"));
  RETURN_NOT_OK(options.task_duration_ms.Validate("PoissonOptions::task_duration_ms"));
  if (options.task_memory_mb <= 0) return bad("task_memory_mb: must be > 0");
  if (options.task_vcores <= 0) return bad("task_vcores: must be > 0");
  if (options.preferred_nodes < 0) return bad("preferred_nodes: must be >= 0");
  if (options.preferred_nodes > 0 && nodes.empty()) {
    return bad("preferred_nodes: the node list is empty");
  }
  return std::unique_ptr<PoissonReader>(new PoissonReader(options, std::move(nodes), read));
}

PoissonReader::PoissonReader(const PoissonOptions& options, std::vector<TraceNode> nodes,
                             const ReadOptions& read)
    : options_(options),
      nodes_(std::move(nodes)),
      read_(read),
      sampler_(std::vector<double>(nodes_.size(), 0.0), 0.0, 0.0),
      arrivals_rng_(options.seed ^ 0x9e3779b97f4a7c15ULL),
      sizes_rng_(options.seed ^ 0xc2b2ae3d27d4eb4fULL),
      preference_rng_(options.seed ^ 0x165667b19e3779f9ULL) {}

std::string PoissonReader::Describe() const {
  return "poisson " + std::to_string(options_.jobs_per_second) + " jobs/s, tasks " +
         options_.tasks_per_job.ToString() + ", duration ms " +
         options_.task_duration_ms.ToString();
}

double PoissonReader::Progress() const {
  if (done_) return 1.0;
  double p = 0;
  if (options_.jobs > 0) {
    p = std::max(p, static_cast<double>(next_) / static_cast<double>(options_.jobs));
  }
  if (options_.horizon_ms > 0)
    p = std::max(p, clock_ms_ / static_cast<double>(options_.horizon_ms));
  return std::min(p, 1.0);
}

bool PoissonReader::Finish() {
  done_ = true;
  return false;
}

Result<bool> PoissonReader::Next(TraceJob* job) {
  if (done_) return false;
  if (options_.jobs > 0 && next_ >= options_.jobs) return Finish();
  if (read_.max_jobs > 0 && stats_.jobs >= read_.max_jobs) return Finish();
  // Exponential gap, inverse CDF (1 - u in (0, 1]).
  clock_ms_ += -std::log(1.0 - arrivals_rng_.NextDouble()) * 1000.0 / options_.jobs_per_second;
  const auto arrival_ms = static_cast<int64_t>(std::floor(clock_ms_));
  if (options_.horizon_ms > 0 && arrival_ms >= options_.horizon_ms) return Finish();
  if (read_.max_arrival_ms > 0 && arrival_ms >= read_.max_arrival_ms) return Finish();
  *job = TraceJob();
  job->id = "poisson_" + std::to_string(next_);
  job->arrival_ms = arrival_ms;
  job->queue = options_.queue;
  job->user = options_.user;
  const double sampled = options_.tasks_per_job.Sample(&sizes_rng_);
  if (!(sampled < static_cast<double>(read_.max_tasks_per_job) + 0.5)) {
    return Status::InvalidArgument("PoissonOptions::tasks_per_job: job " + job->id + " sampled " +
                                   std::to_string(sampled) + " tasks; " +
                                   TooManyTasksMessage(read_.max_tasks_per_job));
  }
  const int64_t tasks = std::max<int64_t>(1, std::llround(std::max(sampled, 0.0)));
  TraceStage stage;
  stage.name = "tasks";
  stage.tasks.resize(static_cast<size_t>(tasks));
  preferred_.clear();
  if (options_.preferred_nodes > 0) {
    sampler_.Draw(options_.preferred_nodes, &preference_rng_, &preferred_);
  }
  for (TraceTask& t : stage.tasks) {
    t.memory_mb = std::max(options_.task_memory_mb, read_.min_memory_mb);
    t.vcores = std::max(options_.task_vcores, read_.min_vcores);
    t.duration_ms =
        std::max<int64_t>(1, std::llround(options_.task_duration_ms.Sample(&sizes_rng_)));
    for (const int32_t i : preferred_) {
      t.preferred_nodes.push_back(nodes_[static_cast<size_t>(i)].host);
    }
  }
  job->stages.push_back(std::move(stage));
  ++next_;
  ++stats_.jobs;
  stats_.tasks += tasks;
  return true;
}

}  // namespace spindle::replay
