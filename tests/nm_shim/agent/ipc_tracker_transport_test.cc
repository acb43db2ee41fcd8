// IpcTrackerTransport with an HA pair's ResourceTracker addresses: fake
// RMs on loopback, one answering StandbyException, one not listening, one
// active; the transport moves on after each failure and stays on the RM
// that answers.
#include "nm_shim/agent/ipc_tracker_transport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>

#include "wire/ipc/error_mapping.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::nm {
namespace {

namespace y = hadoop::yarn;

class FakeTracker {
 public:
  explicit FakeTracker(bool active) : active_(active) {
    auto service = std::make_unique<ipc::RpcService>(kResourceTrackerProtocol);
    service->AddMethod<y::NodeHeartbeatRequestProto, y::NodeHeartbeatResponseProto>(
        "nodeHeartbeat", [this](const ipc::ConnectionIdentity&, const y::NodeHeartbeatRequestProto&,
                                y::NodeHeartbeatResponseProto* response) {
          ++calls;
          if (!active_.load()) {
            return Status::Remote(ipc::java::kStandbyException, "ResourceManager is not Active!");
          }
          // An RM that does not know the node asks it to register again.
          response->set_nodeaction(y::RESYNC);
          return Status::OK();
        });
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(std::move(service));
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~FakeTracker() { server_->Stop(); }
  rm::SocketAddress Address() const { return {"127.0.0.1", server_->port()}; }

  std::atomic<int> calls{0};

 private:
  std::atomic<bool> active_;
  std::unique_ptr<ipc::RpcServer> server_;
};

TEST(IpcTrackerTransportTest, FailsOverBetweenRmIdsOnStandbyAndConnectFailures) {
  rm::SocketAddress dead;
  {
    FakeTracker gone(true);
    dead = gone.Address();
  }
  FakeTracker standby(false);
  FakeTracker active(true);
  EventLoop loop(SystemClock::Get());
  loop.Start();
  ipc::RpcClient client;
  IpcTrackerTransport transport(&client, &loop, {dead, standby.Address(), active.Address()},
                                "yarn");
  auto heartbeat = [&] {
    std::promise<std::pair<Status, y::NodeActionProto>> answered;
    transport.Heartbeat(y::NodeHeartbeatRequestProto(),
                        [&](const Status& s, const y::NodeHeartbeatResponseProto& r) {
                          answered.set_value({s, r.nodeaction()});
                        });
    return answered.get_future().get();
  };
  // Each failure reaches the caller (its retry paces the tries) and moves
  // the transport on.
  EXPECT_TRUE(ipc::IsTransportFailure(heartbeat().first));
  EXPECT_EQ(transport.failovers(), 1);
  EXPECT_EQ(heartbeat().first.java_class(), ipc::java::kStandbyException);
  EXPECT_EQ(transport.failovers(), 2);
  auto [status, action] = heartbeat();
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(action, y::RESYNC);
  EXPECT_TRUE(heartbeat().first.ok());
  EXPECT_EQ(transport.failovers(), 2);
  EXPECT_EQ(active.calls.load(), 2);
  EXPECT_EQ(standby.calls.load(), 1);
  loop.Stop();
}

}  // namespace
}  // namespace spindle::nm
