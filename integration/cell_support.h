// What the cell tests (real `spindle` processes on 127.0.0.1) share: the
// protocol names they call, reading the files the processes write, writing
// their yarn-site.xml, spawning them.
#pragma once

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "yarn_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle::cell {

inline constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
inline constexpr char kAms[] = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
inline constexpr char kCmp[] = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";
inline constexpr char kAmrmTokenKind[] = "YARN_AM_RM_TOKEN";

// The RM's five listening addresses: a test sets each to 127.0.0.1:0 so the
// daemon picks free ports at run time.
inline constexpr const char* kRmAddressKeys[] = {
    "yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
    "yarn.resourcemanager.resource-tracker.address", "yarn.resourcemanager.admin.address",
    "yarn.resourcemanager.webapp.address"};

inline bool IsFinal(hadoop::yarn::YarnApplicationStateProto s) {
  return s == hadoop::yarn::FINISHED || s == hadoop::yarn::FAILED || s == hadoop::yarn::KILLED;
}

// An allocate asking for `n` containers of `memory_mb` and one vcore
// anywhere ("*"), at priority 1.
inline hadoop::yarn::AllocateRequestProto AskAnywhere(int n, int64_t memory_mb) {
  hadoop::yarn::AllocateRequestProto ask;
  auto* r = ask.add_ask();
  r->mutable_priority()->set_priority(1);
  r->set_resource_name("*");
  r->mutable_capability()->set_memory(memory_mb);
  r->mutable_capability()->set_virtual_cores(1);
  r->set_num_containers(n);
  return ask;
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

// The file's non-empty lines.
inline std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// The last `n` of Lines(path), each ending in a newline.
inline std::string Tail(const std::string& path, size_t n) {
  const auto lines = Lines(path);
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
  }
  return out;
}

// A yarn-site.xml with `properties`, replaced whole (written aside, renamed).
inline void WriteSite(const std::string& path,
                      const std::map<std::string, std::string>& properties) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream site(tmp);
    site << "<configuration>\n";
    for (const auto& [k, v] : properties) {
      site << "  <property><name>" << k << "</name><value>" << v << "</value></property>\n";
    }
    site << "</configuration>\n";
  }
  std::filesystem::rename(tmp, path);
}

// A child process (args[0] is the binary), stdout and stderr to `log`; a
// default-constructed (not running) one if it cannot be forked.
inline ChildProcess Spawn(const std::vector<std::string>& args, const std::string& log,
                          const std::vector<std::string>& extra_env = {}) {
  ChildOptions options;
  options.binary = args.front();
  options.argv0 = args.front();
  options.args.assign(args.begin() + 1, args.end());
  options.extra_env = extra_env;
  options.log_path = log;
  auto child = ChildProcess::Spawn(options);
  return child.ok() ? std::move(*child) : ChildProcess();
}

// The containers a node agent started run in sessions of their own: ends
// them (SIGKILL to each process group) by the pid files the agent wrote
// under `nm_private_dir` (<yarn.nodemanager.local-dirs>/nmPrivate).
inline void KillContainerProcesses(const std::string& nm_private_dir) {
  std::error_code ec;
  if (!std::filesystem::exists(nm_private_dir, ec)) return;
  for (const auto& e : std::filesystem::recursive_directory_iterator(nm_private_dir, ec)) {
    if (e.path().extension() != ".pid") continue;
    std::ifstream in(e.path());
    pid_t pid = 0;
    if (in >> pid && pid > 1) kill(-pid, SIGKILL);
  }
}

}  // namespace spindle::cell
