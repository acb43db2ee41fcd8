// The child processes the benchmarks start (`spindle rm`, `spindle nm`):
// configuration files for them, spawning with output to a log, and reaping.
// A child dies with its parent (PR_SET_PDEATHSIG), so a crashed or killed
// benchmark leaves no daemons behind.
//
// Thread-safety: stateless functions; Spawn forks, so call it before the
// caller's threads hold locks a child could need (the child only execs).
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::bench {

// Writes <dir>/<file> (default yarn-site.xml) as a Hadoop configuration
// file with these properties, creating `dir`. IoError if it cannot.
Status WriteSite(const std::string& dir, const std::map<std::string, std::string>& properties,
                 const std::string& file = "yarn-site.xml");

// Starts `binary` with argv[0] "spindle" and `args`, stdout and stderr
// appended to `log`. IoError if fork fails (an exec failure exits 127).
Result<pid_t> Spawn(const std::string& binary, const std::vector<std::string>& args,
                    const std::string& log);

// Sends `signal` to a child this process started and waits for it, with
// SIGKILL if it has not exited after 10 s. pid <= 0: nothing.
void Reap(pid_t pid, int signal);

// Whether the child `pid` has exited (and reaps it if so).
bool Exited(pid_t pid);

}  // namespace spindle::bench
