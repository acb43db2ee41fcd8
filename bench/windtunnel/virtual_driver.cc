#include "bench/windtunnel/virtual_driver.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "bench/windtunnel/tunnel.h"

namespace spindle::windtunnel {

namespace {

constexpr Duration kNever = Duration::max();
constexpr Duration kSecond = std::chrono::seconds(1);

struct SchedulerClock {
  Duration wake = kNever;  // next step
  Duration busy_until{0};
};

}  // namespace

Result<ModeResult> RunVirtual(const RunSpec& input) {
  RunSpec spec = input;
  spec.clock = ClockKind::kVirtual;
  const auto wall0 = std::chrono::steady_clock::now();
  ManualClock clock;
  ASSIGN_OR_RETURN(std::unique_ptr<Tunnel> tunnel, Tunnel::Create(spec, &clock));
  pool::SchedulerPool& pool = tunnel->pool();
  Workload& workload = tunnel->workload();
  const int n = pool.num_schedulers();
  std::vector<SchedulerClock> sched(static_cast<size_t>(n));
  for (auto& s : sched) s.wake = Duration(0);  // first step: load the view
  const Duration stop_at = workload.end() + spec.drain;
  const Duration cost = spec.decision_cost;
  const Duration quality_cost =
      std::chrono::duration_cast<Duration>(spec.decision_cost * spec.quality_cost_factor);
  Duration next_sample = kSecond;
  Duration now(0);
  Duration end = stop_at;
  int64_t decisions = 0;
  JobSpec job;
  bool have_job = workload.Next(&job);
  if (!have_job) tunnel->set_all_submitted();

  const auto at = [&](Duration t) {
    now = t;
    clock.Set(tunnel->origin() + t);
  };

  for (;;) {
    // The next event of each kind.
    const Duration release = tunnel->releases().empty() ? kNever : tunnel->releases().next();
    const Duration arrival = have_job ? job.arrival : kNever;
    int who = -1;
    Duration step = kNever;
    for (int i = 0; i < n; ++i) {
      if (sched[static_cast<size_t>(i)].wake < step) {
        step = sched[static_cast<size_t>(i)].wake;
        who = i;
      }
    }
    const Duration next = std::min({release, arrival, next_sample, step});
    if (next > stop_at) break;
    if (next >= workload.end() && tunnel->AllCommitted() &&
        (spec.stop_when_committed || tunnel->AllEnded())) {
      end = std::max(now, workload.end());
      break;
    }

    if (release == next) {
      at(release);
      RETURN_NOT_OK(tunnel->ReleaseDue(release));
    } else if (arrival == next) {
      at(arrival);
      ASSIGN_OR_RETURN(int s, tunnel->Submit(job, arrival));
      SchedulerClock& sc = sched[static_cast<size_t>(s)];
      sc.wake = std::min(sc.wake, std::max(arrival, sc.busy_until));
      have_job = workload.Next(&job);
      if (!have_job) tunnel->set_all_submitted();
    } else if (next_sample == next) {
      at(next_sample);
      tunnel->Sample(next_sample);
      next_sample += kSecond;
    } else {
      at(step);
      SchedulerClock& sc = sched[static_cast<size_t>(who)];
      // The strategy deciding this step (adaptive: the one it runs now).
      const bool quality =
          pool.scheduler(who).strategy().active() == pool::StrategyKind::kQualityFirst;
      const pool::StepResult r = pool.RunOnce(who, clock.Now());
      const int64_t d = r.placed + r.conflicts;
      decisions += d;
      sc.busy_until = step + (quality ? quality_cost * d : cost * d);
      if (r.placed > 0) {
        ASSIGN_OR_RETURN(int64_t got, tunnel->Collect(who, r.placed, sc.busy_until));
        if (got != r.placed) {
          return Status::Internal("collected " + std::to_string(got) + " placements of " +
                                  std::to_string(r.placed) + " committed");
        }
      }
      tunnel->RecordConflicts(step, r.conflicts);
      if (d > 0) {
        sc.wake = sc.busy_until;
      } else {
        // Nothing to do, or nothing fits in this view: wait for the next
        // sync slot (a new job wakes it earlier).
        const Duration sync = tunnel->Since(r.next_sync);
        sc.wake = sync > step ? sync : step + std::chrono::milliseconds(1);
      }
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return tunnel->Finish(end, wall, decisions);
}

}  // namespace spindle::windtunnel
