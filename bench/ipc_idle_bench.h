// `spindle bench ipc-idle`: what idle IPC connections cost a ResourceManager
// in memory, and whether it gets the memory back (issue 16, item 6).
//
//  1. before: the RM's RSS (VmRSS and RssAnon of /proc/<pid>/status) once it
//     listens, has served --warmup connections the same way (so that code
//     paged in by a first call is not counted as connection memory) and has
//     settled;
//  2. with: C connections to its client port (8032), each negotiated (SIMPLE,
//     connection context) with one getClusterMetrics call answered, then left
//     idle, as a client between calls leaves them (--send-nothing: sockets
//     that only connect); RSS after --hold-seconds, kept below the RM's idle
//     close (20 s);
//  3. after: every connection closed by the client; RSS --after-seconds
//     later.
//
// Without --rm it starts its own `spindle rm` child (bench/wire/rm_child.h);
// with --rm host:port and --rm-pid it measures any RM. Prints figures;
// asserts nothing about them (a failed connection or call is an error).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "base/flags/command_line.h"
#include "base/result.h"

namespace spindle::bench {

struct IpcIdleBenchOptions {
  // Idle connections held at once. Default: 1000.
  int connections = 1000;
  // Connections opened, used and closed before the "before" figure. Default: 10.
  int warmup = 10;
  // Seconds the connections stay open and idle before the "with" figure.
  // Default: 3 (well under the RM's 20 s idle close).
  int hold_seconds = 3;
  // Seconds after the last close before the "after" figure. Default: 10.
  int after_seconds = 10;
  // Connect only: no preamble, no call. Default: false.
  bool send_nothing = false;
  // The RM's client address ("host:port"); "" = start a `spindle rm` child.
  std::string rm;
  // The RM's pid when --rm is given (its RSS is read from /proc). Default: -1.
  pid_t rm_pid = -1;
  // The `spindle` binary run as the RM child. Default: /proc/self/exe.
  std::string binary = "/proc/self/exe";
  // Bound on starting the RM and on opening the connections. Default: 120 s.
  int timeout_seconds = 120;
  // Where to write the figures as JSON as well ("" = nowhere). Default: "".
  std::string json_path;
};

// VmRSS and RssAnon (heap and stacks: VmRSS less mapped code and files).
struct RssFigure {
  double rss_mb = 0;
  double anon_mb = 0;
};

struct IpcIdleBenchResult {
  RssFigure before;
  RssFigure with;
  RssFigure after;
  int connections = 0;
};

Result<IpcIdleBenchResult> RunIpcIdleBench(const IpcIdleBenchOptions& options);

// `spindle bench ipc-idle`'s flag table and entry point.
const CommandSpec& IpcIdleBenchCommand();
int IpcIdleBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
