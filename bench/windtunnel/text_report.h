// The wind tunnel's human-readable tables: one per mode (a row per phase),
// summary matrices (mode x phase) of the figures the paper plots, ratios
// to a reference mode, the paper's figures (2 and 3 simulated, 5 from the
// run) and the targets the
// benchmark reports against (figures, never asserts).
#pragma once

#include <string>

#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

std::string FormatModeTable(const ModeResult& mode);
std::string FormatSummary(const WindTunnelReport& report);
std::string FormatRatios(const WindTunnelReport& report, const std::string& reference);
// Each run with remote members beside the in-process run of the same mode
// (the label without its " remote K" suffix), phase by phase: throughput,
// delay p50/p99, conflicts; then staleness and the members' wire.
std::string FormatRemoteComparison(const WindTunnelReport& report);
std::string FormatFigureTable(const FigureTable& table);
// Figure 5 (a phase x mode matrix) and the paper's trends checked on it.
std::string FormatPhaseFigure(const PhaseFigure& figure);
std::string FormatTrends(const std::vector<TrendCheck>& trends);
// Verdicts against the targets for `report` (tau in ms).
std::string FormatTargets(const WindTunnelReport& report, double tau_ms);

}  // namespace spindle::windtunnel
