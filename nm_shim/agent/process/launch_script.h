// The container's environment and the two scripts that start it, as Hadoop's
// ContainerLaunch and DefaultContainerExecutor write them:
//
// launch_container.sh (in the work dir): `export NAME="value"` lines, the
// resource symlinks, then `exec <shell> -c "<command>"`. Values the AM sent
// are written unescaped inside double quotes, as Java does, so `$VAR` in them
// expands when the script runs (that is what `{{VAR}}` turns into); values the
// agent supplies itself (paths, inherited variables) are escaped.
//
// default_container_executor.sh (agent-private): runs launch_container.sh and
// records its exit code in <pid file>.exitcode, so the code survives even if
// the agent is not the one to reap the process.
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "nm_shim/agent/container_runtime.h"
#include "nm_shim/agent/process/container_paths.h"

namespace spindle::nm {

// Hadoop's NM-side placeholders: <LOG_DIR> -> `log_dir`, <CPS> -> ':',
// {{VAR}} -> $VAR.
std::string ExpandPlaceholders(std::string_view text, const std::string& log_dir);

struct EnvEntry {
  std::string name;
  std::string value;
  // Written escaped (the agent's own values) rather than as the shell text
  // the AM meant (its values may reference other variables).
  bool literal = false;
};

// The inherited environment, for yarn.nodemanager.env-whitelist; tests
// replace getenv.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup ProcessEnvLookup();

// The container's environment (WIRE.md 7.2) in the order it is exported:
// every variable after those its value references. The CLC's own values and
// the admin env are expanded (ExpandPlaceholders); the NM's variables
// (CONTAINER_ID, NM_*, LOCAL_DIRS, LOCAL_USER_DIRS, LOG_DIRS, USER, LOGNAME,
// HOME, PWD, JVM_PID, HADOOP_TOKEN_FILE_LOCATION) override the CLC's, the
// whitelisted variables are inherited unless the CLC sets them, and the admin
// env is forced in last. Fails on a variable name that is not a shell name.
Result<std::vector<EnvEntry>> BuildEnvironment(const NodeEnvironment& node,
                                               const ContainerLaunchSpec& spec,
                                               const ContainerPaths& paths,
                                               const EnvLookup& inherited);

struct SymlinkEntry {
  std::string target;  // absolute path of the localised resource
  std::string name;    // relative link name in the work dir
};

// Fails unless `name` is relative, non-empty and stays inside the work dir.
Status ValidateLinkName(const std::string& name);

// The joined, expanded launch command (CLC commands joined with ' ').
std::string LaunchCommand(const ContainerLaunchSpec& spec, const std::string& log_dir);

// What the launch script leaves in the log dir besides the command's
// output (Hadoop 3.3's yarn.nodemanager.log-container-debug-info.enabled,
// ContainerExecutor.writeLaunchEnv): a copy of launch_container.sh and
// directory.info (ls -l and find -L of the work dir).
enum class LaunchDebugInfo { kNone, kScriptAndDirectoryListing };

// The script prints Hadoop's progress lines ("Setting up env variables",
// "Setting up job resources", "Copying debugging information", "Launching
// container") to its stdout, which the runtime sends to prelaunch.out.
std::string LaunchScript(const std::vector<EnvEntry>& env, const std::vector<SymlinkEntry>& links,
                         const std::string& command, const std::string& shell,
                         const std::string& log_dir,
                         LaunchDebugInfo debug_info = LaunchDebugInfo::kNone);

std::string WrapperScript(const std::string& shell, const ContainerPaths& paths);

// A word the shell reads back verbatim: 'it'\''s'.
std::string ShellQuote(std::string_view text);

// What an empty Credentials writes in Hadoop's WRITABLE format: "HDTS", the
// version byte 0, no tokens, no secrets.
std::string EmptyCredentials();

}  // namespace spindle::nm
