// Two `spindle rm` daemons as an HA pair in one process, automatic failover
// off (yarn.resourcemanager.ha.automatic-failover.enabled=false), each on
// 127.0.0.1 ports picked at run time and each with its own in-memory store
// (the shared ZooKeeper store and the elector are other work): manual
// transitions over HAServiceProtocol on the admin port, as `yarn rmadmin
// -transitionToActive/-transitionToStandby/-getServiceState` send them; the
// standby's StandbyException, web redirect to the active and /isActive; and
// Spindle's own failover proxy following the active RM.
//
// Whether an HA RM starts active or standby is the HA lifecycle's (on main
// it still starts active); the test makes rm1 active and rm2 standby by
// transitions first, so it holds either way.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>

#include "am_protocol/rm_proxy/ha_service_client.h"
#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "base/net/free_port.h"
#include "cmd/rm_daemon.h"
#include "ha_service_protocol.pb.h"
#include "rm/yarn_exceptions.h"
#include "tests/support/http_get.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace c = hadoop::common;
namespace y = hadoop::yarn;
constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

const char* const kKeys[] = {
    "yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
    "yarn.resourcemanager.resource-tracker.address", "yarn.resourcemanager.admin.address",
    "yarn.resourcemanager.webapp.address"};

class HaManualFailoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_.Set("yarn.resourcemanager.ha.enabled", "true");
    conf_.Set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2");
    conf_.Set("yarn.resourcemanager.ha.automatic-failover.enabled", "false");
    conf_.Set("yarn.resourcemanager.cluster-id", "spindle-ha-test");
    for (const std::string rm_id : {"rm1", "rm2"}) {
      for (const char* key : kKeys) {
        const uint16_t port = net::PickFreeLoopbackPort().value();
        ports_[rm_id][key] = port;
        conf_.Set(std::string(key) + "." + rm_id, "127.0.0.1:" + std::to_string(port));
      }
    }
    conf_.Set("yarn.scheduler.capacity.root.queues", "default");
    conf_.Set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf_.Set("yarn.resourcemanager.recovery.enabled", "true");
    conf_.Set("yarn.resourcemanager.store.class", "memory");
    conf_.Set("yarn.admin.acl", "admin");
    conf_.Set("yarn.client.failover-sleep-base-ms", "10");
    conf_.Set("yarn.client.failover-sleep-max-ms", "50");
    conf_.Set("yarn.client.failover-max-attempts", "6");
    for (const std::string rm_id : {"rm1", "rm2"}) {
      rm::Configuration conf = conf_;
      conf.Set("yarn.resourcemanager.ha.id", rm_id);
      auto daemon = RmDaemon::Create(std::move(conf));
      ASSERT_TRUE(daemon.ok()) << rm_id << ": " << daemon.status().ToString();
      ASSERT_TRUE((*daemon)->Start().ok()) << rm_id;
      daemons_[rm_id] = std::move(daemon).value();
    }
  }
  void TearDown() override {
    for (auto& [rm_id, daemon] : daemons_) daemon->Stop();
  }

  rm::SocketAddress Admin(const std::string& rm_id) {
    return {"127.0.0.1", ports_[rm_id]["yarn.resourcemanager.admin.address"]};
  }
  Status Transition(const std::string& rm_id, bool to_active,
                    am_protocol::HaRequestSource source = am_protocol::HaRequestSource::kUser) {
    return to_active ? ha_.TransitionToActive(Admin(rm_id), source)
                     : ha_.TransitionToStandby(Admin(rm_id), source);
  }
  c::HAServiceStateProto State(const std::string& rm_id) {
    auto status = ha_.GetServiceStatus(Admin(rm_id));
    EXPECT_TRUE(status.ok()) << status.status().ToString();
    return status.ok() ? status->state() : c::INITIALIZING;
  }
  testing::HttpGetResult Get(const std::string& rm_id, const std::string& target) {
    auto got =
        testing::HttpGet("127.0.0.1", ports_[rm_id]["yarn.resourcemanager.webapp.address"], target);
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() ? *got : testing::HttpGetResult{};
  }
  std::string WebUrl(const std::string& rm_id) {
    return "http://127.0.0.1:" +
           std::to_string(ports_[rm_id]["yarn.resourcemanager.webapp.address"]);
  }

  rm::Configuration conf_;
  std::map<std::string, std::map<std::string, uint16_t>> ports_;
  std::map<std::string, std::unique_ptr<RmDaemon>> daemons_;
  ipc::RpcClient client_;
  am_protocol::HaServiceClient ha_{&client_, "admin"};
};

TEST_F(HaManualFailoverTest, ManualTransitionsRedirectsAndClientFailover) {
  ASSERT_TRUE(Transition("rm1", true).ok());
  ASSERT_TRUE(Transition("rm2", false).ok());
  EXPECT_EQ(State("rm1"), c::ACTIVE);
  EXPECT_EQ(State("rm2"), c::STANDBY);
  EXPECT_EQ(daemons_["rm2"]->core().ha_state(), rm::HaState::kStandby);

  // Without automatic failover a failover controller is refused.
  Status zkfc = Transition("rm2", true, am_protocol::HaRequestSource::kFailoverController);
  EXPECT_EQ(zkfc.java_class(), rm::yarn::kAccessControl);
  EXPECT_EQ(State("rm2"), c::STANDBY);
  // The admin ACL holds for HAServiceProtocol too.
  EXPECT_EQ(am_protocol::HaServiceClient(&client_, "mallory")
                .GetServiceStatus(Admin("rm1"))
                .status()
                .message(),
            "User mallory doesn't have permission to call 'getServiceState'");

  // The standby: StandbyException on its client port, a redirect to rm1's
  // web app, /isActive refused.
  y::GetClusterMetricsRequestProto metrics;
  y::GetClusterMetricsResponseProto metrics_response;
  ipc::ConnectionSpec rm2_client{"127.0.0.1", ports_["rm2"]["yarn.resourcemanager.address"],
                                 kClient, "alice", std::nullopt};
  EXPECT_EQ(client_.Call(rm2_client, "getClusterMetrics", metrics, &metrics_response).java_class(),
            rm::yarn::kStandby);
  testing::HttpGetResult moved = Get("rm2", "/ws/v1/cluster/apps?states=RUNNING");
  EXPECT_EQ(moved.status, 307);
  EXPECT_EQ(moved.location, WebUrl("rm1") + "/ws/v1/cluster/apps?states=RUNNING");
  EXPECT_EQ(moved.body,
            "This is standby RM. The redirect url is: /ws/v1/cluster/apps?states=RUNNING\n");
  EXPECT_EQ(Get("rm2", "/isActive").status, 405);
  EXPECT_EQ(Get("rm1", "/isActive").status, 200);
  EXPECT_NE(Get("rm2", "/ws/v1/cluster/info").body.find("\"haState\":\"STANDBY\""),
            std::string::npos);

  // Spindle's own client, listing rm2 first, fails over to rm1 and stays.
  rm::Configuration client_conf = conf_;
  client_conf.Set("yarn.resourcemanager.ha.rm-ids", "rm2,rm1");
  am_protocol::RmFailoverProxyOptions options;
  options.protocol = kClient;
  options.user = "alice";
  auto proxy = am_protocol::RmFailoverProxy::FromConfiguration(
      &client_, client_conf, "yarn.resourcemanager.address", options);
  ASSERT_TRUE(proxy.ok()) << proxy.status().ToString();
  Status first = (*proxy)->Call("getClusterMetrics", metrics, &metrics_response);
  ASSERT_TRUE(first.ok()) << first.ToString();
  EXPECT_EQ((*proxy)->current().rm_id, "rm1");

  // Manual failover: rm1 standby, rm2 active. The proxy follows, the web
  // redirect turns round.
  ASSERT_TRUE(Transition("rm1", false).ok());
  ASSERT_TRUE(Transition("rm2", true).ok());
  EXPECT_EQ(State("rm1"), c::STANDBY);
  EXPECT_EQ(State("rm2"), c::ACTIVE);
  Status second = (*proxy)->Call("getClusterMetrics", metrics, &metrics_response);
  ASSERT_TRUE(second.ok()) << second.ToString();
  EXPECT_EQ((*proxy)->current().rm_id, "rm2");
  EXPECT_EQ(Get("rm1", "/cluster/apps").location, WebUrl("rm2") + "/cluster/apps");
  EXPECT_EQ(Get("rm2", "/isActive").status, 200);

  // Nobody active: the standby's retry answer, and the proxy gives up after
  // yarn.client.failover-max-attempts with the StandbyException.
  ASSERT_TRUE(Transition("rm2", false).ok());
  testing::HttpGetResult none = Get("rm1", "/cluster/apps");
  EXPECT_EQ(none.status, 307);
  EXPECT_NE(none.body.find("Can not find any active RM."), std::string::npos) << none.body;
  Status gave_up = (*proxy)->Call("getClusterMetrics", metrics, &metrics_response);
  EXPECT_EQ(gave_up.java_class(), rm::yarn::kStandby);
  EXPECT_NE(gave_up.message().find("failovers (6) exceeded maximum allowed (6)"), std::string::npos)
      << gave_up.message();
}

// HA off: Hadoop's AdminService does not add HAServiceProtocol, so a caller
// gets the RPC layer's unknown-protocol answer.
TEST(HaOffTest, NoHaServiceProtocolOnTheAdminPort) {
  rm::Configuration conf;
  for (const char* key : kKeys) conf.Set(key, "127.0.0.1:0");
  conf.Set("yarn.scheduler.capacity.root.queues", "default");
  conf.Set("yarn.scheduler.capacity.root.default.capacity", "100");
  auto daemon = RmDaemon::Create(std::move(conf));
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  ASSERT_TRUE((*daemon)->Start().ok());
  ipc::RpcClient client;
  Status s = am_protocol::HaServiceClient(&client, "admin")
                 .GetServiceStatus({"127.0.0.1", (*daemon)->admin_port()})
                 .status();
  EXPECT_EQ(s.java_class(), ipc::java::kRpcNoSuchProtocol);
  EXPECT_EQ(s.message(), "Unknown protocol: org.apache.hadoop.ha.HAServiceProtocol");
  // /isActive answers on a non-HA RM too (it is always active).
  auto active = testing::HttpGet("127.0.0.1", (*daemon)->web_port(), "/isActive");
  ASSERT_TRUE(active.ok());
  EXPECT_EQ(active->status, 200);
  (*daemon)->Stop();
}

}  // namespace
}  // namespace spindle
