#include "bench/windtunnel/workload_reader.h"

#include <algorithm>
#include <chrono>

#include "bench/windtunnel/cluster_model.h"

namespace spindle::windtunnel {

WorkloadReader::WorkloadReader(Workload* workload, Duration task_duration, std::string queue)
    : workload_(workload),
      // The engine counts task time in whole milliseconds (at least 1).
      task_ms_(std::max<int64_t>(
          1, std::chrono::duration_cast<std::chrono::milliseconds>(task_duration).count())),
      queue_(std::move(queue)) {}

Result<bool> WorkloadReader::Next(replay::TraceJob* job) {
  if (!workload_->Next(&spec_)) return false;
  *job = replay::TraceJob();
  job->id = "job" + std::to_string(spec_.index);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(spec_.arrival);
  job->arrival_ms = ms.count();
  job->arrival_sub_ms_ns = (spec_.arrival - ms).count();
  job->queue = queue_;
  replay::TraceStage& stage = job->stages.emplace_back();
  stage.name = "tasks";
  stage.priority = 0;
  const pool::Resource slot = ClusterModel::Slot();
  replay::TraceTask task;
  task.memory_mb = slot.memory_mb();
  task.vcores = static_cast<int32_t>(slot.vcores());
  task.duration_ms = task_ms_;
  stage.tasks.assign(static_cast<size_t>(spec_.tasks), task);
  stage.preferred_nodes.reserve(spec_.preferred.size());
  for (int32_t n : spec_.preferred) stage.preferred_nodes.push_back(ClusterModel::Host(n));
  ++stats_.jobs;
  stats_.tasks += spec_.tasks;
  return true;
}

double WorkloadReader::Progress() const {
  const int64_t total = workload_->total_jobs();
  return total > 0 ? static_cast<double>(stats_.jobs) / static_cast<double>(total) : 1.0;
}

}  // namespace spindle::windtunnel
