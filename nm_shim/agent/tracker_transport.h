// TrackerTransport: how a node's status updater reaches the RM's
// ResourceTracker (8031). The agent's is IpcTrackerTransport (one RpcClient
// connection shared by every node of the process); unit tests use a fake that
// answers by hand.
//
// Thread contract: calls may come from any thread; each `done` runs exactly
// once, on the transport's EventLoop (never inside the call).
#pragma once

#include <functional>

#include "base/status.h"
#include "yarn_server_common_service_protos.pb.h"

namespace spindle::nm {

class TrackerTransport {
 public:
  template <typename Resp>
  using Done = std::function<void(Status, const Resp&)>;

  virtual ~TrackerTransport() = default;
  virtual void Register(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                        Done<hadoop::yarn::RegisterNodeManagerResponseProto> done) = 0;
  virtual void Heartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                         Done<hadoop::yarn::NodeHeartbeatResponseProto> done) = 0;
  virtual void Unregister(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                          Done<hadoop::yarn::UnRegisterNodeManagerResponseProto> done) = 0;
};

}  // namespace spindle::nm
