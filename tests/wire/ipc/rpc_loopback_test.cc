// RpcClient <-> RpcServer over loopback: authentication, errors, concurrency,
// limits, timeouts and reconnection. Servers bind 127.0.0.1 on a port picked
// at run time; waits poll with a deadline.
#include <glog/logging.h>
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "tests/wire/ipc/fake_token_secrets.h"
#include "tests/wire/ipc/metrics_method.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc {
namespace {

using namespace std::chrono_literals;
using testing::CallMetrics;
using testing::FakeTokenSecrets;
using testing::MetricsMethod;
namespace y = hadoop::yarn;

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kNotFound[] = "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException";

bool WaitFor(const std::function<bool()>& predicate, std::chrono::milliseconds timeout = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (predicate()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return predicate();
}

// Calls parked by the "getQueueInfo" method until the test releases them.
class Gate {
 public:
  void Park(InboundCall call) {
    std::lock_guard<std::mutex> lock(mu_);
    parked_.push_back(std::move(call));
    cv_.notify_all();
  }
  bool WaitParked(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, 10s, [&] { return parked_.size() >= n; });
  }
  // Holds a worker thread until Unblock().
  void Block() {
    std::unique_lock<std::mutex> lock(mu_);
    ++blocked_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return unblocked_; });
  }
  bool WaitBlocked(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, 10s, [&] { return blocked_ >= n; });
  }
  void Unblock() {
    std::lock_guard<std::mutex> lock(mu_);
    unblocked_ = true;
    cv_.notify_all();
  }
  void ReleaseAll() {
    Unblock();
    std::vector<InboundCall> calls;
    {
      std::lock_guard<std::mutex> lock(mu_);
      calls.swap(parked_);
    }
    for (auto& call : calls) {
      y::GetQueueInfoResponseProto response;
      response.mutable_queueinfo()->set_queuename("released");
      call.RespondSuccess(response);
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<InboundCall> parked_;
  int blocked_ = 0;
  bool unblocked_ = false;
};

class RpcLoopbackTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer(options_); }
  void TearDown() override {
    gate_.ReleaseAll();
    if (server_) server_->Stop();
  }

  std::shared_ptr<ServiceRegistry> MakeRegistry() {
    auto registry = std::make_shared<ServiceRegistry>();
    std::unique_ptr<RpcService> service = metrics_.NewService(kAcp);
    service->AddMethod<y::GetApplicationReportRequestProto, y::GetApplicationReportResponseProto>(
        "getApplicationReport",
        [](const ConnectionIdentity&, const y::GetApplicationReportRequestProto& request,
           y::GetApplicationReportResponseProto*) {
          return Status::Remote(kNotFound, "Application with id 'application_" +
                                               std::to_string(request.application_id().id()) +
                                               "' doesn't exist in RM.");
        });
    service->AddMethod<y::SubmitApplicationRequestProto, y::SubmitApplicationResponseProto>(
        "submitApplication", [](const ConnectionIdentity&, const y::SubmitApplicationRequestProto&,
                                y::SubmitApplicationResponseProto*) { return Status::OK(); });
    service->AddRawMethod("getQueueInfo", [this](std::string_view, InboundCall call) {
      gate_.Park(std::move(call));
    });
    service->AddMethod<y::GetQueueUserAclsInfoRequestProto, y::GetQueueUserAclsInfoResponseProto>(
        "getQueueUserAcls",
        [this](const ConnectionIdentity&, const y::GetQueueUserAclsInfoRequestProto&,
               y::GetQueueUserAclsInfoResponseProto*) {
          gate_.Block();
          return Status::OK();
        });
    // Answers far larger than a socket buffer: the handler thread's send
    // fills the socket and the connection's strand sends the rest. Each
    // call's answer is one byte value throughout, so that a frame cut or
    // interleaved with another shows.
    service->AddMethod<y::GetApplicationsRequestProto, y::GetApplicationsResponseProto>(
        "getApplications", [this](const ConnectionIdentity&, const y::GetApplicationsRequestProto&,
                                  y::GetApplicationsResponseProto* response) {
          const int32_t call = large_served_.fetch_add(1);
          for (int i = 0; i < kLargeReports; ++i) {
            auto* report = response->add_applications();
            report->set_user(std::to_string(call));
            report->set_diagnostics(
                std::string(kLargeReportBytes, static_cast<char>('a' + call % 26)));
          }
          return Status::OK();
        });
    registry->Add(std::move(service));
    return registry;
  }

  static constexpr int kLargeReports = 8;
  static constexpr size_t kLargeReportBytes = 1 << 20;

  void StartServer(RpcServerOptions options, uint16_t port = 0) {
    options.port = port;
    server_ = std::make_unique<RpcServer>(options, MakeRegistry());
    ASSERT_TRUE(server_->Start().ok());
  }

  ConnectionSpec Spec(const std::string& user = "alice") {
    ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAcp;
    spec.user = user;
    return spec;
  }

  RpcServerOptions options_;
  // Before server_: its handlers use it until the server is gone.
  MetricsMethod metrics_;
  std::unique_ptr<RpcServer> server_;
  FakeTokenSecrets secrets_;
  Gate gate_;
  std::atomic<int32_t> large_served_{0};
};

TEST_F(RpcLoopbackTest, SimpleCallCarriesTheUser) {
  RpcClient client;
  int32_t served = 0;
  ASSERT_TRUE(CallMetrics(client, Spec("alice"), &served).ok());
  EXPECT_EQ(served, 1);
  EXPECT_EQ(metrics_.last().user, "alice");
  EXPECT_EQ(metrics_.last().auth_method, AuthMethod::kSimple);
}

TEST_F(RpcLoopbackTest, ConnectionIsReusedPerUserAndProtocol) {
  RpcClient client;
  ASSERT_TRUE(CallMetrics(client, Spec("alice")).ok());
  ASSERT_TRUE(CallMetrics(client, Spec("alice")).ok());
  EXPECT_EQ(client.connection_count(), 1u);
  ASSERT_TRUE(CallMetrics(client, Spec("bob")).ok());
  EXPECT_EQ(client.connection_count(), 2u);
}

TEST_F(RpcLoopbackTest, RemoteErrorsKeepTheirJavaClass) {
  RpcClient client;
  y::GetApplicationReportRequestProto request;
  request.mutable_application_id()->set_id(7);
  request.mutable_application_id()->set_cluster_timestamp(1);
  y::GetApplicationReportResponseProto response;
  Status s = client.Call(Spec(), "getApplicationReport", request, &response);
  ASSERT_TRUE(s.IsRemote()) << s.ToString();
  EXPECT_EQ(s.java_class(), kNotFound);
  EXPECT_EQ(s.message(), "Application with id 'application_7' doesn't exist in RM.");
  // ERROR leaves the connection usable.
  EXPECT_TRUE(CallMetrics(client, Spec()).ok());
  EXPECT_EQ(client.connection_count(), 1u);
}

TEST_F(RpcLoopbackTest, UnknownMethodAndProtocol) {
  RpcClient client;
  y::GetClusterMetricsRequestProto request;
  y::GetClusterMetricsResponseProto response;
  Status s = client.Call(Spec(), "noSuchMethod", request, &response);
  EXPECT_EQ(s.java_class(), java::kRpcNoSuchMethod);
  EXPECT_EQ(s.message(),
            std::string("Unknown method noSuchMethod called on ") + kAcp + " protocol.");
  ConnectionSpec other = Spec();
  other.protocol = "org.example.NoSuchProtocolPB";
  s = client.Call(other, "getApplications", request, &response);
  EXPECT_EQ(s.java_class(), java::kRpcNoSuchProtocol);
  EXPECT_EQ(s.message(), "Unknown protocol: org.example.NoSuchProtocolPB");
}

class TokenLoopbackTest : public RpcLoopbackTest {
 protected:
  void SetUp() override {
    options_.session.token_provider = &secrets_;
    options_.session.simple_enabled = false;
    RpcLoopbackTest::SetUp();
  }
};

TEST_F(TokenLoopbackTest, TokenAuthenticatesAsTheTokenUser) {
  RpcClient client;
  ConnectionSpec spec = Spec("ignored");
  spec.token = FakeTokenSecrets::TokenFor("appattempt_1700000000000_0001_000001");
  ASSERT_TRUE(CallMetrics(client, spec).ok());
  EXPECT_EQ(metrics_.last().user, "appattempt_1700000000000_0001_000001");
  EXPECT_EQ(metrics_.last().auth_method, AuthMethod::kToken);
}

TEST_F(TokenLoopbackTest, WrongPasswordIsRejected) {
  RpcClient client;
  ConnectionSpec spec = Spec();
  spec.token = FakeTokenSecrets::TokenFor("appattempt_1700000000000_0001_000001");
  spec.token->password = "forged";
  Status s = CallMetrics(client, spec);
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kSaslException);
  EXPECT_EQ(metrics_.served(), 0);
}

TEST_F(TokenLoopbackTest, SimpleClientIsRejectedOnATokenOnlyPort) {
  RpcClient client;
  Status s = CallMetrics(client, Spec());
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kAccessControl);
  EXPECT_EQ(s.message(), "SIMPLE authentication is not enabled.  Available:[TOKEN]");
}

TEST_F(RpcLoopbackTest, ManyConnectionsManyCallsInFlight) {
  server_->Stop();
  RpcServerOptions options;
  options.max_queued_calls = 100000;
  StartServer(options);
  RpcClient client(RpcClientOptions{.io_threads = 2});
  constexpr int kConnections = 8;
  constexpr int kCallsEach = 200;
  std::atomic<int> ok{0};
  std::atomic<int> failed{0};
  std::vector<y::GetClusterMetricsResponseProto> responses(kConnections * kCallsEach);
  y::GetClusterMetricsRequestProto request;
  for (int c = 0; c < kConnections; ++c) {
    const ConnectionSpec spec = Spec("user" + std::to_string(c));
    for (int i = 0; i < kCallsEach; ++i) {
      client.CallAsync(spec, "getClusterMetrics", request, &responses[c * kCallsEach + i],
                       [&](Status s) {
                         if (!s.ok()) LOG(WARNING) << s.ToString();
                         (s.ok() ? ok : failed).fetch_add(1);
                       });
    }
  }
  ASSERT_TRUE(WaitFor([&] { return ok.load() + failed.load() == kConnections * kCallsEach; }));
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(client.connection_count(), static_cast<size_t>(kConnections));
  // Every answer is distinct: no response was delivered to the wrong call.
  std::set<int32_t> seen;
  for (const auto& r : responses) seen.insert(r.cluster_metrics().num_node_managers());
  EXPECT_EQ(seen.size(), responses.size());
}

TEST_F(RpcLoopbackTest, FullCallQueueAnswersRetriable) {
  server_->Stop();
  RpcServerOptions options;
  options.worker_threads = 1;
  options.max_queued_calls = 2;
  StartServer(options);
  RpcClient client;
  y::GetQueueUserAclsInfoRequestProto request;
  std::vector<y::GetQueueUserAclsInfoResponseProto> responses(4);
  std::mutex mu;
  std::vector<Status> results;
  auto record = [&](Status s) {
    std::lock_guard<std::mutex> lock(mu);
    results.push_back(s);
  };
  // The first call occupies the only worker; the second waits in the queue.
  client.CallAsync(Spec(), "getQueueUserAcls", request, &responses[0], record);
  ASSERT_TRUE(gate_.WaitBlocked(1));
  client.CallAsync(Spec(), "getQueueUserAcls", request, &responses[1], record);
  client.CallAsync(Spec(), "getQueueUserAcls", request, &responses[2], record);
  client.CallAsync(Spec(), "getQueueUserAcls", request, &responses[3], record);
  ASSERT_TRUE(WaitFor([&] {
    std::lock_guard<std::mutex> lock(mu);
    return results.size() == 2;
  }));
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& s : results) {
      EXPECT_EQ(s.java_class(), "org.apache.hadoop.ipc.RetriableException") << s.ToString();
    }
  }
  gate_.Unblock();
  ASSERT_TRUE(WaitFor([&] {
    std::lock_guard<std::mutex> lock(mu);
    return results.size() == 4;
  }));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_TRUE(results[2].ok()) << results[2].ToString();
  EXPECT_TRUE(results[3].ok()) << results[3].ToString();
}

TEST_F(RpcLoopbackTest, AnswersMayComeOutOfOrder) {
  RpcClient client;
  y::GetQueueInfoRequestProto slow_request;
  y::GetQueueInfoResponseProto slow_response;
  std::atomic<bool> slow_done{false};
  client.CallAsync(Spec(), "getQueueInfo", slow_request, &slow_response, [&](Status s) {
    EXPECT_TRUE(s.ok()) << s.ToString();
    slow_done = true;
  });
  ASSERT_TRUE(gate_.WaitParked(1));
  // A later call on the same connection is answered while the first waits.
  ASSERT_TRUE(CallMetrics(client, Spec()).ok());
  EXPECT_FALSE(slow_done.load());
  EXPECT_EQ(client.connection_count(), 1u);
  gate_.ReleaseAll();
  ASSERT_TRUE(WaitFor([&] { return slow_done.load(); }));
  EXPECT_EQ(slow_response.queueinfo().queuename(), "released");
}

TEST_F(RpcLoopbackTest, CallTimesOutAndTheLateAnswerIsIgnored) {
  RpcClient client(RpcClientOptions{.call_timeout = 300ms});
  y::GetQueueInfoRequestProto request;
  y::GetQueueInfoResponseProto response;
  Status s = client.Call(Spec(), "getQueueInfo", request, &response);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  gate_.ReleaseAll();
  EXPECT_TRUE(CallMetrics(client, Spec()).ok());
}

TEST_F(RpcLoopbackTest, OversizeRequestClosesOnlyThatConnection) {
  server_->Stop();
  RpcServerOptions options;
  options.session.max_data_length = 4096;
  StartServer(options);
  RpcClient client;
  ASSERT_TRUE(CallMetrics(client, Spec("bystander")).ok());
  y::SubmitApplicationRequestProto big;
  big.mutable_application_submission_context()->set_application_name(std::string(10000, 'x'));
  y::SubmitApplicationResponseProto response;
  Status s = client.Call(Spec("alice"), "submitApplication", big, &response);
  EXPECT_EQ(s.code(), Status::Code::kIoError) << s.ToString();
  // The other connection is unaffected, and the failed one reconnects.
  EXPECT_TRUE(CallMetrics(client, Spec("bystander")).ok());
  EXPECT_TRUE(CallMetrics(client, Spec("alice")).ok());
}

TEST_F(RpcLoopbackTest, ServerClosesIdleConnections) {
  server_->Stop();
  RpcServerOptions options;
  options.idle_timeout = 100ms;
  StartServer(options);
  RpcClient client(RpcClientOptions{.max_idle = 60s});
  ASSERT_TRUE(CallMetrics(client, Spec()).ok());
  EXPECT_TRUE(WaitFor([&] { return client.connection_count() == 0; }));
  EXPECT_TRUE(CallMetrics(client, Spec()).ok());  // reconnects
}

TEST_F(RpcLoopbackTest, ServerKeepsConnectionsWithCallsInProgress) {
  server_->Stop();
  RpcServerOptions options;
  options.idle_timeout = 100ms;
  StartServer(options);
  RpcClient client;
  y::GetQueueInfoRequestProto request;
  y::GetQueueInfoResponseProto response;
  std::atomic<bool> done{false};
  Status result;
  client.CallAsync(Spec(), "getQueueInfo", request, &response, [&](Status s) {
    result = s;
    done = true;
  });
  ASSERT_TRUE(gate_.WaitParked(1));
  std::this_thread::sleep_for(500ms);  // several idle periods with a call parked
  gate_.ReleaseAll();
  ASSERT_TRUE(WaitFor([&] { return done.load(); }));
  EXPECT_TRUE(result.ok()) << result.ToString();
}

TEST_F(RpcLoopbackTest, ClientClosesItsIdleConnections) {
  RpcClient client(RpcClientOptions{.max_idle = 100ms});
  ASSERT_TRUE(CallMetrics(client, Spec()).ok());
  EXPECT_TRUE(WaitFor([&] { return client.connection_count() == 0; }));
}

TEST_F(RpcLoopbackTest, ReconnectsAfterServerRestart) {
  RpcClient client;
  ASSERT_TRUE(CallMetrics(client, Spec()).ok());
  const uint16_t port = server_->port();
  server_->Stop();
  ConnectionSpec spec = Spec();
  spec.port = port;
  Status s = CallMetrics(client, spec);
  EXPECT_FALSE(s.ok());
  StartServer(RpcServerOptions{}, port);
  EXPECT_TRUE(WaitFor([&] { return CallMetrics(client, spec).ok(); }));
}

TEST_F(RpcLoopbackTest, ConnectionRefusedIsAnIoError) {
  RpcClient client;
  ConnectionSpec spec = Spec();
  const uint16_t port = server_->port();
  server_->Stop();
  spec.port = port;
  Status s = CallMetrics(client, spec);
  EXPECT_EQ(s.code(), Status::Code::kIoError) << s.ToString();
}

TEST_F(RpcLoopbackTest, LargeAnswersOnOneConnectionArriveWholeAndUnmixed) {
  // Six 8 MiB answers on one connection, made by several handler threads at
  // once: sends that fill the socket go on from the strand, and answers that
  // wait meanwhile follow in order, each frame whole.
  RpcClient client;
  constexpr int kCalls = 6;
  std::vector<y::GetApplicationsResponseProto> responses(kCalls);
  std::atomic<int> ok{0};
  std::atomic<int> failed{0};
  y::GetApplicationsRequestProto request;
  for (int i = 0; i < kCalls; ++i) {
    client.CallAsync(Spec(), "getApplications", request, &responses[i], [&](Status s) {
      if (!s.ok()) LOG(WARNING) << s.ToString();
      (s.ok() ? ok : failed).fetch_add(1);
    });
  }
  ASSERT_TRUE(WaitFor([&] { return ok.load() + failed.load() == kCalls; }, 60s));
  EXPECT_EQ(failed.load(), 0);
  std::set<std::string> calls;
  for (const auto& response : responses) {
    ASSERT_EQ(response.applications_size(), kLargeReports);
    const std::string call = response.applications(0).user();
    calls.insert(call);
    const char fill = static_cast<char>('a' + std::stoi(call) % 26);
    for (const auto& report : response.applications()) {
      EXPECT_EQ(report.user(), call);
      ASSERT_EQ(report.diagnostics().size(), kLargeReportBytes);
      EXPECT_EQ(report.diagnostics().find_first_not_of(fill), std::string::npos)
          << "the answer to call " << call << " has bytes of another";
    }
  }
  EXPECT_EQ(calls.size(), static_cast<size_t>(kCalls));
  // The connection still serves small calls after them.
  EXPECT_TRUE(CallMetrics(client, Spec()).ok());
}

TEST_F(RpcLoopbackTest, StopWhileHandlerThreadsSendLargeAnswers) {
  // The server closes its connections while handler threads are inside
  // their sends: the descriptors must stay theirs until they are done
  // (shut down, closed afterwards), and every call ends, answered or failed.
  RpcClient client;
  constexpr int kCalls = 8;
  std::vector<y::GetApplicationsResponseProto> responses(kCalls);
  std::atomic<int> ended{0};
  y::GetApplicationsRequestProto request;
  for (int i = 0; i < kCalls; ++i) {
    client.CallAsync(Spec("user" + std::to_string(i % 2)), "getApplications", request,
                     &responses[i], [&](Status) { ended.fetch_add(1); });
  }
  ASSERT_TRUE(WaitFor([&] { return large_served_.load() > 0; }));
  server_->Stop();
  ASSERT_TRUE(WaitFor([&] { return ended.load() == kCalls; }, 60s));
  server_.reset();
}

TEST_F(RpcLoopbackTest, StalledAndGarbagePeersDoNotBlockOthers) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                          server_->port());
  // A peer that sends a preamble and half a frame, then stalls.
  boost::asio::ip::tcp::socket stalled(io);
  stalled.connect(endpoint);
  std::string half = EncodePreamble(AuthProtocol::kNone) + std::string("\x00\x00\x10\x00\x1a", 5);
  boost::asio::write(stalled, boost::asio::buffer(half));
  // A peer that sends garbage and is closed by the server.
  boost::asio::ip::tcp::socket garbage(io);
  garbage.connect(endpoint);
  boost::asio::write(
      garbage, boost::asio::buffer(std::string("hrpc\x09\x00\x00\x00\x00\x00\x02\xff\xff", 13)));
  char buf[256];
  boost::system::error_code ec;
  size_t total = 0;
  while (!ec) total += garbage.read_some(boost::asio::buffer(buf), ec);
  EXPECT_GT(total, 0u) << "the server answers garbage with a FATAL before closing";
  EXPECT_EQ(ec, boost::asio::error::eof);

  RpcClient client;
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(CallMetrics(client, Spec()).ok());
}

// Holds the connections of user "slow" in Authorize until released, as a
// group look-up (or the NM principal's reverse DNS) that hangs would;
// everybody else passes at once.
class SlowAuthorizer : public ConnectionAuthorizer {
 public:
  Status Authorize(const ConnectionIdentity& identity) const override {
    if (identity.user != "slow") return Status::OK();
    std::unique_lock<std::mutex> lock(mu_);
    blocked_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
    return Status::OK();
  }
  // False if nothing blocked within the bound (the test then fails).
  bool WaitUntilBlocked() {
    std::unique_lock<std::mutex> lock(mu_);
    return changed_.wait_for(lock, 60s, [this] { return blocked_; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  mutable bool blocked_ = false;
  bool released_ = false;
};

// The authorizer runs on a worker: with one I/O thread, a connection whose
// authorization hangs holds up neither that thread nor another
// connection's calls (before, the second call never got through).
TEST_F(RpcLoopbackTest, ASlowAuthorizationDoesNotBlockOtherConnections) {
  server_->Stop();
  SlowAuthorizer authorizer;
  RpcServerOptions options = options_;
  options.io_threads = 1;
  options.worker_threads = 2;
  options.session.authorizer = &authorizer;
  StartServer(options);
  RpcClient slow_client;
  std::thread slow([&] { EXPECT_TRUE(CallMetrics(slow_client, Spec("slow")).ok()); });
  const bool blocked = authorizer.WaitUntilBlocked();
  EXPECT_TRUE(blocked);
  RpcClient client;
  int32_t served = 0;
  const Status fast = CallMetrics(client, Spec("alice"), &served);
  authorizer.Release();
  slow.join();
  EXPECT_TRUE(fast.ok()) << fast.ToString();
  // alice's call ran first: the slow connection's waited for its outcome.
  EXPECT_EQ(served, 1);
  EXPECT_EQ(metrics_.served(), 2);
}

TEST_F(RpcLoopbackTest, PingIsAcceptedSilently) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect(
      boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), server_->port()));
  // Preamble, context, ping, then a call: the only reply is the call's.
  const std::string client_id(16, '\x11');
  y::GetClusterMetricsRequestProto request;
  const std::string bytes = EncodePreamble(AuthProtocol::kNone) +
                            EncodeConnectionContextFrame(client_id, kAcp, "pinger", false) +
                            EncodePingFrame(client_id) +
                            EncodeCallFrame(42, client_id, 0, kAcp, "getClusterMetrics", request);
  boost::asio::write(socket, boost::asio::buffer(bytes));
  char length_bytes[4];
  boost::asio::read(socket, boost::asio::buffer(length_bytes));
  std::string frame(ReadBigEndian32(length_bytes), '\0');
  boost::asio::read(socket, boost::asio::buffer(frame));
  std::string_view rest = frame;
  hadoop::common::RpcResponseHeaderProto header;
  ASSERT_TRUE(ReadDelimited(&rest, &header).ok());
  EXPECT_EQ(header.callid(), 42u);
  EXPECT_EQ(header.status(), hadoop::common::RpcResponseHeaderProto::SUCCESS);
  EXPECT_EQ(header.clientid(), client_id);
  EXPECT_EQ(header.serveripcversionnum(), 9u);
  y::GetClusterMetricsResponseProto response;
  ASSERT_TRUE(ReadDelimited(&rest, &response).ok());
  EXPECT_TRUE(rest.empty());
}

}  // namespace
}  // namespace spindle::ipc
