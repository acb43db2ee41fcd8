#include "replay/windtunnel/virtual_driver.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "replay/windtunnel/trace_arrivals.h"

namespace spindle::replay {

namespace {

constexpr Duration kNever = Duration::max();
constexpr Duration kSecond = std::chrono::seconds(1);

struct SchedulerClock {
  Duration wake{0};  // next step; the first loads the view
  Duration busy_until{0};
};

}  // namespace

Result<TunnelSummary> RunOnVirtualClock(const TunnelRunOptions& options, const TunnelSetup& setup,
                                        TraceReader* jobs, ReplayEvents* events) {
  const auto wall0 = std::chrono::steady_clock::now();
  ManualClock clock;
  // The schedulers stamp each commit with the modelled cost of the
  // decisions before it (the clock stands still while one steps), so the
  // delay a strategy observes (adaptive's EMA) is the delay reported.
  TunnelSetup charged = setup;
  charged.rm.pool.emulated_decision_cost = options.decision_cost;
  charged.rm.pool.emulated_quality_cost_factor = options.quality_cost_factor;
  charged.rm.pool.decision_pacing = pool::DecisionPacing::kStamp;
  ASSIGN_OR_RETURN(std::unique_ptr<ReplayTunnel> tunnel,
                   ReplayTunnel::Create(charged, &clock, events));
  pool::SchedulerPool& pool = tunnel->pool();
  const int n = pool.num_schedulers();
  // Remote slots: members of the pool's cell-state service, each call
  // through the Thrift codec in memory and a modelled round trip.
  std::unique_ptr<TunnelMembers> members;
  if (pool.options().remote_schedulers > 0) {
    ASSIGN_OR_RETURN(members, TunnelMembers::Create(&pool, &clock, TunnelMembers::Wire::kInMemory));
  }
  const int k = members == nullptr ? 0 : members->size();
  std::vector<SchedulerClock> sched(static_cast<size_t>(n + k));
  TraceArrivals arrivals(jobs);
  RETURN_NOT_OK(arrivals.Advance());
  Duration now{0};
  Duration last_progress{0};
  Duration next_report = kSecond;
  Duration next_sample = options.sample ? kSecond : kNever;
  int64_t submitted = 0;
  TunnelSummary summary;
  std::vector<int> touched;
  const auto at = [&](Duration t) {
    now = std::max(now, t);
    clock.Set(tunnel->origin() + now);
  };
  for (;;) {
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      summary.cut = true;
      break;
    }
    const bool all_in = !arrivals.have() && tunnel->NextOffset() == kNever;
    const bool finished = all_in && (tunnel->jobs_in_flight() == 0 ||
                                     (options.stop_when_placed && tunnel->tasks_waiting() == 0));
    const Duration release = tunnel->NextRelease();
    const Duration arrival = arrivals.at();
    const Duration offset = tunnel->NextOffset();
    const Duration node_event = tunnel->NextNodeEvent();
    const bool live =
        tunnel->tasks_waiting() > 0 ||
        (options.sync_idle_schedulers && (arrivals.have() || tunnel->jobs_in_flight() > 0));
    int who = -1;
    Duration step = kNever;
    if (live) {
      for (int i = 0; i < n + k; ++i) {
        if (sched[static_cast<size_t>(i)].wake < step) {
          step = sched[static_cast<size_t>(i)].wake;
          who = i;
        }
      }
    }
    // Node events alone do not keep a finished run going.
    const Duration next =
        std::min({release, arrival, offset, next_sample, step, finished ? kNever : node_event});
    if (finished && next == kNever) break;
    if (options.horizon > Duration(0) && next > options.horizon) {
      at(options.horizon);
      break;
    }
    if (finished && next >= options.not_before) break;
    if (next == kNever ||
        (next - last_progress > options.stall_limit && tunnel->tasks_waiting() > 0)) {
      summary.stalled = tunnel->tasks_waiting() > 0;
      break;
    }
    at(next);
    if (node_event == next) {
      // Before the instant's releases and arrivals: a node unavailable at t
      // takes nothing placed at t.
      RETURN_NOT_OK(tunnel->ApplyNodeEvents(now));
    } else if (release == next) {
      RETURN_NOT_OK(tunnel->ReleaseDue(now));
      last_progress = now;
    } else if (arrival == next) {
      RETURN_NOT_OK(tunnel->Submit(arrivals.Take(), now));
      RETURN_NOT_OK(arrivals.Advance());
      ++submitted;
      last_progress = now;
    } else if (offset == next) {
      RETURN_NOT_OK(tunnel->WakeOffsets(now));
    } else if (next_sample == next) {
      options.sample(next_sample, *tunnel);
      next_sample += kSecond;
    } else if (who >= n) {
      // A member: its step's calls each take a round trip, after its
      // decisions (stamped by its scheduler as in-process ones are); its
      // tasks count as placed when the step ends (the service applied the
      // last commit half a round trip earlier: the model errs late).
      SchedulerClock& sc = sched[static_cast<size_t>(who)];
      int64_t calls = 0;
      ASSIGN_OR_RETURN(const pool::StepResult r, members->Step(who - n, clock.Now(), &calls));
      const int64_t d = r.placed + r.conflicts;
      summary.decisions += d;
      sc.busy_until = std::max(now, tunnel->Since(r.decided_until)) + calls * options.remote_rtt;
      if (r.placed > 0) {
        // Its apps may be on any remote slot (the service pins them to the
        // least-loaded member); only this step's placements are untaken.
        int64_t got = 0;
        for (int s = n; s < n + k && got < r.placed; ++s) {
          ASSIGN_OR_RETURN(int64_t g, tunnel->Collect(s, r.placed - got, sc.busy_until));
          got += g;
        }
        if (got != r.placed) {
          return Status::Internal("collected " + std::to_string(got) + " placements of " +
                                  std::to_string(r.placed) + " a member committed");
        }
        last_progress = now;
      }
      events->OnConflicts(now, r.conflicts);
      const Duration sync = tunnel->Since(r.next_sync);
      sc.wake =
          d > 0 ? sc.busy_until
                : std::max(sc.busy_until, sync > now ? sync : now + std::chrono::milliseconds(1));
    } else {
      SchedulerClock& sc = sched[static_cast<size_t>(who)];
      const pool::StepResult r = pool.RunOnce(who, clock.Now());
      const int64_t d = r.placed + r.conflicts;
      summary.decisions += d;
      // Each decision cost its strategy's price (quality-first's x factor;
      // adaptive's as it stood when it decided), stamped by the scheduler.
      sc.busy_until = std::max(now, tunnel->Since(r.decided_until));
      if (r.placed > 0) {
        // Each task counts as placed at its commit's stamp: once the
        // decisions up to its transaction are paid for.
        ASSIGN_OR_RETURN(int64_t got, tunnel->Collect(who, r.placed, std::nullopt));
        if (got != r.placed) {
          return Status::Internal("collected " + std::to_string(got) + " placements of " +
                                  std::to_string(r.placed) + " committed");
        }
        last_progress = now;
      }
      events->OnConflicts(now, r.conflicts);
      if (d > 0) {
        sc.wake = sc.busy_until;
      } else {
        // Nothing to do, or nothing fits in this view: wait for the next
        // sync slot (new asks wake the scheduler earlier).
        const Duration sync = tunnel->Since(r.next_sync);
        sc.wake = sync > now ? sync : now + std::chrono::milliseconds(1);
      }
    }
    touched.clear();
    tunnel->TakeTouched(&touched);
    for (int i : touched) {
      // A remote slot's apps may be any member's: wake them all.
      const int from = i < n ? i : n;
      const int to = i < n ? i + 1 : n + k;
      for (int j = from; j < to; ++j) {
        SchedulerClock& sc = sched[static_cast<size_t>(j)];
        sc.wake = std::min(sc.wake, std::max(now, sc.busy_until));
      }
    }
    if (options.progress && now >= next_report) {
      options.progress(now, submitted);
      next_report = now + kSecond;
    }
  }
  tunnel->Summarize(now, options, &summary);
  if (members != nullptr) summary.members = members->Figures();
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return summary;
}

}  // namespace spindle::replay
