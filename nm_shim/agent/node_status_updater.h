// NodeStatusUpdater: one node's side of ResourceTracker (WIRE.md 5.5), as
// Java's NodeStatusUpdaterImpl:
//   * registerNodeManager with the node id, http port, total resource, NM
//     version, the containers still on the node and its running applications;
//     a SHUTDOWN answer (node too small, excluded, version) stops the node
//     with the RM's diagnostics;
//   * nodeHeartbeat at the interval the RM returns, echoing the last
//     response_id (0 after each registration), with every live container and
//     each completed one until a heartbeat carrying it succeeds, node health
//     and the ids of the master keys it has;
//   * applies the container-token and NM-token master keys it is sent (the
//     node keeps current and previous), kills containers_to_cleanup, cleans
//     up applications_to_cleanup, forgets containers_to_be_removed_from_nm,
//     signals containers_to_signal (container_signal.h);
//   * reports the node's and its containers' resource utilisation when the
//     options carry a sampler (node_utilization_sampler.h; real mode);
//   * opens the node to new containers once registered, closes it on RESYNC
//     until registered again and when it stops (ContainerManager's
//     set_accepting_new_containers);
//   * RESYNC: registers again (reporting the containers it still has);
//     SHUTDOWN: stops;
//   * RM unreachable: logs a WARNING and retries, doubling the delay from
//     the last interval up to max_retry_interval_ms; a restarted RM answers
//     RESYNC and the node re-registers;
//   * Stop(): unRegisterNodeManager if registered and the line has it
//     (options.unregister).
//
// Thread contract: everything runs on the EventLoop; Start() and Stop() may
// be called from any thread (they post). The state accessors are atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/status.h"
#include "nm_shim/agent/container_manager.h"
#include "nm_shim/agent/event_loop.h"
#include "nm_shim/agent/node_token_keys.h"
#include "nm_shim/agent/node_utilization_sampler.h"
#include "nm_shim/agent/tracker_transport.h"

namespace spindle::nm {

struct NodeStatusUpdaterOptions {
  rm::NodeId node;
  int32_t http_port = 8042;
  int64_t memory_mb = 8192;
  int32_t vcores = 8;
  std::string nm_version = "2.7.7";
  // Stop() calls unRegisterNodeManager (Hadoop 2.8+); false: the node just
  // stops heartbeating, as a 2.6/2.7 NodeManager does. Default: true.
  bool unregister = true;
  // Interval before the RM's first answer names one. Default: 1000 ms.
  int64_t initial_heartbeat_interval_ms = 1000;
  // Cap of the retry back-off while the RM is unreachable. Default: 10 s.
  int64_t max_retry_interval_ms = 10000;
  // Delay before the first registration (simulate mode spreads nodes).
  // Default: 0.
  int64_t start_delay_ms = 0;
  // Measures the node and its containers for each heartbeat
  // (NodeStatusProto node_utilization / containers_utilization); none
  // without it (simulated nodes). Called on the loop.
  std::function<std::optional<MeasuredUtilization>()> utilization;
  // Log registrations and RM actions at INFO (real mode) rather than
  // VLOG(1) (simulate mode's thousands of nodes). Default: true.
  bool log_lifecycle = true;
};

class NodeStatusUpdater {
 public:
  enum class State { kIdle, kRegistering, kRunning, kStopped };

  // Called once on the loop when the node stops for good: OK after Stop(),
  // Unavailable with the RM's diagnostics after SHUTDOWN.
  using StoppedCallback = std::function<void(const Status&)>;

  // Every pointer must outlive the updater.
  NodeStatusUpdater(NodeStatusUpdaterOptions options, ContainerManager* containers,
                    NodeTokenKeys* keys, TrackerTransport* transport, EventLoop* loop,
                    StoppedCallback on_stopped);

  void Start();
  // Unregisters (if registered) and stops; `done` runs on the loop after.
  void Stop(std::function<void()> done);

  State state() const { return state_.load(); }
  int32_t response_id() const { return response_id_.load(); }
  int64_t heartbeats() const { return heartbeats_.load(); }
  int64_t registrations() const { return registrations_.load(); }
  int64_t interval_ms() const { return interval_ms_.load(); }
  const rm::NodeId& node() const { return options_.node; }

 private:
  void SendRegister();
  void OnRegistered(const Status& s, const hadoop::yarn::RegisterNodeManagerResponseProto& r);
  void SendHeartbeat();
  void OnHeartbeat(const Status& s, const hadoop::yarn::NodeHeartbeatResponseProto& r);
  // Back-off after a failed call; then `retry`.
  void RetryLater(const Status& s, const char* what, void (NodeStatusUpdater::*retry)());
  void Schedule(int64_t delay_ms, void (NodeStatusUpdater::*next)());
  void StopNow();
  void Finish(const Status& s);
  void ApplyKeys(const hadoop::yarn::MasterKeyProto* container_key,
                 const hadoop::yarn::MasterKeyProto* nm_key);

  const NodeStatusUpdaterOptions options_;
  ContainerManager* const containers_;
  NodeTokenKeys* const keys_;
  TrackerTransport* const transport_;
  EventLoop* const loop_;
  const StoppedCallback on_stopped_;

  // Loop-thread state.
  EventLoop::TaskId timer_ = 0;
  int64_t retry_delay_ms_ = 0;
  int64_t failures_ = 0;
  bool stopping_ = false;
  bool in_flight_ = false;
  std::function<void()> stop_done_;

  std::atomic<State> state_{State::kIdle};
  std::atomic<int32_t> response_id_{0};
  std::atomic<int64_t> heartbeats_{0};
  std::atomic<int64_t> registrations_{0};
  std::atomic<int64_t> interval_ms_{0};
};

}  // namespace spindle::nm
