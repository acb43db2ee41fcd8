// AmContainerRuntime: the container runtime of the generator's simulated
// NodeManagers. A container whose launch context carries an AMRMToken (the
// RM starting an application's AM container, WIRE.md 7.2) runs a simulated
// ApplicationMaster: the runtime hands the token to its AmHost and the
// container stays RUNNING until the AM is over (AmHost's `exit`). Any other
// container is delegated to a SimulatedRuntime (it only holds its resources
// for its duration).
//
// Thread-safety: thread-safe. Listener callbacks run on the agent's event
// loop; AmHost calls are made without the runtime's lock held.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_set>

#include "base/mutex.h"
#include "nm_shim/agent/container_runtime.h"
#include "nm_shim/agent/event_loop.h"
#include "nm_shim/agent/simulated/simulated_runtime.h"
#include "wire/ipc/client_negotiation.h"

namespace spindle::bench::wire {

// The AMRMToken in Hadoop credentials bytes (a launch context's tokens),
// NotFound if there is none, Corruption if the bytes do not parse. The
// token's service is left as sent; callers set the scheduler address.
Result<ipc::ClientToken> FindAmrmToken(std::string_view credentials);

// Where AM containers go.
class AmHost {
 public:
  virtual ~AmHost() = default;
  // An AM container started: run the AM of `container`'s attempt with
  // `amrm`; call `exit(exit_status)` once when it is over (the container
  // then completes). Called on a ContainerManagementProtocol worker thread.
  virtual void LaunchAm(const rm::ContainerId& container, const ipc::ClientToken& amrm,
                        std::function<void(int32_t exit_status)> exit) = 0;
  // The RM killed (or the node shut down) an AM container still running:
  // its AM must stop. `exit` of LaunchAm may still be called; it is ignored.
  virtual void AmContainerKilled(const rm::ContainerId& container) = 0;
};

class AmContainerRuntime final : public nm::ContainerRuntime {
 public:
  // `host` and `loop` must outlive the runtime.
  AmContainerRuntime(AmHost* host, nm::EventLoop* loop, nm::ContainerListener listener,
                     nm::SimulatedRuntimeOptions others = {});

  void Launch(const nm::ContainerLaunchSpec& spec) override EXCLUDES(mu_);
  void Kill(const rm::ContainerId& container, int32_t exit_status,
            const std::string& diagnostics) override EXCLUDES(mu_);
  void CleanupApplication(const rm::ApplicationId& app) override {}
  void Shutdown() override EXCLUDES(mu_);

  size_t live_ams() const EXCLUDES(mu_);

 private:
  // Completes AM container `id` if still live; false if it was not.
  bool Complete(const rm::ContainerId& id, int32_t exit_status, const std::string& diagnostics)
      EXCLUDES(mu_);

  AmHost* const host_;
  nm::EventLoop* const loop_;
  const nm::ContainerListener listener_;
  nm::SimulatedRuntime others_;
  mutable Mutex mu_;
  std::unordered_set<rm::ContainerId> live_ GUARDED_BY(mu_);
  bool shut_down_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::bench::wire
