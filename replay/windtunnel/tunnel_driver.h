// The wind-tunnel replay: a trace through ReplayTunnel (the real scheduler
// pool and the RM's queue tree, simulated nodes and AMs) in one process,
// on either clock:
//  - virtual (default): a deterministic discrete-event run on a
//    ManualClock; each scheduling decision (a claim committed or refused)
//    costs `decision_cost` of simulated time (quality-first decisions
//    quality_cost_factor times that), so an hour of trace replays in
//    seconds and the same seed gives the same figures;
//  - real: the pool's own threads on the system clock, as fast as they
//    place on this machine; trace time runs `speed` times faster than the
//    wall clock (task durations and arrivals shrink; figures are reported
//    in trace time).
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "replay/report/replay_recorder.h"
#include "replay/trace/trace_reader.h"
#include "replay/windtunnel/replay_tunnel.h"

namespace spindle::replay {

enum class TunnelClock : uint8_t { kVirtual, kReal };

struct TunnelRunOptions {
  TunnelClock clock = TunnelClock::kVirtual;
  // Virtual clock: simulated cost of one decision. Default: 250 us (ParSync).
  Duration decision_cost = std::chrono::microseconds(250);
  // Virtual clock: quality-first decisions cost this many times more.
  // Default: 1.
  double quality_cost_factor = 1.0;
  // Real clock: trace ms per wall ms (> 0). Default: 1.
  double speed = 1.0;
  // Real clock: how often the driver polls the pool. Default: 2 ms.
  Duration tick = std::chrono::milliseconds(2);
  // Stop at this trace time even if jobs are left (0: run until every job
  // finished). Default: 0.
  Duration horizon{0};
  // Stop (and report the tasks left as a violation) once nothing was
  // submitted, placed or ended for this long while tasks wait. Default: 1 h.
  Duration stall_limit = std::chrono::hours(1);
  // Called about once per trace second with the trace time reached and
  // the jobs submitted so far (a progress bar). May be empty.
  std::function<void(Duration, int64_t)> progress;
};

// Replays `jobs` (read to the end) and returns the recorder's figures, with
// the run's checks in `violations`. Errors: a reader error (file:line), a
// setup the tunnel refuses.
Result<ReplayModeResult> RunWindTunnel(const TunnelRunOptions& options, const TunnelSetup& setup,
                                       TraceReader* jobs, ReplayRecorder* recorder);

}  // namespace spindle::replay
