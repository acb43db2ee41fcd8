#include "replay/fidelity/fidelity_scenario.h"

#include <algorithm>

namespace spindle::replay {

const char* FidelityMetricName(FidelityMetric metric) {
  switch (metric) {
    case FidelityMetric::kQueueMemoryMb:
      return "queue memory MB";
    case FidelityMetric::kUserMemoryMb:
      return "user memory MB";
    case FidelityMetric::kJobMemoryMb:
      return "app memory MB";
    case FidelityMetric::kActiveApps:
      return "active apps";
    case FidelityMetric::kPendingApps:
      return "pending apps";
    case FidelityMetric::kRejectedJobs:
      return "rejected apps";
  }
  return "?";
}

bool IsMemoryMetric(FidelityMetric metric) {
  return metric == FidelityMetric::kQueueMemoryMb || metric == FidelityMetric::kUserMemoryMb ||
         metric == FidelityMetric::kJobMemoryMb;
}

std::string FidelityCheck::Subject() const {
  switch (metric) {
    case FidelityMetric::kUserMemoryMb:
      return queue + "/" + user;
    case FidelityMetric::kJobMemoryMb:
      return job;
    case FidelityMetric::kRejectedJobs:
      return "cluster";
    default:
      return queue;
  }
}

bool FidelityScenario::AppliesTo(rm::HadoopLine line) const {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

int64_t FidelityScenario::LastCheckSecond() const {
  int64_t last = 0;
  for (const FidelityCheck& c : checks) last = std::max(last, c.at_s);
  return last;
}

std::vector<TraceNode> FidelityScenario::Nodes() const {
  std::vector<TraceNode> out;
  for (int32_t i = 1; i <= nodes; ++i) {
    out.push_back(
        TraceNode{"127.1.0." + std::to_string(i), "/default-rack", node_memory_mb, node_vcores});
  }
  return out;
}

std::vector<TraceJob> FidelityScenario::TraceJobs() const {
  std::vector<TraceJob> out;
  for (const FidelityJob& j : jobs) {
    TraceJob job;
    job.id = j.id;
    job.arrival_ms = j.arrival_ms;
    job.queue = j.queue;
    job.user = j.user;
    TraceStage stage;
    stage.name = "map";
    stage.priority = 20;
    for (int32_t i = 0; i < j.tasks; ++i) {
      TraceTask task;
      task.memory_mb = j.task_memory_mb;
      task.vcores = j.task_vcores;
      task.duration_ms = j.task_seconds * 1000;
      stage.tasks.push_back(task);
    }
    job.stages.push_back(std::move(stage));
    out.push_back(std::move(job));
  }
  // Readers yield jobs in arrival order (stable: ties keep the listed order,
  // which is the order of their application ids).
  std::stable_sort(out.begin(), out.end(), [](const TraceJob& a, const TraceJob& b) {
    return a.arrival_ms < b.arrival_ms;
  });
  return out;
}

}  // namespace spindle::replay
