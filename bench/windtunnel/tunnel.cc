#include "bench/windtunnel/tunnel.h"

#include <algorithm>

namespace spindle::windtunnel {

namespace {
constexpr char kQueue[] = "root.windtunnel";
}  // namespace

Tunnel::Tunnel(const RunSpec& spec, const Clock* clock)
    : spec_(spec),
      cluster_(spec.cluster),
      workload_(spec.workload, cluster_.scores(), spec.cluster.score_mean),
      book_(MakePoolOptions(spec).effective_schedulers()),
      recorder_(workload_.phases(), cluster_.total_slots()) {}

Result<std::unique_ptr<Tunnel>> Tunnel::Create(const RunSpec& spec, const Clock* clock) {
  RETURN_NOT_OK(ValidateRunSpec(spec));
  std::unique_ptr<Tunnel> t(new Tunnel(spec, clock));
  ASSIGN_OR_RETURN(t->pool_, pool::SchedulerPool::Create(MakePoolOptions(spec), clock));
  pool::QueueSpec queue;
  queue.name = kQueue;
  queue.ordering = pool::QueueOrdering::kFifo;
  ASSIGN_OR_RETURN(auto ids, t->pool_->SetQueues({queue}));
  t->queue_ = ids[0];
  RETURN_NOT_OK(t->cluster_.AddTo(t->pool_.get()));
  t->origin_ = t->pool_->epoch();
  return t;
}

Result<int> Tunnel::Submit(const JobSpec& job, Duration now) {
  // Jobs go to the schedulers in turn (the paper's workloads spread them
  // evenly): the app id is the next one the pool's pinning hash sends to
  // scheduler index mod N.
  const int schedulers = pool_->num_schedulers();
  const int want = static_cast<int>(job.index % schedulers);
  pool::AppId app(next_app_id_++);
  for (int tries = 0; pool_->SchedulerFor(app, kQueue) != want && tries < 64 * schedulers;
       ++tries) {
    app = pool::AppId(next_app_id_++);
  }
  RETURN_NOT_OK(pool_->AddApp(pool::AppSpec{app, queue_, 0}));
  const int scheduler = pool_->SchedulerFor(app, kQueue);
  book_.Add(job, app, scheduler, now);
  pool::Ask ask;
  ask.capability = ClusterModel::Slot();
  ask.count = job.tasks;
  ask.nodes.reserve(job.preferred.size());
  for (int32_t n : job.preferred) ask.nodes.push_back(cluster_.id(n));
  RETURN_NOT_OK(pool_->SetAsks(app, {std::move(ask)}));
  submitted_ += job.tasks;
  recorder_.OnSubmit(now, job.tasks);
  return scheduler;
}

Result<int64_t> Tunnel::Collect(int scheduler, int64_t expected,
                                std::optional<Duration> commit_at) {
  if (expected <= 0) return int64_t{0};
  taken_.clear();
  ASSIGN_OR_RETURN(int64_t n, book_.Collect(pool_.get(), scheduler, expected, &taken_));
  for (const Taken& t : taken_) {
    const pool::Placement& p = t.placement;
    JobState& job = book_.job(t.job);
    const Duration asked = Since(p.asked_at);
    const Duration committed = commit_at.has_value() ? *commit_at : Since(p.committed_at);
    recorder_.OnCommit(asked, committed, spec_.workload.preferred_nodes > 0, p.preferred,
                       cluster_.ScoreOf(p.node));
    job.last_commit = std::max(job.last_commit, committed);
    last_commit_ = std::max(last_commit_, committed);
    Duration run = spec_.task_duration;
    if (p.preferred && spec_.alpha != 1.0) {
      run = std::chrono::duration_cast<Duration>(run * spec_.alpha);
    }
    releases_.Add(committed + run, p, t.job);
  }
  committed_ += n;
  held_ += n;
  if (commit_at.has_value()) {
    commits_ahead_[*commit_at] += n;
  } else {
    committed_visible_ += n;
  }
  for (const Taken& t : taken_) {
    JobState& job = book_.job(t.job);
    if (!job.scheduled && job.collected >= job.tasks) {
      job.scheduled = true;
      recorder_.OnJobScheduled(job.submitted, job.last_commit);
    }
  }
  return n;
}

Status Tunnel::ReleaseDue(Duration now) {
  due_.clear();
  releases_.PopDue(now, &due_);
  if (due_.empty()) return Status::OK();
  to_release_.clear();
  for (const ReleaseQueue::Entry& e : due_) {
    to_release_.push_back(e.placement);
    JobState& job = book_.job(e.job);
    ++job.ended;
    job.last_end = std::max(job.last_end, e.at);
    if (job.ended == job.tasks) recorder_.OnJobDone(job.submitted, job.last_end);
  }
  held_ -= static_cast<int64_t>(to_release_.size());
  return pool_->ReleaseBatch(to_release_);
}

void Tunnel::Sample(Duration at) {
  int quality_first = -1;
  if (spec_.strategy == pool::StrategyKind::kAdaptive) {
    quality_first = 0;
    for (const pool::SchedulerMetrics& m : pool_->Metrics().schedulers) {
      quality_first += m.active_strategy == pool::StrategyKind::kQualityFirst;
    }
  }
  while (!commits_ahead_.empty() && commits_ahead_.begin()->first <= at) {
    committed_visible_ += commits_ahead_.begin()->second;
    commits_ahead_.erase(commits_ahead_.begin());
  }
  recorder_.OnSample(at, submitted_ - committed_visible_, held_, quality_first);
}

ModeResult Tunnel::Finish(Duration end, double wall_seconds, int64_t decisions) {
  ModeResult r;
  r.label = spec_.label;
  r.mode = pool::SyncModeName(spec_.mode);
  r.strategy = pool::StrategyKindName(spec_.strategy);
  r.clock = ClockKindName(spec_.clock);
  r.schedulers = pool_->num_schedulers();
  recorder_.Finish(end, &r);
  r.submitted = submitted_;
  r.committed = committed_;
  r.uncommitted_at_end = submitted_ - committed_;
  r.last_commit_s = std::chrono::duration<double>(last_commit_).count();
  r.all_committed = AllCommitted();
  r.decisions = decisions;
  r.wall_seconds = wall_seconds;
  r.invariants_ok = pool_->cell().CheckInvariants().ok();
  return r;
}

}  // namespace spindle::windtunnel
