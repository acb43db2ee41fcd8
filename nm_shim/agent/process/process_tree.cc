#include "nm_shim/agent/process/process_tree.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace spindle::nm {
namespace {

int64_t TicksToMs(int64_t ticks) {
  static const int64_t kTicksPerSecond = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
  return ticks * 1000 / kTicksPerSecond;
}

int64_t PageSize() {
  static const int64_t kPageSize = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
  return kPageSize;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  *out = buf.str();
  return true;
}

std::string CommandLine(pid_t pid) {
  std::string raw;
  if (!ReadFile("/proc/" + std::to_string(pid) + "/cmdline", &raw)) return "";
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  while (!raw.empty() && raw.back() == ' ') raw.pop_back();
  return raw;
}

}  // namespace

bool ProcTable::ParseStatLine(const std::string& line, ProcInfo* info) {
  // "pid (comm) state ppid pgrp session ..."; comm may hold spaces and
  // parentheses, so it ends at the last ')'.
  const size_t open = line.find('(');
  const size_t close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  info->pid = static_cast<pid_t>(std::atol(line.c_str()));
  info->comm = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 1));
  // Fields after comm, numbered as in proc(5): 3 state, 4 ppid, 5 pgrp,
  // 6 session, 7..13 skipped, 14 utime, 15 stime, 16..21 skipped,
  // 22 starttime, 23 vsize, 24 rss.
  std::string state;
  int64_t ppid = 0, pgrp = 0, session = 0, utime = 0, stime = 0, vsize = 0, rss = 0;
  uint64_t start = 0;
  std::string skip;
  if (!(rest >> state >> ppid >> pgrp >> session)) return false;
  for (int f = 7; f <= 13; ++f) rest >> skip;
  rest >> utime >> stime;
  for (int f = 16; f <= 21; ++f) rest >> skip;
  if (!(rest >> start >> vsize >> rss)) return false;
  info->start_ticks = start;
  info->state = state.empty() ? '?' : state[0];
  info->ppid = static_cast<pid_t>(ppid);
  info->pgrp = static_cast<pid_t>(pgrp);
  info->session = static_cast<pid_t>(session);
  info->utime_ms = TicksToMs(utime);
  info->stime_ms = TicksToMs(stime);
  info->vmem_bytes = vsize;
  info->rss_pages = rss;
  return true;
}

ProcTable ProcTable::Read() {
  ProcTable table;
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return table;
  while (dirent* entry = readdir(dir)) {
    const char* name = entry->d_name;
    if (name[0] < '0' || name[0] > '9') continue;
    std::string line;
    if (!ReadFile(std::string("/proc/") + name + "/stat", &line)) continue;
    ProcInfo info;
    if (ParseStatLine(line, &info)) table.processes_[info.pid] = info;
  }
  closedir(dir);
  return table;
}

std::vector<pid_t> ProcTable::TreeOf(pid_t root, pid_t session) const {
  std::set<pid_t> members;
  if (processes_.count(root) != 0) members.insert(root);
  for (const auto& [pid, info] : processes_) {
    if (info.session == session || info.pgrp == session) members.insert(pid);
  }
  // Parent links: repeat until nothing is added (trees are shallow, and
  // /proc is listed in pid order, which usually puts parents first).
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& [pid, info] : processes_) {
      if (members.count(pid) == 0 && members.count(info.ppid) != 0) {
        members.insert(pid);
        grew = true;
      }
    }
  }
  std::vector<pid_t> live;
  for (pid_t pid : members) {
    if (processes_.at(pid).state != 'Z') live.push_back(pid);
  }
  return live;
}

int64_t ProcTable::RssBytes(const std::vector<pid_t>& pids) const {
  int64_t pages = 0;
  for (pid_t pid : pids) {
    auto it = processes_.find(pid);
    if (it != processes_.end()) pages += it->second.rss_pages;
  }
  return pages * PageSize();
}

int64_t ProcTable::VmemBytes(const std::vector<pid_t>& pids) const {
  int64_t bytes = 0;
  for (pid_t pid : pids) {
    auto it = processes_.find(pid);
    if (it != processes_.end()) bytes += it->second.vmem_bytes;
  }
  return bytes;
}

std::string ProcTable::Dump(const std::vector<pid_t>& pids) const {
  std::string out =
      "\t|- PID PPID PGRPID SESSID CMD_NAME USER_MODE_TIME(MILLIS) SYSTEM_TIME(MILLIS) "
      "VMEM_USAGE(BYTES) RSSMEM_USAGE(PAGES) FULL_CMD_LINE\n";
  for (pid_t pid : pids) {
    auto it = processes_.find(pid);
    if (it == processes_.end()) continue;
    const ProcInfo& p = it->second;
    out += "\t|- " + std::to_string(p.pid) + " " + std::to_string(p.ppid) + " " +
           std::to_string(p.pgrp) + " " + std::to_string(p.session) + " (" + p.comm + ") " +
           std::to_string(p.utime_ms) + " " + std::to_string(p.stime_ms) + " " +
           std::to_string(p.vmem_bytes) + " " + std::to_string(p.rss_pages) + " " +
           CommandLine(pid) + "\n";
  }
  return out;
}

std::vector<pid_t> TrackedTree::Members(const ProcTable& table, pid_t root) {
  std::set<pid_t> members;
  for (pid_t pid : table.TreeOf(root, session_)) members.insert(pid);
  for (auto it = seen_.begin(); it != seen_.end();) {
    auto p = table.processes().find(it->first);
    if (p == table.processes().end() || p->second.start_ticks != it->second ||
        p->second.state == 'Z') {
      it = seen_.erase(it);  // gone, or its pid now names another process
      continue;
    }
    members.insert(it->first);
    ++it;
  }
  for (pid_t pid : members) seen_[pid] = table.processes().at(pid).start_ticks;
  return std::vector<pid_t>(members.begin(), members.end());
}

int SignalMembers(const ProcTable& table, const std::vector<pid_t>& members, pid_t session,
                  int signal) {
  int signalled = 0;
  bool group_alive = false;
  for (pid_t pid : members) group_alive |= table.processes().at(pid).pgrp == session;
  if (group_alive && session > 1 && kill(-session, signal) == 0) ++signalled;
  for (pid_t pid : members) {
    if (table.processes().at(pid).pgrp == session) continue;  // reached through the group
    if (kill(pid, signal) == 0) ++signalled;
  }
  return signalled;
}

}  // namespace spindle::nm
