#include "nm_shim/agent/agent_options.h"

#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <thread>

#include "rm/config/ha_config.h"
#include "rm/config/hadoop_line.h"

namespace spindle::nm {

namespace {

Status Bad(const rm::Configuration& conf, const std::string& key, const std::string& value,
           const std::string& why) {
  return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" + value + "' " + why);
}

Result<int64_t> Positive(const rm::Configuration& conf, const std::string& key, int64_t fallback) {
  ASSIGN_OR_RETURN(int64_t v, conf.GetInt(key, fallback));
  if (v <= 0) return Bad(conf, key, std::to_string(v), "must be positive");
  return v;
}

std::string LocalHostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

}  // namespace

Result<int64_t> DetectMemoryMb() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name;
    int64_t kb = 0;
    if (words >> name >> kb && name == "MemTotal:") return kb / 1024;
  }
  return Status::IoError("cannot read MemTotal from /proc/meminfo");
}

int32_t DetectVcores() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int32_t>(n) : 1;
}

NodeEnvironment AgentOptions::Environment() const {
  NodeEnvironment env;
  env.nm_host = node_host;
  env.nm_port = nm_address.port;
  env.nm_http_port = http_port;
  env.local_dirs = local_dirs;
  env.log_dirs = log_dirs;
  env.user_home_dir = user_home_dir;
  env.env_whitelist = env_whitelist;
  env.admin_env = admin_env;
  env.log_container_debug_info = log_container_debug_info;
  return env;
}

Result<AgentOptions> AgentOptionsFromConfiguration(const rm::Configuration& conf) {
  AgentOptions o;
  ASSIGN_OR_RETURN(const rm::HadoopLine line, rm::HadoopLineOf(conf));
  o.nm_version = std::string(rm::TraitsOf(line).version);
  o.unregister_on_stop = rm::TraitsOf(line).nm_unregister;
  const std::string rm_host = conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0");
  ASSIGN_OR_RETURN(
      o.resource_tracker,
      conf.GetSocketAddress("yarn.resourcemanager.resource-tracker.address", rm_host + ":8031"));
  if (o.resource_tracker.port == 0) {
    return Bad(conf, "yarn.resourcemanager.resource-tracker.address",
               o.resource_tracker.host + ":0", "needs the RM's port");
  }
  ASSIGN_OR_RETURN(const bool ha, conf.GetBool("yarn.resourcemanager.ha.enabled", false));
  if (ha) {
    // A NodeManager's RM proxy (ServerRMProxy with ConfiguredRMFailoverProxyProvider).
    for (const std::string& rm_id : conf.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids")) {
      ASSIGN_OR_RETURN(
          const std::string text,
          rm::RmAddressOf(conf, "yarn.resourcemanager.resource-tracker.address", rm_id));
      std::optional<HostPort> address = rm::ParseSocketAddress(text);
      if (!address.has_value() || address->port == 0) {
        return Bad(conf, "yarn.resourcemanager.resource-tracker.address." + rm_id, text,
                   "needs the RM's host and port");
      }
      o.resource_trackers_ha.push_back(*address);
    }
    if (o.resource_trackers_ha.empty()) {
      return Bad(conf, "yarn.resourcemanager.ha.rm-ids", "", "is empty with HA enabled");
    }
  }
  o.nm_hostname = conf.GetTrimmed("yarn.nodemanager.hostname").value_or("0.0.0.0");
  ASSIGN_OR_RETURN(o.nm_address,
                   conf.GetSocketAddress("yarn.nodemanager.address", o.nm_hostname + ":0"));
  o.node_host = o.nm_address.host == "0.0.0.0" ? LocalHostName() : o.nm_address.host;
  ASSIGN_OR_RETURN(HostPort web, conf.GetSocketAddress("yarn.nodemanager.webapp.address",
                                                       o.nm_hostname + ":8042"));
  o.http_port = web.port;
  // WebAppUtils.getWebAppBindURL: the bind host, when set, replaces the host.
  std::string web_bind = conf.GetTrimmed("yarn.nodemanager.bind-host").value_or("");
  if (web_bind.empty()) web_bind = web.host;
  ASSIGN_OR_RETURN(o.web, web::HttpServerOptions::FromConfiguration(
                              conf, web_bind, static_cast<uint16_t>(web.port)));

  ASSIGN_OR_RETURN(o.memory_mb, conf.GetInt("yarn.nodemanager.resource.memory-mb", 8192));
  if (o.memory_mb == -1) {
    ASSIGN_OR_RETURN(o.memory_mb, DetectMemoryMb());
  } else if (o.memory_mb <= 0) {
    return Bad(conf, "yarn.nodemanager.resource.memory-mb", std::to_string(o.memory_mb),
               "must be positive, or -1 to detect");
  }
  ASSIGN_OR_RETURN(int64_t vcores, conf.GetInt("yarn.nodemanager.resource.cpu-vcores", 8));
  if (vcores == -1) {
    vcores = DetectVcores();
  } else if (vcores <= 0 || vcores > 1'000'000) {
    return Bad(conf, "yarn.nodemanager.resource.cpu-vcores", std::to_string(vcores),
               "must be positive, or -1 to detect");
  }
  o.vcores = static_cast<int32_t>(vcores);

  // Both have shipped defaults (/tmp/hadoop-${user.name} and
  // ${hadoop.tmp.dir}/nm-local-dir), expanded as Hadoop expands them.
  const std::string tmp = conf.GetTrimmed("hadoop.tmp.dir").value_or("/tmp");
  o.local_dirs = conf.GetTrimmedStrings("yarn.nodemanager.local-dirs");
  if (o.local_dirs.empty()) o.local_dirs = {tmp + "/nm-local-dir"};
  // Hadoop's ${yarn.log.dir}/userlogs names a JVM property of its start
  // script; Spindle keeps the logs beside the local dirs.
  o.log_dirs = conf.GetTrimmedStrings("yarn.nodemanager.log-dirs");
  if (o.log_dirs.empty()) o.log_dirs = {tmp + "/nm-logs"};
  for (const auto& [key, dirs] : {std::pair{"yarn.nodemanager.local-dirs", &o.local_dirs},
                                  std::pair{"yarn.nodemanager.log-dirs", &o.log_dirs}}) {
    for (std::string& dir : *dirs) {
      if (dir.rfind("file://", 0) == 0) dir = dir.substr(7);
      if (dir.empty() || dir[0] != '/') {
        return Bad(conf, key, dir, "is not an absolute local path");
      }
    }
  }
  o.user_home_dir = conf.GetTrimmed("yarn.nodemanager.user-home-dir").value_or("/home/");
  // The line's shipped default when unset (rm/config/hadoop_line.h).
  o.env_whitelist = conf.GetTrimmedStrings("yarn.nodemanager.env-whitelist");
  const std::string admin =
      conf.GetRaw("yarn.nodemanager.admin-env").value_or("MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX");
  std::istringstream entries(admin);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    if (entry.find_first_not_of(" \t") == std::string::npos) continue;
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Bad(conf, "yarn.nodemanager.admin-env", admin, "is not a list of NAME=VALUE");
    }
    o.admin_env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  ASSIGN_OR_RETURN(o.sigkill_delay_ms,
                   conf.GetInt("yarn.nodemanager.sleep-delay-before-sigkill.ms", 250));
  if (o.sigkill_delay_ms < 0) {
    return Bad(conf, "yarn.nodemanager.sleep-delay-before-sigkill.ms",
               std::to_string(o.sigkill_delay_ms), "must not be negative");
  }
  ASSIGN_OR_RETURN(o.monitor_interval_ms,
                   Positive(conf, "yarn.nodemanager.container-monitor.interval-ms", 3000));
  ASSIGN_OR_RETURN(o.pmem_check_enabled, conf.GetBool("yarn.nodemanager.pmem-check-enabled", true));
  ASSIGN_OR_RETURN(o.log_container_debug_info,
                   conf.GetBool("yarn.nodemanager.log-container-debug-info.enabled", true));
  ASSIGN_OR_RETURN(o.initial_heartbeat_interval_ms,
                   Positive(conf, "spindle.nm.heartbeat.initial-interval-ms", 1000));
  ASSIGN_OR_RETURN(o.max_retry_interval_ms,
                   Positive(conf, "spindle.nm.rm-retry.max-interval-ms", 10000));
  ASSIGN_OR_RETURN(o.simulated_default_duration_ms,
                   Positive(conf, "spindle.nm.simulate.default-duration-ms", 10000));
  return o;
}

}  // namespace spindle::nm
