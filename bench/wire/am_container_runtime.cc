#include "bench/wire/am_container_runtime.h"

#include "rm/security/credentials.h"
#include "rm/security/token.h"

namespace spindle::bench::wire {

Result<ipc::ClientToken> FindAmrmToken(std::string_view credentials) {
  ASSIGN_OR_RETURN(const rm::Credentials parsed, rm::Credentials::Parse(credentials));
  for (const auto& entry : parsed.tokens()) {
    if (entry.token.kind == rm::kAmrmTokenKind) {
      return ipc::ClientToken{entry.token.identifier, entry.token.password, entry.token.kind,
                              entry.token.service};
    }
  }
  return Status::NotFound("no AMRMToken in the launch context");
}

AmContainerRuntime::AmContainerRuntime(AmHost* host, nm::EventLoop* loop,
                                       nm::ContainerListener listener,
                                       nm::SimulatedRuntimeOptions others)
    : host_(host), loop_(loop), listener_(listener), others_(others, loop, std::move(listener)) {}

void AmContainerRuntime::Launch(const nm::ContainerLaunchSpec& spec) {
  Result<ipc::ClientToken> amrm = spec.credentials.empty()
                                      ? Result<ipc::ClientToken>(Status::NotFound("no tokens"))
                                      : FindAmrmToken(spec.credentials);
  if (!amrm.ok()) {
    others_.Launch(spec);
    return;
  }
  const rm::ContainerId id = spec.container;
  {
    MutexLock lock(&mu_);
    if (shut_down_ || !live_.insert(id).second) {
      loop_->Post([this, id] {
        listener_.on_exit({id, nm::kExitAborted, "the simulated node is shutting down"});
      });
      return;
    }
  }
  loop_->Post([this, id] { listener_.on_running(id); });
  host_->LaunchAm(id, *amrm, [this, id](int32_t exit_status) {
    Complete(id, exit_status, exit_status == 0 ? "" : "the simulated AM failed");
  });
}

bool AmContainerRuntime::Complete(const rm::ContainerId& id, int32_t exit_status,
                                  const std::string& diagnostics) {
  {
    MutexLock lock(&mu_);
    if (live_.erase(id) == 0) return false;
  }
  loop_->Post(
      [this, exit = nm::ContainerExit{id, exit_status, diagnostics}] { listener_.on_exit(exit); });
  return true;
}

void AmContainerRuntime::Kill(const rm::ContainerId& container, int32_t exit_status,
                              const std::string& diagnostics) {
  if (Complete(container, exit_status, diagnostics)) {
    host_->AmContainerKilled(container);
    return;
  }
  others_.Kill(container, exit_status, diagnostics);
}

void AmContainerRuntime::Shutdown() {
  std::unordered_set<rm::ContainerId> live;
  {
    MutexLock lock(&mu_);
    shut_down_ = true;
    live.swap(live_);
  }
  for (const auto& id : live) {
    host_->AmContainerKilled(id);
    listener_.on_exit({id, nm::kExitKilledByResourceManager, "Container killed on shutdown"});
  }
  others_.Shutdown();
}

size_t AmContainerRuntime::live_ams() const {
  MutexLock lock(&mu_);
  return live_.size();
}

}  // namespace spindle::bench::wire
