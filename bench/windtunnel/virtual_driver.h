// RunVirtual: one mode of the wind tunnel as a deterministic discrete-event
// simulation on a ManualClock. No threads: the driver steps each scheduler
// with SchedulerPool::RunOnce(i, now), the same scheduling code the pool's
// threads run, and charges every decision (a claim, committed or refused)
// spec.decision_cost of the scheduler's virtual time:
//
//   step of scheduler i at t:  RunOnce(i, t) syncs, decides and commits;
//     its d = placed + conflicts decisions keep it busy until t + d x cost,
//     which is when its tasks count as committed (and start their 5 s);
//   then: d > 0 -> next step at t + d x cost (work left, like the pool's
//     threads); d == 0 -> idle until the next sync slot or a new job.
//
// A job arriving at t is handed to the pool at t (the ask time) and wakes
// its scheduler at max(t, busy until). Events at the same instant run in a
// fixed order (releases, arrivals, samples, schedulers by index), so the
// same spec and seed always give the same result.
#pragma once

#include "base/result.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::windtunnel {

// InvalidArgument if the spec does not validate; an error from the pool if
// a call it should accept fails.
Result<ModeResult> RunVirtual(const RunSpec& spec);

}  // namespace spindle::windtunnel
