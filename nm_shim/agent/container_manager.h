// ContainerManager: one node's containers, as its ContainerManagementProtocol
// callers, its runtime and its heartbeats see them (Java's ContainerManagerImpl
// plus the NM context). It
//   * starts containers whose tokens verify (token_verifier.h), refusing a
//     container id it has seen before and launch contexts that name an
//     auxiliary service (a Java plug-in Spindle does not have), each failure
//     only for its own container;
//   * stops containers (KILLED_BY_APPMASTER) and reports their status, only
//     for callers whose NMToken is for the container's application;
//   * follows each container NEW -> RUNNING -> COMPLETE from runtime callbacks;
//   * tells heartbeats what to report: every live container, and each
//     completed one until a heartbeat that carried it succeeded; keeps
//     completed containers for getContainerStatuses until the RM lists them
//     in containers_to_be_removed_from_nm, their application is cleaned up,
//     or completed_retention_ms after they were acknowledged;
//   * kills what the RM lists in containers_to_cleanup
//     (KILLED_BY_RESOURCEMANAGER) and applications_to_cleanup
//     (KILLED_AFTER_APP_COMPLETION, then the runtime's CleanupApplication
//     once the application's last container is over);
//   * refuses new containers (NMNotYetReadyException) until the node has
//     registered with the RM, and from an RM-requested resync until it
//     registered again, as Hadoop 2.6/2.7's ContainerManagerImpl
//     (blockNewContainerRequests). Hadoop 3 dropped the check (YARN-3839) but
//     its clients still retry the exception (ServerProxy), so both lines'
//     AMs and Spindle's AM launcher wait instead of failing the attempt.
//
// Thread-safety: all methods are thread-safe. The runtime is never called
// with the manager's lock held, so its callbacks may come from any thread,
// synchronously or not.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "nm_shim/agent/container_runtime.h"
#include "nm_shim/agent/container_signal.h"
#include "nm_shim/agent/node_token_keys.h"
#include "nm_shim/agent/token_verifier.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle::nm {

struct ContainerManagerOptions {
  rm::NodeId node;
  // How long a completed container stays queryable after the RM acknowledged
  // it (Java: yarn.nodemanager.duration-to-track-stopped-containers).
  // Default: 10 minutes.
  int64_t completed_retention_ms = 600000;
};

class ContainerManager {
 public:
  // `keys` and `clock` must outlive the manager.
  ContainerManager(ContainerManagerOptions options, const NodeTokenKeys* keys, const Clock* clock);

  // The runtime that runs this node's containers; set once, before the node
  // serves. It must outlive the manager.
  void set_runtime(ContainerRuntime* runtime) { runtime_ = runtime; }
  // Callbacks for the runtime.
  ContainerListener Listener();

  // Whether new containers may start; the NodeStatusUpdater opens the node
  // on registration and closes it on RESYNC and when the node stops. Starts
  // closed.
  void set_accepting_new_containers(bool accepting) { accepting_new_.store(accepting); }
  // OK, or NMNotYetReadyException while new containers are refused.
  Status CheckAcceptingNewContainers() const;

  // ContainerManagementProtocol, for a caller authenticated with `caller`.
  void StartContainers(const NmTokenInfo& caller,
                       const hadoop::yarn::StartContainersRequestProto& request,
                       hadoop::yarn::StartContainersResponseProto* response) EXCLUDES(mu_);
  void StopContainers(const NmTokenInfo& caller,
                      const hadoop::yarn::StopContainersRequestProto& request,
                      hadoop::yarn::StopContainersResponseProto* response) EXCLUDES(mu_);
  void GetContainerStatuses(const NmTokenInfo& caller,
                            const hadoop::yarn::GetContainerStatusesRequestProto& request,
                            hadoop::yarn::GetContainerStatusesResponseProto* response)
      EXCLUDES(mu_);

  // Runtime callbacks.
  void OnRunning(const rm::ContainerId& id) EXCLUDES(mu_);
  void OnExit(const ContainerExit& exit) EXCLUDES(mu_);

  // The statuses for the next heartbeat (live containers, then completed
  // ones not yet acknowledged). A later HeartbeatSucceeded() acknowledges the
  // completed ones returned here.
  std::vector<hadoop::yarn::ContainerStatusProto> HeartbeatStatuses() EXCLUDES(mu_);
  void HeartbeatSucceeded() EXCLUDES(mu_);
  // Everything still on the node, for (re-)registration.
  std::vector<hadoop::yarn::NMContainerStatusProto> RegistrationStatuses() const EXCLUDES(mu_);
  // Applications with containers on the node that were not cleaned up.
  std::vector<rm::ApplicationId> RunningApplications() const EXCLUDES(mu_);

  // What a heartbeat response asks for.
  void CleanupContainers(const std::vector<rm::ContainerId>& ids) EXCLUDES(mu_);
  void CleanupApplications(const std::vector<rm::ApplicationId>& apps) EXCLUDES(mu_);
  void RemoveCompleted(const std::vector<rm::ContainerId>& ids) EXCLUDES(mu_);
  // containers_to_signal: each running container gets its signal from the
  // runtime (container_signal.h); others are skipped.
  void SignalContainers(const std::vector<SignalRequest>& signals) EXCLUDES(mu_);

  // Counters (for tests and the simulate-mode summary).
  size_t live_containers() const EXCLUDES(mu_);
  size_t known_containers() const EXCLUDES(mu_);
  // Whether `id` is here and RUNNING (the web's "log may not be complete").
  bool IsRunning(const rm::ContainerId& id) const EXCLUDES(mu_);

  const rm::NodeId& node() const { return options_.node; }

 private:
  enum class State { kNew, kRunning, kComplete };
  struct Record {
    rm::ContainerId id;
    State state = State::kNew;
    int32_t exit_status = kExitInvalid;
    std::string diagnostics;
    hadoop::yarn::ResourceProto resource;
    int32_t priority = 0;
    int64_t creation_time = 0;
    bool in_flight = false;  // completed status sent, heartbeat not answered yet
    bool acked = false;      // completed status reached the RM
    TimePoint acked_at{};
    // The runtime has it (Launch returned). A kill that comes before is
    // held here and applied right after Launch, so that none is lost.
    bool launched = false;
    std::optional<std::pair<int32_t, std::string>> held_kill;
  };

  // Kills `ids` with `exit_status` (outside the lock).
  void KillAll(const std::vector<rm::ContainerId>& ids, int32_t exit_status,
               const std::string& diagnostics);
  // Apps being cleaned up whose containers are all over: forget them and
  // return them (the caller runs CleanupApplication outside the lock).
  std::vector<rm::ApplicationId> FinishedCleanups() REQUIRES(mu_);
  // Checks that `caller` may stop or query `id` (Java's
  // authorizeGetAndStopContainerRequest).
  Status Authorize(const NmTokenInfo& caller, const rm::ContainerId& id, bool stop) const
      REQUIRES(mu_);
  hadoop::yarn::ContainerStatusProto StatusOf(const Record& r) const;
  // The state a NodeManager reports for `state`: RUNNING until complete.
  static hadoop::yarn::ContainerStateProto WireState(State state);

  const ContainerManagerOptions options_;
  const NodeTokenKeys* const keys_;
  const Clock* const clock_;
  ContainerRuntime* runtime_ = nullptr;
  std::atomic<bool> accepting_new_{false};

  mutable Mutex mu_;
  std::map<rm::ContainerId, Record> containers_ GUARDED_BY(mu_);
  // Container ids ever started here -> their token's expiry (wall ms); kept
  // until the token expires so that a token cannot start a container twice.
  std::unordered_map<rm::ContainerId, int64_t> used_tokens_ GUARDED_BY(mu_);
  std::set<rm::ApplicationId> apps_ GUARDED_BY(mu_);
  std::set<rm::ApplicationId> cleaning_ GUARDED_BY(mu_);
};

}  // namespace spindle::nm
