// The wind tunnel report as one self-contained HTML page (inline CSS and
// SVG; no scripts, fonts or anything fetched): the settings, the paper's
// Figure 5 (average delay and quality per phase, per mode), time series
// of delay, quality, conflicts, utilisation, backlog and throughput, the
// per-phase tables, the ratios, and Figures 2 and 3 as charts and tables.
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

std::string ToHtml(const WindTunnelReport& report);

}  // namespace spindle::windtunnel
