// The wind tunnel's 1 s time series as CSV: one header line, then one row
// per mode and second (mode,strategy,clock,second,phase,submitted,
// committed,conflicts,backlog,utilisation,delay_p50_ms,delay_p90_ms,
// delay_p99_ms,quality,mean_score,quality_first_schedulers).
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

std::string ToCsv(const WindTunnelReport& report);

}  // namespace spindle::windtunnel
