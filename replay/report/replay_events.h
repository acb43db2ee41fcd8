// ReplayEvents: what a replay engine tells about one run, as it happens —
// jobs submitted, rejected and finished, tasks asked, placed and ended,
// conflicts. The wind tunnel and the staging cell report to it; the
// ReplayRecorder turns the events into a replay's figures, and the wind
// tunnel bench (bench/windtunnel) into the paper's per-phase figures.
// Times are durations since the start of the run (trace time). Jobs are
// named by the engine's dense index (0, 1, ...).
//
// Thread-safety: an implementation states its own.
#pragma once

#include <cstdint>
#include <string>

#include "base/clock.h"

namespace spindle::replay {

class ReplayEvents {
 public:
  virtual ~ReplayEvents() = default;

  // A job entered the RM (submitted), with `tasks` tasks in all.
  virtual void OnJobSubmitted(int64_t job, const std::string& trace_id, const std::string& queue,
                              int64_t tasks, Duration at) = 0;
  // The RM refused the job (unknown queue, ACL, too big): it runs nothing.
  virtual void OnJobRejected(int64_t job, const std::string& reason, Duration at) = 0;
  // Its AM asked for `count` more tasks.
  virtual void OnTasksAsked(int64_t job, int64_t count, Duration at) = 0;
  // One task was placed (given a container) on node `node` (the engine's
  // node index; -1 if unknown). `with_preference`: it named nodes or racks;
  // `preferred`: it landed on one of them.
  virtual void OnTaskPlaced(int64_t job, Duration asked, Duration placed, int64_t node,
                            int64_t memory_mb, int64_t vcores, bool with_preference,
                            bool preferred) = 0;
  // A placed task ended and its container was released.
  virtual void OnTaskEnded(int64_t job, Duration at, int64_t memory_mb, int64_t vcores) = 0;
  // The job's last task ended (the AM unregistered).
  virtual void OnJobFinished(int64_t job, Duration at) = 0;
  // Commits refused by the cell state (wind tunnel only: the wire hides them).
  virtual void OnConflicts(Duration at, int64_t count) = 0;
};

}  // namespace spindle::replay
