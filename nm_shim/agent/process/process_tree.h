// ProcTable: one reading of /proc, and the process tree of a container in it.
//
// A container's tree is every process that (a) is in the container's session
// (the launcher's setsid made the session and group id equal to the root
// pid), (b) is in its process group, or (c) descends, through parent links,
// from the root or from a process already in the tree. (c) catches children
// that called setsid() themselves while their parent is still around;
// (a)/(b) catch processes orphaned to init that kept the session. Like
// Hadoop's ProcfsBasedProcessTree, a process that both left the session and
// lost its parent is out of reach.
//
// Thread-safety: a ProcTable is an immutable value once read.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace spindle::nm {

struct ProcInfo {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgrp = 0;
  pid_t session = 0;
  char state = '?';  // 'Z' for zombies, which hold no memory and cannot be killed
  std::string comm;
  int64_t utime_ms = 0;
  int64_t stime_ms = 0;
  int64_t vmem_bytes = 0;
  int64_t rss_pages = 0;
  uint64_t start_ticks = 0;  // start time since boot: tells a pid's reuse apart
};

class ProcTable {
 public:
  // Reads every /proc/<pid>/stat; processes that vanish meanwhile are skipped.
  static ProcTable Read();
  // For tests: parses one /proc/<pid>/stat line; false if malformed.
  static bool ParseStatLine(const std::string& line, ProcInfo* info);

  const std::map<pid_t, ProcInfo>& processes() const { return processes_; }
  // The live (non-zombie) members of the tree of `root` whose session and
  // group id is `session`, in pid order.
  std::vector<pid_t> TreeOf(pid_t root, pid_t session) const;
  // Resident memory of `pids`, in bytes.
  int64_t RssBytes(const std::vector<pid_t>& pids) const;
  int64_t VmemBytes(const std::vector<pid_t>& pids) const;
  // Hadoop's "Dump of the process-tree" table for `pids`.
  std::string Dump(const std::vector<pid_t>& pids) const;

 private:
  std::map<pid_t, ProcInfo> processes_;
};

// One container's processes across readings of /proc: what TreeOf() finds
// now, plus every process found by an earlier reading that is still the same
// process (same start time). The memory keeps a child that left the session
// in reach after its parent died, which TreeOf() alone cannot do.
//
// Thread-safety: not thread-safe; one owner.
class TrackedTree {
 public:
  explicit TrackedTree(pid_t session) : session_(session) {}

  // The live members, in pid order. `root` is the container's main pid while
  // it is unreaped, 0 after (its number may then belong to someone else).
  std::vector<pid_t> Members(const ProcTable& table, pid_t root);
  pid_t session() const { return session_; }

 private:
  const pid_t session_;
  std::map<pid_t, uint64_t> seen_;  // pid -> start_ticks
};

// Sends `signal` to the process group `session` (if a member is still in
// it) and to every member in another group. Returns how many targets were
// signalled.
int SignalMembers(const ProcTable& table, const std::vector<pid_t>& members, pid_t session,
                  int signal);

}  // namespace spindle::nm
