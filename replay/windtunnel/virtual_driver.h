// RunOnVirtualClock: one wind-tunnel run as a deterministic discrete-event
// simulation on a ManualClock. No threads: the driver steps scheduler i
// with SchedulerPool::RunOnce(i, now), the same scheduling code the pool's
// threads run, and charges every decision (a claim, committed or refused)
// options.decision_cost of the scheduler's virtual time
// (quality_cost_factor times that for quality-first decisions):
//
//   step of scheduler i at t:  RunOnce(i, t) syncs, decides and commits;
//     its d = placed + conflicts decisions keep it busy until t + d x cost
//     (StepResult::decided_until: the pool stamps each commit with the cost
//     of the decisions before it, DecisionPacing::kStamp, each at the price
//     of the strategy that made it); a task counts as placed (and starts
//     running) at its commit's stamp, which is also the delay the
//     scheduler's strategy observes (adaptive's EMA);
//   then: d > 0 -> next step at t + d x cost (work left, like the pool's
//     threads); d == 0 -> idle until the next sync slot or new asks.
//
// A job arriving at t is submitted at t (the ask time) and wakes its
// scheduler at max(t, busy until). Events at the same instant run in a
// fixed order (releases, arrivals, submit offsets, samples, schedulers by
// index), so the same setup, jobs and seed always give the same run.
#pragma once

#include "base/result.h"
#include "replay/report/replay_events.h"
#include "replay/trace/trace_reader.h"
#include "replay/windtunnel/replay_tunnel.h"
#include "replay/windtunnel/tunnel_run.h"

namespace spindle::replay {

// Replays `jobs` (read to the end, or to the horizon), telling `events`.
// Errors: a reader error (file:line), a setup the tunnel refuses, a pool
// call that should succeed failing.
Result<TunnelSummary> RunOnVirtualClock(const TunnelRunOptions& options, const TunnelSetup& setup,
                                        TraceReader* jobs, ReplayEvents* events);

}  // namespace spindle::replay
