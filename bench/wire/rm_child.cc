#include "bench/wire/rm_child.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "bench/hadoop_site.h"
#include "rm/config/hadoop_line.h"

namespace spindle::bench::wire {

Status RmChild::Start(const WireOptions& options, const std::string& work_dir,
                      const std::string& name, const std::map<std::string, std::string>& extra) {
  work_dir_ = work_dir;
  name_ = name;
  const std::string conf_dir = work_dir + "/" + name + "-conf";
  const std::string ports_file = work_dir + "/" + name + ".ports";
  const std::string many = "1000000";
  std::map<std::string, std::string> site = {
      {"yarn.resourcemanager.address", "127.0.0.1:0"},
      {"yarn.resourcemanager.scheduler.address", "127.0.0.1:0"},
      {"yarn.resourcemanager.resource-tracker.address", "127.0.0.1:0"},
      {"yarn.resourcemanager.admin.address", "127.0.0.1:0"},
      {"yarn.resourcemanager.webapp.address", "127.0.0.1:0"},
      // The RM's scheduling is measured, not the store's disk.
      {"yarn.resourcemanager.recovery.enabled", "true"},
      {"yarn.resourcemanager.store.class", "memory"},
      {"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
       std::to_string(options.heartbeat_ms)},
      {"yarn.scheduler.minimum-allocation-mb",
       std::to_string(std::min(options.memory_mb, options.am_memory_mb))},
      {"yarn.scheduler.maximum-allocation-mb", std::to_string(options.node_memory_mb)},
      {"yarn.scheduler.minimum-allocation-vcores", "1"},
      {"yarn.scheduler.maximum-allocation-vcores", std::to_string(options.node_vcores)},
      {"yarn.resourcemanager.max-completed-applications", many},
      {"yarn.scheduler.capacity.root.queues", options.queue},
      {"yarn.scheduler.capacity.root." + options.queue + ".capacity", "100"},
      {"yarn.scheduler.capacity.maximum-applications", many},
      {"yarn.scheduler.capacity.maximum-am-resource-percent", "1.0"},
      {"hadoop.tmp.dir", work_dir + "/tmp"},
      {rm::kHadoopLineKey, options.hadoop_line},
  };
  for (const auto& [key, value] : extra) site[key] = value;
  RETURN_NOT_OK(WriteSite(conf_dir, site));
  // A ports file left by an earlier run in this directory (a kept work dir,
  // or a reused pid) would name another RM's ports.
  std::error_code ignored;
  std::filesystem::remove(ports_file, ignored);
  ChildOptions child;
  child.binary = options.binary;
  child.args = {"rm", "--conf", conf_dir, "--ports-file", ports_file};
  child.log_path = log();
  ASSIGN_OR_RETURN(child_, ChildProcess::Spawn(child));
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  while (true) {
    std::ifstream in(ports_file);
    if (in) {
      std::map<std::string, int> ports;
      std::string line;
      while (std::getline(in, line)) {
        const size_t eq = line.find('=');
        if (eq != std::string::npos) ports[line.substr(0, eq)] = std::atoi(line.c_str() + eq + 1);
      }
      addresses_.client = {"127.0.0.1", static_cast<uint16_t>(ports["client"])};
      addresses_.scheduler = {"127.0.0.1", static_cast<uint16_t>(ports["scheduler"])};
      addresses_.tracker = {"127.0.0.1", static_cast<uint16_t>(ports["resource-tracker"])};
      addresses_.web = {"127.0.0.1", static_cast<uint16_t>(ports["web"])};
      if (addresses_.client.port == 0 || addresses_.scheduler.port == 0 ||
          addresses_.tracker.port == 0) {
        return Status::IoError("bad ports file " + ports_file);
      }
      return Status::OK();
    }
    if (child_.Exited()) {
      return Status::IoError("spindle rm exited at start (see " + log() + ")");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::TimedOut("spindle rm did not listen in " +
                              std::to_string(options.timeout_seconds) + " s (see " + log() + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void RmChild::Stop() { child_.Stop(SIGTERM, std::chrono::seconds(10)); }

}  // namespace spindle::bench::wire
