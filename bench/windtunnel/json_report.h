// The wind tunnel report as JSON: settings, every mode with its phases,
// totals and 1 s series, the ratios to parsync/latency-first, the
// simulation figures (2, 3), Figure 5 and its trends. Non-finite numbers
// are written as null.
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

std::string ToJson(const WindTunnelReport& report);

}  // namespace spindle::windtunnel
