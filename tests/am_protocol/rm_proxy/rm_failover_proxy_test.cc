// RmRetryPolicy as RMProxy.createRetryPolicy reads the keys, and
// RmFailoverProxy against fake RMs on loopback: one answering
// StandbyException, one not listening, one active.
#include "am_protocol/rm_proxy/rm_failover_proxy.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "wire/ipc/error_mapping.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_service_protos.pb.h"

namespace spindle::am_protocol {
namespace {

namespace y = hadoop::yarn;
using Decision = RmRetryPolicy::Decision;
constexpr char kProtocol[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

rm::Configuration HaConf() {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.ha.enabled", "true");
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2,rm3");
  conf.Set("yarn.resourcemanager.hostname.rm1", "h1");
  conf.Set("yarn.resourcemanager.hostname.rm2", "h2");
  conf.Set("yarn.resourcemanager.hostname.rm3", "h3");
  conf.Set("yarn.resourcemanager.address.rm3", "h3:9032");
  return conf;
}

TEST(RmRetryPolicyTest, DefaultsAreRmProxys) {
  auto plain = RmRetryPolicy::FromConfiguration(rm::Configuration(), false);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->max_retries, 900000 / 30000);
  EXPECT_EQ(plain->retry_interval_ms, 30000);
  auto ha = RmRetryPolicy::FromConfiguration(rm::Configuration(), true);
  ASSERT_TRUE(ha.ok());
  EXPECT_EQ(ha->max_failovers, 900000 / 30000);
  EXPECT_EQ(ha->failover_sleep_base_ms, 30000);
  EXPECT_EQ(ha->failover_sleep_max_ms, 30000);
  EXPECT_EQ(ha->max_retries, 0);
}

TEST(RmRetryPolicyTest, KeysAndTheirRules) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "10000");
  conf.Set("yarn.resourcemanager.connect.retry-interval.ms", "100");
  conf.Set("yarn.client.failover-sleep-base-ms", "50");
  conf.Set("yarn.client.failover-sleep-max-ms", "400");
  auto ha = RmRetryPolicy::FromConfiguration(conf, true);
  ASSERT_TRUE(ha.ok());
  EXPECT_EQ(ha->max_failovers, 10000 / 50);
  conf.Set("yarn.client.failover-max-attempts", "3");
  EXPECT_EQ(RmRetryPolicy::FromConfiguration(conf, true)->max_failovers, 3);
  // Shorter than the interval: one try.
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "10");
  EXPECT_EQ(RmRetryPolicy::FromConfiguration(conf, false)->max_retries, 0);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "-1");
  conf.Set("yarn.client.failover-max-attempts", "-1");
  EXPECT_EQ(RmRetryPolicy::FromConfiguration(conf, true)->max_failovers, INT32_MAX);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "-2");
  Status bad = RmRetryPolicy::FromConfiguration(conf, false).status();
  EXPECT_EQ(bad.message(),
            "Invalid Configuration. yarn.resourcemanager.connect.max-wait.ms can be -1, but can "
            "not be other negative numbers");
}

TEST(RmRetryPolicyTest, FailoverOnNetworkExceptionDecisions) {
  RmRetryPolicy p;
  p.ha = true;
  p.max_failovers = 3;
  p.max_retries = 0;
  p.failover_sleep_base_ms = 100;
  p.failover_sleep_max_ms = 300;
  const Status standby = Status::Remote(ipc::java::kStandbyException, "rm1 is not active");
  const Status refused = Status::IoError("connection refused");
  // The first failover does not sleep; the n-th sleeps min(base 2^n, max) x U+0.5.
  auto first = p.ShouldRetry(standby, 0, 0, 0.5);
  EXPECT_EQ(first.decision, Decision::kFailoverAndRetry);
  EXPECT_EQ(first.delay.count(), 0);
  auto second = p.ShouldRetry(refused, 1, 1, 0.5);
  EXPECT_EQ(second.decision, Decision::kFailoverAndRetry);
  EXPECT_EQ(second.delay.count(), 200);
  EXPECT_EQ(p.ShouldRetry(refused, 2, 2, 0.0).delay.count(), 150);  // capped at 300, x0.5
  auto exhausted = p.ShouldRetry(standby, 3, 3, 0.5);
  EXPECT_EQ(exhausted.decision, Decision::kFail);
  EXPECT_EQ(exhausted.reason, "failovers (3) exceeded maximum allowed (3)");
  EXPECT_EQ(
      p.ShouldRetry(Status::Remote(ipc::java::kRetriableException, "later"), 0, 0, 0.5).decision,
      Decision::kRetry);
  EXPECT_EQ(p.ShouldRetry(Status::Remote(ipc::java::kInvalidToken, "x"), 0, 0, 0.5).reason,
            "Invalid or Cancelled Token");
  EXPECT_EQ(p.ShouldRetry(Status::Remote(ipc::java::kAccessControl, "x"), 0, 0, 0.5).reason,
            "Access denied");
  EXPECT_EQ(p.ShouldRetry(Status::Unauthorized("DIGEST-MD5 failed"), 0, 0, 0.5).reason,
            "SASL failure");
  // The client connection's own SASL refusal (javax.security.sasl.SaslException).
  EXPECT_EQ(p.ShouldRetry(Status::Remote(ipc::java::kSaslException,
                                         "No common protection layer between client and server",
                                         Status::Code::kUnauthorized),
                          0, 0, 0.5)
                .reason,
            "SASL failure");
  EXPECT_EQ(p.ShouldRetry(Status::Remote(ipc::java::kYarnException, "x"), 0, 0, 0.5).decision,
            Decision::kFail);

  RmRetryPolicy plain;
  plain.max_retries = 2;
  plain.retry_interval_ms = 70;
  EXPECT_EQ(plain.ShouldRetry(refused, 1, 0, 0.5).delay.count(), 70);
  EXPECT_EQ(plain.ShouldRetry(standby, 0, 0, 0.5).decision, Decision::kRetry);
  EXPECT_EQ(plain.ShouldRetry(refused, 2, 0, 0.5).decision, Decision::kFail);
  EXPECT_EQ(plain.ShouldRetry(Status::Remote(ipc::java::kYarnException, "x"), 0, 0, 0.5).decision,
            Decision::kFail);
}

TEST(RmProxyTargetsTest, OneAddressPerRmIdInOrder) {
  auto targets = RmProxyTargets(HaConf(), "yarn.resourcemanager.address");
  ASSERT_TRUE(targets.ok()) << targets.status().ToString();
  ASSERT_EQ(targets->size(), 3u);
  EXPECT_EQ((*targets)[0].ToString(), "rm1 at h1:8032");
  EXPECT_EQ((*targets)[1].ToString(), "rm2 at h2:8032");
  EXPECT_EQ((*targets)[2].ToString(), "rm3 at h3:9032");
  auto scheduler = RmProxyTargets(HaConf(), "yarn.resourcemanager.scheduler.address");
  EXPECT_EQ((*scheduler)[0].port, 8030);
  rm::Configuration plain;
  plain.Set("yarn.resourcemanager.hostname", "rmhost");
  auto one = RmProxyTargets(plain, "yarn.resourcemanager.resource-tracker.address");
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().ToString(), "rmhost:8031");
}

// A fake RM's client port: active (answers) or standby (StandbyException).
class FakeRm {
 public:
  explicit FakeRm(std::string name) : name_(std::move(name)) {
    auto service = std::make_unique<ipc::RpcService>(kProtocol);
    service->AddMethod<y::GetClusterMetricsRequestProto, y::GetClusterMetricsResponseProto>(
        "getClusterMetrics",
        [this](const ipc::ConnectionIdentity&, const y::GetClusterMetricsRequestProto&,
               y::GetClusterMetricsResponseProto* response) {
          ++calls;
          if (!active.load()) {
            return Status::Remote(ipc::java::kStandbyException,
                                  "ResourceManager " + name_ + " is not Active!");
          }
          response->mutable_cluster_metrics()->set_num_node_managers(node_managers);
          return Status::OK();
        });
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(std::move(service));
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~FakeRm() { server_->Stop(); }
  RmProxyTarget Target() const { return {name_, "127.0.0.1", server_->port()}; }

  std::atomic<bool> active{false};
  std::atomic<int> calls{0};
  int node_managers = 0;

 private:
  std::string name_;
  std::unique_ptr<ipc::RpcServer> server_;
};

// A port nothing listens on (bound once, then released).
RmProxyTarget DeadRm(const std::string& name) {
  FakeRm gone(name);
  return gone.Target();
}

class RmFailoverProxyTest : public ::testing::Test {
 protected:
  std::unique_ptr<RmFailoverProxy> Proxy(std::vector<RmProxyTarget> targets, int max_failovers) {
    RmFailoverProxyOptions options;
    options.protocol = kProtocol;
    options.user = "alice";
    options.policy.ha = true;
    options.policy.max_failovers = max_failovers;
    options.policy.max_retries = 0;
    options.policy.failover_sleep_base_ms = 100;
    options.policy.failover_sleep_max_ms = 1000;
    options.sleep = [this](std::chrono::milliseconds d) { sleeps_.push_back(d.count()); };
    options.uniform = [] { return 0.5; };
    return std::make_unique<RmFailoverProxy>(&client_, std::move(targets), options);
  }
  Result<int32_t> Metrics(RmFailoverProxy* proxy) {
    y::GetClusterMetricsRequestProto request;
    y::GetClusterMetricsResponseProto response;
    RETURN_NOT_OK(proxy->Call("getClusterMetrics", request, &response));
    return response.cluster_metrics().num_node_managers();
  }

  ipc::RpcClient client_;
  std::vector<int64_t> sleeps_;
};

TEST_F(RmFailoverProxyTest, FailsOverPastStandbyAndDeadRmsAndStaysOnTheActive) {
  const RmProxyTarget dead = DeadRm("rm1");
  FakeRm standby("rm2");
  FakeRm active("rm3");
  active.active = true;
  active.node_managers = 7;
  auto proxy = Proxy({dead, standby.Target(), active.Target()}, 15);
  auto answer = Metrics(proxy.get());
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(*answer, 7);
  EXPECT_EQ(proxy->current().rm_id, "rm3");
  EXPECT_EQ(proxy->failovers(), 2);
  EXPECT_EQ(standby.calls.load(), 1);
  // Failover 0 sleeps nothing; failover 1 sleeps min(100 x 2, 1000) x 1.0.
  EXPECT_EQ(sleeps_, (std::vector<int64_t>{200}));

  // The next call starts on the active RM.
  ASSERT_TRUE(Metrics(proxy.get()).ok());
  EXPECT_EQ(active.calls.load(), 2);
  EXPECT_EQ(proxy->failovers(), 2);

  // The active goes standby and rm2 takes over: round robin wraps through
  // rm1 (dead) to rm2.
  active.active = false;
  standby.active = true;
  standby.node_managers = 9;
  auto after = Metrics(proxy.get());
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(*after, 9);
  EXPECT_EQ(proxy->current().rm_id, "rm2");
}

TEST_F(RmFailoverProxyTest, GivesUpAfterMaxFailoversWithTheLastError) {
  FakeRm one("rm1");
  FakeRm two("rm2");
  auto proxy = Proxy({one.Target(), two.Target()}, 3);
  Status s = Metrics(proxy.get()).status();
  EXPECT_EQ(s.java_class(), ipc::java::kStandbyException);
  EXPECT_NE(s.message().find("failovers (3) exceeded maximum allowed (3)"), std::string::npos)
      << s.message();
  EXPECT_EQ(one.calls.load() + two.calls.load(), 4);
}

TEST_F(RmFailoverProxyTest, OtherRemoteErrorsReachTheCallerUnchanged) {
  RmFailoverProxyOptions options;
  options.protocol = kProtocol;
  options.user = "alice";
  options.policy.ha = true;
  options.policy.max_failovers = 5;
  FakeRm active("rm1");
  active.active = true;
  RmFailoverProxy proxy(&client_, {active.Target()}, options);
  y::GetApplicationReportRequestProto request;
  y::GetApplicationReportResponseProto response;
  // A method the fake does not serve: RpcNoSuchMethodException, not retried.
  Status s = proxy.Call("getApplicationReport", request, &response);
  EXPECT_EQ(s.java_class(), ipc::java::kRpcNoSuchMethod);
  EXPECT_EQ(proxy.failovers(), 0);
}

TEST_F(RmFailoverProxyTest, ConcurrentFailuresMoveTheProxyOnce) {
  FakeRm standby("rm1");
  FakeRm active("rm2");
  FakeRm spare("rm3");
  active.active = true;
  auto proxy = Proxy({standby.Target(), active.Target(), spare.Target()}, 10);
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    callers.emplace_back([&] {
      if (Metrics(proxy.get()).ok()) ++ok;
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(ok.load(), 8);
  // Calls that failed on rm1 together moved the proxy to rm2 once; none
  // went past it.
  EXPECT_EQ(proxy->current().rm_id, "rm2");
  EXPECT_EQ(spare.calls.load(), 0);
}

}  // namespace
}  // namespace spindle::am_protocol
