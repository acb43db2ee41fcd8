// The wind tunnel's human-readable tables: one per mode (a row per phase),
// summary matrices (mode x phase) of the figures the paper plots, ratios
// to a reference mode, the simulation figures (2 and 3) and the targets the
// benchmark reports against (figures, never asserts).
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

std::string FormatModeTable(const ModeResult& mode);
std::string FormatSummary(const WindTunnelReport& report);
std::string FormatRatios(const WindTunnelReport& report, const std::string& reference);
std::string FormatFigureTable(const FigureTable& table);
// Verdicts against the targets for `report` (tau in ms).
std::string FormatTargets(const WindTunnelReport& report, double tau_ms);

}  // namespace spindle::windtunnel
