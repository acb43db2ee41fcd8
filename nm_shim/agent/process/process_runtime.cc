#include "nm_shim/agent/process/process_runtime.h"

#include <glog/logging.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "nm_shim/agent/process/child_process.h"
#include "nm_shim/agent/process/container_paths.h"
#include "nm_shim/agent/process/launch_script.h"
#include "nm_shim/agent/process/localizer.h"
#include "nm_shim/agent/process/memory_monitor.h"
#include "nm_shim/agent/process/process_tree.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

// How long after SIGKILL a tree may take to vanish before on_exit goes out
// anyway (a process stuck in the kernel cannot be waited for forever).
constexpr auto kSigkillSettle = std::chrono::seconds(2);
// Poll period while leftovers of an exited container are being drained, or
// when the kernel offers no pidfd to wait on.
constexpr auto kDrainPoll = std::chrono::milliseconds(20);
constexpr auto kReapPoll = std::chrono::milliseconds(50);

Status WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IoError("cannot write " + tmp + ": " + strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) return Status::IoError("cannot write " + tmp);
  }
  if (chmod(tmp.c_str(), mode) != 0 || rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::IoError("cannot write " + path + ": " + strerror(errno));
  }
  return Status::OK();
}

// The last `bytes` bytes of a file, or "" if it is missing or empty.
std::string Tail(const std::string& path, int64_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  if (size <= 0) return "";
  const std::streamoff start = std::max<std::streamoff>(0, size - bytes);
  in.seekg(start);
  std::string text(static_cast<size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

class ProcessRuntime final : public ContainerRuntime {
 public:
  ProcessRuntime(ProcessRuntimeOptions options, ContainerListener listener)
      : options_(std::move(options)),
        listener_(std::move(listener)),
        localizer_(options_.node.local_dirs) {}

  ~ProcessRuntime() override {
    Shutdown();
    if (wake_fd_ >= 0) close(wake_fd_);
  }

  Status Start() {
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) return Status::Internal(std::string("eventfd: ") + strerror(errno));
    for (int i = 0; i < options_.launcher_threads; ++i) {
      launchers_.emplace_back([this] { LauncherLoop(); });
    }
    supervisor_ = std::thread([this] { SupervisorLoop(); });
    return Status::OK();
  }

  void Launch(const ContainerLaunchSpec& spec) override {
    bool stopped;
    {
      MutexLock lock(&mu_);
      if (containers_.count(spec.container) != 0) {
        LOG(WARNING) << "Container " << spec.container.ToString()
                     << " is already running here; ignoring a second launch";
        return;
      }
      stopped = stopped_;
      if (!stopped) {
        auto c = std::make_unique<Container>();
        c->spec = spec;
        c->id = spec.container.ToString();
        if (shutting_down_) {
          c->kill_requested = true;
          c->kill_status = kExitAborted;
          c->kill_diagnostics = "Container not launched: the node agent is shutting down";
        }
        containers_[spec.container] = std::move(c);
        queue_.push_back(spec.container);
      }
    }
    if (stopped) {
      // No runtime thread is left to report it, and calling on_exit from
      // the caller's thread could deadlock an agent that holds its own lock
      // around Launch(); a caller error, so it is only logged.
      LOG(ERROR) << "Launch of " << spec.container.ToString() << " after Shutdown: ignored";
      return;
    }
    work_cv_.Signal();
  }

  void Kill(const rm::ContainerId& container, int32_t exit_status,
            const std::string& diagnostics) override {
    {
      MutexLock lock(&mu_);
      auto it = containers_.find(container);
      if (it == containers_.end()) return;
      RequestKill(it->second.get(), exit_status, diagnostics);
    }
    Wake();
  }

  void CleanupApplication(const rm::ApplicationId& app) override {
    const std::string app_id = app.ToString();
    {
      MutexLock lock(&mu_);
      for (const auto& [id, c] : containers_) {
        if (id.attempt.app == app) {
          LOG(WARNING) << "Cleaning up " << app_id << " while its container " << c->id
                       << " is still here";
        }
      }
    }
    localizer_.ForgetApplication(app_id);
    for (const std::string& dir : AppDirsToClean(options_.node, app_id)) {
      std::error_code ec;
      fs::remove_all(dir, ec);
      if (ec) LOG(WARNING) << "Cannot remove " << dir << ": " << ec.message();
    }
  }

  void Shutdown() override {
    {
      MutexLock lock(&mu_);
      if (stopped_) return;
      shutting_down_ = true;
      for (auto& [id, c] : containers_) {
        RequestKill(c.get(), kExitKilledByResourceManager,
                    "Container killed: the node agent is shutting down");
      }
    }
    Wake();
    work_cv_.SignalAll();
    {
      MutexLock lock(&mu_);
      while (!containers_.empty() || callbacks_in_flight_ > 0) idle_cv_.Wait(&mu_);
      stopped_ = true;
    }
    Wake();
    work_cv_.SignalAll();
    // Concurrent Shutdown() calls all get here; one joins, the others wait.
    MutexLock join_lock(&join_mu_);
    for (std::thread& t : launchers_) {
      if (t.joinable()) t.join();
    }
    if (supervisor_.joinable()) supervisor_.join();
  }

 private:
  enum class Phase {
    kQueued,     // waiting for a launcher thread
    kPreparing,  // directories, localisation, scripts
    kStarting,   // spawned; on_running not yet delivered
    kRunning,    // the supervisor watches it
    kDraining,   // main process reaped; leftovers being terminated
  };

  struct Container {
    ContainerLaunchSpec spec;
    std::string id;
    Phase phase = Phase::kQueued;
    ContainerPaths paths;
    pid_t pid = -1;  // the wrapper; also the session and process-group id
    int pidfd = -1;
    int wait_status = 0;
    bool kill_requested = false;
    int32_t kill_status = 0;
    std::string kill_diagnostics;
    bool term_sent = false;
    bool sigkill_sent = false;
    SteadyClock::time_point sigkill_at;
  };

  // What a finished container's on_exit needs, gathered under the lock.
  struct Ending {
    rm::ContainerId container;
    std::string id;
    bool ran = false;
    int wait_status = 0;
    bool killed = false;
    int32_t kill_status = 0;
    std::string diagnostics;
    std::string log_dir;
  };

  void RequestKill(Container* c, int32_t status, const std::string& diagnostics) REQUIRES(mu_) {
    if (c->kill_requested || c->phase == Phase::kDraining) return;
    c->kill_requested = true;
    c->kill_status = status;
    c->kill_diagnostics = diagnostics;
  }

  void Wake() {
    if (wake_fd_ < 0) return;  // Start() failed before making it
    const uint64_t one = 1;
    if (write(wake_fd_, &one, sizeof(one)) < 0 && errno != EAGAIN) {
      PLOG(WARNING) << "eventfd write";
    }
  }

  // Removes `id` from the live set; the caller then calls Deliver().
  Ending TakeEnding(const rm::ContainerId& id) REQUIRES(mu_) {
    auto it = containers_.find(id);
    CHECK(it != containers_.end());
    Container* c = it->second.get();
    Ending e;
    e.container = id;
    e.id = c->id;
    e.ran = c->pid > 0;
    e.wait_status = c->wait_status;
    e.killed = c->kill_requested;
    e.kill_status = c->kill_status;
    e.diagnostics = c->kill_diagnostics;
    e.log_dir = c->paths.log_dir;
    if (c->pidfd >= 0) close(c->pidfd);
    containers_.erase(it);
    ++callbacks_in_flight_;
    return e;
  }

  // Builds the exit (reading log tails) and calls on_exit, without the lock.
  void Deliver(const Ending& e) EXCLUDES(mu_) {
    ContainerExit exit;
    exit.container = e.container;
    const int code = ShellExitCode(e.wait_status);
    if (e.killed) {
      exit.exit_status = e.kill_status;
      exit.diagnostics = e.diagnostics;
      if (e.ran) {
        exit.diagnostics += "\nContainer killed on request. Exit code is " + std::to_string(code);
        if (code != 0) {
          exit.diagnostics +=
              "\nContainer exited with a non-zero exit code " + std::to_string(code);
        }
      }
    } else if (code == 0) {
      exit.exit_status = kExitSuccess;
    } else {
      exit.exit_status = code;
      exit.diagnostics = "Exception from container-launch.\nContainer id: " + e.id +
                         "\nExit code: " + std::to_string(code) + "\n";
      for (const char* name : {"prelaunch.err", "stderr"}) {
        const std::string tail = Tail(e.log_dir + "/" + name, options_.stderr_tail_bytes);
        if (!tail.empty()) {
          exit.diagnostics += "Last " + std::to_string(options_.stderr_tail_bytes) + " bytes of " +
                              name + " :\n" + tail + "\n";
        }
      }
      exit.diagnostics += "Container exited with a non-zero exit code " + std::to_string(code);
    }
    VLOG(1) << "Container " << e.id << " exited with status " << exit.exit_status;
    listener_.on_exit(exit);
    MutexLock lock(&mu_);
    --callbacks_in_flight_;
    idle_cv_.SignalAll();
  }

  // A container that never ran.
  void FailBeforeRun(const rm::ContainerId& id, int32_t status, const std::string& diagnostics)
      EXCLUDES(mu_) {
    Ending e;
    {
      MutexLock lock(&mu_);
      e = TakeEnding(id);
    }
    if (!e.killed) {
      e.killed = true;  // reported with `status`, not a process exit code
      e.kill_status = status;
      e.diagnostics = diagnostics;
    }
    LOG(WARNING) << "Container " << e.id << " failed before running: " << e.diagnostics;
    Deliver(e);
  }

  // Everything before the process starts. Errors are the AM's diagnostics.
  Status Prepare(const ContainerLaunchSpec& spec, ContainerPaths* paths_out) {
    ASSIGN_OR_RETURN(ContainerPaths paths, ComputeContainerPaths(options_.node, spec));
    for (const LocalResource& r : spec.local_resources) RETURN_NOT_OK(ValidateLinkName(r.name));
    ASSIGN_OR_RETURN(std::vector<EnvEntry> env,
                     BuildEnvironment(options_.node, spec, paths, ProcessEnvLookup()));
    RETURN_NOT_OK(CreateContainerDirs(paths));
    std::vector<SymlinkEntry> links;
    for (const LocalResource& r : spec.local_resources) {
      ASSIGN_OR_RETURN(std::string local, localizer_.Localize(r, spec.user, paths.app_id));
      links.push_back(SymlinkEntry{local, r.name});
    }
    RETURN_NOT_OK(WriteFile(
        paths.tokens_file, spec.credentials.empty() ? EmptyCredentials() : spec.credentials, 0600));
    RETURN_NOT_OK(WriteFile(
        paths.launch_script,
        LaunchScript(env, links, LaunchCommand(spec, paths.log_dir), options_.shell, paths.log_dir,
                     options_.node.log_container_debug_info
                         ? LaunchDebugInfo::kScriptAndDirectoryListing
                         : LaunchDebugInfo::kNone),
        0700));
    RETURN_NOT_OK(WriteFile(paths.wrapper_script, WrapperScript(options_.shell, paths), 0700));
    *paths_out = std::move(paths);
    return Status::OK();
  }

  void LauncherLoop() EXCLUDES(mu_) {
    for (;;) {
      rm::ContainerId id;
      ContainerLaunchSpec spec;
      std::optional<Ending> cancelled;  // killed while queued
      {
        MutexLock lock(&mu_);
        while (queue_.empty() && !stopped_) work_cv_.Wait(&mu_);
        if (queue_.empty()) return;
        id = queue_.front();
        queue_.pop_front();
        Container* c = containers_.at(id).get();
        if (c->kill_requested) {
          cancelled = TakeEnding(id);
        } else {
          c->phase = Phase::kPreparing;
          spec = c->spec;
        }
      }
      if (cancelled) {
        Deliver(*cancelled);
      } else {
        LaunchOne(id, spec);
      }
    }
  }

  void LaunchOne(const rm::ContainerId& id, const ContainerLaunchSpec& spec) EXCLUDES(mu_) {
    ContainerPaths paths;
    Status prepared = Prepare(spec, &paths);
    if (!prepared.ok()) {
      FailBeforeRun(id, kExitInvalid, prepared.message());
      return;
    }
    std::optional<Ending> cancelled;  // killed while being prepared
    {
      MutexLock lock(&mu_);
      Container* c = containers_.at(id).get();
      c->paths = paths;
      if (c->kill_requested) {
        cancelled = TakeEnding(id);
      } else {
        c->phase = Phase::kStarting;
      }
    }
    if (cancelled) {
      Deliver(*cancelled);
      return;
    }
    SpawnOptions spawn;
    spawn.argv = {options_.shell, paths.wrapper_script};
    spawn.cwd = paths.work_dir;
    spawn.stdout_path = paths.log_dir + "/prelaunch.out";
    spawn.stderr_path = paths.log_dir + "/prelaunch.err";
    spawn.new_session = true;
    Result<pid_t> pid = Spawn(spawn);
    if (!pid.ok()) {
      FailBeforeRun(id, kExitInvalid, pid.status().message());
      return;
    }
    const int pidfd = OpenPidFd(*pid);
    {
      MutexLock lock(&mu_);
      Container* c = containers_.at(id).get();
      c->pid = *pid;
      c->pidfd = pidfd;
    }
    VLOG(1) << "Container " << paths.container_id << " started as pid " << *pid;
    listener_.on_running(id);
    {
      MutexLock lock(&mu_);
      containers_.at(id)->phase = Phase::kRunning;
    }
    Wake();
  }

  struct SignalJob {
    rm::ContainerId container;
    pid_t root;  // 0 once reaped
    pid_t session;
    int signal;
  };

  // State only the supervisor thread touches, so it needs no lock.
  struct SupervisorState {
    std::map<rm::ContainerId, MemoryMonitor> monitors;
    std::map<rm::ContainerId, TrackedTree> trees;

    TrackedTree& Tree(const rm::ContainerId& id, pid_t session) {
      return trees.try_emplace(id, session).first->second;
    }
  };

  void SupervisorLoop() EXCLUDES(mu_) {
    auto next_monitor =
        SteadyClock::now() + std::chrono::milliseconds(options_.monitor_interval_ms);
    SupervisorState state;
    for (;;) {
      std::vector<pollfd> fds = {pollfd{wake_fd_, POLLIN, 0}};
      std::vector<SignalJob> signals;
      std::vector<std::pair<rm::ContainerId, pid_t>> running;  // not yet reaped
      std::vector<rm::ContainerId> draining;
      auto timeout = std::chrono::milliseconds(1000);
      bool monitor_now = false;
      const auto now = SteadyClock::now();
      {
        MutexLock lock(&mu_);
        if (stopped_) return;
        for (auto& [id, c] : containers_) {
          if (c->phase != Phase::kRunning && c->phase != Phase::kDraining) continue;
          const bool exited = c->phase == Phase::kDraining;
          const pid_t root = exited ? 0 : c->pid;
          if (c->kill_requested && !c->term_sent) {
            signals.push_back({id, root, c->pid, SIGTERM});
            c->term_sent = true;
            c->sigkill_at = now + std::chrono::milliseconds(options_.sigkill_delay_ms);
          }
          if (c->term_sent && !c->sigkill_sent) {
            if (now >= c->sigkill_at) {
              signals.push_back({id, root, c->pid, SIGKILL});
              c->sigkill_sent = true;
            } else {
              timeout = std::min(timeout,
                                 std::chrono::ceil<std::chrono::milliseconds>(c->sigkill_at - now));
            }
          }
          if (exited) {
            draining.push_back(id);
            timeout = std::min<std::chrono::milliseconds>(timeout, kDrainPoll);
          } else {
            running.emplace_back(id, c->pid);
            if (c->pidfd >= 0) {
              fds.push_back(pollfd{c->pidfd, POLLIN, 0});
            } else {
              timeout = std::min<std::chrono::milliseconds>(timeout, kReapPoll);
            }
          }
        }
      }

      if (!signals.empty()) {
        const ProcTable table = ProcTable::Read();
        for (const SignalJob& job : signals) {
          TrackedTree& tree = state.Tree(job.container, job.session);
          SignalMembers(table, tree.Members(table, job.root), job.session, job.signal);
        }
      }
      if (options_.pmem_check_enabled && !running.empty()) {
        if (now >= next_monitor) {
          monitor_now = true;
          next_monitor = now + std::chrono::milliseconds(options_.monitor_interval_ms);
        }
        timeout =
            std::min(timeout, std::chrono::ceil<std::chrono::milliseconds>(next_monitor - now));
      }
      if (monitor_now) CheckMemory(running, &state);

      poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(0, timeout.count())));
      uint64_t drained;
      while (read(wake_fd_, &drained, sizeof(drained)) > 0) {
      }

      Reap(running, &state);
      Drain(draining, &state);
    }
  }

  void CheckMemory(const std::vector<std::pair<rm::ContainerId, pid_t>>& running,
                   SupervisorState* state) EXCLUDES(mu_) {
    const ProcTable table = ProcTable::Read();
    for (const auto& [id, pid] : running) {
      int64_t limit_mb;
      std::string id_string;
      {
        MutexLock lock(&mu_);
        auto it = containers_.find(id);
        if (it == containers_.end() || it->second->kill_requested) continue;
        limit_mb = it->second->spec.memory_mb;
        id_string = it->second->id;
      }
      if (limit_mb <= 0) continue;
      auto [mon, inserted] = state->monitors.try_emplace(id, limit_mb * 1024 * 1024);
      const std::vector<pid_t> members = state->Tree(id, pid).Members(table, pid);
      const MemoryUsage usage = mon->second.Check(table, members);
      VLOG(2) << "Container " << id_string << " uses " << FormatBytes(usage.rss_bytes) << " of "
              << FormatBytes(mon->second.limit_bytes());
      if (!usage.over_limit) continue;
      const std::string diagnostics =
          PmemDiagnostic(pid, id_string, usage, mon->second.limit_bytes(), options_.vmem_pmem_ratio,
                         table.Dump(members));
      LOG(WARNING) << diagnostics;
      {
        MutexLock lock(&mu_);
        auto it = containers_.find(id);
        if (it != containers_.end()) {
          RequestKill(it->second.get(), kExitKilledExceededPmem, diagnostics);
        }
      }
      Wake();
    }
  }

  // Reaps exited wrappers (by pid, never waitpid(-1)).
  void Reap(const std::vector<std::pair<rm::ContainerId, pid_t>>& running, SupervisorState* state)
      EXCLUDES(mu_) {
    bool any = false;
    for (const auto& [id, pid] : running) {
      int status = 0;
      pid_t r;
      do {
        r = waitpid(pid, &status, WNOHANG);
      } while (r < 0 && errno == EINTR);
      if (r == 0) continue;
      if (r < 0) {
        // Someone else reaped it (a waitpid(-1) elsewhere in the process);
        // the exit code file the wrapper wrote is the best we have.
        PLOG(WARNING) << "waitpid(" << pid << ")";
        std::string exit_code_file;
        {
          MutexLock lock(&mu_);
          auto it = containers_.find(id);
          if (it != containers_.end()) exit_code_file = it->second->paths.exit_code_file;
        }
        status = ExitCodeFromFile(exit_code_file) << 8;
      }
      state->monitors.erase(id);
      MutexLock lock(&mu_);
      auto it = containers_.find(id);
      if (it == containers_.end()) continue;
      Container* c = it->second.get();
      c->wait_status = status;
      c->phase = Phase::kDraining;
      any = true;
    }
    if (any) Wake();
  }

  static int ExitCodeFromFile(const std::string& path) {
    std::ifstream in(path);
    int code = 255;
    if (in >> code) return code & 0xff;
    return 255;
  }

  // Ends exited containers once their leftovers are gone: SIGTERM, then
  // SIGKILL after the grace period (scheduled by the supervisor loop).
  void Drain(const std::vector<rm::ContainerId>& draining, SupervisorState* state) EXCLUDES(mu_) {
    if (draining.empty()) return;
    const ProcTable table = ProcTable::Read();
    const auto now = SteadyClock::now();
    for (const rm::ContainerId& id : draining) {
      Ending e;
      {
        MutexLock lock(&mu_);
        auto it = containers_.find(id);
        if (it == containers_.end()) continue;
        Container* c = it->second.get();
        const std::vector<pid_t> members = state->Tree(id, c->pid).Members(table, 0);
        const bool settled = c->sigkill_sent && now >= c->sigkill_at + kSigkillSettle;
        if (!members.empty() && !settled) {
          if (!c->term_sent) {
            // Leftovers of a command that exited by itself.
            SignalMembers(table, members, c->pid, SIGTERM);
            c->term_sent = true;
            c->sigkill_at = now + std::chrono::milliseconds(options_.sigkill_delay_ms);
          }
          continue;
        }
        e = TakeEnding(id);
      }
      state->trees.erase(id);
      state->monitors.erase(id);
      Deliver(e);
    }
  }

  const ProcessRuntimeOptions options_;
  const ContainerListener listener_;
  Localizer localizer_;
  int wake_fd_ = -1;
  // Started by Start(), joined by Shutdown() under join_mu_.
  Mutex join_mu_;
  std::vector<std::thread> launchers_;
  std::thread supervisor_;

  Mutex mu_;
  CondVar work_cv_;  // queue_ grew, or stopped_
  CondVar idle_cv_;  // a container ended, or a callback returned
  std::map<rm::ContainerId, std::unique_ptr<Container>> containers_ GUARDED_BY(mu_);
  std::deque<rm::ContainerId> queue_ GUARDED_BY(mu_);
  int callbacks_in_flight_ GUARDED_BY(mu_) = 0;
  bool shutting_down_ GUARDED_BY(mu_) = false;  // kill everything that comes
  bool stopped_ GUARDED_BY(mu_) = false;        // threads told to exit
};

Status CheckDirs(const std::vector<std::string>& dirs, const char* what) {
  if (dirs.empty()) return Status::InvalidArgument(std::string(what) + " is empty");
  for (const std::string& dir : dirs) {
    if (dir.empty() || dir.front() != '/') {
      return Status::InvalidArgument(std::string(what) + ": '" + dir + "' is not absolute");
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
      return Status::IoError(std::string(what) + ": cannot create " + dir + ": " + ec.message());
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ContainerRuntime>> NewProcessRuntime(ProcessRuntimeOptions options,
                                                            ContainerListener listener) {
  if (!listener.on_running || !listener.on_exit) {
    return Status::InvalidArgument("ContainerListener needs on_running and on_exit");
  }
  if (options.sigkill_delay_ms < 0) return Status::InvalidArgument("sigkill_delay_ms < 0");
  if (options.monitor_interval_ms <= 0) return Status::InvalidArgument("monitor_interval_ms <= 0");
  if (options.launcher_threads <= 0) return Status::InvalidArgument("launcher_threads <= 0");
  if (options.stderr_tail_bytes < 0) return Status::InvalidArgument("stderr_tail_bytes < 0");
  if (options.shell.empty() || options.shell.front() != '/' ||
      access(options.shell.c_str(), X_OK) != 0) {
    return Status::InvalidArgument("shell '" + options.shell + "' is not an executable path");
  }
  RETURN_NOT_OK(CheckDirs(options.node.local_dirs, "local_dirs"));
  RETURN_NOT_OK(CheckDirs(options.node.log_dirs, "log_dirs"));
  auto runtime = std::make_unique<ProcessRuntime>(std::move(options), std::move(listener));
  RETURN_NOT_OK(runtime->Start());
  return std::unique_ptr<ContainerRuntime>(std::move(runtime));
}

}  // namespace spindle::nm
