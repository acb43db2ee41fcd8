// JobBook: the jobs of one run in flight — which scheduler each is pinned
// to, how many of its tasks were committed and ended — and the collection
// of committed placements from the pool.
//
// Collection is driven by counts: the driver knows how many tasks a
// scheduler committed (a step's StepResult, or the pool's metrics) and asks
// for at least that many. Each scheduler's jobs are kept oldest first, and
// the pool's default queue ordering is FIFO, so the placements are found at
// the front of the list; a job whose tasks are all collected leaves the
// pool (RemoveApp) and the list, which keeps the pool's per-step work
// proportional to the jobs actually waiting.
//
// Thread-safety: none (one driver owns it); the pool calls are thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "bench/windtunnel/workload.h"
#include "scheduler_pool/ask.h"

namespace spindle::pool {
class SchedulerPool;
}

namespace spindle::windtunnel {

struct JobState {
  int64_t index = 0;
  pool::AppId app;
  int scheduler = 0;
  int phase = 0;
  int tasks = 0;
  Duration submitted{0};
  int collected = 0;       // tasks committed (and taken from the pool)
  int ended = 0;           // tasks released
  bool scheduled = false;  // all tasks committed (reported to the recorder)
  Duration last_commit{0};
  Duration last_end{0};
};

// A placement taken from the pool, with its job's index.
struct Taken {
  pool::Placement placement;
  int64_t job = 0;
};

class JobBook {
 public:
  explicit JobBook(int schedulers) : fifo_(static_cast<size_t>(schedulers)) {}

  // Books a job submitted at `submitted`, pinned to `scheduler`.
  JobState& Add(const JobSpec& spec, pool::AppId app, int scheduler, Duration submitted);
  JobState& job(int64_t index) { return jobs_[static_cast<size_t>(index)]; }
  const JobState& job(int64_t index) const { return jobs_[static_cast<size_t>(index)]; }
  int64_t size() const { return static_cast<int64_t>(jobs_.size()); }
  // Jobs of `scheduler` with tasks not yet collected.
  size_t waiting(int scheduler) const { return fifo_[static_cast<size_t>(scheduler)].size(); }

  // Takes `scheduler`'s committed placements from `pool`, oldest job first,
  // until at least `expected` were found or every waiting job was looked
  // at; appends them to `out` and counts them as collected. Jobs complete
  // in collection are removed from the pool. Returns the number taken.
  Result<int64_t> Collect(pool::SchedulerPool* pool, int scheduler, int64_t expected,
                          std::vector<Taken>* out);

 private:
  std::deque<JobState> jobs_;
  std::vector<std::deque<int64_t>> fifo_;  // per scheduler, oldest first
};

}  // namespace spindle::windtunnel
