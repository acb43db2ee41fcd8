// RunFidelityInTunnel: one fidelity scenario through the wind tunnel on the
// virtual clock: a real rm::ResourceManager configured with the scenario's
// capacity-scheduler.xml and Hadoop line, the real scheduler pool, the
// scenario's nodes and its jobs as unmanaged AMs (replay/windtunnel). At
// each check's second the run reads the state: memory held per queue, user
// and job (the containers the RM handed out and no node has reported
// complete), the leaf's active and pending applications (the RM's own AM
// activation, as getQueueInfo reports it) and the jobs refused so far.
//
// Deterministic: the same scenario, line and pool options give the same run.
// Thread-safety: none needed (one call runs one tunnel).
#pragma once

#include "base/result.h"
#include "replay/fidelity/fidelity_result.h"
#include "replay/fidelity/fidelity_scenario.h"
#include "rm/config/hadoop_line.h"
#include "scheduler_pool/pool_options.h"

namespace spindle::replay {

// The pool as `spindle rm` runs it by default (PoolOptions' defaults; the
// tunnel caps schedulers and partitions by the cluster's size).
// InvalidArgument for a scenario that does not apply to `line`, or a
// configuration the RM refuses; the tunnel's errors otherwise.
Result<FidelityRun> RunFidelityInTunnel(const FidelityScenario& scenario, rm::HadoopLine line,
                                        const pool::PoolOptions& pool = pool::PoolOptions());

}  // namespace spindle::replay
