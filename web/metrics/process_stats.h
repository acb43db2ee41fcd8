// ProcessStats: this process's figures from /proc/self (memory, threads by
// scheduler state, CPU time, descriptors), for the JvmMetrics and
// OperatingSystem beans and Prometheus' process_* samples. Linux only.
//
// Thread-safety: free functions; reads /proc on every call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::web {

// One thread of this process (/proc/self/task/<tid>).
struct ThreadStat {
  int tid = 0;
  std::string name;        // comm
  char state = '?';        // R, S, D, T, t, Z, X, I ...
  double cpu_seconds = 0;  // user + system
};

struct ProcessStats {
  // /proc/self/status, in KiB.
  int64_t vm_size_kb = 0;
  int64_t vm_peak_kb = 0;
  int64_t vm_rss_kb = 0;
  int64_t vm_hwm_kb = 0;
  int64_t rss_anon_kb = 0;
  int64_t rss_file_kb = 0;
  int64_t rss_shmem_kb = 0;
  int64_t voluntary_context_switches = 0;
  int64_t involuntary_context_switches = 0;
  // Threads by state letter of /proc/self/task/*/stat.
  int64_t threads_running = 0;    // R
  int64_t threads_sleeping = 0;   // S (interruptible wait) and I (idle)
  int64_t threads_disk_wait = 0;  // D (uninterruptible)
  int64_t threads_stopped = 0;    // T, t
  int64_t threads_zombie = 0;     // Z, X
  int64_t threads_total = 0;
  // CPU time of the whole process (user + system), seconds.
  double cpu_user_seconds = 0;
  double cpu_system_seconds = 0;
  // Process start, seconds since the epoch.
  double start_time_seconds = 0;
  int64_t open_fds = 0;
  int64_t max_fds = 0;  // RLIMIT_NOFILE soft limit; -1 unlimited
  // RLIMIT_AS soft limit in bytes; -1 unlimited.
  int64_t address_space_limit = -1;
  // Machine figures (sysinfo / sysconf) for the OperatingSystem bean.
  int64_t total_physical_bytes = 0;
  int64_t free_physical_bytes = 0;
  int64_t total_swap_bytes = 0;
  int64_t free_swap_bytes = 0;
  int64_t processors = 0;
  double load_average_1m = 0;
};

Result<ProcessStats> ReadProcessStats();
// Every thread of this process, by tid.
std::vector<ThreadStat> ReadThreads();

}  // namespace spindle::web
