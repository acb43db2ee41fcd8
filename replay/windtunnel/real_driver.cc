#include "replay/windtunnel/real_driver.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "replay/windtunnel/submitting_thread.h"

namespace spindle::replay {

namespace {
constexpr Duration kNever = Duration::max();
constexpr Duration kSecond = std::chrono::seconds(1);
}  // namespace

void AwaitFirstSteps(const pool::SchedulerPool& pool, Duration poll,
                     const std::atomic<bool>* stop) {
  for (;;) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) return;
    const pool::PoolMetrics m = pool.Metrics();
    if (std::all_of(m.schedulers.begin(), m.schedulers.end(),
                    [](const pool::SchedulerMetrics& s) { return s.steps > 0; })) {
      return;
    }
    std::this_thread::sleep_for(poll);
  }
}

Result<TunnelSummary> RunOnRealClock(const TunnelRunOptions& options, const TunnelSetup& setup,
                                     TraceReader* jobs, ReplayEvents* events) {
  if (!(options.speed > 0)) return Status::InvalidArgument("replay: --speed must be > 0");
  const Clock* clock = SystemClock::Get();
  ASSIGN_OR_RETURN(std::unique_ptr<ReplayTunnel> tunnel,
                   ReplayTunnel::Create(setup, clock, events));
  pool::SchedulerPool& pool = tunnel->pool();
  // Two driver threads: the nodes' heartbeats (tasks that end) on their own,
  // while this one submits jobs and collects and hands out containers; this
  // one never waits for the other (reporting_busy). One
  // thread doing the RM's work for both was the bottleneck at 4x (the pool's
  // schedulers sat idle while it caught up with the ends of earlier tasks).
  tunnel->StartReportingThread();
  const int n = pool.num_schedulers();
  // Remote slots: members of the pool's cell-state service over Thrift on
  // 127.0.0.1, one thread each in this process (TunnelMembers).
  std::unique_ptr<TunnelMembers> members;
  if (pool.options().remote_schedulers > 0) {
    ASSIGN_OR_RETURN(members, TunnelMembers::Create(&pool, clock, TunnelMembers::Wire::kLoopback));
  }
  const int k = members == nullptr ? 0 : members->size();
  int64_t collected_remote = 0;
  std::vector<int64_t> collected(static_cast<size_t>(n), 0);
  int64_t conflicts_seen = 0;
  const auto wall0 = std::chrono::steady_clock::now();
  RETURN_NOT_OK(pool.Start());
  if (members != nullptr) members->Start(options.remote_poll);
  // The run starts once every scheduler has loaded its view (its first
  // step copies every partition), as an RM's schedulers have long before
  // its first job arrives. Started with the first jobs instead, those copies
  // (one per scheduler of the whole cell: 400,000 nodes at 4x) ran while
  // the first jobs waited, and the jobs' allocates queued behind them.
  AwaitFirstSteps(pool, options.tick, options.stop);
  // The run starts now; the pool's sync slots keep their own epoch.
  const TimePoint start = clock->Now();
  tunnel->set_origin(start, options.speed);
  // Trace time: wall time since the start, times the speed.
  const auto trace_now = [&] {
    return std::chrono::duration_cast<Duration>((clock->Now() - start) * options.speed);
  };
  const auto scale = [&](Duration wall) {
    return std::chrono::duration_cast<Duration>(wall * options.speed);
  };
  // A third driver thread submits the jobs as they arrive (the RM's queue
  // checks, the app, its AM, the first allocate); this one enters them and
  // collects and ends tasks meanwhile. Submitting was half of this thread's
  // time, and at 4x one thread could not also keep up with the rest.
  SubmittingThread submitter(tunnel.get(), jobs, clock);
  Duration now{0};
  Duration last_progress{0};
  Duration next_report = kSecond;
  Duration next_sample = options.sample ? kSecond : kNever;
  int64_t submitted = 0;
  TunnelSummary summary;
  Status failure;
  for (;;) {
    now = trace_now();
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      summary.cut = true;
      break;
    }
    failure = tunnel->ApplyNodeEvents(now);
    if (!failure.ok()) break;
    // The jobs the submitting thread submitted since the last pass.
    const Result<int64_t> entered = submitter.TakeSubmitted();
    if (!entered.ok()) {
      failure = entered.status();
      break;
    }
    if (*entered > 0) {
      submitted += *entered;
      last_progress = now;
    }
    failure = tunnel->WakeOffsets(now);
    if (!failure.ok()) break;
    // Placements committed since the last poll, scheduler by scheduler.
    const pool::PoolMetrics m = pool.Metrics();
    for (int i = 0; i < n && failure.ok(); ++i) {
      const int64_t expected =
          m.schedulers[static_cast<size_t>(i)].placements - collected[static_cast<size_t>(i)];
      if (expected <= 0) continue;
      auto got = tunnel->Collect(i, expected, std::nullopt);
      if (!got.ok()) {
        failure = got.status();
        break;
      }
      collected[static_cast<size_t>(i)] += *got;
      if (*got > 0) last_progress = now;
    }
    // The members' placements, whichever remote slot their apps are on.
    if (members != nullptr) {
      for (int s = n; s < n + k && failure.ok() && collected_remote < members->placed(); ++s) {
        auto got = tunnel->Collect(s, members->placed() - collected_remote, std::nullopt);
        if (!got.ok()) {
          failure = got.status();
          break;
        }
        collected_remote += *got;
        if (*got > 0) last_progress = now;
      }
    }
    if (!failure.ok()) break;
    const int64_t conflicts = m.overall.conflicts + (members == nullptr ? 0 : members->conflicts());
    events->OnConflicts(now, conflicts - conflicts_seen);
    conflicts_seen = conflicts;
    // Tasks that ended, once the reporting thread is done with the last
    // batch: waiting for it here would leave this thread idle while jobs
    // arrive (the two threads would take turns instead of running at
    // once); what falls due meanwhile goes in the next, larger batch.
    const bool reporting = tunnel->reporting_busy();
    if (!reporting) {
      const Duration before_release = tunnel->NextRelease();
      failure = tunnel->ReleaseDue(trace_now());
      if (!failure.ok()) break;
      if (tunnel->NextRelease() != before_release) last_progress = now;
    }
    while (now >= next_sample) {
      options.sample(next_sample, *tunnel);
      next_sample += kSecond;
    }
    const bool all_in = submitter.done() && tunnel->NextOffset() == kNever;
    if (all_in && (tunnel->jobs_in_flight() == 0 ||
                   (options.stop_when_placed && tunnel->tasks_waiting() == 0))) {
      break;
    }
    if (options.horizon > Duration(0) && now >= options.horizon) break;
    if (now - last_progress > options.stall_limit && tunnel->tasks_waiting() > 0) {
      summary.stalled = true;
      break;
    }
    if (options.progress && now >= next_report) {
      options.progress(now, submitted);
      next_report = now + kSecond;
    }
    // Sleep until the next thing to do, at most one tick.
    // (Ends due while the reporting thread is busy wait for the next tick.)
    Duration wake = now + scale(options.tick);
    wake = std::min({wake, reporting ? kNever : tunnel->NextRelease(), tunnel->NextOffset(),
                     tunnel->NextNodeEvent(), next_sample});
    const Duration left = wake - trace_now();
    if (left > Duration(0)) {
      std::this_thread::sleep_for(std::chrono::duration_cast<Duration>(left / options.speed));
    }
  }
  // Jobs submitted while this thread left the loop are entered (they are in
  // the RM); those whose submission had not begun are not submitted.
  const Result<int64_t> last = submitter.Stop();
  if (failure.ok() && !last.ok()) failure = last.status();
  if (failure.ok()) failure = tunnel->FlushReleases();
  if (members != nullptr) members->Stop();
  pool.Stop();
  RETURN_NOT_OK(failure);
  tunnel->Summarize(now, options, &summary);
  if (members != nullptr) summary.members = members->Figures();
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return summary;
}

}  // namespace spindle::replay
