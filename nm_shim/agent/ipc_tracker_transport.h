// IpcTrackerTransport: TrackerTransport over Spindle's RpcClient, SIMPLE
// authentication (auth byte NONE, effectiveUser = the agent's user), as Java
// NodeManagers connect to 8031. All nodes of one agent share its one
// connection; answers are handed to the EventLoop.
//
// Thread-safety: thread-safe. `client` and `loop` must outlive the transport,
// and `loop` must outlive `client` (the client's destructor fails calls in
// flight, whose answers are posted to the loop).
#pragma once

#include <string>

#include "nm_shim/agent/event_loop.h"
#include "nm_shim/agent/tracker_transport.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::nm {

inline constexpr char kResourceTrackerProtocol[] =
    "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";

class IpcTrackerTransport final : public TrackerTransport {
 public:
  IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop, std::string host, uint16_t port,
                      std::string user);

  void Register(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                Done<hadoop::yarn::RegisterNodeManagerResponseProto> done) override;
  void Heartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                 Done<hadoop::yarn::NodeHeartbeatResponseProto> done) override;
  void Unregister(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                  Done<hadoop::yarn::UnRegisterNodeManagerResponseProto> done) override;

 private:
  template <typename Req, typename Resp>
  void Call(const std::string& method, const Req& request, Done<Resp> done);

  ipc::RpcClient* const client_;
  EventLoop* const loop_;
  const ipc::ConnectionSpec spec_;
};

}  // namespace spindle::nm
