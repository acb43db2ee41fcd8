// Starting and reaping child processes from a multi-threaded agent.
//
// Children are started with posix_spawn (glibc implements it with
// clone(CLONE_VM | CLONE_VFORK), so nothing async-signal-unsafe runs between
// fork and exec), with a default signal disposition and an empty signal mask
// whatever the agent's threads had, and with every descriptor above stderr
// closed so that sockets of the agent never leak into containers.
//
// Reaping is always by pid: other parts of the binary start processes too, so
// nothing here calls waitpid(-1) or installs a SIGCHLD handler.
//
// Thread-safety: free functions, safe from any thread.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::nm {

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is the program's path (no PATH lookup)
  std::string cwd;                // empty: the agent's own
  std::string stdout_path;        // empty: /dev/null; otherwise created or truncated
  std::string stderr_path;        // empty: /dev/null; otherwise created or truncated
  // setsid() in the child: it leads a new session and process group whose id
  // is its pid, so one kill(-pid) reaches everything it starts.
  bool new_session = false;
};

// Starts the child and returns its pid; the caller must reap it (WaitForExit
// or waitpid on that pid). The environment is the agent's own.
Result<pid_t> Spawn(const SpawnOptions& options);

// Blocks the calling thread until `pid` (a child of this process) exits and
// returns its raw wait status.
Result<int> WaitForExit(pid_t pid);

// Spawn + WaitForExit; returns the exit code in shell convention.
Result<int> RunToCompletion(const SpawnOptions& options);

// A wait status as a shell reports it: the exit code, or 128 + signal number
// for a process killed by a signal (what Hadoop's container executor records).
int ShellExitCode(int wait_status);

// A descriptor that becomes readable when `pid` exits (pidfd_open), or -1 if
// the kernel has none; the caller closes it.
int OpenPidFd(pid_t pid);

}  // namespace spindle::nm
