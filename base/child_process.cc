#include "base/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>
#include <utility>

extern char** environ;

namespace spindle {

Result<ChildProcess> ChildProcess::Spawn(const ChildOptions& options) {
  if (options.binary.empty()) return Status::InvalidArgument("ChildOptions::binary is empty");
  // Everything the child needs is built before fork: after it, in a
  // multi-threaded parent, only async-signal-safe calls are allowed.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  for (const std::string& e : options.extra_env) env.push_back(e);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string argv0 = options.argv0;
  std::vector<std::string> args = options.args;
  std::vector<char*> argv;
  argv.push_back(argv0.data());
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) return Status::IoError("fork failed for " + options.binary);
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent may have died before prctl took effect.
    if (getppid() != parent) _exit(1);
    if (!options.log_path.empty()) {
      const int fd = open(options.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
      }
    }
    execve(options.binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  return ChildProcess(child);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), wait_status_(other.wait_status_) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    Stop(SIGTERM, std::chrono::seconds(10));
    pid_ = std::exchange(other.pid_, -1);
    wait_status_ = other.wait_status_;
  }
  return *this;
}

ChildProcess::~ChildProcess() { Stop(SIGTERM, std::chrono::seconds(10)); }

bool ChildProcess::Exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  wait_status_ = status;
  pid_ = -1;
  return true;
}

void ChildProcess::Signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

bool ChildProcess::WaitExit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!Exited()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void ChildProcess::Stop(int signal, std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  Signal(signal);
  if (WaitExit(grace)) return;
  Kill();
}

void ChildProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  wait_status_ = status;
  pid_ = -1;
}

namespace {

// The number after "key:" in /proc/<pid>/status, in kB.
double StatusKb(const std::string& status, const std::string& key) {
  const size_t at = status.find("\n" + key + ":");
  if (at == std::string::npos) return 0;
  std::istringstream words(status.substr(at + key.size() + 2));
  double kb = 0;
  words >> kb;
  return kb;
}

}  // namespace

Result<ProcessUsage> ReadProcessUsage(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat_in(dir + "/stat");
  std::string stat((std::istreambuf_iterator<char>(stat_in)), std::istreambuf_iterator<char>());
  // The command (field 2) may hold spaces and parentheses: fields are
  // counted after its last ')'.
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 > stat.size()) {
    return Status::NotFound("no process " + std::to_string(pid));
  }
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  double utime = 0;
  double stime = 0;
  // State is field 3, utime 14, stime 15.
  for (int i = 3; i <= 15 && (fields >> field); ++i) {
    if (i == 14) utime = std::strtod(field.c_str(), nullptr);
    if (i == 15) stime = std::strtod(field.c_str(), nullptr);
  }
  std::ifstream status_in(dir + "/status");
  const std::string status = "\n" + std::string((std::istreambuf_iterator<char>(status_in)),
                                                std::istreambuf_iterator<char>());
  ProcessUsage usage;
  usage.cpu_seconds = (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  usage.rss_mb = StatusKb(status, "VmRSS") / 1024;
  usage.rss_anon_mb = StatusKb(status, "RssAnon") / 1024;
  usage.peak_rss_mb = StatusKb(status, "VmHWM") / 1024;
  return usage;
}

}  // namespace spindle
