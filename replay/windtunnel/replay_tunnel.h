// ReplayTunnel: the wind tunnel's world — the one in-process engine that
// `spindle replay --mode windtunnel` and `spindle bench windtunnel` both
// run. The cluster is a node list (with optional slot scores); the queues
// are the RM's own queue tree; each job is submitted to a real
// rm::ResourceManager through TunnelRm (the seam: the RM's queue checks,
// an unmanaged AM on the AM path's allocate, nodes on the node protocol),
// and that AM, simulated in-process, asks for its ready tasks (JobProgress:
// DAG stages released as parents finish, submit offsets honoured), takes
// its containers, each held for the task's duration and then reported
// complete by its node, and unregisters when the job is done. Everything is reported to
// ReplayEvents.
//
// Asks: the tasks of a stage with the same resources and preferences form
// one ask key (their own allocationRequestId), so a placement is matched to
// a task of exactly that shape and preference, and thousands of identical
// tasks cost one key.
//
// It does not decide *when*: the drivers (virtual_driver.h, real_driver.h)
// call it. Times are trace durations since the start of the run.
//
// Thread-safety: one driver thread owns it (the pool's own threads, and its
// own reporting thread once started, may run meanwhile: the RM's and the
// pool's calls are thread-safe), except PrepareSubmission (see there).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "replay/driver/job_progress.h"
#include "replay/report/replay_events.h"
#include "replay/trace/trace.h"
#include "replay/windtunnel/tunnel_rm.h"
#include "replay/windtunnel/tunnel_run.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::replay {

struct TunnelSetup {
  // The pool, the RM's configuration (queues), the resource calculator and
  // the minimum and maximum allocations (tunnel_rm.h).
  TunnelRmOptions rm;
  std::vector<TraceNode> nodes;
  // Slot-quality scores, one per node (the pool's strategies read them);
  // empty: every node scores 1. Default: empty.
  std::vector<double> node_scores;
  // Nodes becoming unavailable or available again over the run (Alibaba
  // v2017's server_event.csv), in time order: each is the node's heartbeat
  // saying it is unhealthy (or healthy again) at that trace time. Default:
  // none.
  std::vector<TraceNodeEvent> node_events;
  // A task placed on one of its preferred nodes runs alpha x its duration
  // (ParSync Table 1's TET factor). Default: 1 (no benefit).
  double preferred_alpha = 1.0;
};

class ReplayTunnel {
  struct JobRun;

 public:
  // InvalidArgument for no nodes, duplicate host names, or a configuration
  // or pool options the RM refuses (TunnelRm::Create). `clock` and
  // `events` must outlive the tunnel.
  static Result<std::unique_ptr<ReplayTunnel>> Create(const TunnelSetup& setup, const Clock* clock,
                                                      ReplayEvents* events);
  ~ReplayTunnel();

  pool::SchedulerPool& pool() { return rm_->pool(); }
  // The RM core the jobs are submitted to.
  TunnelRm& rm() { return *rm_; }

  // The job arrives at `now`: rejected (and recorded so) or registered with
  // its ready tasks asked for. PrepareSubmission, then EnterSubmission.
  Status Submit(TraceJob job, Duration now);

  // A job submitted (PrepareSubmission) and not yet entered
  // (EnterSubmission): the RM has it, the tunnel does not yet.
  struct PreparedJob {
    PreparedJob();
    PreparedJob(PreparedJob&&) noexcept;
    PreparedJob& operator=(PreparedJob&&) noexcept;
    ~PreparedJob();
    Duration at{0};  // when its submission began
    // Accepted: its run (the job in it), its ask groups and the tasks its
    // first allocate asked for. Refused: null, and the job and the reason.
    std::unique_ptr<JobRun> run;
    int64_t asked = 0;
    int64_t unknown_preferences = 0;
    TraceJob refused;
    std::string rejection;
  };
  // Submit's RM half: the job submitted to the RM (TunnelRm::Admit), its ask
  // groups built and its ready tasks asked for (the AM's first allocate).
  // Reads the tunnel's host and rack tables only: may run on another thread
  // than the driver's, concurrently with any call of the tunnel but
  // Create and set_origin.
  Result<PreparedJob> PrepareSubmission(TraceJob job, Duration now) const;
  // Submit's driver half, on the driver's thread, in submission order: the
  // job gets its index, its events are reported (at its `at`) and its asks
  // booked (a job of no tasks finishes at once).
  void EnterSubmission(PreparedJob job);
  // Tasks whose submit offset passed by `now` are asked for.
  Status WakeOffsets(Duration now);
  // When the next submit offset falls due; Duration::max() if none.
  Duration NextOffset() const;
  // Takes at least `expected` new placements of `scheduler` from the pool
  // (oldest job first, as the default FIFO ordering commits them) and books
  // them as placed at `commit_at` if given, else at the placement's own
  // commit stamp (both clocks: the virtual clock's schedulers stamp each
  // commit with its modelled decision cost). Returns how many were taken.
  Result<int64_t> Collect(int scheduler, int64_t expected, std::optional<Duration> commit_at);
  // Ends every task due at or before `now`: releases it (its node's
  // heartbeat reports it complete), and asks for the tasks it unblocks;
  // finished jobs leave the pool. With the reporting thread
  // (StartReportingThread) the heartbeats are sent on that thread and the
  // tasks are booked as ended (asks, finished jobs; at `now`) by the next
  // ReleaseDue or FlushReleases: the caller submits and collects meanwhile;
  // the AMs of the jobs that finishes unregister on that thread too, after
  // the next batch's heartbeats.
  Status ReleaseDue(Duration now);
  // The real clock's second driver thread: the nodes' heartbeats and the
  // finished AMs' unregistrations on it, the other AM calls and the
  // clients' on the caller's (the RM's calls are thread-safe). Call once,
  // before the first ReleaseDue.
  void StartReportingThread();
  // The reporting thread is still sending the last batch ReleaseDue gave
  // it: a ReleaseDue now would wait for it. A driver that has other work
  // (submitting, collecting) does that instead and calls ReleaseDue once
  // this is false; the tasks that fall due meanwhile go in the next batch.
  // False without the reporting thread. Does not wait.
  bool reporting_busy() const;
  // Waits for the heartbeats in flight and books their tasks as ended; the
  // AMs of the jobs that finishes unregister now (no batch follows).
  Status FlushReleases();
  // The earliest task end; Duration::max() if none.
  Duration NextRelease() const;
  // When the next node event (TunnelSetup::node_events) falls due;
  // Duration::max() if none.
  Duration NextNodeEvent() const;
  // Plays the node events due at or before `now` (after the heartbeats in
  // flight, whose tasks it books as ended).
  Status ApplyNodeEvents(Duration now);

  // The end of a run stopped at `now` (within options' not_before and
  // horizon) and the state it left: the cell's invariants, surplus
  // placements, tasks and jobs left. Leaves the rest of `out` alone.
  void Summarize(Duration now, const TunnelRunOptions& options, TunnelSummary* out);

  // Scheduler slots whose apps' asks changed since the last call (the
  // virtual driver wakes them); slots from pool().num_schedulers() on are
  // the cell-state service's.
  void TakeTouched(std::vector<int>* out);

  int64_t jobs_submitted() const { return static_cast<int64_t>(jobs_.size()); }
  int64_t jobs_in_flight() const { return in_flight_; }
  int64_t tasks_waiting() const { return waiting_; }
  int64_t tasks_running() const { return running_; }
  // Placements the pool made beyond what a job asked for (must stay 0).
  int64_t surplus_placements() const { return surplus_; }
  // Preferences naming a node not in the cluster (ignored).
  int64_t unknown_preferences() const { return unknown_preferences_; }

  // The pool's epoch as the run's time origin, and trace time per clock
  // time (the real clock's --speed).
  TimePoint origin() const { return origin_; }
  void set_origin(TimePoint t, double speed = 1.0) {
    origin_ = t;
    speed_ = speed;
  }
  double speed() const { return speed_; }
  Duration Since(TimePoint t) const {
    return std::chrono::duration_cast<Duration>((t - origin_) * speed_);
  }

 private:
  struct AskGroup {
    pool::Ask ask;  // count: tasks handed out and not yet matched
    std::deque<std::pair<TaskRef, Duration>> waiting;  // task, asked at
    bool with_preference = false;
    bool dirty = false;
  };
  struct JobRun {
    explicit JobRun(TraceJob j) : job(std::move(j)), progress(&job) {}
    TraceJob job;
    JobProgress progress;
    int64_t index = 0;
    AdmittedJob rm;  // the RM's attempt of the job, its pool app and scheduler
    Duration arrival{0};
    std::vector<AskGroup> groups;
    std::vector<std::vector<int32_t>> group_of;  // [stage][task] -> group
    int64_t waiting = 0;
  };
  struct Running {
    pool::Placement placement;
    int64_t job = 0;
    TaskRef task;
  };

  // Tasks taken off running_tasks_ whose heartbeats are on the reporting
  // thread.
  struct DueBatch {
    std::vector<Running> due;
    TunnelRm::Heartbeats heartbeats;
    Duration now{0};
  };
  class Reporter;

  ReplayTunnel(const TunnelSetup& setup, ReplayEvents* events);
  // The tasks ended and reported: job progress, asks they unblock,
  // finished jobs.
  Status BookEnded(const std::vector<Running>& due, Duration now);
  // Waits for the heartbeats in flight and books their tasks as ended.
  Status AwaitReleases();
  // The job's ask groups, with resolved preferences (then dropped from the
  // tasks, which keeps a job of many tasks with long preference lists
  // small). Returns how many preferences named no node or rack of the cell.
  int64_t BuildGroups(JobRun* run) const;
  // Asks for the tasks ready at `now` and pushes changed totals to the pool:
  // AskReadyRm, then BookAsked.
  Status AskReady(JobRun* run, Duration now);
  // The run's side: the ready tasks wait in their groups and the changed
  // totals go to the RM (an allocate). Returns how many tasks were asked
  // for. Touches only `run` and the RM (PrepareSubmission's thread).
  Result<int64_t> AskReadyRm(JobRun* run, Duration now) const;
  // The tunnel's side of `asked` tasks asked for at `now` (the driver's
  // thread): counts, events, the scheduler's pending jobs, the next offset.
  void BookAsked(JobRun* run, int64_t asked, Duration now);
  void ScheduleOffset(const JobRun& run);
  void FinishJob(JobRun* run, Duration now);

  ReplayEvents* const events_;
  const double preferred_alpha_;
  std::unique_ptr<TunnelRm> rm_;
  std::vector<TraceNodeEvent> node_events_;
  size_t next_node_event_ = 0;
  std::unordered_map<std::string, pool::NodeId> node_by_host_;
  std::unordered_map<std::string, pool::RackId> rack_by_name_;
  TimePoint origin_;
  double speed_ = 1.0;

  std::vector<std::unique_ptr<JobRun>> jobs_;  // by index; null once finished
  // Per scheduler: jobs with tasks not yet placed, oldest first.
  std::vector<std::map<int64_t, JobRun*>> pending_;
  // (end, sequence) -> task; a map keeps ends ordered and pops in batches.
  std::multimap<Duration, Running> running_tasks_;
  // (due, job) of submit offsets.
  std::priority_queue<std::pair<Duration, int64_t>, std::vector<std::pair<Duration, int64_t>>,
                      std::greater<>>
      offsets_;
  std::vector<uint8_t> touched_;
  std::vector<pool::Placement> taken_;
  std::optional<DueBatch> due_in_flight_;
  // With the reporting thread: AMs of finished jobs, unregistered on it
  // after the next batch's heartbeats.
  std::vector<rm::ApplicationAttemptId> unregistering_;
  // Declared last: stopped first (~ReplayTunnel), while what it sends lives.
  std::unique_ptr<Reporter> reporter_;
  int64_t in_flight_ = 0;
  int64_t waiting_ = 0;
  int64_t running_ = 0;
  int64_t surplus_ = 0;
  int64_t unknown_preferences_ = 0;
};

}  // namespace spindle::replay
