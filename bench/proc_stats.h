// Process figures the benchmarks print beside their rates: CPU time and
// resident memory of a process (a child `spindle rm` or `spindle nm`, or the
// benchmark itself), read from /proc and getrusage. Linux only.
//
// Thread-safety: stateless functions.
#pragma once

#include <sys/types.h>

#include <string>

namespace spindle::bench {

// utime + stime of `pid` so far, in seconds; 0 if it cannot be read.
double ProcessCpuSeconds(pid_t pid);

// A memory line of /proc/<pid>/status in MB, e.g. "VmRSS" (resident now) or
// "VmHWM" (peak resident); 0 if it cannot be read.
double ProcessStatusMb(pid_t pid, const std::string& key);

// User + system CPU seconds of this process (all threads).
double SelfCpuSeconds();

}  // namespace spindle::bench
