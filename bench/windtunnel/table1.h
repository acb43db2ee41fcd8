// Table 1 of the ParSync paper (§6.4, "The effects of slot quality"): the
// average job scheduling delay (JSD: a job's submission to its last task's
// commit) of latency-first, adaptive and quality-first. In every column of
// the table (alpha 0.9 .. 0.4) the paper's JSD is ordered latency-first <
// adaptive < quality-first (0.4 s, 0.7-0.8 s, 1.5-3.7 s); that ordering is
// the trend checked here, on the whole run's jobs of the parsync modes.
#pragma once

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

// Appends Table 1's trend to report->trends when the run has
// parsync/latency-first, parsync/adaptive and parsync/quality-first (else
// nothing).
void AddTable1(WindTunnelReport* report);

}  // namespace spindle::windtunnel
