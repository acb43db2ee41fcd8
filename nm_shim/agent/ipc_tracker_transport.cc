#include "nm_shim/agent/ipc_tracker_transport.h"

#include <glog/logging.h>

#include <memory>

#include "wire/ipc/error_mapping.h"

namespace spindle::nm {

namespace y = hadoop::yarn;

IpcTrackerTransport::IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop, std::string host,
                                         uint16_t port, std::string user,
                                         std::optional<ipc::ClientKerberos> kerberos)
    : IpcTrackerTransport(client, loop, {rm::SocketAddress{std::move(host), port}}, std::move(user),
                          std::move(kerberos)) {}

IpcTrackerTransport::IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop,
                                         std::vector<rm::SocketAddress> targets, std::string user,
                                         std::optional<ipc::ClientKerberos> kerberos)
    : client_(client),
      loop_(loop),
      targets_(std::move(targets)),
      user_(std::move(user)),
      kerberos_(std::move(kerberos)) {
  CHECK(!targets_.empty()) << "IpcTrackerTransport needs an RM address";
}

ipc::ConnectionSpec IpcTrackerTransport::SpecOf(size_t target) const {
  return {targets_[target].host,
          targets_[target].port,
          kResourceTrackerProtocol,
          user_,
          std::nullopt,
          kerberos_};
}

void IpcTrackerTransport::FailOver(int64_t seen, const Status& why) {
  MutexLock lock(&mu_);
  if (failovers_ != seen) return;
  const size_t from = current_;
  current_ = (current_ + 1) % targets_.size();
  ++failovers_;
  LOG(INFO) << "ResourceTracker at " << targets_[from].ToString() << ": " << why.UserMessage()
            << "; failing over to " << targets_[current_].ToString();
}

template <typename Req, typename Resp>
void IpcTrackerTransport::Call(const std::string& method, const Req& request, Done<Resp> done) {
  auto response = std::make_shared<Resp>();
  size_t target = 0;
  int64_t seen = 0;
  {
    MutexLock lock(&mu_);
    target = current_;
    seen = failovers_;
  }
  client_->CallAsync(
      SpecOf(target), method, request, response.get(),
      [this, seen, response, done = std::move(done)](Status s) mutable {
        const bool fail_over = targets_.size() > 1 &&
                               (ipc::IsTransportFailure(s) ||
                                (s.IsRemote() && s.java_class() == ipc::java::kStandbyException));
        if (fail_over) FailOver(seen, s);
        loop_->Post([response, done = std::move(done), s = std::move(s)] { done(s, *response); });
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
