#include "replay/windtunnel/replay_tunnel.h"

#include <pthread.h>

#include <algorithm>
#include <functional>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "base/mutex.h"
#include "glog/logging.h"

namespace spindle::replay {

namespace {
// The reporting thread sends its nodes' heartbeats this many to a call:
// each call holds the node and container registries' locks for all of its
// heartbeats, and the driver threads' allocates need the same locks
// meanwhile (the hand-out's nodes, an ask's hosts). At ~3,500 instructions
// a heartbeat (callgrind, bench/windtunnel/README.md) 64 hold them for
// ~0.2 M instructions (~0.1 ms; 256 held them four times as long, and the
// driver was found waiting on them), and still cost one pool release per
// call: ~2,500 calls a second at 160,000 task ends a second.
constexpr size_t kHeartbeatsPerCall = 64;
}  // namespace

ReplayTunnel::ReplayTunnel(const TunnelSetup& setup, ReplayEvents* events)
    : events_(events), preferred_alpha_(setup.preferred_alpha), node_events_(setup.node_events) {}

// The reporting thread: sends one batch of heartbeats at a time.
class ReplayTunnel::Reporter {
 public:
  explicit Reporter(TunnelRm* rm) : rm_(rm), thread_([this] { Run(); }) {}
  ~Reporter() {
    {
      MutexLock lock(&mu_);
      stop_ = true;
    }
    cv_.SignalAll();
    thread_.join();
  }
  // `batch` must live until Wait returns.
  void Post(TunnelRm::Heartbeats* batch) {
    {
      MutexLock lock(&mu_);
      batch_ = batch;
    }
    cv_.SignalAll();
  }
  // A posted batch is not yet sent (does not wait).
  bool Busy() {
    MutexLock lock(&mu_);
    return batch_ != nullptr;
  }
  // Waits until the posted batch is sent; its outcome.
  Status Wait() {
    MutexLock lock(&mu_);
    while (batch_ != nullptr) cv_.Wait(&mu_);
    return std::exchange(sent_, Status::OK());
  }

 private:
  void Run() {
    // Named for per-thread CPU figures (/proc/<pid>/task/<tid>/comm).
    pthread_setname_np(pthread_self(), "wt-reporter");
    for (;;) {
      TunnelRm::Heartbeats* batch = nullptr;
      {
        MutexLock lock(&mu_);
        while (batch_ == nullptr && !stop_) cv_.Wait(&mu_);
        if (batch_ == nullptr) return;
        batch = batch_;
      }
      Status sent = rm_->Send(batch, kHeartbeatsPerCall);
      {
        MutexLock lock(&mu_);
        sent_ = std::move(sent);
        batch_ = nullptr;
      }
      cv_.SignalAll();
    }
  }

  TunnelRm* const rm_;
  Mutex mu_;
  CondVar cv_;
  TunnelRm::Heartbeats* batch_ GUARDED_BY(mu_) = nullptr;
  Status sent_ GUARDED_BY(mu_);
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: starts once the rest is set
};

ReplayTunnel::~ReplayTunnel() { reporter_.reset(); }

void ReplayTunnel::StartReportingThread() {
  if (reporter_ == nullptr) reporter_ = std::make_unique<Reporter>(rm_.get());
}

bool ReplayTunnel::reporting_busy() const {
  return due_in_flight_.has_value() && reporter_->Busy();
}

Result<std::unique_ptr<ReplayTunnel>> ReplayTunnel::Create(const TunnelSetup& setup,
                                                           const Clock* clock,
                                                           ReplayEvents* events) {
  if (!(setup.preferred_alpha > 0)) return Status::InvalidArgument("replay: alpha must be > 0");
  std::unique_ptr<ReplayTunnel> t(new ReplayTunnel(setup, events));
  ASSIGN_OR_RETURN(t->rm_, TunnelRm::Create(setup.rm, setup.nodes, setup.node_scores, clock));
  const std::vector<pool::NodeId>& ids = t->rm_->node_ids();
  for (size_t i = 0; i < setup.nodes.size(); ++i) {
    const TraceNode& n = setup.nodes[i];
    t->node_by_host_.emplace(n.host, ids[i]);
    if (!t->rack_by_name_.contains(n.rack)) {
      ASSIGN_OR_RETURN(pool::RackId rack, t->rm_->FindRack(n.rack));
      t->rack_by_name_.emplace(n.rack, rack);
    }
  }
  // Slots from num_schedulers() on are the cell-state service's (its
  // members, TunnelMembers).
  const int n = t->pool().num_schedulers() + t->pool().options().remote_schedulers;
  t->pending_.resize(static_cast<size_t>(n));
  t->touched_.assign(static_cast<size_t>(n), 0);
  t->origin_ = t->pool().epoch();
  return t;
}

ReplayTunnel::PreparedJob::PreparedJob() = default;
ReplayTunnel::PreparedJob::PreparedJob(PreparedJob&&) noexcept = default;
ReplayTunnel::PreparedJob& ReplayTunnel::PreparedJob::operator=(PreparedJob&&) noexcept = default;
ReplayTunnel::PreparedJob::~PreparedJob() = default;

Status ReplayTunnel::Submit(TraceJob job, Duration now) {
  ASSIGN_OR_RETURN(PreparedJob prepared, PrepareSubmission(std::move(job), now));
  EnterSubmission(std::move(prepared));
  return Status::OK();
}

Result<ReplayTunnel::PreparedJob> ReplayTunnel::PrepareSubmission(TraceJob job,
                                                                  Duration now) const {
  PreparedJob out;
  out.at = now;
  ASSIGN_OR_RETURN(Admission admission, rm_->Admit(job));
  if (!admission.job.has_value()) {
    out.refused = std::move(job);
    out.rejection = std::move(admission.rejection);
    return out;
  }
  out.run = std::make_unique<JobRun>(std::move(job));
  JobRun* run = out.run.get();
  run->arrival = now;
  run->rm = *admission.job;
  out.unknown_preferences = BuildGroups(run);
  // A job of no tasks asks for nothing: it ends once entered.
  if (!run->progress.done()) {
    ASSIGN_OR_RETURN(out.asked, AskReadyRm(run, now));
  }
  return out;
}

void ReplayTunnel::EnterSubmission(PreparedJob job) {
  const auto index = static_cast<int64_t>(jobs_.size());
  JobRun* r = job.run.get();
  const TraceJob& trace = r != nullptr ? r->job : job.refused;
  events_->OnJobSubmitted(index, trace.id, trace.queue, trace.task_count(), job.at);
  if (r == nullptr) {
    jobs_.emplace_back(nullptr);
    events_->OnJobRejected(index, job.rejection, job.at);
    return;
  }
  r->index = index;
  unknown_preferences_ += job.unknown_preferences;
  jobs_.push_back(std::move(job.run));
  ++in_flight_;
  if (r->progress.done()) {  // a job of no tasks ends at once
    FinishJob(r, job.at);
    return;
  }
  BookAsked(r, job.asked, job.at);
}

int64_t ReplayTunnel::BuildGroups(JobRun* run) const {
  int64_t unknown = 0;
  // The last field: the task names no preference of its own and takes the
  // stage's (kept once, not copied per task).
  using Key = std::tuple<int32_t, int64_t, int32_t, std::vector<std::string>,
                         std::vector<std::string>, bool>;
  run->group_of.resize(run->job.stages.size());
  for (size_t s = 0; s < run->job.stages.size(); ++s) {
    TraceStage& stage = run->job.stages[s];
    std::map<Key, int32_t> keys;
    run->group_of[s].resize(stage.tasks.size());
    for (size_t i = 0; i < stage.tasks.size(); ++i) {
      TraceTask& task = stage.tasks[i];
      const bool inherits = task.preferred_nodes.empty() && task.preferred_racks.empty();
      Key key{stage.priority,
              task.memory_mb,
              task.vcores,
              std::move(task.preferred_nodes),
              std::move(task.preferred_racks),
              inherits};
      task.preferred_nodes.clear();
      task.preferred_racks.clear();
      auto [it, fresh] = keys.emplace(std::move(key), static_cast<int32_t>(run->groups.size()));
      if (fresh) {
        AskGroup g;
        g.ask.priority = stage.priority;
        g.ask.allocation_request_id = static_cast<int64_t>(run->groups.size());
        g.ask.capability = pool::Resource::Of(task.memory_mb, task.vcores);
        const bool stage_wide = std::get<5>(it->first);
        for (const std::string& host :
             stage_wide ? stage.preferred_nodes : std::get<3>(it->first)) {
          auto n = node_by_host_.find(host);
          if (n == node_by_host_.end()) {
            ++unknown;
          } else {
            g.ask.nodes.push_back(n->second);
          }
        }
        for (const std::string& rack :
             stage_wide ? stage.preferred_racks : std::get<4>(it->first)) {
          auto r = rack_by_name_.find(rack);
          if (r == rack_by_name_.end()) {
            ++unknown;
          } else {
            g.ask.racks.push_back(r->second);
          }
        }
        g.with_preference = !g.ask.nodes.empty() || !g.ask.racks.empty();
        run->groups.push_back(std::move(g));
      }
      run->group_of[s][i] = it->second;
    }
    stage.preferred_nodes.clear();
    stage.preferred_racks.clear();
  }
  return unknown;
}

Status ReplayTunnel::AskReady(JobRun* run, Duration now) {
  ASSIGN_OR_RETURN(const int64_t asked, AskReadyRm(run, now));
  BookAsked(run, asked, now);
  return Status::OK();
}

Result<int64_t> ReplayTunnel::AskReadyRm(JobRun* run, Duration now) const {
  std::vector<TaskRef> ready;
  const int64_t since_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - run->arrival).count();
  run->progress.TakeReady(since_ms, &ready);
  if (ready.empty()) return 0;
  for (const TaskRef& t : ready) {
    AskGroup& g = run->groups[static_cast<size_t>(
        run->group_of[static_cast<size_t>(t.stage)][static_cast<size_t>(t.task)])];
    g.waiting.emplace_back(t, now);
    g.dirty = true;
  }
  const auto n = static_cast<int64_t>(ready.size());
  run->waiting += n;
  std::vector<pool::Ask> asks;
  for (AskGroup& g : run->groups) {
    if (!g.dirty) continue;
    g.dirty = false;
    g.ask.count = static_cast<int64_t>(g.waiting.size());
    asks.push_back(g.ask);
  }
  RETURN_NOT_OK(rm_->SetAsks(run->rm, asks));
  return n;
}

void ReplayTunnel::BookAsked(JobRun* run, int64_t asked, Duration now) {
  if (asked > 0) {
    waiting_ += asked;
    events_->OnTasksAsked(run->index, asked, now);
    pending_[static_cast<size_t>(run->rm.scheduler)].emplace(run->index, run);
    touched_[static_cast<size_t>(run->rm.scheduler)] = 1;
  }
  ScheduleOffset(*run);
}

void ReplayTunnel::ScheduleOffset(const JobRun& run) {
  const int64_t next = run.progress.NextOffsetMs();
  if (next >= 0) offsets_.emplace(run.arrival + std::chrono::milliseconds(next), run.index);
}

Status ReplayTunnel::WakeOffsets(Duration now) {
  while (!offsets_.empty() && offsets_.top().first <= now) {
    const int64_t index = offsets_.top().second;
    offsets_.pop();
    JobRun* run = jobs_[static_cast<size_t>(index)].get();
    if (run == nullptr) continue;
    RETURN_NOT_OK(AskReady(run, now));
  }
  return Status::OK();
}

Duration ReplayTunnel::NextOffset() const {
  return offsets_.empty() ? Duration::max() : offsets_.top().first;
}

Result<int64_t> ReplayTunnel::Collect(int scheduler, int64_t expected,
                                      std::optional<Duration> commit_at) {
  auto& pending = pending_[static_cast<size_t>(scheduler)];
  int64_t got = 0;
  for (auto it = pending.begin(); it != pending.end() && got < expected;) {
    JobRun* run = it->second;
    taken_.clear();
    RETURN_NOT_OK(rm_->TakePlacements(run->rm, &taken_));
    for (const pool::Placement& p : taken_) {
      ++got;
      const Duration placed = commit_at.value_or(Since(p.committed_at));
      const auto gi = static_cast<size_t>(p.allocation_request_id);
      if (p.allocation_request_id < 0 || gi >= run->groups.size() ||
          run->groups[gi].waiting.empty()) {
        // More than was asked: give it back (an AM releases what it does
        // not need), and count it: this must not happen.
        ++surplus_;
        RETURN_NOT_OK(rm_->Release(run->rm, p));
        continue;
      }
      AskGroup& g = run->groups[gi];
      const auto [task, asked] = g.waiting.front();
      g.waiting.pop_front();
      --run->waiting;
      --waiting_;
      ++running_;
      const TraceTask& t =
          run->job.stages[static_cast<size_t>(task.stage)].tasks[static_cast<size_t>(task.task)];
      const std::optional<size_t> node = rm_->NodeIndexOf(p.node);
      events_->OnTaskPlaced(
          run->index, asked, placed, node.has_value() ? static_cast<int64_t>(*node) : -1,
          p.resource.memory_mb(), p.resource.vcores(), g.with_preference, p.preferred);
      Duration run_for = std::chrono::milliseconds(t.duration_ms);
      if (p.preferred && preferred_alpha_ != 1.0) {
        run_for = std::chrono::duration_cast<Duration>(run_for * preferred_alpha_);
      }
      running_tasks_.emplace(placed + run_for, Running{p, run->index, task});
    }
    if (run->waiting == 0) {
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
  return got;
}

Status ReplayTunnel::ReleaseDue(Duration now) {
  RETURN_NOT_OK(AwaitReleases());
  std::vector<Running> due;
  while (!running_tasks_.empty() && running_tasks_.begin()->first <= now) {
    due.push_back(running_tasks_.begin()->second);
    running_tasks_.erase(running_tasks_.begin());
  }
  if (due.empty() && unregistering_.empty()) return Status::OK();
  std::vector<pool::Placement> placements;
  placements.reserve(due.size());
  for (const Running& r : due) placements.push_back(r.placement);
  if (reporter_ == nullptr) {
    RETURN_NOT_OK(rm_->Complete(placements));
    return BookEnded(due, now);
  }
  ASSIGN_OR_RETURN(TunnelRm::Heartbeats heartbeats, rm_->HeartbeatsFor(placements));
  // The AMs of jobs whose last tasks' ends the previous batch reported
  // unregister after this batch's heartbeats, on the same thread.
  heartbeats.unregistering = std::move(unregistering_);
  unregistering_.clear();
  due_in_flight_.emplace(DueBatch{std::move(due), std::move(heartbeats), now});
  reporter_->Post(&due_in_flight_->heartbeats);
  return Status::OK();
}

Status ReplayTunnel::AwaitReleases() {
  if (!due_in_flight_.has_value()) return Status::OK();
  const Status sent = reporter_->Wait();
  const DueBatch batch = std::move(*due_in_flight_);
  due_in_flight_.reset();
  RETURN_NOT_OK(sent);
  return BookEnded(batch.due, batch.now);
}

Status ReplayTunnel::FlushReleases() {
  RETURN_NOT_OK(AwaitReleases());
  // The AMs of the jobs that batch finished: unregistered here, no batch
  // follows to carry them.
  for (const rm::ApplicationAttemptId& attempt : unregistering_) rm_->Unregister(attempt);
  unregistering_.clear();
  return Status::OK();
}

Status ReplayTunnel::BookEnded(const std::vector<Running>& due, Duration now) {
  std::set<int64_t> advanced;
  for (const Running& r : due) {
    --running_;
    JobRun* run = jobs_[static_cast<size_t>(r.job)].get();
    CHECK(run != nullptr) << "task of finished job " << r.job;
    events_->OnTaskEnded(r.job, now, r.placement.resource.memory_mb(),
                         r.placement.resource.vcores());
    CHECK(run->progress.OnFinished(r.task));
    advanced.insert(r.job);
  }
  for (int64_t index : advanced) {
    JobRun* run = jobs_[static_cast<size_t>(index)].get();
    if (run->progress.done()) {
      FinishJob(run, now);
    } else {
      RETURN_NOT_OK(AskReady(run, now));
    }
  }
  return Status::OK();
}

void ReplayTunnel::FinishJob(JobRun* run, Duration now) {
  // The AM unregisters; the RM finishes the app and takes it out of the pool.
  // With the reporting thread, it does so on that thread, after the
  // heartbeats of the next batch (ReleaseDue).
  if (reporter_ == nullptr) {
    rm_->Finish(run->rm);
  } else {
    rm_->Forget(run->rm);
    unregistering_.push_back(run->rm.attempt);
  }
  events_->OnJobFinished(run->index, now);
  pending_[static_cast<size_t>(run->rm.scheduler)].erase(run->index);
  --in_flight_;
  jobs_[static_cast<size_t>(run->index)].reset();
}

Duration ReplayTunnel::NextNodeEvent() const {
  if (next_node_event_ >= node_events_.size()) return Duration::max();
  return std::chrono::milliseconds(node_events_[next_node_event_].at_ms);
}

Status ReplayTunnel::ApplyNodeEvents(Duration now) {
  if (NextNodeEvent() > now) return Status::OK();
  // SetNodeHealth must not race the reporting thread's heartbeats.
  RETURN_NOT_OK(AwaitReleases());
  while (next_node_event_ < node_events_.size() &&
         std::chrono::milliseconds(node_events_[next_node_event_].at_ms) <= now) {
    const TraceNodeEvent& e = node_events_[next_node_event_++];
    RETURN_NOT_OK(rm_->SetNodeHealth(e.node, e.available, e.why));
  }
  return Status::OK();
}

Duration ReplayTunnel::NextRelease() const {
  return running_tasks_.empty() ? Duration::max() : running_tasks_.begin()->first;
}

void ReplayTunnel::Summarize(Duration now, const TunnelRunOptions& options, TunnelSummary* out) {
  out->end = std::max(now, options.not_before);
  if (options.horizon > Duration(0)) out->end = std::min(out->end, options.horizon);
  out->invariants_ok = pool().cell().CheckInvariants().ok();
  out->surplus_placements = surplus_;
  out->tasks_waiting = waiting_;
  out->jobs_in_flight = in_flight_;
  const pool::PoolMetrics m = pool().Metrics();
  out->staleness_mean_ms = m.overall.mean_staleness_ms();
  out->staleness_max_ms = m.overall.max_staleness_ms;
  out->in_process_placements = m.overall.placements;
  out->in_process_conflicts = m.overall.conflicts;
}

void ReplayTunnel::TakeTouched(std::vector<int>* out) {
  for (size_t i = 0; i < touched_.size(); ++i) {
    if (touched_[i]) {
      out->push_back(static_cast<int>(i));
      touched_[i] = 0;
    }
  }
}

}  // namespace spindle::replay
