// The wind tunnel report as CSV.
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

// The 1 s time series: one header line, then one row per mode and second
// (label,mode,strategy,clock,second,phase,submitted,committed,conflicts,
// backlog,utilisation,delay_p50_ms,delay_p90_ms,delay_p99_ms,quality,
// mean_score,quality_first_schedulers).
std::string ToCsv(const WindTunnelReport& report);

// The paper's figures in long form: one header line, then one row per
// figure, series, x and metric (figure,series,x_label,x,metric,value).
// Figures 2 and 3: x is R, G or V, metrics extra_percent and extra_slots
// (empty value: not enough even at the largest extra tried). Figure 5: x is
// the phase ("3@95%", "drain"), metric delay_mean_ms (5a) or quality (5b).
std::string ToFiguresCsv(const WindTunnelReport& report);

}  // namespace spindle::windtunnel
