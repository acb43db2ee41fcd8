#include "bench/windtunnel/phase_events.h"

#include <algorithm>

#include "replay/windtunnel/replay_tunnel.h"

namespace spindle::windtunnel {

PhaseEvents::PhaseEvents(const RunSpec& spec, const ClusterModel* cluster,
                         std::vector<PhaseSpec> phases)
    : spec_(spec), cluster_(cluster), recorder_(std::move(phases), cluster->total_slots()) {}

void PhaseEvents::OnJobSubmitted(int64_t job, const std::string& /*trace_id*/,
                                 const std::string& /*queue*/, int64_t tasks, Duration at) {
  if (jobs_.size() <= static_cast<size_t>(job)) jobs_.resize(static_cast<size_t>(job) + 1);
  Job& j = jobs_[static_cast<size_t>(job)];
  j.tasks = tasks;
  j.submitted = at;
  submitted_ += tasks;
  recorder_.OnSubmit(at, tasks);
}

void PhaseEvents::OnJobRejected(int64_t job, const std::string& reason, Duration /*at*/) {
  if (rejection_.empty()) rejection_ = "job " + std::to_string(job) + ": " + reason;
}

void PhaseEvents::OnTaskPlaced(int64_t job, Duration asked, Duration placed, int64_t node,
                               int64_t /*memory_mb*/, int64_t /*vcores*/, bool with_preference,
                               bool preferred) {
  Job& j = jobs_[static_cast<size_t>(job)];
  recorder_.OnCommit(asked, placed, with_preference, preferred, cluster_->ScoreAt(node));
  j.last_commit = std::max(j.last_commit, placed);
  last_commit_ = std::max(last_commit_, placed);
  ++committed_;
  ++held_;
  if (spec_.clock == ClockKind::kVirtual) {
    ++commits_ahead_[placed];
  } else {
    ++committed_visible_;
  }
  if (++j.placed == j.tasks) recorder_.OnJobScheduled(j.submitted, j.last_commit);
}

void PhaseEvents::OnTaskEnded(int64_t job, Duration at, int64_t /*memory_mb*/, int64_t /*vcores*/) {
  Job& j = jobs_[static_cast<size_t>(job)];
  j.last_end = std::max(j.last_end, at);
  --held_;
}

void PhaseEvents::OnJobFinished(int64_t job, Duration /*at*/) {
  const Job& j = jobs_[static_cast<size_t>(job)];
  recorder_.OnJobDone(j.submitted, j.last_end);
}

void PhaseEvents::Sample(Duration at, replay::ReplayTunnel& tunnel) {
  int quality_first = -1;
  if (spec_.strategy == pool::StrategyKind::kAdaptive) {
    quality_first = 0;
    for (const pool::SchedulerMetrics& m : tunnel.pool().Metrics().schedulers) {
      quality_first += m.active_strategy == pool::StrategyKind::kQualityFirst;
    }
  }
  while (!commits_ahead_.empty() && commits_ahead_.begin()->first <= at) {
    committed_visible_ += commits_ahead_.begin()->second;
    commits_ahead_.erase(commits_ahead_.begin());
  }
  recorder_.OnSample(at, submitted_ - committed_visible_, held_, quality_first);
}

ModeResult PhaseEvents::Finish(const replay::TunnelSummary& run) const {
  ModeResult r;
  r.label = spec_.label;
  r.mode = pool::SyncModeName(spec_.mode);
  r.strategy = pool::StrategyKindName(spec_.strategy);
  r.clock = ClockKindName(spec_.clock);
  // Pool threads and remote members together: the run's N.
  r.schedulers = MakePoolOptions(spec_).effective_schedulers() + spec_.remote_schedulers;
  recorder_.Finish(run.end, &r);
  r.submitted = submitted_;
  r.committed = committed_;
  r.uncommitted_at_end = submitted_ - committed_;
  r.last_commit_s = std::chrono::duration<double>(last_commit_).count();
  r.all_committed = run.tasks_waiting == 0 && r.uncommitted_at_end == 0;
  r.decisions = run.decisions;
  r.wall_seconds = run.wall_seconds;
  r.invariants_ok = run.invariants_ok;
  return r;
}

}  // namespace spindle::windtunnel
