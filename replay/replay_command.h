// `spindle replay`: replays a trace against Spindle's scheduling, in the
// wind tunnel (one process) or a staging cell (real `spindle rm` and
// `spindle nm --simulate` processes over the wire), for one policy or
// several compared on the same jobs, and reports the figures (terminal
// table; with --out DIR also JSON, CSV and an HTML page). `spindle replay
// --help` lists the flags (ReplayCommand).
#pragma once

#include <string>
#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"
#include "replay/report/replay_result.h"
#include "replay/trace_catalog.h"
#include "scheduler_pool/pool_options.h"

namespace spindle::replay {

// One policy compared: "parsync:latency-first", "statesync", "monolithic".
struct PolicySpec {
  std::string label;
  pool::SyncMode mode = pool::SyncMode::kParSync;
  pool::StrategyKind strategy = pool::StrategyKind::kLatencyFirst;
};

// "mode[:strategy]"; the strategy defaults to latency-first. InvalidArgument
// naming the item.
Result<PolicySpec> ParsePolicy(const std::string& item);

enum class ReplayMode : uint8_t { kWindTunnel, kCell };

// `spindle replay`'s flag table (what replay/README.md's "Flags" describes).
const CommandSpec& ReplayCommand();

// Entry point of `spindle replay`. Returns the process exit status: 0, 1
// if a run reported violations or failed, 2 for bad flags (printed).
int ReplayMain(const CommandLine& flags);

}  // namespace spindle::replay
