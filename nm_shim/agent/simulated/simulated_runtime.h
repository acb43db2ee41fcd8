// SimulatedRuntime: a ContainerRuntime that runs nothing. A container is
// RUNNING as soon as it is launched, holds its resources for a duration, then
// exits 0. The duration comes from the launch context, so replayed tasks can
// say how long they run:
//   1. env SPINDLE_SIM_DURATION_MS=<ms>, else
//   2. a command of the form `sleep <seconds>` (fractions allowed; anything
//      after the number, such as redirections, is ignored), else
//   3. SimulatedRuntimeOptions::default_duration_ms.
// Kill() ends a container at once with the given exit status. Every virtual
// node has its own SimulatedRuntime, and all of them share one EventLoop, so
// thousands of nodes cost one thread.
//
// Thread-safety: all methods are thread-safe; listener callbacks run on the
// event loop (Shutdown's on_exit calls run in Shutdown's caller).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "base/mutex.h"
#include "nm_shim/agent/container_runtime.h"
#include "nm_shim/agent/event_loop.h"

namespace spindle::nm {

inline constexpr char kSimulatedDurationEnv[] = "SPINDLE_SIM_DURATION_MS";

struct SimulatedRuntimeOptions {
  // How long a container runs when its launch context does not say. Default: 10 s.
  int64_t default_duration_ms = 10000;
};

// The duration `spec` asks for (rules above), or nullopt if it names none.
std::optional<int64_t> SimulatedDurationMs(const ContainerLaunchSpec& spec);

class SimulatedRuntime final : public ContainerRuntime {
 public:
  // `loop` must outlive the runtime.
  SimulatedRuntime(SimulatedRuntimeOptions options, EventLoop* loop, ContainerListener listener);

  void Launch(const ContainerLaunchSpec& spec) override EXCLUDES(mu_);
  void Kill(const rm::ContainerId& container, int32_t exit_status,
            const std::string& diagnostics) override EXCLUDES(mu_);
  void CleanupApplication(const rm::ApplicationId& app) override {}
  void Shutdown() override EXCLUDES(mu_);

  size_t live_containers() const EXCLUDES(mu_);
  bool IsLive(const rm::ContainerId& id) const EXCLUDES(mu_);

 private:
  // Ends `container` if still live: cancels its timer and reports `exit`.
  void Finish(const ContainerExit& exit, bool post) EXCLUDES(mu_);

  const SimulatedRuntimeOptions options_;
  EventLoop* const loop_;
  const ContainerListener listener_;
  mutable Mutex mu_;
  // live container -> its completion task
  std::unordered_map<rm::ContainerId, EventLoop::TaskId> live_ GUARDED_BY(mu_);
  bool shut_down_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::nm
