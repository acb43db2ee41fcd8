#include "replay/windtunnel/tunnel_driver.h"

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

namespace spindle::replay {

namespace {

constexpr Duration kNever = Duration::max();

// The next job of the trace, read one ahead so its arrival is known.
class Arrivals {
 public:
  explicit Arrivals(TraceReader* reader) : reader_(reader) {}
  Status Advance() {
    ASSIGN_OR_RETURN(have_, reader_->Next(&job_));
    return Status::OK();
  }
  bool have() const { return have_; }
  Duration at() const { return have_ ? std::chrono::milliseconds(job_.arrival_ms) : kNever; }
  TraceJob Take() { return std::move(job_); }

 private:
  TraceReader* reader_;
  TraceJob job_;
  bool have_ = false;
};

struct SchedulerClock {
  Duration wake{0};
  Duration busy_until{0};
};

void AddChecks(const ReplayTunnel& tunnel, bool stalled, Duration at, ReplayModeResult* r) {
  if (tunnel.surplus_placements() > 0) {
    r->violations.push_back(std::to_string(tunnel.surplus_placements()) +
                            " placements beyond what jobs asked for");
  }
  if (stalled) {
    r->violations.push_back("stalled at " +
                            std::to_string(std::chrono::duration<double>(at).count()) +
                            " s: " + std::to_string(tunnel.tasks_waiting()) + " tasks of " +
                            std::to_string(tunnel.jobs_in_flight()) + " jobs could not be placed");
  }
}

Result<ReplayModeResult> RunVirtual(const TunnelRunOptions& options, const TunnelSetup& setup,
                                    TraceReader* reader, ReplayRecorder* recorder) {
  const auto wall0 = std::chrono::steady_clock::now();
  ManualClock clock;
  ASSIGN_OR_RETURN(std::unique_ptr<ReplayTunnel> tunnel,
                   ReplayTunnel::Create(setup, &clock, recorder));
  pool::SchedulerPool& pool = tunnel->pool();
  const int n = pool.num_schedulers();
  std::vector<SchedulerClock> sched(static_cast<size_t>(n));
  Arrivals arrivals(reader);
  RETURN_NOT_OK(arrivals.Advance());
  const Duration quality_cost =
      std::chrono::duration_cast<Duration>(options.decision_cost * options.quality_cost_factor);
  Duration now{0};
  Duration last_progress{0};
  Duration next_report = std::chrono::seconds(1);
  int64_t submitted = 0;
  bool stalled = false;
  std::vector<int> touched;
  const auto at = [&](Duration t) {
    now = std::max(now, t);
    clock.Set(tunnel->origin() + now);
  };
  for (;;) {
    if (!arrivals.have() && tunnel->jobs_in_flight() == 0) break;
    const Duration release = tunnel->NextRelease();
    const Duration arrival = arrivals.at();
    const Duration offset = tunnel->NextOffset();
    int who = -1;
    Duration step = kNever;
    if (tunnel->tasks_waiting() > 0) {
      for (int i = 0; i < n; ++i) {
        if (sched[static_cast<size_t>(i)].wake < step) {
          step = sched[static_cast<size_t>(i)].wake;
          who = i;
        }
      }
    }
    const Duration next = std::min({release, arrival, offset, step});
    if (next == kNever) {
      stalled = tunnel->tasks_waiting() > 0;
      break;
    }
    if (options.horizon > Duration(0) && next > options.horizon) {
      at(options.horizon);
      break;
    }
    if (next - last_progress > options.stall_limit && tunnel->tasks_waiting() > 0) {
      stalled = true;
      break;
    }
    at(next);
    if (release == next) {
      RETURN_NOT_OK(tunnel->ReleaseDue(now));
      last_progress = now;
    } else if (arrival == next) {
      RETURN_NOT_OK(tunnel->Submit(arrivals.Take(), now));
      RETURN_NOT_OK(arrivals.Advance());
      ++submitted;
      last_progress = now;
    } else if (offset == next) {
      RETURN_NOT_OK(tunnel->WakeOffsets(now));
    } else {
      SchedulerClock& sc = sched[static_cast<size_t>(who)];
      const bool quality =
          pool.scheduler(who).strategy().active() == pool::StrategyKind::kQualityFirst;
      const pool::StepResult r = pool.RunOnce(who, clock.Now());
      const int64_t d = r.placed + r.conflicts;
      sc.busy_until = now + (quality ? quality_cost * d : options.decision_cost * d);
      if (r.placed > 0) {
        ASSIGN_OR_RETURN(int64_t got, tunnel->Collect(who, r.placed, sc.busy_until));
        if (got != r.placed) {
          return Status::Internal("collected " + std::to_string(got) + " placements of " +
                                  std::to_string(r.placed) + " committed");
        }
        last_progress = now;
      }
      recorder->OnConflicts(now, r.conflicts);
      if (d > 0) {
        sc.wake = sc.busy_until;
      } else {
        // Nothing fits in this view: wait for the next sync slot (new asks
        // wake the scheduler earlier).
        const Duration sync = tunnel->Since(r.next_sync);
        sc.wake = sync > now ? sync : now + std::chrono::milliseconds(1);
      }
    }
    touched.clear();
    tunnel->TakeTouched(&touched);
    for (int i : touched) {
      SchedulerClock& sc = sched[static_cast<size_t>(i)];
      sc.wake = std::min(sc.wake, std::max(now, sc.busy_until));
    }
    if (options.progress && now >= next_report) {
      options.progress(now, submitted);
      next_report = now + std::chrono::seconds(1);
    }
  }
  ReplayModeResult result = recorder->Finish(now);
  result.driver = "windtunnel";
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  AddChecks(*tunnel, stalled, now, &result);
  return result;
}

Result<ReplayModeResult> RunReal(const TunnelRunOptions& options, const TunnelSetup& setup,
                                 TraceReader* reader, ReplayRecorder* recorder) {
  if (!(options.speed > 0)) return Status::InvalidArgument("replay: --speed must be > 0");
  const Clock* clock = SystemClock::Get();
  ASSIGN_OR_RETURN(std::unique_ptr<ReplayTunnel> tunnel,
                   ReplayTunnel::Create(setup, clock, recorder));
  pool::SchedulerPool& pool = tunnel->pool();
  const int n = pool.num_schedulers();
  std::vector<int64_t> collected(static_cast<size_t>(n), 0);
  int64_t conflicts_seen = 0;
  Arrivals arrivals(reader);
  RETURN_NOT_OK(arrivals.Advance());
  const auto wall0 = std::chrono::steady_clock::now();
  RETURN_NOT_OK(pool.Start());
  const TimePoint start = clock->Now();
  tunnel->set_origin(start, options.speed);
  // Trace time: wall time since the start, times the speed. The tunnel's
  // own conversion (placement commit times) is wall time: scaled here.
  const auto trace_now = [&] {
    return std::chrono::duration_cast<Duration>((clock->Now() - start) * options.speed);
  };
  const auto scale = [&](Duration wall) {
    return std::chrono::duration_cast<Duration>(wall * options.speed);
  };
  Duration now{0};
  Duration last_progress{0};
  Duration next_report = std::chrono::seconds(1);
  int64_t submitted = 0;
  bool stalled = false;
  Status failure;
  for (;;) {
    now = trace_now();
    while (arrivals.have() && arrivals.at() <= now) {
      failure = tunnel->Submit(arrivals.Take(), now);
      if (failure.ok()) failure = arrivals.Advance();
      if (!failure.ok()) break;
      ++submitted;
      last_progress = now;
    }
    if (!failure.ok()) break;
    failure = tunnel->WakeOffsets(now);
    if (!failure.ok()) break;
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
    if (!failure.ok()) break;
    recorder->OnConflicts(now, m.overall.conflicts - conflicts_seen);
    conflicts_seen = m.overall.conflicts;
    const Duration before_release = tunnel->NextRelease();
    failure = tunnel->ReleaseDue(trace_now());
    if (!failure.ok()) break;
    if (tunnel->NextRelease() != before_release) last_progress = now;
    if (!arrivals.have() && tunnel->jobs_in_flight() == 0) break;
    if (options.horizon > Duration(0) && now >= options.horizon) break;
    if (now - last_progress > options.stall_limit && tunnel->tasks_waiting() > 0) {
      stalled = true;
      break;
    }
    if (options.progress && now >= next_report) {
      options.progress(now, submitted);
      next_report = now + std::chrono::seconds(1);
    }
    Duration wake = now + scale(options.tick);
    wake = std::min({wake, arrivals.at(), tunnel->NextRelease(), tunnel->NextOffset()});
    const Duration left = wake - trace_now();
    if (left > Duration(0)) {
      std::this_thread::sleep_for(std::chrono::duration_cast<Duration>(left / options.speed));
    }
  }
  pool.Stop();
  RETURN_NOT_OK(failure);
  ReplayModeResult result = recorder->Finish(now);
  result.driver = "windtunnel";
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  AddChecks(*tunnel, stalled, now, &result);
  return result;
}

}  // namespace

Result<ReplayModeResult> RunWindTunnel(const TunnelRunOptions& options, const TunnelSetup& setup,
                                       TraceReader* jobs, ReplayRecorder* recorder) {
  return options.clock == TunnelClock::kVirtual ? RunVirtual(options, setup, jobs, recorder)
                                                : RunReal(options, setup, jobs, recorder);
}

}  // namespace spindle::replay
