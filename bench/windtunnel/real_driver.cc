#include "bench/windtunnel/real_driver.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "bench/windtunnel/tunnel.h"

namespace spindle::windtunnel {

namespace {
constexpr Duration kSecond = std::chrono::seconds(1);
}  // namespace

Result<ModeResult> RunReal(const RunSpec& input) {
  RunSpec spec = input;
  spec.clock = ClockKind::kReal;
  const Clock* clock = SystemClock::Get();
  ASSIGN_OR_RETURN(std::unique_ptr<Tunnel> tunnel, Tunnel::Create(spec, clock));
  pool::SchedulerPool& pool = tunnel->pool();
  Workload& workload = tunnel->workload();
  const int n = pool.num_schedulers();
  std::vector<int64_t> collected(static_cast<size_t>(n), 0);
  int64_t conflicts_seen = 0;

  const auto wall0 = std::chrono::steady_clock::now();
  RETURN_NOT_OK(pool.Start());
  // The run starts now; the pool's sync slots keep their own epoch.
  tunnel->set_origin(clock->Now());
  const Duration stop_at = workload.end() + spec.drain;
  Duration next_sample = kSecond;
  Duration now(0);
  Duration end = stop_at;
  JobSpec job;
  bool have_job = workload.Next(&job);
  if (!have_job) tunnel->set_all_submitted();
  Status failure;

  for (;;) {
    now = tunnel->Since(clock->Now());
    // The generator: every job whose time has come.
    while (have_job && job.arrival <= now) {
      auto s = tunnel->Submit(job, tunnel->Since(clock->Now()));
      if (!s.ok()) {
        failure = s.status();
        break;
      }
      have_job = workload.Next(&job);
      if (!have_job) tunnel->set_all_submitted();
    }
    if (!failure.ok()) break;
    // Placements committed since the last poll, scheduler by scheduler.
    const pool::PoolMetrics m = pool.Metrics();
    for (int i = 0; i < n; ++i) {
      const int64_t expected =
          m.schedulers[static_cast<size_t>(i)].placements - collected[static_cast<size_t>(i)];
      if (expected <= 0) continue;
      auto got = tunnel->Collect(i, expected, std::nullopt);
      if (!got.ok()) {
        failure = got.status();
        break;
      }
      collected[static_cast<size_t>(i)] += *got;
    }
    if (!failure.ok()) break;
    tunnel->RecordConflicts(now, m.overall.conflicts - conflicts_seen);
    conflicts_seen = m.overall.conflicts;
    // Tasks that ended.
    failure = tunnel->ReleaseDue(tunnel->Since(clock->Now()));
    if (!failure.ok()) break;
    while (now >= next_sample) {
      tunnel->Sample(next_sample);
      next_sample += kSecond;
    }
    if (now >= stop_at) break;
    if (now >= workload.end() && tunnel->AllEnded()) {
      end = now;
      break;
    }
    // Sleep until the next thing to do, at most one tick.
    Duration wake = now + spec.tick;
    if (have_job) wake = std::min(wake, job.arrival);
    if (!tunnel->releases().empty()) wake = std::min(wake, tunnel->releases().next());
    wake = std::min(wake, next_sample);
    const Duration left = wake - tunnel->Since(clock->Now());
    if (left > Duration(0)) std::this_thread::sleep_for(left);
  }
  pool.Stop();
  RETURN_NOT_OK(failure);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return tunnel->Finish(std::min(end, stop_at), wall, 0);
}

}  // namespace spindle::windtunnel
