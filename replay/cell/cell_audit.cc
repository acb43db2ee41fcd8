#include "replay/cell/cell_audit.h"

#include <chrono>

namespace spindle::replay {
namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

CellAudit::CellAudit(const std::vector<TraceNode>& nodes) {
  for (const TraceNode& n : nodes) hosts_.insert(n.host);
}

void CellAudit::AddJob(int64_t index, const TraceJob* job) {
  JobState& s = jobs_[index];
  s.job = job;
  s.stage_ended.assign(job->stages.size(), 0);
}

std::string CellAudit::Name(int64_t job, const TaskRef& task) const {
  auto it = jobs_.find(job);
  const std::string id = it == jobs_.end() ? "job#" + std::to_string(job) : it->second.job->id;
  std::string stage = std::to_string(task.stage);
  if (it != jobs_.end() && static_cast<size_t>(task.stage) < it->second.job->stages.size()) {
    stage = it->second.job->stages[static_cast<size_t>(task.stage)].name;
  }
  return id + " " + stage + "[" + std::to_string(task.task) + "]";
}

void CellAudit::OnStarted(int64_t job, const TaskRef& task, const std::string& host,
                          const std::string& container, Duration at) {
  if (hosts_.count(host) == 0) {
    Add(Name(job, task) + " ran on " + host + ", a node the cell does not have (" + container +
        ")");
  }
  auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    Add(Name(job, task) + " started for a job the driver does not run");
    return;
  }
  JobState& s = it->second;
  const auto key = std::make_pair(task.stage, task.task);
  if (auto run = s.run_of.find(key); run != s.run_of.end()) {
    Add(Name(job, task) + " ran twice: " + log_.runs[run->second].container + " on " +
        log_.runs[run->second].host + ", then " + container + " on " + host);
  }
  const TraceStage& stage = s.job->stages[static_cast<size_t>(task.stage)];
  for (int32_t parent : stage.parents) {
    const auto& p = s.job->stages[static_cast<size_t>(parent)];
    if (s.stage_ended[static_cast<size_t>(parent)] < static_cast<int64_t>(p.tasks.size())) {
      Add(Name(job, task) + " started at " + std::to_string(Seconds(at)) + " s before its parent " +
          "stage " + p.name + " ended (" +
          std::to_string(s.stage_ended[static_cast<size_t>(parent)]) + " of " +
          std::to_string(p.tasks.size()) + " tasks)");
    }
  }
  s.run_of[key] = log_.runs.size();
  log_.runs.push_back(CellTaskRun{job, task, host, container, at, Duration(-1)});
}

void CellAudit::OnEnded(int64_t job, const TaskRef& task, Duration at) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  JobState& s = it->second;
  auto run = s.run_of.find({task.stage, task.task});
  if (run == s.run_of.end()) {
    Add(Name(job, task) + " ended without having started");
    return;
  }
  CellTaskRun& r = log_.runs[run->second];
  if (r.ended.count() >= 0) {
    Add(Name(job, task) + " ended twice");
    return;
  }
  r.ended = at;
  ++s.stage_ended[static_cast<size_t>(task.stage)];
}

void CellAudit::OnPreempted(int64_t job, const TaskRef& task, Duration at) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  auto run = it->second.run_of.find({task.stage, task.task});
  if (run == it->second.run_of.end()) {
    Add(Name(job, task) + " was preempted without having started");
    return;
  }
  log_.runs[run->second].ended = at;
  it->second.run_of.erase(run);
}

void CellAudit::OnExtraContainer(const std::string& host, const std::string& container) {
  if (hosts_.count(host) == 0) {
    Add("container " + container + " was placed on " + host + ", a node the cell does not have");
  }
}

void CellAudit::OnQueueSample(const std::string& queue, int64_t allocated_mb, int64_t maximum_mb,
                              Duration at) {
  ++log_.queue_samples;
  auto& peak = log_.queue_peak_mb[queue];
  peak.first = std::max(peak.first, allocated_mb);
  peak.second = maximum_mb;
  if (allocated_mb > maximum_mb && over_limit_.insert(queue).second) {
    Add("queue " + queue + " held " + std::to_string(allocated_mb) + " MB at " +
        std::to_string(Seconds(at)) + " s, over its maximum capacity of " +
        std::to_string(maximum_mb) + " MB");
  }
}

void CellAudit::OnUnfinished(int64_t job, int64_t finished_tasks) {
  auto it = jobs_.find(job);
  const std::string id = it == jobs_.end() ? "job#" + std::to_string(job) : it->second.job->id;
  const int64_t total = it == jobs_.end() ? 0 : it->second.job->task_count();
  Add(id + " did not finish: " + std::to_string(finished_tasks) + " of " + std::to_string(total) +
      " tasks ran");
}

void CellAudit::Add(std::string violation) { violations_.push_back(std::move(violation)); }

}  // namespace spindle::replay
