// CellAudit: the staging cell's own checks of what the RM did, in trace
// time, turned into ReplayModeResult::violations:
//  - every task runs exactly once (a second start is a violation; a task of
//    a job that never finished is listed at the end);
//  - on a node of the cell (a container on a host the cell does not have);
//  - after its stage's parents (a task started before every task of its
//    parent stages ended: the DAG order the AM is meant to keep);
//  - within its queue's limit (a sample of the RM's queue usage above the
//    queue's maximum capacity).
// It also keeps the run log (every task run) for tests and reports.
//
// Thread-safety: none (the driver's thread owns it).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "replay/driver/job_progress.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

// One task's run in the cell, in trace time since the run's start.
struct CellTaskRun {
  int64_t job = 0;  // the driver's dense index
  TaskRef task;
  std::string host;
  std::string container;  // container_..._...
  Duration started{0};
  Duration ended{-1};  // -1: never ended
};

struct CellRunLog {
  std::vector<CellTaskRun> runs;
  // Peak memory the RM reported allocated per queue, and the queue's
  // maximum, in MB (from the samples).
  std::map<std::string, std::pair<int64_t, int64_t>> queue_peak_mb;
  int64_t queue_samples = 0;
};

class CellAudit {
 public:
  explicit CellAudit(const std::vector<TraceNode>& nodes);

  // A job the driver runs; `job` must outlive the audit.
  void AddJob(int64_t index, const TraceJob* job);
  // A task's container started on `host`.
  void OnStarted(int64_t job, const TaskRef& task, const std::string& host,
                 const std::string& container, Duration at);
  void OnEnded(int64_t job, const TaskRef& task, Duration at);
  // The RM preempted the task's container: its run ends at `at` without
  // the task having ended, and the task may start again (not "twice").
  void OnPreempted(int64_t job, const TaskRef& task, Duration at);
  // A container the AM could not match to a task landed on `host`.
  void OnExtraContainer(const std::string& host, const std::string& container);
  // A sample of a queue's usage against its maximum (MB).
  void OnQueueSample(const std::string& queue, int64_t allocated_mb, int64_t maximum_mb,
                     Duration at);
  // The job did not finish by the end of the run.
  void OnUnfinished(int64_t job, int64_t finished_tasks);
  // Anything else the driver saw go wrong.
  void Add(std::string violation);

  const std::vector<std::string>& violations() const { return violations_; }
  const CellRunLog& log() const { return log_; }

 private:
  struct JobState {
    const TraceJob* job = nullptr;
    std::vector<int64_t> stage_ended;                      // tasks of each stage that ended
    std::map<std::pair<int32_t, int32_t>, size_t> run_of;  // task -> log_.runs index
  };
  std::string Name(int64_t job, const TaskRef& task) const;

  std::set<std::string> hosts_;
  std::map<int64_t, JobState> jobs_;
  std::set<std::string> over_limit_;  // queues already reported over their maximum
  std::vector<std::string> violations_;
  CellRunLog log_;
};

}  // namespace spindle::replay
