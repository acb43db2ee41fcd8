// Figure 5 of the ParSync paper (§6.1, "Performance of ParSync and
// StateSync"): the wind tunnel's five phases (50/80/95/80/50% of R), with
// (a) the average scheduling delay and (b) the scheduling quality (share of
// tasks on preferred slots) per phase, for ParSync with latency-first,
// quality-first and adaptive and for StateSync. It is read off the modes
// of one wind tunnel run (either clock; the paper's regime is the virtual
// clock at 0.25 ms per decision), every parsync and statesync mode of the
// run being a series (monolithic is left out, as in the paper).
//
// The trends the paper reports, checked on the run (each a verdict with its
// numbers; tests/bench/windtunnel/figure5_test asserts them on a fixed-seed
// virtual run):
//  - latency-first has the lowest average delay in every phase;
//  - adaptive's delay stays bounded by tau;
//  - quality-first's delay rises much faster than latency-first's and
//    adaptive's into the peak phase, but stays below StateSync's (checked
//    as a direction: higher at the peak and a larger peak / phase-1 ratio;
//    how much is for the reader of the numbers printed with it);
//  - StateSync's delay rises from phase 2 on and drops only after the peak;
//  - quality-first places more tasks on preferred slots than latency-first
//    (§6.2), and so does adaptive (§6.3: it uses quality-first until its
//    delay's EMA reaches tau), in every phase;
//  - StateSync's quality is good (not below latency-first's).
// A trend whose modes are not in the run is not checked. The paper's
// StateSync is compared as statesync/latency-first where the run has it
// (StateSync's lowest-delay strategy, so the strictest comparison).
#pragma once

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

// Fills report->phase_figures (5a, 5b) and report->trends from
// report->modes; `tau_ms` is adaptive's threshold. Leaves both empty if the
// run has no parsync or statesync mode.
void AddFigure5(WindTunnelReport* report, double tau_ms);

}  // namespace spindle::windtunnel
