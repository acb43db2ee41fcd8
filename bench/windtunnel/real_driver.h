// RunReal: one mode of the wind tunnel in real time on this machine. The
// pool's own threads (Start()) place; the calling thread is the rest of
// the tunnel: it submits each job when its arrival time comes (the
// generator), polls every spec.tick for committed placements (counted by
// the pool's per-scheduler metrics, collected by JobBook), releases tasks
// when they end (ReleaseQueue), and samples every second. Delays are the
// pool's own timestamps (ask -> commit), so a late poll does not inflate
// them.
//
// Not deterministic (threads); figures depend on the machine and its load.
#pragma once

#include "base/result.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::windtunnel {

Result<ModeResult> RunReal(const RunSpec& spec);

}  // namespace spindle::windtunnel
