#include "bench/nm_bench.h"

#include <glog/logging.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "base/child_process.h"
#include "cmd/rm_daemon.h"

namespace spindle::bench {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The agent's /proc figures; zeros if it is gone.
ProcessUsage AgentUsage(pid_t pid) {
  auto usage = ReadProcessUsage(pid);
  return usage.ok() ? *usage : ProcessUsage();
}

double SelfCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

Result<NmBenchResult> RunNmBench(const NmBenchOptions& options) {
  if (options.nodes <= 0 || options.seconds <= 0 || options.heartbeat_interval_ms <= 0) {
    return Status::InvalidArgument("--nodes, --seconds and --interval-ms must be positive");
  }
  rm::Configuration conf;
  for (const char* key :
       {"yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
        "yarn.resourcemanager.resource-tracker.address", "yarn.resourcemanager.admin.address",
        "yarn.resourcemanager.webapp.address"}) {
    conf.Set(key, "127.0.0.1:0");
  }
  conf.Set("yarn.scheduler.capacity.root.queues", "default");
  conf.Set("yarn.scheduler.capacity.root.default.capacity", "100");
  conf.Set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
           std::to_string(options.heartbeat_interval_ms));
  // The node side is measured here, not the store's disk.
  conf.Set("yarn.resourcemanager.recovery.enabled", "true");
  conf.Set("yarn.resourcemanager.store.class", "memory");
  ASSIGN_OR_RETURN(auto rm, RmDaemon::Create(std::move(conf)));
  RETURN_NOT_OK(rm->Start());

  // An empty configuration directory: the agent reads only its flags.
  const std::string conf_dir = std::filesystem::temp_directory_path().string() +
                               "/spindle-bench-nm-" + std::to_string(getpid());
  std::filesystem::create_directories(conf_dir);
  const std::string tracker = "127.0.0.1:" + std::to_string(rm->resource_tracker_port());
  const std::string nodes = std::to_string(options.nodes);
  const auto start = Clock::now();
  ChildOptions agent;
  agent.binary = "/proc/self/exe";
  agent.args = {"nm", "--conf", conf_dir, "--simulate", nodes, "--resource-tracker", tracker};
  ASSIGN_OR_RETURN(ChildProcess child, ChildProcess::Spawn(agent));
  NmBenchResult result;
  result.nodes = options.nodes;
  Status status = Status::OK();
  const auto register_deadline = start + std::chrono::seconds(options.register_timeout_seconds);
  while (rm->nodes().Counts().active < options.nodes && Clock::now() < register_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const int32_t registered = rm->nodes().Counts().active;
  result.register_seconds = Seconds(Clock::now() - start);
  if (registered < options.nodes) {
    status = Status::TimedOut("only " + std::to_string(registered) + " of " + nodes +
                              " nodes registered in " +
                              std::to_string(options.register_timeout_seconds) + " s");
  } else {
    // One interval to settle into the steady heartbeat rhythm.
    std::this_thread::sleep_for(std::chrono::milliseconds(options.heartbeat_interval_ms));
    const auto t0 = Clock::now();
    const int64_t calls0 = rm->resource_tracker_calls();
    const double agent0 = AgentUsage(child.pid()).cpu_seconds;
    const double self0 = SelfCpuSeconds();
    std::this_thread::sleep_for(std::chrono::seconds(options.seconds));
    const double elapsed = Seconds(Clock::now() - t0);
    result.heartbeats_per_second =
        static_cast<double>(rm->resource_tracker_calls() - calls0) / elapsed;
    const ProcessUsage agent1 = AgentUsage(child.pid());
    result.agent_cpu_percent = 100 * (agent1.cpu_seconds - agent0) / elapsed;
    result.rm_cpu_percent = 100 * (SelfCpuSeconds() - self0) / elapsed;
    result.agent_rss_mb = agent1.rss_mb;
    result.agent_peak_rss_mb = agent1.peak_rss_mb;
    result.expected_per_second = options.nodes * 1000.0 / options.heartbeat_interval_ms;
  }
  child.Stop(SIGTERM, std::chrono::seconds(10));
  rm->Stop();
  std::filesystem::remove_all(conf_dir);
  RETURN_NOT_OK(status);
  return result;
}

const CommandSpec& NmBenchCommand() {
  static const NmBenchOptions kDefaults;
  static const CommandSpec kSpec{
      "bench nm",
      "heartbeats/s from one `spindle nm --simulate N`, and its CPU and RSS",
      {FlagSpec::Int("nodes", kDefaults.nodes, "simulated nodes").InRange(1, 1e7),
       FlagSpec::Int("seconds", kDefaults.seconds, "measured time").InRange(1, 1e6),
       FlagSpec::Int("interval-ms", kDefaults.heartbeat_interval_ms, "heartbeat interval")
           .InRange(1, 1e7),
       FlagSpec::Int("register-timeout", kDefaults.register_timeout_seconds,
                     "seconds to wait for every node to register")
           .InRange(1, 1e6)}};
  return kSpec;
}

int NmBenchMain(const CommandLine& flags) {
  NmBenchOptions options;
  options.nodes = flags.GetInt("nodes");
  options.heartbeat_interval_ms = flags.GetInt("interval-ms");
  options.seconds = static_cast<int>(flags.GetInt("seconds"));
  options.register_timeout_seconds = static_cast<int>(flags.GetInt("register-timeout"));
  auto r = RunNmBench(options);
  if (!r.ok()) {
    return ReportFailure("bench nm", r.status());
  }
  std::printf(
      "spindle bench nm: one `spindle nm --simulate %lld` agent -> in-process spindle rm, "
      "heartbeat interval %lld ms, %d s measured\n",
      static_cast<long long>(r->nodes), static_cast<long long>(options.heartbeat_interval_ms),
      options.seconds);
  std::printf("%-8s %12s %14s %14s %12s %12s %14s %10s\n", "nodes", "register_s", "heartbeats/s",
              "expected/s", "agent_cpu%", "agent_rss_mb", "agent_peak_mb", "rm_cpu%");
  std::printf("%-8lld %12.2f %14.1f %14.1f %12.1f %12.1f %14.1f %10.1f\n",
              static_cast<long long>(r->nodes), r->register_seconds, r->heartbeats_per_second,
              r->expected_per_second, r->agent_cpu_percent, r->agent_rss_mb, r->agent_peak_rss_mb,
              r->rm_cpu_percent);
  return 0;
}

}  // namespace spindle::bench
