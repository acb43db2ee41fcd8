// `spindle bench ipc`: calls/s and latency percentiles of a small protobuf
// request/response (getClusterMetrics) through the real IPC client and server
// over loopback, with C connections each keeping K calls in flight. Prints
// figures; asserts nothing about time.
#pragma once

#include "base/flags/command_line.h"

namespace spindle::bench {

struct IpcBenchOptions {
  // Client connections (distinct users, so each gets its own socket). Default: 4.
  int connections = 4;
  // Calls each connection keeps in flight. Default: 32.
  int in_flight = 32;
  // Measured seconds, after one second of warm-up. Default: 5.
  int seconds = 5;
  // Server worker threads. Default: 1.
  int worker_threads = 1;
  // Authenticate with TOKEN/DIGEST-MD5 instead of SIMPLE. Default: false.
  bool token_auth = false;
  // Where to write the figures as JSON as well ("" = nowhere). Default: "".
  std::string json_path;
};

struct IpcBenchResult {
  int64_t calls = 0;
  int64_t errors = 0;
  double seconds = 0;
  double calls_per_second = 0;
  double p50_us = 0;
  double p99_us = 0;
  double max_us = 0;
};

Result<IpcBenchResult> RunIpcBench(const IpcBenchOptions& options);

// `spindle bench ipc`'s flag table and entry point.
const CommandSpec& IpcBenchCommand();
int IpcBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
