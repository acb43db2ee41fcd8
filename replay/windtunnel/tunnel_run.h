// What one wind-tunnel run is asked (TunnelRunOptions) and what it tells
// back besides its events (TunnelSummary): shared by the two drivers,
// virtual_driver.h and real_driver.h.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "base/clock.h"
#include "replay/windtunnel/tunnel_members.h"

namespace spindle::replay {

class ReplayTunnel;

enum class TunnelClock : uint8_t { kVirtual, kReal };

struct TunnelRunOptions {
  TunnelClock clock = TunnelClock::kVirtual;
  // Virtual clock: simulated cost of one decision. Default: 250 us (ParSync).
  Duration decision_cost = std::chrono::microseconds(250);
  // Virtual clock: quality-first decisions cost this many times more.
  // Default: 1.
  double quality_cost_factor = 1.0;
  // Virtual clock: idle schedulers keep stepping at their sync slots while
  // the run is live (jobs still to come or in flight), as the paper's
  // schedulers sync on their own clock whatever their work; false: a
  // scheduler sleeps until tasks wait (a trace's idle hours cost nothing).
  // Default: false.
  bool sync_idle_schedulers = false;
  // Virtual clock, with remote scheduler slots (PoolOptions::
  // remote_schedulers, TunnelMembers): the modelled round trip of each call
  // a member makes to the cell-state service. Default: 500 us (ParSync's
  // 0.5 ms).
  Duration remote_rtt = std::chrono::microseconds(500);
  // Real clock, with remote slots: how often an idle member looks at the
  // board for new asks (in-process schedulers are woken instead).
  // Default: 1 ms.
  Duration remote_poll = std::chrono::milliseconds(1);
  // Real clock: trace ms per wall ms (> 0). Default: 1.
  double speed = 1.0;
  // Real clock: how often the driver polls the pool. Default: 2 ms.
  Duration tick = std::chrono::milliseconds(2);
  // Stop at this trace time even if jobs are left (0: run until every job
  // finished). Default: 0.
  Duration horizon{0};
  // Stop once every job was submitted and every task placed (tasks still
  // running are not waited for). Default: false.
  bool stop_when_placed = false;
  // A run that finishes earlier still reports this long (the end of the
  // workload's last phase). Default: 0.
  Duration not_before{0};
  // Stop (and report the tasks left as a violation) once nothing was
  // submitted, placed or ended for this long while tasks wait. Default: 1 h.
  Duration stall_limit = std::chrono::hours(1);
  // Set (by a signal handler, say) to stop the run where it is: the
  // summary says `cut`. May be null.
  const std::atomic<bool>* stop = nullptr;
  // Called about once per trace second with the trace time reached and
  // the jobs submitted so far (a progress bar). May be empty.
  std::function<void(Duration, int64_t)> progress;
  // Called at every whole trace second (1 s, 2 s, ...) with the tunnel:
  // virtual clock, as an event ordered after the instant's releases and
  // arrivals and before its scheduler steps; real clock, once the second
  // has passed. May be empty.
  std::function<void(Duration, ReplayTunnel&)> sample;
};

struct TunnelSummary {
  // When the run stopped (trace time).
  Duration end{0};
  // Virtual clock: decisions charged (claims committed or refused).
  int64_t decisions = 0;
  double wall_seconds = 0;
  // Nothing moved for stall_limit while tasks waited.
  bool stalled = false;
  // Stopped by TunnelRunOptions::stop before the end.
  bool cut = false;
  // The cell state's invariants held at the end.
  bool invariants_ok = true;
  // Placements the pool made beyond what a job asked for (must stay 0).
  int64_t surplus_placements = 0;
  int64_t tasks_waiting = 0;
  int64_t jobs_in_flight = 0;
  // The pool's in-process schedulers over the run: mean (over steps) and
  // worst staleness of their views, conflicts, placements.
  double staleness_mean_ms = 0;
  double staleness_max_ms = 0;
  int64_t in_process_placements = 0;
  int64_t in_process_conflicts = 0;
  // With remote slots: the members' figures (wire bytes, their staleness).
  MemberFigures members;
};

}  // namespace spindle::replay
