#include "nm_shim/agent/process/container_paths.h"

#include <filesystem>
#include <regex>
#include <system_error>

namespace spindle::nm {
namespace fs = std::filesystem;

namespace {

std::string Join(const std::string& dir, const std::string& name) {
  if (!dir.empty() && dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

Status MakeDirs(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create directory " + dir + ": " + ec.message());
  return Status::OK();
}

// DefaultContainerExecutor.APPDIR_PERM: rwx for the owner, x for the group.
Status MakeAppDir(const std::string& dir) {
  RETURN_NOT_OK(MakeDirs(dir));
  std::error_code ec;
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec, fs::perm_options::replace, ec);
  if (ec) return Status::IoError("cannot set the permissions of " + dir + ": " + ec.message());
  return Status::OK();
}

}  // namespace

Status ValidateUserName(const std::string& user) {
  static const std::regex kPattern("^[_.A-Za-z0-9][-@_.A-Za-z0-9]{0,255}?[$]?$");
  if (user.empty() || user == "." || user == ".." || !std::regex_match(user, kPattern)) {
    return Status::InvalidArgument("Invalid user name '" + user +
                                   "': not usable as a user on this node");
  }
  return Status::OK();
}

Result<ContainerPaths> ComputeContainerPaths(const NodeEnvironment& node,
                                             const ContainerLaunchSpec& spec) {
  if (node.local_dirs.empty()) return Status::InvalidArgument("the node has no local dirs");
  if (node.log_dirs.empty()) return Status::InvalidArgument("the node has no log dirs");
  RETURN_NOT_OK(ValidateUserName(spec.user));
  ContainerPaths p;
  p.app_id = spec.container.attempt.app.ToString();
  p.container_id = spec.container.ToString();
  p.user = spec.user;
  for (const std::string& local : node.local_dirs) {
    const std::string user_dir = Join(Join(local, "usercache"), spec.user);
    p.user_dirs.push_back(user_dir);
    p.app_dirs.push_back(Join(Join(user_dir, "appcache"), p.app_id));
  }
  p.container_log_dirs = ContainerLogDirs(node.log_dirs, p.app_id, p.container_id);
  for (const std::string& app_dir : p.app_dirs) {
    p.container_dirs.push_back(Join(app_dir, p.container_id));
  }
  p.work_dir = p.container_dirs.front();
  p.tmp_dir = Join(p.work_dir, "tmp");
  p.log_dir = p.container_log_dirs.front();
  p.private_dir = Join(Join(Join(node.local_dirs.front(), "nmPrivate"), p.app_id), p.container_id);
  p.launch_script = Join(p.work_dir, "launch_container.sh");
  p.tokens_file = Join(p.work_dir, "container_tokens");
  p.wrapper_script = Join(p.private_dir, "default_container_executor.sh");
  p.pid_file = Join(p.private_dir, p.container_id + ".pid");
  p.exit_code_file = p.pid_file + ".exitcode";
  return p;
}

Status CreateContainerDirs(const ContainerPaths& paths) {
  for (const std::string& dir : paths.app_dirs) RETURN_NOT_OK(MakeDirs(dir));
  for (const std::string& dir : paths.container_dirs) RETURN_NOT_OK(MakeAppDir(dir));
  RETURN_NOT_OK(MakeAppDir(paths.tmp_dir));
  RETURN_NOT_OK(MakeDirs(paths.private_dir));
  for (const std::string& dir : paths.container_log_dirs) RETURN_NOT_OK(MakeDirs(dir));
  return Status::OK();
}

std::vector<std::string> ContainerLogDirs(const std::vector<std::string>& log_dirs,
                                          const std::string& app_id,
                                          const std::string& container_id) {
  std::vector<std::string> dirs;
  dirs.reserve(log_dirs.size());
  for (const std::string& log : log_dirs) dirs.push_back(Join(Join(log, app_id), container_id));
  return dirs;
}

std::vector<std::string> AppDirsToClean(const NodeEnvironment& node, const std::string& app_id) {
  std::vector<std::string> dirs;
  for (const std::string& local : node.local_dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(Join(local, "usercache"), ec), end; !ec && it != end;
         it.increment(ec)) {
      const std::string app_dir = Join(Join(it->path().string(), "appcache"), app_id);
      std::error_code exists_ec;
      if (fs::exists(app_dir, exists_ec)) dirs.push_back(app_dir);
    }
    const std::string private_dir = Join(Join(local, "nmPrivate"), app_id);
    std::error_code exists_ec;
    if (fs::exists(private_dir, exists_ec)) dirs.push_back(private_dir);
  }
  return dirs;
}

}  // namespace spindle::nm
