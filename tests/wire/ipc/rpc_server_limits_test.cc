// RpcServer's connection limits over loopback: ipc.server.max.connections and
// Spindle's per-address limit close the connection past the limit at accept,
// unanswered (Hadoop 2.7+ Server.Listener.doAccept), count it as dropped, and
// keep serving everyone else. Clients of a second address bind 127.0.0.2.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>

#include "integration/wait_for.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc {
namespace {

namespace y = hadoop::yarn;

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

// A TCP connection from `source_ip` to 127.0.0.1:port that sends nothing.
class RawConnection {
 public:
  RawConnection(const char* source_ip, uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in source{};
    source.sin_family = AF_INET;
    inet_pton(AF_INET, source_ip, &source.sin_addr);
    sockaddr_in target{};
    target.sin_family = AF_INET;
    target.sin_port = htons(port);
    inet_pton(AF_INET, "127.0.0.1", &target.sin_addr);
    // A bounded read: a server that never closes fails the test, not hangs it.
    timeval timeout{10, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    connected_ = bind(fd_, reinterpret_cast<sockaddr*>(&source), sizeof(source)) == 0 &&
                 connect(fd_, reinterpret_cast<sockaddr*>(&target), sizeof(target)) == 0;
  }
  ~RawConnection() { close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return connected_; }
  // True if the server closed the connection without sending a byte.
  bool ClosedUnanswered() const {
    char byte;
    const ssize_t n = recv(fd_, &byte, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

class RpcServerLimitsTest : public ::testing::Test {
 protected:
  void StartServer(ConnectionLimits limits) {
    auto registry = std::make_shared<ServiceRegistry>();
    auto service = std::make_unique<RpcService>(kAcp);
    service->AddMethod<y::GetClusterMetricsRequestProto, y::GetClusterMetricsResponseProto>(
        "getClusterMetrics", [](const ConnectionIdentity&, const y::GetClusterMetricsRequestProto&,
                                y::GetClusterMetricsResponseProto* response) {
          response->mutable_cluster_metrics()->set_num_node_managers(7);
          return Status::OK();
        });
    registry->Add(std::move(service));
    RpcServerOptions options;
    options.name = "limits-test";
    options.limits = limits;
    server_ = std::make_unique<RpcServer>(options, registry);
    ASSERT_TRUE(server_->Start().ok());
  }

  Status CallAs(RpcClient* client, const std::string& user) {
    ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAcp;
    spec.user = user;
    y::GetClusterMetricsResponseProto response;
    Status s =
        client->Call(spec, "getClusterMetrics", y::GetClusterMetricsRequestProto(), &response);
    if (s.ok() && response.cluster_metrics().num_node_managers() != 7) {
      return Status::Internal("wrong answer");
    }
    return s;
  }

  std::unique_ptr<RpcServer> server_;
};

TEST_F(RpcServerLimitsTest, PerAddressLimitClosesTheExtraConnectionAndServesOthers) {
  StartServer(ConnectionLimits{.max_connections = 0, .max_per_address = 2});
  RawConnection first("127.0.0.2", server_->port());
  RawConnection second("127.0.0.2", server_->port());
  if (!first.connected()) GTEST_SKIP() << "cannot bind 127.0.0.2 on this machine";
  ASSERT_TRUE(second.connected());
  ASSERT_TRUE(WaitFor([&] { return server_->open_connections_from("127.0.0.2") == 2; }));

  RawConnection third("127.0.0.2", server_->port());
  ASSERT_TRUE(third.connected());  // the kernel accepts; the server then closes it
  EXPECT_TRUE(third.ClosedUnanswered());
  EXPECT_TRUE(WaitFor([&] { return server_->activity().dropped_connections == 1; }));
  EXPECT_EQ(server_->open_connections_from("127.0.0.2"), 2);

  // Another address is served, up to its own limit.
  RpcClient client;
  for (const char* user : {"alice", "bob"}) {
    EXPECT_TRUE(CallAs(&client, user).ok()) << user;
  }
  EXPECT_EQ(server_->open_connections_from("127.0.0.1"), 2);
  EXPECT_EQ(server_->activity().dropped_connections, 1);
  EXPECT_FALSE(CallAs(&client, "carol").ok());
  EXPECT_TRUE(CallAs(&client, "alice").ok());
}

TEST_F(RpcServerLimitsTest, ClosingGivesTheSlotBack) {
  StartServer(ConnectionLimits{.max_connections = 0, .max_per_address = 1});
  auto first = std::make_unique<RawConnection>("127.0.0.2", server_->port());
  if (!first->connected()) GTEST_SKIP() << "cannot bind 127.0.0.2 on this machine";
  ASSERT_TRUE(WaitFor([&] { return server_->open_connections_from("127.0.0.2") == 1; }));
  first.reset();
  ASSERT_TRUE(WaitFor([&] { return server_->open_connections_from("127.0.0.2") == 0; }));
  RawConnection again("127.0.0.2", server_->port());
  ASSERT_TRUE(again.connected());
  EXPECT_TRUE(WaitFor([&] { return server_->open_connections_from("127.0.0.2") == 1; }));
  EXPECT_EQ(server_->activity().dropped_connections, 0);
}

TEST_F(RpcServerLimitsTest, ServerLimitRefusesTheConnectionPastIt) {
  StartServer(ConnectionLimits{.max_connections = 2, .max_per_address = 0});
  RpcClient client;
  ASSERT_TRUE(CallAs(&client, "alice").ok());
  ASSERT_TRUE(CallAs(&client, "bob").ok());
  // A third connection is closed at accept: the call fails on the transport.
  const Status refused = CallAs(&client, "carol");
  EXPECT_FALSE(refused.ok());
  EXPECT_FALSE(refused.IsRemote()) << refused.ToString();
  EXPECT_TRUE(WaitFor([&] { return server_->activity().dropped_connections >= 1; }));
  // The two open connections are still served.
  EXPECT_TRUE(CallAs(&client, "alice").ok());
  EXPECT_TRUE(CallAs(&client, "bob").ok());
}

}  // namespace
}  // namespace spindle::ipc
