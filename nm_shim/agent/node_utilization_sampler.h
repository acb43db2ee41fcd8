// NodeUtilizationSampler: what `spindle nm` reports in each heartbeat's
// NodeStatusProto node_utilization and containers_utilization
// (ResourceUtilizationProto: pmem and vmem in MB, cpu in cores), measured
// from /proc as the Java NodeManager measures them (Hadoop 3.3):
//   node (NodeResourceMonitorImpl over SysInfoLinux): pmem = MemTotal -
//     (MemFree + Inactive(file), else Inactive); vmem = pmem + SwapTotal -
//     SwapFree; cpu = the cores busy since the previous sample (user + nice
//     + system time of /proc/stat's "cpu" line over the elapsed time), -1
//     on the first sample (CpuTimeTracker.UNAVAILABLE);
//   containers (ContainersMonitorImpl): the sums over the containers'
//     processes of resident and virtual memory, and cpu as vcores:
//     cores busy / processors x the node's vcores.
// The containers' processes are the agent's descendants (containers run as
// its children, each in its own session), found in one reading of /proc.
//
// Thread contract: not thread-safe; one owner (the node's event loop).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "nm_shim/agent/process/process_tree.h"

namespace spindle::nm {

struct Utilization {
  int32_t pmem_mb = 0;
  int32_t vmem_mb = 0;
  float cpu = 0;
};

struct MeasuredUtilization {
  Utilization node;
  Utilization containers;
};

// /proc/meminfo's fields Hadoop reads, in kB; -1 when absent.
struct MemInfo {
  int64_t total_kb = -1;
  int64_t free_kb = -1;
  int64_t inactive_kb = -1;
  int64_t inactive_file_kb = -1;
  int64_t swap_total_kb = -1;
  int64_t swap_free_kb = -1;
};

class NodeUtilizationSampler {
 public:
  // `agent_pid`: whose descendants are the containers; `node_vcores`: the
  // node's configured vcores; `processors`: online CPUs.
  NodeUtilizationSampler(pid_t agent_pid, int32_t node_vcores, int32_t processors);

  // Reads /proc now (`now_ms`: a monotonic time in ms). nullopt if
  // /proc/meminfo or /proc/stat cannot be read.
  std::optional<MeasuredUtilization> Sample(int64_t now_ms);

  // The pure parts, for tests.
  static MemInfo ParseMemInfo(const std::string& text);
  // Node pmem/vmem in MB from `info`.
  static std::pair<int32_t, int32_t> NodeMemoryMb(const MemInfo& info);
  // user + nice + system jiffies of /proc/stat's first "cpu" line; -1 if
  // it has none.
  static int64_t CpuJiffies(const std::string& proc_stat);
  // The containers' part of `processes` (one /proc reading): descendants of `agent_pid`, with the
  // cpu they used since `last` (per pid and start time); updates `last`.
  struct ProcessCpu {
    uint64_t start_ticks = 0;
    int64_t cpu_ms = 0;
  };
  static Utilization Containers(const std::map<pid_t, ProcInfo>& processes, pid_t agent_pid,
                                std::map<pid_t, ProcessCpu>* last, int64_t* cpu_ms_delta);

 private:
  const pid_t agent_pid_;
  const int32_t node_vcores_;
  const int32_t processors_;
  const int64_t jiffy_ms_;
  int64_t last_sample_ms_ = -1;
  int64_t last_node_cpu_ms_ = -1;
  std::map<pid_t, ProcessCpu> last_processes_;
};

}  // namespace spindle::nm
