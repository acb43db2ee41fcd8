// The wind-tunnel replay: a trace through the engine (ReplayTunnel: the RM
// core and the real scheduler pool, simulated nodes and AMs) in one
// process, on either clock — virtual (virtual_driver.h: deterministic,
// each decision costs options.decision_cost of simulated time) or real
// (real_driver.h: the pool's own threads, options.speed times faster than
// the trace) — with the replay's figures and checks.
#pragma once

#include "base/result.h"
#include "replay/report/replay_recorder.h"
#include "replay/trace/trace_reader.h"
#include "replay/windtunnel/replay_tunnel.h"
#include "replay/windtunnel/tunnel_run.h"

namespace spindle::replay {

// Replays `jobs` (read to the end) and returns the recorder's figures, with
// the run's checks in `violations`. Errors: a reader error (file:line), a
// setup the tunnel refuses.
Result<ReplayModeResult> RunWindTunnel(const TunnelRunOptions& options, const TunnelSetup& setup,
                                       TraceReader* jobs, ReplayRecorder* recorder);

}  // namespace spindle::replay
