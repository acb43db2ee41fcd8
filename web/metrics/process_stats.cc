#include "web/metrics/process_stats.h"

#include <dirent.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace spindle::web {
namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

// The fields of a /proc/<pid>/stat line after "(comm)": the comm may hold
// spaces and parentheses, so it is cut at the last ')'.
bool SplitStat(const std::string& line, std::string* comm, std::vector<std::string>* fields) {
  const size_t open = line.find('(');
  const size_t close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  *comm = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 1));
  fields->clear();
  for (std::string field; rest >> field;) fields->push_back(field);
  // fields[0] is the state (field 3 of proc(5)).
  return fields->size() >= 20;
}

int64_t ToInt(const std::string& s) { return std::strtoll(s.c_str(), nullptr, 10); }

std::vector<int> ListNumbers(const std::string& dir) {
  std::vector<int> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    out.push_back(static_cast<int>(std::strtol(e->d_name, nullptr, 10)));
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

int64_t BootTimeSeconds() {
  std::string text;
  if (!ReadFile("/proc/stat", &text)) return 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("btime ", 0) == 0) return ToInt(line.substr(6));
  }
  return 0;
}

}  // namespace

std::vector<ThreadStat> ReadThreads() {
  std::vector<ThreadStat> threads;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  for (int tid : ListNumbers("/proc/self/task")) {
    std::string line;
    // A thread may exit between the listing and the read: skip it.
    if (!ReadFile("/proc/self/task/" + std::to_string(tid) + "/stat", &line)) continue;
    std::string comm;
    std::vector<std::string> fields;
    if (!SplitStat(line, &comm, &fields)) continue;
    ThreadStat t;
    t.tid = tid;
    t.name = comm;
    t.state = fields[0].empty() ? '?' : fields[0][0];
    // utime and stime are fields 14 and 15 of proc(5): [11] and [12] here.
    t.cpu_seconds = static_cast<double>(ToInt(fields[11]) + ToInt(fields[12])) / ticks;
    threads.push_back(std::move(t));
  }
  return threads;
}

Result<ProcessStats> ReadProcessStats() {
  ProcessStats s;
  std::string status;
  if (!ReadFile("/proc/self/status", &status)) {
    return Status::IoError("cannot read /proc/self/status");
  }
  std::istringstream in(status);
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    const int64_t value = ToInt(line.substr(colon + 1));
    if (key == "VmSize")
      s.vm_size_kb = value;
    else if (key == "VmPeak")
      s.vm_peak_kb = value;
    else if (key == "VmRSS")
      s.vm_rss_kb = value;
    else if (key == "VmHWM")
      s.vm_hwm_kb = value;
    else if (key == "RssAnon")
      s.rss_anon_kb = value;
    else if (key == "RssFile")
      s.rss_file_kb = value;
    else if (key == "RssShmem")
      s.rss_shmem_kb = value;
    else if (key == "voluntary_ctxt_switches")
      s.voluntary_context_switches = value;
    else if (key == "nonvoluntary_ctxt_switches")
      s.involuntary_context_switches = value;
  }
  for (const ThreadStat& t : ReadThreads()) {
    ++s.threads_total;
    switch (t.state) {
      case 'R':
        ++s.threads_running;
        break;
      case 'S':
      case 'I':
        ++s.threads_sleeping;
        break;
      case 'D':
        ++s.threads_disk_wait;
        break;
      case 'T':
      case 't':
        ++s.threads_stopped;
        break;
      case 'Z':
      case 'X':
        ++s.threads_zombie;
        break;
      default:
        ++s.threads_sleeping;
        break;
    }
  }
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::string stat;
  std::string comm;
  std::vector<std::string> fields;
  if (ReadFile("/proc/self/stat", &stat) && SplitStat(stat, &comm, &fields)) {
    s.cpu_user_seconds = static_cast<double>(ToInt(fields[11])) / ticks;
    s.cpu_system_seconds = static_cast<double>(ToInt(fields[12])) / ticks;
    // starttime (field 22): ticks after boot.
    s.start_time_seconds =
        static_cast<double>(BootTimeSeconds()) + static_cast<double>(ToInt(fields[19])) / ticks;
  }
  // The listing's own descriptor is counted too, as Java's count does.
  s.open_fds = static_cast<int64_t>(ListNumbers("/proc/self/fd").size());
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    s.max_fds = limit.rlim_cur == RLIM_INFINITY ? -1 : static_cast<int64_t>(limit.rlim_cur);
  }
  if (getrlimit(RLIMIT_AS, &limit) == 0) {
    s.address_space_limit =
        limit.rlim_cur == RLIM_INFINITY ? -1 : static_cast<int64_t>(limit.rlim_cur);
  }
  struct sysinfo info {};
  if (sysinfo(&info) == 0) {
    const auto unit = static_cast<int64_t>(info.mem_unit);
    s.total_physical_bytes = static_cast<int64_t>(info.totalram) * unit;
    s.free_physical_bytes = static_cast<int64_t>(info.freeram) * unit;
    s.total_swap_bytes = static_cast<int64_t>(info.totalswap) * unit;
    s.free_swap_bytes = static_cast<int64_t>(info.freeswap) * unit;
    s.load_average_1m =
        static_cast<double>(info.loads[0]) / static_cast<double>(1 << SI_LOAD_SHIFT);
  }
  s.processors = sysconf(_SC_NPROCESSORS_ONLN);
  return s;
}

}  // namespace spindle::web
