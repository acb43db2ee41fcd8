#include "replay/trace/synthetic/parsync_phases_reader.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <utility>

namespace spindle::replay {

namespace {

std::vector<double> ScoresOrFlat(const ParSyncPhasesOptions& o, size_t nodes) {
  return o.node_scores.empty() ? std::vector<double>(nodes, 0.0) : o.node_scores;
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

Result<std::unique_ptr<ParSyncPhasesReader>> ParSyncPhasesReader::Open(
    const ParSyncPhasesOptions& options, std::vector<TraceNode> nodes, const ReadOptions& read) {
  const auto bad = [](const std::string& msg) {
    return Status::InvalidArgument("ParSyncPhasesOptions::" + msg);
  };
  if (!(options.base_rate > 0) || !std::isfinite(options.base_rate)) {
    return bad("base_rate: must be > 0");
  }
  if (options.fractions.empty()) return bad("fractions: none given");
  for (const double f : options.fractions) {
    if (!(f >= 0) || !std::isfinite(f)) return bad("fractions: each must be >= 0");
  }
  if (options.phase_length_ms <= 0) return bad("phase_length_ms: must be > 0");
  if (options.tasks_per_job < 1 || options.tasks_per_job > read.max_tasks_per_job) {
    return bad("tasks_per_job: must be within 1.." + std::to_string(read.max_tasks_per_job));
  }
  if (options.task_duration_ms <= 0) return bad("task_duration_ms: must be > 0");
  if (options.task_memory_mb <= 0) return bad("task_memory_mb: must be > 0");
  if (options.task_vcores <= 0) return bad("task_vcores: must be > 0");
  if (options.preferred_nodes < 0) return bad("preferred_nodes: must be >= 0");
  if (options.preferred_nodes > 0 && nodes.empty()) {
    return bad("preferred_nodes: the node list is empty");
  }
  if (!options.node_scores.empty() && options.node_scores.size() != nodes.size()) {
    return bad("node_scores: " + std::to_string(options.node_scores.size()) + " scores for " +
               std::to_string(nodes.size()) + " nodes");
  }
  if (!std::isfinite(options.preference_tilt)) return bad("preference_tilt: must be finite");
  return std::unique_ptr<ParSyncPhasesReader>(
      new ParSyncPhasesReader(options, std::move(nodes), read));
}

ParSyncPhasesReader::ParSyncPhasesReader(const ParSyncPhasesOptions& options,
                                         std::vector<TraceNode> nodes, const ReadOptions& read)
    : options_(options),
      nodes_(std::move(nodes)),
      read_(read),
      arrivals_(options.base_rate, options.fractions,
                std::chrono::milliseconds(options.phase_length_ms), options.tasks_per_job),
      sampler_(ScoresOrFlat(options, nodes_.size()), Mean(ScoresOrFlat(options, nodes_.size())),
               options.node_scores.empty() ? 0.0 : options.preference_tilt),
      // The wind tunnel's Workload seeds its preferences so: the same seed
      // draws the same nodes.
      rng_(options.seed ^ 0x3a7b1c9d2e4f6071ULL) {}

std::string ParSyncPhasesReader::Describe() const {
  std::ostringstream d;
  d << "parsync-phases R=" << options_.base_rate << " tasks/s, phases";
  for (const double f : options_.fractions) d << " " << f * 100 << "%";
  d << " x " << options_.phase_length_ms << " ms, " << options_.tasks_per_job << " tasks x "
    << options_.task_duration_ms << " ms";
  return d.str();
}

double ParSyncPhasesReader::Progress() const {
  const int64_t total = arrivals_.total_jobs();
  return total == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(total);
}

Result<bool> ParSyncPhasesReader::Next(TraceJob* job) {
  if (next_ >= arrivals_.total_jobs()) return false;
  if (read_.max_jobs > 0 && stats_.jobs >= read_.max_jobs) return false;
  const int64_t arrival_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(arrivals_.ArrivalOf(next_)).count();
  if (read_.max_arrival_ms > 0 && arrival_ms >= read_.max_arrival_ms) return false;
  *job = TraceJob();
  job->id = "parsync_" + std::to_string(next_);
  job->arrival_ms = arrival_ms;
  job->queue = options_.queue;
  job->user = options_.user;
  preferred_.clear();
  if (options_.preferred_nodes > 0) sampler_.Draw(options_.preferred_nodes, &rng_, &preferred_);
  TraceTask task;
  task.memory_mb = std::max(options_.task_memory_mb, read_.min_memory_mb);
  task.vcores = std::max(options_.task_vcores, read_.min_vcores);
  task.duration_ms = options_.task_duration_ms;
  for (const int32_t i : preferred_) {
    const TraceNode& n = nodes_[static_cast<size_t>(i)];
    task.preferred_nodes.push_back(n.host);
    if (std::find(task.preferred_racks.begin(), task.preferred_racks.end(), n.rack) ==
        task.preferred_racks.end()) {
      task.preferred_racks.push_back(n.rack);
    }
  }
  TraceStage stage;
  stage.name = "tasks";
  stage.tasks.assign(static_cast<size_t>(options_.tasks_per_job), task);
  job->stages.push_back(std::move(stage));
  ++next_;
  ++stats_.jobs;
  stats_.tasks += options_.tasks_per_job;
  return true;
}

}  // namespace spindle::replay
