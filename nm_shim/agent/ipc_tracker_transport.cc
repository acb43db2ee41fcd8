#include "nm_shim/agent/ipc_tracker_transport.h"

#include <memory>

namespace spindle::nm {

namespace y = hadoop::yarn;

IpcTrackerTransport::IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop, std::string host,
                                         uint16_t port, std::string user)
    : client_(client),
      loop_(loop),
      spec_{std::move(host), port, kResourceTrackerProtocol, std::move(user), std::nullopt} {}

template <typename Req, typename Resp>
void IpcTrackerTransport::Call(const std::string& method, const Req& request, Done<Resp> done) {
  auto response = std::make_shared<Resp>();
  client_->CallAsync(
      spec_, method, request, response.get(),
      [loop = loop_, response, done = std::move(done)](Status s) mutable {
        loop->Post([response, done = std::move(done), s = std::move(s)] { done(s, *response); });
      });
}

void IpcTrackerTransport::Register(const y::RegisterNodeManagerRequestProto& request,
                                   Done<y::RegisterNodeManagerResponseProto> done) {
  Call("registerNodeManager", request, std::move(done));
}

void IpcTrackerTransport::Heartbeat(const y::NodeHeartbeatRequestProto& request,
                                    Done<y::NodeHeartbeatResponseProto> done) {
  Call("nodeHeartbeat", request, std::move(done));
}

void IpcTrackerTransport::Unregister(const y::UnRegisterNodeManagerRequestProto& request,
                                     Done<y::UnRegisterNodeManagerResponseProto> done) {
  Call("unRegisterNodeManager", request, std::move(done));
}

}  // namespace spindle::nm
