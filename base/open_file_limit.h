// The process's open-file limit (RLIMIT_NOFILE). A daemon that holds many
// sockets (the RM's web server under a flood of connections, its RPC
// servers, a node agent's containers) raises its soft limit to the hard
// limit at start, as an operator's `ulimit -n` would: a distribution's
// default soft limit (often 1024) would otherwise make accept fail long
// before the server's own connection limits act.
//
// Thread-safety: call from the main thread at start, before other threads
// open files.
#pragma once

#include <cstdint>

#include "base/result.h"

namespace spindle {

struct OpenFileLimit {
  // The soft limit before and after; -1 for unlimited.
  int64_t before = 0;
  int64_t after = 0;
  int64_t hard = 0;
};

// Sets the soft RLIMIT_NOFILE to the hard one if it is lower, and logs one
// INFO line saying what it found and did (`who` names the daemon). IoError
// (logged as a WARNING) if the limit cannot be read or set.
Result<OpenFileLimit> RaiseOpenFileLimit(const char* who);

}  // namespace spindle
