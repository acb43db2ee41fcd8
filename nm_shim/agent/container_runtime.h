// ContainerRuntime: the seam between the node agent's bookkeeping (which
// containers exist, what the RM and AMs are told) and what "running a
// container" means on this node. Real mode runs the launch command as a child
// process (nm_shim/agent/process); simulated mode only holds the container's
// resources for a duration. The agent decodes ContainerLaunchContextProto into
// the plain values below, so runtimes know nothing of protobuf or RPC.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rm/records/yarn_ids.h"

namespace spindle::nm {

// YARN's ContainerExitStatus values a node reports (ContainerExitStatus.java).
inline constexpr int32_t kExitSuccess = 0;
inline constexpr int32_t kExitInvalid = -1000;
inline constexpr int32_t kExitAborted = -100;
inline constexpr int32_t kExitDisksFailed = -101;
inline constexpr int32_t kExitKilledExceededVmem = -103;
inline constexpr int32_t kExitKilledExceededPmem = -104;
inline constexpr int32_t kExitKilledByAppMaster = -105;
inline constexpr int32_t kExitKilledByResourceManager = -106;
inline constexpr int32_t kExitKilledAfterAppCompletion = -107;

// LocalResourceProto, decoded. Only file:// (or scheme-less absolute) URLs are
// supported; anything else fails the container with a diagnostic.
struct LocalResource {
  enum class Type { kFile, kArchive, kPattern };
  enum class Visibility { kPublic, kPrivate, kApplication };
  std::string name;  // the link name in the work dir (the CLC map key)
  std::string scheme;
  std::string host;
  int32_t port = -1;
  std::string path;  // absolute path on this node
  int64_t size = -1;  // -1: not checked
  int64_t timestamp = -1;  // ms since epoch; -1: not checked
  Type type = Type::kFile;
  Visibility visibility = Visibility::kApplication;
  std::string pattern;
};

// What the agent knows about itself that a container's environment needs
// (WIRE.md 7.2). Directories are the node's roots; the runtime derives the
// per-app and per-container subdirectories under them as the Java NM does
// (<local-dir>/usercache/<user>/appcache/<app>/<container>,
// <log-dir>/<app>/<container>).
struct NodeEnvironment {
  std::string nm_host;
  int32_t nm_port = 0;
  int32_t nm_http_port = 0;
  std::vector<std::string> local_dirs;  // yarn.nodemanager.local-dirs
  std::vector<std::string> log_dirs;  // yarn.nodemanager.log-dirs
  std::string user_home_dir = "/home/";  // yarn.nodemanager.user-home-dir
  // yarn.nodemanager.env-whitelist: inherited from the agent unless the CLC sets them.
  std::vector<std::string> env_whitelist = {"JAVA_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME",
                                            "HADOOP_CONF_DIR", "CLASSPATH_PREPEND_DISTCACHE",
                                            "HADOOP_YARN_HOME"};
  // yarn.nodemanager.admin-env, already split into name -> value.
  std::map<std::string, std::string> admin_env;
  // yarn.nodemanager.log-container-debug-info.enabled: the launch script
  // copies itself and lists the work dir into the log dir (Hadoop 3.3).
  // Default: true.
  bool log_container_debug_info = true;
};

// One container to start, with everything already verified by the agent
// (container token signature, expiry, node, not reused).
struct ContainerLaunchSpec {
  rm::ContainerId container;
  std::string user;  // appSubmitter from the container token
  int64_t memory_mb = 0;  // the limit the runtime enforces (physical memory)
  int32_t vcores = 0;
  std::map<std::string, std::string> environment;  // from the CLC, unexpanded
  std::vector<std::string> commands;  // from the CLC, unexpanded; joined with ' '
  std::vector<LocalResource> local_resources;
  // Credentials in Hadoop's WRITABLE ("HDTS") format, written to
  // <work dir>/container_tokens and named by HADOOP_TOKEN_FILE_LOCATION.
  std::string credentials;
};

// What became of a container. Each container reaches exactly one exit.
struct ContainerExit {
  rm::ContainerId container;
  int32_t exit_status = kExitInvalid;  // process exit code or one of kExit*
  std::string diagnostics;
};

// Callbacks from a runtime; may run on any runtime thread, never while the
// runtime holds a lock the agent could need (the agent may call back into the
// runtime from them).
struct ContainerListener {
  // The launch command is running (the NM's ContainerState RUNNING).
  std::function<void(const rm::ContainerId&)> on_running;
  // The container is over; called exactly once per launched container,
  // including containers that failed before running (localisation, bad
  // command) and containers killed through Kill().
  std::function<void(const ContainerExit&)> on_exit;
};

class ContainerRuntime {
 public:
  virtual ~ContainerRuntime() = default;

  // Starts `spec` asynchronously. Every outcome, including a launch context
  // that cannot work (missing resource, wrong size/timestamp, unknown user,
  // command not found), arrives through on_exit with a diagnostic the AM can
  // read; Launch itself never fails and never blocks on the container.
  virtual void Launch(const ContainerLaunchSpec& spec) = 0;

  // Stops a container: SIGTERM to its process group, SIGKILL after the grace
  // period (yarn.nodemanager.sleep-delay-before-sigkill.ms). Its on_exit
  // carries `exit_status` (e.g. kExitKilledByAppMaster) and `diagnostics`.
  // Unknown or finished containers are ignored.
  virtual void Kill(const rm::ContainerId& container, int32_t exit_status,
                    const std::string& diagnostics) = 0;

  // The RM said the application is done on this node: remove its local and
  // work directories (logs stay). Containers of the app must already be over.
  virtual void CleanupApplication(const rm::ApplicationId& app) = 0;

  // Kills every container (as Kill with kExitKilledByResourceManager unless
  // they finish first) and waits for their on_exit calls.
  virtual void Shutdown() = 0;
};

}  // namespace spindle::nm
