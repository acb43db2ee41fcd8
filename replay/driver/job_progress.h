// JobProgress: where one job of a replay stands in its DAG. A task becomes
// ready (its AM may ask for it) once every task of its stage's parent
// stages has finished and its own submit offset has passed since the job's
// arrival; each ready task is handed out once. Both replay modes drive
// their simulated AMs with it: the wind tunnel's in-process AMs and the
// staging cell's AMs over the wire, which is what makes them release DAG
// stages as a MapReduce AM does (reduces after maps).
//
// Thread-safety: none (the AM that owns the job owns it).
#pragma once

#include <cstdint>
#include <vector>

#include "replay/trace/trace.h"

namespace spindle::replay {

struct TaskRef {
  int32_t stage = 0;
  int32_t task = 0;
  friend bool operator==(const TaskRef& a, const TaskRef& b) {
    return a.stage == b.stage && a.task == b.task;
  }
};

class JobProgress {
 public:
  // `job` must outlive this and not change.
  explicit JobProgress(const TraceJob* job);

  const TraceJob& job() const { return *job_; }
  // Appends to `out` every task ready at `since_arrival_ms` (ms since the
  // job's arrival) that was not handed out before, stage by stage.
  void TakeReady(int64_t since_arrival_ms, std::vector<TaskRef>* out);
  // When (ms since arrival) the next task of an open stage becomes ready by
  // its submit offset; -1 if none waits for time (only for parents, or
  // nothing left).
  int64_t NextOffsetMs() const;
  // A handed-out task finished. Returns false (and changes nothing) for a
  // task not handed out or already finished.
  bool OnFinished(const TaskRef& task);

  int64_t tasks() const { return total_; }
  int64_t finished() const { return finished_total_; }
  int64_t handed_out() const { return handed_total_; }
  bool done() const { return finished_total_ == total_; }

 private:
  struct StageState {
    int32_t waiting_parents = 0;  // parent stages not yet complete
    int32_t finished = 0;
    bool open = false;  // all parents complete
    // Tasks not handed out, by submit offset (ascending) then index.
    std::vector<int32_t> order;
    size_t next = 0;             // into order
    std::vector<uint8_t> state;  // per task: 0 new, 1 handed out, 2 finished
  };

  void OpenStage(int32_t stage);

  const TraceJob* const job_;
  std::vector<StageState> stages_;
  std::vector<std::vector<int32_t>> children_;  // stage -> stages waiting for it
  std::vector<int32_t> open_;                   // stages open with tasks left
  int64_t total_ = 0;
  int64_t handed_total_ = 0;
  int64_t finished_total_ = 0;
};

}  // namespace spindle::replay
