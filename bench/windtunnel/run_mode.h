// One mode of the wind tunnel bench on the wind tunnel engine
// (replay/windtunnel: the RM core through its seam and the real scheduler
// pool, the same engine `spindle replay` runs), on either clock:
//  - RunVirtual: the engine's virtual-clock driver, every decision costing
//    spec.decision_cost of simulated time; deterministic (same spec and
//    seed, same result);
//  - RunReal: the engine's real-clock driver, the pool's own threads on
//    the system clock.
// The bench's setting as the engine takes it: the ClusterModel's nodes
// (with their scores), one leaf queue "windtunnel" of the RM's queue tree,
// the WorkloadReader's jobs, jobs spread over the schedulers in turn
// (PinningMode::kInIdOrder: the RM's pool app ids are handed out in
// submission order), and the RM's normalisation with Hadoop's
// DominantResourceCalculator (see MakeTunnelSetup).
#pragma once

#include "base/result.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::windtunnel {

// InvalidArgument if the spec does not validate; an error from the engine
// if a call it should accept fails (or the RM refuses a job).
Result<ModeResult> RunVirtual(const RunSpec& spec);
Result<ModeResult> RunReal(const RunSpec& spec);

}  // namespace spindle::windtunnel
