// `spindle bench nm`: one `spindle nm --simulate N` agent (a child process of
// this binary) heartbeating to an in-process `spindle rm` over loopback.
// Prints the heartbeats/s the RM's ResourceTracker serves, the time all N
// nodes took to register, and the agent's CPU share and resident memory
// (from /proc) next to the RM's CPU (getrusage). Asserts nothing about time.
#pragma once

#include <cstdint>
#include <string>

#include "base/flags/command_line.h"

namespace spindle::bench {

struct NmBenchOptions {
  // Virtual nodes in the agent. Default: 5000.
  int64_t nodes = 5000;
  // Measured seconds, after all nodes registered. Default: 20.
  int seconds = 20;
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms. Default: 1000.
  int64_t heartbeat_interval_ms = 1000;
  // How long the nodes may take to register. Default: 120.
  int register_timeout_seconds = 120;
};

struct NmBenchResult {
  int64_t nodes = 0;
  double register_seconds = 0;
  double heartbeats_per_second = 0;
  double expected_per_second = 0;  // nodes x 1000 / interval
  double agent_cpu_percent = 0;    // of one core
  double agent_rss_mb = 0;
  double agent_peak_rss_mb = 0;
  double rm_cpu_percent = 0;  // this process: the RM (and the bench's idle main thread)
};

Result<NmBenchResult> RunNmBench(const NmBenchOptions& options);

// `spindle bench nm`'s flag table and entry point.
const CommandSpec& NmBenchCommand();
int NmBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
