// RunOnRealClock: one wind-tunnel run in real time on this machine. The
// pool's own threads (Start()) place; three threads are the rest of the
// tunnel: a submitting thread submits each job when its arrival comes
// (SubmittingThread), the calling thread enters the submitted jobs, polls
// every options.tick for committed placements (counted by the pool's
// per-scheduler metrics), releases tasks when they end (their nodes'
// heartbeats go out on the reporting thread,
// ReplayTunnel::StartReportingThread), and samples every second. Trace time runs options.speed
// times faster than the wall clock (task durations and arrivals shrink; figures are in trace time).
// Delays are the pool's own commit timestamps, so a late poll does not inflate them. Trace time
// starts once every scheduler has loaded its view (its first step), so that the first jobs do not
// wait behind those copies.
//
// Not deterministic (threads); figures depend on the machine and its load.
#pragma once

#include <atomic>

#include "base/clock.h"
#include "base/result.h"
#include "replay/report/replay_events.h"
#include "replay/trace/trace_reader.h"
#include "replay/windtunnel/replay_tunnel.h"
#include "replay/windtunnel/tunnel_run.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::replay {

// As RunOnVirtualClock (virtual_driver.h); InvalidArgument for a speed <= 0.
Result<TunnelSummary> RunOnRealClock(const TunnelRunOptions& options, const TunnelSetup& setup,
                                     TraceReader* jobs, ReplayEvents* events);

// Returns once every scheduler of the started `pool` has taken its first
// step (which loads its whole view), polling every `poll`, or once `stop`
// (may be null) is set.
void AwaitFirstSteps(const pool::SchedulerPool& pool, Duration poll, const std::atomic<bool>* stop);

}  // namespace spindle::replay
