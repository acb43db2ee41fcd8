// ChildProcess: a daemon (usually the `spindle` binary itself as `rm` or
// `nm`) run as a child by a benchmark, an integration test or the staging
// cell. The child dies with its parent (PR_SET_PDEATHSIG), so a crashed run
// leaves no daemons behind (Linux ties this to the spawning thread: spawn
// from a thread that outlives the child); its stdout and stderr go to a log
// file; it is stopped (SIGTERM, then SIGKILL after a grace period) and
// reaped by Stop() or the destructor.
//
// Also what the benchmarks read of a child: its CPU time and resident memory
// from /proc.
//
// Thread-safety: none (one owner drives a child). ReadProcessUsage is
// thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle {

struct ChildOptions {
  // The executable (an absolute path, or "/proc/self/exe"). Required.
  std::string binary;
  // argv[0]. Default: "spindle".
  std::string argv0 = "spindle";
  // argv[1..].
  std::vector<std::string> args;
  // "NAME=value" entries added to (after) this process's environment.
  // Default: none.
  std::vector<std::string> extra_env;
  // stdout and stderr are appended here (created 0644). Empty: inherited.
  std::string log_path;
};

class ChildProcess {
 public:
  // Forks and execs. IoError if fork fails; an exec failure shows as an exit
  // with status 127 (the child cannot report it otherwise).
  static Result<ChildProcess> Spawn(const ChildOptions& options);

  ChildProcess() = default;
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Stop(SIGTERM, 10 s).
  ~ChildProcess();

  // -1 once reaped, or for a default-constructed one.
  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }
  // Whether it has exited (reaping it, after which pid() is -1). True for a
  // child already reaped.
  bool Exited();
  // The raw wait status of the reaped child (waitpid's); 0 before.
  int wait_status() const { return wait_status_; }
  // Sends `signal` (no-op once reaped).
  void Signal(int signal);
  // Waits up to `timeout` for it to exit; true if it did (reaped).
  bool WaitExit(std::chrono::milliseconds timeout);
  // Sends `signal`, waits up to `grace`, then SIGKILLs and reaps. Idempotent.
  void Stop(int signal, std::chrono::milliseconds grace);
  // SIGKILL and reap at once (a crash, for recovery tests).
  void Kill();

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}

  pid_t pid_ = -1;
  int wait_status_ = 0;
};

// What /proc says of a live process.
struct ProcessUsage {
  double cpu_seconds = 0;  // utime + stime
  double rss_mb = 0;       // VmRSS
  double rss_anon_mb = 0;  // RssAnon: VmRSS less mapped files (code) and shared memory
  double peak_rss_mb = 0;  // VmHWM
};

// NotFound if the process is gone (or /proc unreadable).
Result<ProcessUsage> ReadProcessUsage(pid_t pid);

}  // namespace spindle
