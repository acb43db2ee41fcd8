#include "bench/wire_bench.h"

#include <cstdio>

#include "bench/wire/wire_driver.h"
#include "bench/wire/wire_report.h"

namespace spindle::bench {

Result<wire::WireOptions> WireOptionsFromFlags(const CommandLine& flags) {
  RETURN_NOT_OK(flags.CheckKnown({"rm",
                                  "rm-pid",
                                  "binary",
                                  "nodes",
                                  "tracker-connections",
                                  "node-memory-mb",
                                  "node-vcores",
                                  "heartbeat-ms",
                                  "apps",
                                  "containers-per-app",
                                  "container-ms",
                                  "memory-mb",
                                  "vcores",
                                  "am-memory-mb",
                                  "allocate-ms",
                                  "seconds",
                                  "warmup-seconds",
                                  "unmanaged",
                                  "timeout",
                                  "queue",
                                  "user",
                                  "work-dir",
                                  "web-scrapers",
                                  "json"}));
  wire::WireOptions o;
  if (flags.Has("rm")) {
    ASSIGN_OR_RETURN(o.rm, wire::ParseRmAddresses(flags.GetString("rm", "")));
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
      {"warmup-seconds", &o.warmup_seconds},
      {"timeout", &o.timeout_seconds},
      {"web-scrapers", &o.web_scrapers},
  };
  for (const auto& [name, field] : ints) {
    ASSIGN_OR_RETURN(*field, flags.GetInt(name, *field));
  }
  if (flags.Has("seconds") && !flags.Has("warmup-seconds") && o.warmup_seconds >= o.seconds) {
    // A short run keeps a proportionate warm-up.
    o.warmup_seconds = o.seconds / 5;
  }
  o.unmanaged = flags.Has("unmanaged");
  o.binary = flags.GetString("binary", o.binary);
  o.queue = flags.GetString("queue", o.queue);
  o.user = flags.GetString("user", o.user);
  o.work_dir = flags.GetString("work-dir", o.work_dir);
  RETURN_NOT_OK(o.Validate());
  return o;
}

int WireBenchMain(const CommandLine& flags) {
  auto options = WireOptionsFromFlags(flags);
  if (!options.ok()) {
    std::fprintf(stderr, "spindle bench wire: %s\n", options.status().ToString().c_str());
    return 2;
  }
  auto result = wire::RunWire(*options);
  if (!result.ok()) {
    std::fprintf(stderr, "spindle bench wire: FAILED: %s\n", result.status().ToString().c_str());
    return 1;
  }
  wire::PrintWireResult(*options, *result);
  if (flags.Has("json")) {
    Status written = wire::WriteWireJson(flags.GetString("json", ""), *options, *result);
    if (!written.ok()) {
      std::fprintf(stderr, "spindle bench wire: %s\n", written.ToString().c_str());
      return 1;
    }
  }
  Status consistent = wire::CheckBookkeeping(*options, *result);
  if (!consistent.ok()) {
    std::fprintf(stderr, "spindle bench wire: %s\n", consistent.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace spindle::bench
