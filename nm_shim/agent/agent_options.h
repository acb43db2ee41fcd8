// AgentOptions: what `spindle nm` reads from Hadoop configuration
// (yarn-site.xml, core-site.xml), with Hadoop's keys and defaults, checked
// once. A bad value fails with InvalidArgument naming the file, the key and
// the value, and the agent refuses to start.
//
// Thread-safety: a value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "nm_shim/agent/container_runtime.h"
#include "rm/config/configuration.h"
#include "web/http/http_options.h"

namespace spindle::nm {

using HostPort = rm::SocketAddress;

struct AgentOptions {
  // The version the agent reports at registration (nm_version): that of the
  // Hadoop line spindle.compat.hadoop-version names (rm/config/hadoop_line.h;
  // default 3.3: "3.3.6").
  std::string nm_version;
  // Whether a stopping node calls unRegisterNodeManager: only on the lines
  // whose ResourceTracker has it (HadoopLineTraits::nm_unregister; 2.6 and
  // 2.7 do not, and their RMs log an unknown-method error per node).
  // Default: true (3.3).
  bool unregister_on_stop = true;
  // yarn.resourcemanager.resource-tracker.address. Default:
  // ${yarn.resourcemanager.hostname}:8031, the host defaulting to 0.0.0.0
  // (which, as in Java, connects to this machine).
  HostPort resource_tracker;
  // With yarn.resourcemanager.ha.enabled: every rm-id's resource-tracker
  // address (rm::RmAddressOf), in rm-ids order; the tracker transport fails
  // over between them and resource_tracker is not used. Empty without HA.
  std::vector<HostPort> resource_trackers_ha;
  // yarn.nodemanager.hostname. Default: 0.0.0.0.
  std::string nm_hostname = "0.0.0.0";
  // yarn.nodemanager.address: where ContainerManagementProtocol listens.
  // Default: ${yarn.nodemanager.hostname}:0 (port 0 = ephemeral).
  HostPort nm_address;
  // The host in this node's NodeId: nm_address's host unless that is the
  // wildcard 0.0.0.0, in which case this machine's host name (as Java's
  // NodeManager uses the local host's name).
  std::string node_host;
  // yarn.nodemanager.webapp.address's port: where the agent's web server
  // (nm_shim/agent/web) listens, 0 = ephemeral. The node reports the bound
  // port (simulated nodes, which serve no web, report this one). Default:
  // ${yarn.nodemanager.hostname}:8042.
  int32_t http_port = 8042;
  // The web server: yarn.nodemanager.webapp.address, its host replaced by
  // yarn.nodemanager.bind-host when that is set, and the hadoop.http.*
  // limits (web/http/http_options.h).
  web::HttpServerOptions web;
  // yarn.nodemanager.resource.memory-mb; -1 = detect from /proc/meminfo.
  // Default: 8192.
  int64_t memory_mb = 8192;
  // yarn.nodemanager.resource.cpu-vcores; -1 = detect (number of CPUs).
  // Default: 8.
  int32_t vcores = 8;
  // yarn.nodemanager.local-dirs. Default: ${hadoop.tmp.dir}/nm-local-dir,
  // hadoop.tmp.dir defaulting to /tmp/hadoop-${user.name} (the shipped
  // defaults, rm/config/hadoop_line.h).
  std::vector<std::string> local_dirs;
  // yarn.nodemanager.log-dirs. Default: ${hadoop.tmp.dir}/nm-logs (Java's
  // ${yarn.log.dir}/userlogs, a JVM property we do not have).
  std::vector<std::string> log_dirs;
  // yarn.nodemanager.user-home-dir. Default: /home/.
  std::string user_home_dir = "/home/";
  // yarn.nodemanager.env-whitelist. Default: the line's yarn-default.xml:
  // JAVA_HOME, HADOOP_COMMON_HOME, HADOOP_HDFS_HOME, HADOOP_CONF_DIR,
  // HADOOP_YARN_HOME on 2.6/2.7; 3.3 adds CLASSPATH_PREPEND_DISTCACHE,
  // HADOOP_HOME, PATH, LANG, TZ. Set but empty: nothing is inherited.
  std::vector<std::string> env_whitelist;
  // yarn.nodemanager.admin-env, "A=x,B=y". Default: MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX.
  std::map<std::string, std::string> admin_env;
  // yarn.nodemanager.sleep-delay-before-sigkill.ms. Default: 250.
  int64_t sigkill_delay_ms = 250;
  // yarn.nodemanager.container-monitor.interval-ms. Default: 3000.
  int64_t monitor_interval_ms = 3000;
  // yarn.nodemanager.pmem-check-enabled. Default: true.
  bool pmem_check_enabled = true;
  // yarn.nodemanager.log-container-debug-info.enabled (Hadoop 3.3's
  // default). Default: true.
  bool log_container_debug_info = true;
  // Until the RM's first answer says otherwise, and between retries when the
  // RM is unreachable (doubling up to max_retry_interval_ms). Spindle keys
  // spindle.nm.heartbeat.initial-interval-ms (default 1000) and
  // spindle.nm.rm-retry.max-interval-ms (default 10000).
  int64_t initial_heartbeat_interval_ms = 1000;
  int64_t max_retry_interval_ms = 10000;
  // spindle.nm.simulate.default-duration-ms: how long a simulated container
  // runs when its launch context names no duration. Default: 10000.
  int64_t simulated_default_duration_ms = 10000;

  // The node environment runtimes need (host and ports filled in later).
  NodeEnvironment Environment() const;
};

// Reads and validates the agent's keys.
Result<AgentOptions> AgentOptionsFromConfiguration(const rm::Configuration& conf);

// Physical memory (MB) and CPUs of this machine.
Result<int64_t> DetectMemoryMb();
int32_t DetectVcores();

}  // namespace spindle::nm
