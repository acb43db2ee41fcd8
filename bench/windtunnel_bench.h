// `spindle bench windtunnel`: ParSync's Wind Tunnel evaluation (§6) in one
// process — the real scheduler pool placing 1-slot, 5 s tasks on 100,000
// simulated nodes (200,000 slots) under five phases of load — for parsync
// with each strategy, statesync and monolithic, on the same workload and
// seed, with the paper's Figure 5 (delay and quality per phase) read off
// the run; on the virtual clock also the simulations of Figures 2 and 3.
// Prints per-phase tables, summaries, ratios between modes and the targets
// it reports against; writes JSON, CSV and a self-contained HTML report on
// request. The library is bench/windtunnel/.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"
#include "bench/windtunnel/figures.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::bench {

struct WindTunnelBenchOptions {
  // Clock, cluster, workload and pool settings shared by every mode.
  windtunnel::RunSpec base;
  // (sync mode, strategy) per row, in order.
  std::vector<std::pair<pool::SyncMode, pool::StrategyKind>> modes;
  // --remote-schedulers K: each mode runs twice, in-process and with K of
  // its N schedulers as members of the cell-state service (RunSpec::
  // remote_schedulers; base.remote_rtt their modelled round trip), and the
  // two are compared. Default: 0 (in-process only).
  int remote_schedulers = 0;
  // Run the wind tunnel phases (false: figures only).
  bool run_tunnel = true;
  // Run Figures 2 and 3 (virtual clock only; default there).
  bool run_figures = false;
  windtunnel::FigureOptions figures;
  // Virtual clock: runs (modes, simulation points) at once. Default: 1.
  int jobs = 1;
  std::string json_path;
  std::string csv_path;
  // The paper's figures (2, 3 and 5) in long form (windtunnel::ToFiguresCsv).
  std::string figures_csv_path;
  std::string html_path;
};

// The options `flags` ask for; InvalidArgument naming a bad or unknown flag.
Result<WindTunnelBenchOptions> ParseWindTunnelFlags(const CommandLine& flags);

// `spindle bench windtunnel`'s flag table and entry point.
const CommandSpec& WindTunnelBenchCommand();
int WindTunnelBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
