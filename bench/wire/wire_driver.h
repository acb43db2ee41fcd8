// RunWire: one run of the wire load generator (BENCHMARKS.md, "wire").
//
//  1. The target: --rm, or a `spindle rm` child (RmChild).
//  2. K simulated NodeManagers in this process: nm::NodeAgent in simulate
//     mode, one per --tracker-connections (default 1), each with one
//     ContainerManagementProtocol port, one ResourceTracker connection shared
//     by its nodes and one event loop thread. Their runtime is
//     AmContainerRuntime: AM containers run a SimulatedAm with the AMRMToken
//     from the launch context. Heartbeats are timed by a TimedTracker.
//  3. A application slots: each submits an application
//     (getNewApplication + submitApplication over ApplicationClientProtocol),
//     whose AM is launched by the RM on one of the nodes (or, --unmanaged,
//     started here with the AMRMToken of the application report), runs to
//     its end, and the slot submits the next, until --seconds have passed.
//  4. Drain: the running applications finish; each application's final
//     report must say FINISHED / SUCCEEDED.
//
// All generator state per application lives on one driver thread (an
// io_context); RPC answers are posted to it (CallOnIo).
#pragma once

#include "base/result.h"
#include "bench/wire/wire_options.h"
#include "bench/wire/wire_report.h"

namespace spindle::bench::wire {

// The figures and the bookkeeping of a run. An error Status only for a run
// that could not happen (bad options, the RM did not start, nodes did not
// register); inconsistent bookkeeping is reported in the result, for
// CheckBookkeeping.
Result<WireResult> RunWire(const WireOptions& options);

}  // namespace spindle::bench::wire
