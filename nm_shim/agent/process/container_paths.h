// ContainerPaths: where a container's files live on this node, laid out as
// Hadoop's NodeManager lays them out so that AMs and tools that look for them
// (logs, work dirs, caches) find them:
//   <local-dir>/usercache/<user>/appcache/<app>/<container>  work dir (PWD)
//   <work dir>/tmp                                           java.io.tmpdir of JVM containers
//   <local-dir>/usercache/<user>/appcache/<app>              LOCAL_DIRS
//   <local-dir>/usercache/<user>                             LOCAL_USER_DIRS
//   <local-dir>/nmPrivate/<app>/<container>                  agent-only files
//   <log-dir>/<app>/<container>                              LOG_DIRS, <LOG_DIR>
// The work dir and agent files go to the first local dir, <LOG_DIR> is the
// first log dir's container dir; the others are listed in the environment.
// As Hadoop 3.3's DefaultContainerExecutor.launchContainer does, the
// container dir exists under every local dir, and the work dir holds an
// empty tmp/: MapReduce's AM runs with -Djava.io.tmpdir=$PWD/tmp and its
// Jetty refuses to start when that directory is missing.
//
// Thread-safety: values and free functions.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "nm_shim/agent/container_runtime.h"

namespace spindle::nm {

struct ContainerPaths {
  std::string app_id;
  std::string container_id;
  std::string user;
  std::vector<std::string> app_dirs;
  std::vector<std::string> user_dirs;
  std::vector<std::string> container_log_dirs;
  // <app dir>/<container> under every local dir; the first is the work dir.
  std::vector<std::string> container_dirs;
  std::string work_dir;
  std::string tmp_dir;  // <work dir>/tmp (YarnConfiguration.DEFAULT_CONTAINER_TEMP_DIR)
  std::string log_dir;
  std::string private_dir;
  std::string launch_script;   // <work dir>/launch_container.sh
  std::string tokens_file;     // <work dir>/container_tokens
  std::string wrapper_script;  // <private dir>/default_container_executor.sh
  std::string pid_file;        // <private dir>/<container>.pid
  std::string exit_code_file;  // <private dir>/<container>.pid.exitcode
};

// The user name becomes a path component and the USER of the container. It
// must match Hadoop's default non-secure user pattern
// (yarn.nodemanager.linux-container-executor.nonsecure-mode.user-pattern,
// ^[_.A-Za-z0-9][-@_.A-Za-z0-9]{0,255}?[$]?$) and be neither "." nor "..".
Status ValidateUserName(const std::string& user);

// Fails if the node has no local or log dir, or the user name is invalid.
Result<ContainerPaths> ComputeContainerPaths(const NodeEnvironment& node,
                                             const ContainerLaunchSpec& spec);

// Creates the app and container dirs in every local dir, the work dir's tmp/,
// the private dir, and the container's log dir in every log dir. The
// container dirs and tmp/ get Hadoop's APPDIR_PERM (0710).
Status CreateContainerDirs(const ContainerPaths& paths);

// <log-dir>/<app>/<container> for every log dir, in order: where a
// container's logs are (Hadoop's ContainerLaunch.getRelativeContainerLogDir).
std::vector<std::string> ContainerLogDirs(const std::vector<std::string>& log_dirs,
                                          const std::string& app_id,
                                          const std::string& container_id);

// The app's cache dirs (every user's) and agent-private dir on this node.
std::vector<std::string> AppDirsToClean(const NodeEnvironment& node, const std::string& app_id);

}  // namespace spindle::nm
