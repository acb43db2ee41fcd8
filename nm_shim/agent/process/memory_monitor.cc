#include "nm_shim/agent/process/memory_monitor.h"

#include <cstdio>

namespace spindle::nm {

MemoryUsage MemoryMonitor::Check(const ProcTable& table, const std::vector<pid_t>& members) {
  MemoryUsage usage;
  usage.rss_bytes = table.RssBytes(members);
  usage.vmem_bytes = table.VmemBytes(members);
  std::vector<pid_t> aged;
  for (pid_t pid : members) {
    if (previous_.count(pid) != 0) aged.push_back(pid);
  }
  const int64_t aged_rss = table.RssBytes(aged);
  usage.over_limit =
      limit_bytes_ > 0 && (usage.rss_bytes > 2 * limit_bytes_ || aged_rss > limit_bytes_);
  previous_ = std::set<pid_t>(members.begin(), members.end());
  return usage;
}

std::string FormatBytes(int64_t bytes) {
  static const char* const kPrefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int level = 0;
  int64_t unit = 1;
  while (level < 6 && bytes >= unit * 1024) {
    unit *= 1024;
    ++level;
  }
  char buf[64];
  if (bytes % unit == 0) {
    std::snprintf(buf, sizeof(buf), "%lld %sB", static_cast<long long>(bytes / unit),
                  kPrefixes[level]);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f %sB", static_cast<double>(bytes) / unit,
                  kPrefixes[level]);
  }
  return buf;
}

std::string PmemDiagnostic(pid_t root, const std::string& container_id, const MemoryUsage& usage,
                           int64_t limit_bytes, double vmem_pmem_ratio, const std::string& dump) {
  const auto vmem_limit = static_cast<int64_t>(static_cast<double>(limit_bytes) * vmem_pmem_ratio);
  return "Container [pid=" + std::to_string(root) + ",containerID=" + container_id +
         "] is running beyond physical memory limits. Current usage: " +
         FormatBytes(usage.rss_bytes) + " of " + FormatBytes(limit_bytes) +
         " physical memory used; " + FormatBytes(usage.vmem_bytes) + " of " +
         FormatBytes(vmem_limit) + " virtual memory used. Killing container.\n" +
         "Dump of the process-tree for " + container_id + " :\n" + dump;
}

}  // namespace spindle::nm
