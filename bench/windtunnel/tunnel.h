// Tunnel: one run's world around a SchedulerPool — the simulated cluster
// (ClusterModel), the job stream (Workload), the jobs in flight (JobBook),
// the tasks holding slots (ReleaseQueue) and the Recorder — with the moves
// both drivers make: submit a job, collect a scheduler's placements, release
// the tasks that ended, sample. It does not decide *when*: the virtual
// driver calls it from its event loop, the real driver from its polling
// thread. Times are durations since the start of the run.
//
// Thread-safety: none; one driver thread owns it (the pool's own threads
// may run meanwhile: the pool calls are thread-safe).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "bench/windtunnel/cluster_model.h"
#include "bench/windtunnel/job_book.h"
#include "bench/windtunnel/recorder.h"
#include "bench/windtunnel/release_queue.h"
#include "bench/windtunnel/run_spec.h"
#include "bench/windtunnel/workload.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::windtunnel {

class Tunnel {
 public:
  // Builds the pool on `clock` (which must outlive the tunnel) and adds the
  // nodes. InvalidArgument for a spec that does not validate.
  static Result<std::unique_ptr<Tunnel>> Create(const RunSpec& spec, const Clock* clock);

  const RunSpec& spec() const { return spec_; }
  pool::SchedulerPool& pool() { return *pool_; }
  Workload& workload() { return workload_; }
  const ClusterModel& cluster() const { return cluster_; }
  JobBook& book() { return book_; }
  ReleaseQueue& releases() { return releases_; }

  // Registers `job` with the pool (an app with one ask of job.tasks slots on
  // its preferred nodes) at `now`; returns the scheduler it is pinned to.
  // Jobs are pinned round robin (job k to scheduler k mod N), as the paper
  // spreads its workload evenly, by picking app ids the pool's hash maps so.
  Result<int> Submit(const JobSpec& job, Duration now);
  // Collects at least `expected` new placements of `scheduler` (see
  // JobBook::Collect) and books them: committed at `commit_at` if given
  // (the virtual clock's end of the step), else at the placement's own
  // committed_at; each task is queued for release after its duration.
  Result<int64_t> Collect(int scheduler, int64_t expected, std::optional<Duration> commit_at);
  // Releases every task that ended at or before `now`.
  Status ReleaseDue(Duration now);
  void RecordConflicts(Duration at, int64_t count) { recorder_.OnConflicts(at, count); }
  // A 1 s sample of backlog (tasks submitted and not committed by `at`),
  // utilisation and adaptive's state at `at`.
  void Sample(Duration at);

  int64_t submitted_tasks() const { return submitted_; }
  int64_t committed_tasks() const { return committed_; }
  int64_t held_slots() const { return held_; }
  bool all_submitted() const { return workload_done_; }
  void set_all_submitted() { workload_done_ = true; }
  bool AllCommitted() const { return workload_done_ && committed_ == submitted_; }
  bool AllEnded() const { return AllCommitted() && releases_.empty(); }
  Duration last_commit() const { return last_commit_; }

  // The run's figures; `end` is when it stopped.
  ModeResult Finish(Duration end, double wall_seconds, int64_t decisions);

  // The pool's epoch as a run time origin (the virtual clock's 0).
  TimePoint origin() const { return origin_; }
  void set_origin(TimePoint t) { origin_ = t; }
  Duration Since(TimePoint t) const { return t - origin_; }

 private:
  Tunnel(const RunSpec& spec, const Clock* clock);

  const RunSpec spec_;
  ClusterModel cluster_;
  Workload workload_;
  std::unique_ptr<pool::SchedulerPool> pool_;
  pool::QueueId queue_;
  JobBook book_;
  ReleaseQueue releases_;
  Recorder recorder_;
  TimePoint origin_;
  int64_t submitted_ = 0;
  int64_t committed_ = 0;
  int64_t held_ = 0;
  bool workload_done_ = false;
  uint64_t next_app_id_ = 1;
  Duration last_commit_{0};
  // Virtual clock: tasks collected at a step's start count as committed
  // (for the backlog) only at its end: commit time -> tasks.
  std::map<Duration, int64_t> commits_ahead_;
  int64_t committed_visible_ = 0;
  std::vector<Taken> taken_;
  std::vector<ReleaseQueue::Entry> due_;
  std::vector<pool::Placement> to_release_;
};

}  // namespace spindle::windtunnel
