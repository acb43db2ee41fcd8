#include "nm_shim/agent/process/child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace spindle::nm {
namespace {

std::string ErrnoText(int err) { return std::string(strerror(err)); }

// posix_spawn's C API wants owned objects destroyed on every path.
class SpawnAttrs {
 public:
  SpawnAttrs() {
    posix_spawnattr_init(&attr_);
    posix_spawn_file_actions_init(&actions_);
  }
  ~SpawnAttrs() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnAttrs(const SpawnAttrs&) = delete;
  SpawnAttrs& operator=(const SpawnAttrs&) = delete;

  posix_spawnattr_t* attr() { return &attr_; }
  posix_spawn_file_actions_t* actions() { return &actions_; }

 private:
  posix_spawnattr_t attr_;
  posix_spawn_file_actions_t actions_;
};

}  // namespace

Result<pid_t> Spawn(const SpawnOptions& options) {
  if (options.argv.empty()) return Status::InvalidArgument("spawn: empty argv");
  SpawnAttrs sa;

  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (options.new_session) flags |= POSIX_SPAWN_SETSID;
  int rc = posix_spawnattr_setflags(sa.attr(), flags);
  // The agent's threads may block or ignore signals (SIGPIPE, say); a
  // container must start with the defaults.
  sigset_t empty;
  sigemptyset(&empty);
  sigset_t all;
  sigfillset(&all);
  if (rc == 0) rc = posix_spawnattr_setsigmask(sa.attr(), &empty);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(sa.attr(), &all);

  const std::string& out = options.stdout_path.empty() ? "/dev/null" : options.stdout_path;
  const std::string& err = options.stderr_path.empty() ? "/dev/null" : options.stderr_path;
  const int out_flags = options.stdout_path.empty() ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC;
  const int err_flags = options.stderr_path.empty() ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC;
  if (rc == 0) rc = posix_spawn_file_actions_addopen(sa.actions(), 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_addopen(sa.actions(), 1, out.c_str(), out_flags, 0644);
  if (rc == 0) rc = posix_spawn_file_actions_addopen(sa.actions(), 2, err.c_str(), err_flags, 0644);
  if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(sa.actions(), 3);
  if (rc == 0 && !options.cwd.empty()) {
    rc = posix_spawn_file_actions_addchdir_np(sa.actions(), options.cwd.c_str());
  }
  if (rc != 0) return Status::Internal("spawn: preparing attributes: " + ErrnoText(rc));

  std::vector<char*> argv;
  argv.reserve(options.argv.size() + 1);
  for (const std::string& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  pid_t pid = -1;
  rc = posix_spawn(&pid, argv[0], sa.actions(), sa.attr(), argv.data(), environ);
  if (rc != 0) {
    return Status::IoError("cannot start " + options.argv[0] + ": " + ErrnoText(rc));
  }
  return pid;
}

Result<int> WaitForExit(pid_t pid) {
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, 0);
    if (r == pid) return status;
    if (r < 0 && errno == EINTR) continue;
    return Status::Internal("waitpid(" + std::to_string(pid) + "): " + ErrnoText(errno));
  }
}

Result<int> RunToCompletion(const SpawnOptions& options) {
  ASSIGN_OR_RETURN(const pid_t pid, Spawn(options));
  ASSIGN_OR_RETURN(const int status, WaitForExit(pid));
  return ShellExitCode(status);
}

int ShellExitCode(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 255;
}

int OpenPidFd(pid_t pid) {
#ifdef SYS_pidfd_open
  const long fd = syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
    return static_cast<int>(fd);
  }
#endif
  return -1;
}

}  // namespace spindle::nm
