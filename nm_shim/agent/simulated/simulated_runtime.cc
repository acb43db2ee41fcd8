#include "nm_shim/agent/simulated/simulated_runtime.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace spindle::nm {

std::optional<int64_t> SimulatedDurationMs(const ContainerLaunchSpec& spec) {
  if (auto it = spec.environment.find(kSimulatedDurationEnv); it != spec.environment.end()) {
    int64_t ms = -1;
    const std::string& v = it->second;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), ms);
    if (ec == std::errc() && ptr == v.data() + v.size() && ms >= 0) return ms;
  }
  std::string command;
  for (const auto& part : spec.commands) command += part + " ";
  std::istringstream words(command);
  std::string word;
  if (!(words >> word)) return std::nullopt;
  if (word == "exec" && !(words >> word)) return std::nullopt;
  if (word != "sleep" && word != "/bin/sleep" && word != "/usr/bin/sleep") return std::nullopt;
  std::string seconds;
  if (!(words >> seconds)) return std::nullopt;
  char* end = nullptr;
  const double s = std::strtod(seconds.c_str(), &end);
  if (end != seconds.c_str() + seconds.size() || !(s >= 0) || s > 1e9) return std::nullopt;
  return static_cast<int64_t>(std::llround(s * 1000));
}

SimulatedRuntime::SimulatedRuntime(SimulatedRuntimeOptions options, EventLoop* loop,
                                   ContainerListener listener)
    : options_(options), loop_(loop), listener_(std::move(listener)) {}

void SimulatedRuntime::Launch(const ContainerLaunchSpec& spec) {
  const int64_t ms = SimulatedDurationMs(spec).value_or(options_.default_duration_ms);
  const rm::ContainerId id = spec.container;
  MutexLock lock(&mu_);
  if (shut_down_ || live_.count(id) > 0) {
    loop_->Post([this, id] {
      listener_.on_exit({id, kExitAborted, "the simulated node is shutting down"});
    });
    return;
  }
  // Registered under the lock, so a Kill right after Launch finds it.
  live_[id] = loop_->RunAfter(std::chrono::milliseconds(ms), [this, id] {
    Finish({id, kExitSuccess, ""}, false);
  });
  loop_->Post([this, id] {
    if (IsLive(id)) listener_.on_running(id);
  });
}

void SimulatedRuntime::Kill(const rm::ContainerId& container, int32_t exit_status,
                            const std::string& diagnostics) {
  Finish({container, exit_status, diagnostics}, true);
}

void SimulatedRuntime::Finish(const ContainerExit& exit, bool post) {
  {
    MutexLock lock(&mu_);
    auto it = live_.find(exit.container);
    if (it == live_.end()) return;
    loop_->Cancel(it->second);
    live_.erase(it);
  }
  if (post) {
    loop_->Post([this, exit] { listener_.on_exit(exit); });
  } else {
    listener_.on_exit(exit);
  }
}

void SimulatedRuntime::Shutdown() {
  std::vector<rm::ContainerId> live;
  {
    MutexLock lock(&mu_);
    shut_down_ = true;
    for (const auto& [id, task] : live_) {
      loop_->Cancel(task);
      live.push_back(id);
    }
    live_.clear();
  }
  for (const auto& id : live) {
    listener_.on_exit({id, kExitKilledByResourceManager, "Container killed on shutdown"});
  }
}

bool SimulatedRuntime::IsLive(const rm::ContainerId& id) const {
  MutexLock lock(&mu_);
  return live_.count(id) > 0;
}

size_t SimulatedRuntime::live_containers() const {
  MutexLock lock(&mu_);
  return live_.size();
}

}  // namespace spindle::nm
