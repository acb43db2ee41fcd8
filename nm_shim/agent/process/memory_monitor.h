// MemoryMonitor: the physical-memory check of Hadoop's ContainersMonitorImpl
// for one container.
//
// Like Hadoop, a tree is over its limit when its whole resident size exceeds
// twice the limit, or when the processes that were already there at the
// previous check ("aged" processes) exceed the limit on their own. The second
// rule keeps a fork, which briefly doubles a process's accounted pages, from
// killing a container that is within its limit.
//
// Thread-safety: not thread-safe; each container's monitor is used by the
// runtime's supervisor thread only.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "nm_shim/agent/process/process_tree.h"

namespace spindle::nm {

struct MemoryUsage {
  bool over_limit = false;
  int64_t rss_bytes = 0;
  int64_t vmem_bytes = 0;
};

class MemoryMonitor {
 public:
  explicit MemoryMonitor(int64_t limit_bytes) : limit_bytes_(limit_bytes) {}

  // Checks the tree `members` as read in `table`, and remembers its pids as
  // the aged processes of the next check.
  MemoryUsage Check(const ProcTable& table, const std::vector<pid_t>& members);

  int64_t limit_bytes() const { return limit_bytes_; }

 private:
  const int64_t limit_bytes_;
  std::set<pid_t> previous_;
};

// Hadoop's StringUtils.TraditionalBinaryPrefix.long2String(n, "B", 1):
// "512 MB", "1.5 GB", "100 B".
std::string FormatBytes(int64_t bytes);

// The diagnostic Hadoop's monitor gives a container it kills for physical
// memory, followed by the process-tree dump.
std::string PmemDiagnostic(pid_t root, const std::string& container_id, const MemoryUsage& usage,
                           int64_t limit_bytes, double vmem_pmem_ratio, const std::string& dump);

}  // namespace spindle::nm
