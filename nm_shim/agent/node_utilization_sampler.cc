#include "nm_shim/agent/node_utilization_sampler.h"

#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace spindle::nm {

namespace {

bool ReadText(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  *out = buf.str();
  return true;
}

int32_t ToMb(int64_t bytes) { return static_cast<int32_t>(bytes >> 20); }

}  // namespace

NodeUtilizationSampler::NodeUtilizationSampler(pid_t agent_pid, int32_t node_vcores,
                                               int32_t processors)
    : agent_pid_(agent_pid),
      node_vcores_(node_vcores),
      processors_(processors > 0 ? processors : 1),
      jiffy_ms_(sysconf(_SC_CLK_TCK) > 0 ? 1000 / sysconf(_SC_CLK_TCK) : 10) {}

MemInfo NodeUtilizationSampler::ParseMemInfo(const std::string& text) {
  MemInfo info;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    std::istringstream value(line.substr(colon + 1));
    int64_t kb = -1;
    if (!(value >> kb)) continue;
    if (key == "MemTotal") info.total_kb = kb;
    if (key == "MemFree") info.free_kb = kb;
    if (key == "Inactive") info.inactive_kb = kb;
    if (key == "Inactive(file)") info.inactive_file_kb = kb;
    if (key == "SwapTotal") info.swap_total_kb = kb;
    if (key == "SwapFree") info.swap_free_kb = kb;
  }
  return info;
}

std::pair<int32_t, int32_t> NodeUtilizationSampler::NodeMemoryMb(const MemInfo& info) {
  const int64_t inactive = info.inactive_file_kb != -1 ? info.inactive_file_kb : info.inactive_kb;
  const int64_t available_kb = std::max<int64_t>(info.free_kb, 0) + std::max<int64_t>(inactive, 0);
  const int64_t pmem_kb = std::max<int64_t>(info.total_kb - available_kb, 0);
  const int64_t swap_used_kb = std::max<int64_t>(
      std::max<int64_t>(info.swap_total_kb, 0) - std::max<int64_t>(info.swap_free_kb, 0), 0);
  return {ToMb(pmem_kb * 1024), ToMb((pmem_kb + swap_used_kb) * 1024)};
}

int64_t NodeUtilizationSampler::CpuJiffies(const std::string& proc_stat) {
  std::istringstream lines(proc_stat);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != "cpu") continue;
    int64_t user = 0, nice = 0, system = 0;
    if (!(fields >> user >> nice >> system)) return -1;
    return user + nice + system;
  }
  return -1;
}

Utilization NodeUtilizationSampler::Containers(const std::map<pid_t, ProcInfo>& processes,
                                               pid_t agent_pid, std::map<pid_t, ProcessCpu>* last,
                                               int64_t* cpu_ms_delta) {
  // Descendants of the agent, by following parent links.
  std::map<pid_t, std::vector<pid_t>> children;
  for (const auto& [pid, info] : processes) children[info.ppid].push_back(pid);
  std::vector<pid_t> stack = {agent_pid};
  std::set<pid_t> members;
  while (!stack.empty()) {
    const pid_t parent = stack.back();
    stack.pop_back();
    auto it = children.find(parent);
    if (it == children.end()) continue;
    for (pid_t child : it->second) {
      if (child == agent_pid || !members.insert(child).second) continue;
      stack.push_back(child);
    }
  }
  Utilization u;
  int64_t rss_pages = 0;
  int64_t vmem_bytes = 0;
  int64_t delta = 0;
  std::map<pid_t, ProcessCpu> now;
  for (pid_t pid : members) {
    const ProcInfo& info = processes.at(pid);
    if (info.state == 'Z') continue;
    rss_pages += info.rss_pages;
    vmem_bytes += info.vmem_bytes;
    const int64_t cpu_ms = info.utime_ms + info.stime_ms;
    auto before = last->find(pid);
    // A process seen before counts what it used since; a new one all of it.
    delta += before != last->end() && before->second.start_ticks == info.start_ticks
                 ? std::max<int64_t>(cpu_ms - before->second.cpu_ms, 0)
                 : cpu_ms;
    now[pid] = ProcessCpu{info.start_ticks, cpu_ms};
  }
  last->swap(now);
  const int64_t page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
  u.pmem_mb = ToMb(rss_pages * page);
  u.vmem_mb = ToMb(vmem_bytes);
  *cpu_ms_delta = delta;
  return u;
}

std::optional<MeasuredUtilization> NodeUtilizationSampler::Sample(int64_t now_ms) {
  std::string meminfo;
  std::string stat;
  if (!ReadText("/proc/meminfo", &meminfo) || !ReadText("/proc/stat", &stat)) return std::nullopt;
  MeasuredUtilization out;
  const auto [pmem_mb, vmem_mb] = NodeMemoryMb(ParseMemInfo(meminfo));
  out.node.pmem_mb = pmem_mb;
  out.node.vmem_mb = vmem_mb;
  const int64_t jiffies = CpuJiffies(stat);
  const int64_t node_cpu_ms = jiffies < 0 ? -1 : jiffies * jiffy_ms_;
  int64_t containers_cpu_ms = 0;
  out.containers =
      Containers(ProcTable::Read().processes(), agent_pid_, &last_processes_, &containers_cpu_ms);
  const bool first = last_sample_ms_ < 0 || now_ms <= last_sample_ms_;
  if (first || node_cpu_ms < 0 || last_node_cpu_ms_ < 0) {
    out.node.cpu = -1;  // CpuTimeTracker.UNAVAILABLE
    out.containers.cpu = 0;
  } else {
    const double elapsed_ms = static_cast<double>(now_ms - last_sample_ms_);
    out.node.cpu =
        static_cast<float>(static_cast<double>(node_cpu_ms - last_node_cpu_ms_) / elapsed_ms);
    const double container_cores = static_cast<double>(containers_cpu_ms) / elapsed_ms;
    out.containers.cpu =
        static_cast<float>(container_cores / processors_ * static_cast<double>(node_vcores_));
  }
  if (now_ms > last_sample_ms_) last_sample_ms_ = now_ms;
  last_node_cpu_ms_ = node_cpu_ms;
  return out;
}

}  // namespace spindle::nm
