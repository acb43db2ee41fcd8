#include "bench/wire_bench.h"

#include <cstdio>

#include "bench/wire/wire_driver.h"
#include "bench/wire/wire_report.h"

namespace spindle::bench {

const CommandSpec& WireBenchCommand() {
  static const wire::WireOptions kD;
  static const CommandSpec kSpec{
      "bench wire",
      "YARN protocol load against any RM: containers/s, heartbeats/s, latencies",
      {FlagSpec::String("rm", "HOST|CLIENT,SCHEDULER,TRACKER[,WEB]", "",
                        "the RM to load: one host (ports 8032, 8030, 8031, 8088) or its "
                        "host:port addresses")
           .ComputedDefault("a spindle rm child on 127.0.0.1"),
       FlagSpec::String("hadoop-line", "2.6|2.7|3.3", kD.hadoop_line,
                        "the Hadoop line of the RM: what its simulated nodes and AMs may call"),
       FlagSpec::Int("rm-pid", kD.rm_pid, "with --rm: the process whose CPU and RSS to report"),
       FlagSpec::String("binary", "FILE", kD.binary, "the spindle run as the RM child"),
       FlagSpec::Int("nodes", kD.nodes, "simulated NodeManagers"),
       FlagSpec::Int("tracker-connections", kD.tracker_connections,
                     "ResourceTracker connections the nodes are split over"),
       FlagSpec::Int("node-memory-mb", kD.node_memory_mb, "each node's memory"),
       FlagSpec::Int("node-vcores", kD.node_vcores, "each node's vcores"),
       FlagSpec::Int("heartbeat-ms", kD.heartbeat_ms, "node heartbeat interval of the RM child"),
       FlagSpec::Int("apps", kD.apps, "applications running at once"),
       FlagSpec::Int("containers-per-app", kD.containers_per_app, "containers each AM asks for"),
       FlagSpec::Int("container-ms", kD.container_ms, "how long an AM holds each container"),
       FlagSpec::Int("memory-mb", kD.memory_mb, "each container's memory"),
       FlagSpec::Int("vcores", kD.vcores, "each container's vcores"),
       FlagSpec::Int("am-memory-mb", kD.am_memory_mb, "the AM container's memory"),
       FlagSpec::Int("allocate-ms", kD.allocate_ms, "pause between an AM's allocate calls"),
       FlagSpec::Int("seconds", kD.seconds, "how long new applications are submitted"),
       FlagSpec::Int("warmup-seconds", kD.warmup_seconds,
                     "start of the window left out of the rates")
           .ComputedDefault(std::to_string(kD.warmup_seconds) +
                            ", or --seconds / 5 when that is shorter"),
       FlagSpec::Switch("unmanaged", "submit unmanaged AMs and run them in this process"),
       FlagSpec::Int("timeout", kD.timeout_seconds,
                     "bound, in seconds, on registration, draining and each wait for the RM"),
       FlagSpec::String("queue", "QUEUE", kD.queue, "the queue to submit to"),
       FlagSpec::String("user", "USER", "", "the submitting user (SIMPLE)")
           .ComputedDefault("$USER, else spindle"),
       FlagSpec::String("work-dir", "DIR", "", "the RM child's configuration and log")
           .ComputedDefault("a fresh directory under the system temp dir"),
       FlagSpec::Int("web-scrapers", kD.web_scrapers,
                     "threads that GET the RM's REST lists and metrics meanwhile"),
       FlagSpec::Int("kill-active-after", kD.kill_active_after_seconds,
                     "the failover run: an HA pair on ZooKeeper, its active SIGKILLed this many "
                     "seconds in (0: one RM)"),
       FlagSpec::Int("zk-timeout-ms", kD.zk_timeout_ms,
                     "the pair's yarn.resourcemanager.zk-timeout-ms"),
       FlagSpec::String("zk-address", "HOST:PORT", "",
                        "a ZooKeeper server for the pair instead of starting one")
           .ComputedDefault("start one (Debian's zookeeper package)"),
       FlagSpec::String("json", "FILE", "", "also write the result as JSON here")},
      "exit status: 0, 1 if the run failed or its bookkeeping does not add up, 2 for a usage "
      "error"};
  return kSpec;
}

Result<wire::WireOptions> WireOptionsFromFlags(const CommandLine& flags) {
  wire::WireOptions o;
  if (flags.Has("rm")) {
    ASSIGN_OR_RETURN(o.rm, wire::ParseRmAddresses(flags.GetString("rm")));
  }
  const std::pair<const char*, int64_t*> ints[] = {
      {"rm-pid", &o.rm_pid},
      {"nodes", &o.nodes},
      {"tracker-connections", &o.tracker_connections},
      {"node-memory-mb", &o.node_memory_mb},
      {"node-vcores", &o.node_vcores},
      {"heartbeat-ms", &o.heartbeat_ms},
      {"apps", &o.apps},
      {"containers-per-app", &o.containers_per_app},
      {"container-ms", &o.container_ms},
      {"memory-mb", &o.memory_mb},
      {"vcores", &o.vcores},
      {"am-memory-mb", &o.am_memory_mb},
      {"allocate-ms", &o.allocate_ms},
      {"seconds", &o.seconds},
      {"timeout", &o.timeout_seconds},
      {"web-scrapers", &o.web_scrapers},
      {"kill-active-after", &o.kill_active_after_seconds},
      {"zk-timeout-ms", &o.zk_timeout_ms},
  };
  for (const auto& [name, field] : ints) *field = flags.GetInt(name);
  if (flags.Has("warmup-seconds")) {
    o.warmup_seconds = flags.GetInt("warmup-seconds");
  } else if (o.warmup_seconds >= o.seconds) {
    // A short run keeps a proportionate warm-up.
    o.warmup_seconds = o.seconds / 5;
  }
  o.unmanaged = flags.GetBool("unmanaged");
  o.binary = flags.GetString("binary");
  o.hadoop_line = flags.GetString("hadoop-line");
  o.queue = flags.GetString("queue");
  o.user = flags.GetString("user", o.user);
  o.work_dir = flags.GetString("work-dir", o.work_dir);
  o.zk_address = flags.GetString("zk-address", o.zk_address);
  RETURN_NOT_OK(o.Validate());
  return o;
}

int WireBenchMain(const CommandLine& flags) {
  auto options = WireOptionsFromFlags(flags);
  if (!options.ok()) {
    return ReportUsageError("bench wire", options.status());
  }
  auto result = wire::RunWire(*options);
  if (!result.ok()) {
    return ReportFailure("bench wire", result.status().WithContext("FAILED"));
  }
  wire::PrintWireResult(*options, *result);
  if (flags.Has("json")) {
    Status written = wire::WriteWireJson(flags.GetString("json"), *options, *result);
    if (!written.ok()) return ReportFailure("bench wire", written);
  }
  Status consistent = wire::CheckBookkeeping(*options, *result);
  if (!consistent.ok()) return ReportFailure("bench wire", consistent);
  return 0;
}

}  // namespace spindle::bench
