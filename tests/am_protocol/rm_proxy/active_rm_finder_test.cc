// ActiveRmFinder against RMs' admin ports on loopback, each a real
// HaService over fake transitions: one rm-id not listening, one standby, one
// active (RMHAUtils.findActiveRMHAId's walk over the rm-ids).
#include "am_protocol/rm_proxy/active_rm_finder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/am_protocol/admin_service/fake_ha_actions.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::am_protocol {
namespace {

// An RM's admin port serving HAServiceProtocol.
class FakeAdminPort {
 public:
  explicit FakeAdminPort(rm::HaState state) {
    transitions.state = state;
    service_ = std::make_unique<HaService>(HaServiceOptions{}, &admin, &transitions);
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(service_->MakeRpcService());
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~FakeAdminPort() { server_->Stop(); }
  std::string Address() const { return "127.0.0.1:" + std::to_string(server_->port()); }

  testing::FakeAdmin admin;
  testing::FakeTransitions transitions;

 private:
  std::unique_ptr<HaService> service_;
  std::unique_ptr<ipc::RpcServer> server_;
};

TEST(ActiveRmFinderTest, AsksEachRmIdInOrderForTheActiveOne) {
  std::string dead;
  {
    FakeAdminPort gone(rm::HaState::kActive);
    dead = gone.Address();
  }
  FakeAdminPort standby(rm::HaState::kStandby);
  FakeAdminPort active(rm::HaState::kActive);
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.ha.enabled", "true");
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2,rm3");
  conf.Set("yarn.resourcemanager.admin.address.rm1", dead);
  conf.Set("yarn.resourcemanager.admin.address.rm2", standby.Address());
  conf.Set("yarn.resourcemanager.admin.address.rm3", active.Address());
  conf.Set("yarn.resourcemanager.hostname.rm3", "rm3.example");
  conf.Set("ha.failover-controller.cli-check.rpc-timeout.ms", "5000");
  auto finder = ActiveRmFinder::Create(conf, "yarn");
  ASSERT_TRUE(finder.ok()) << finder.status().ToString();
  EXPECT_EQ((*finder)->FindActiveRmId(), "rm3");
  // The web address of rm3: hostname.rm3 with the default web port.
  EXPECT_EQ((*finder)->FindActiveWebUrl(), "http://rm3.example:8088");

  // A failover: rm2 active, rm3 standby.
  active.transitions.state = rm::HaState::kStandby;
  standby.transitions.state = rm::HaState::kActive;
  EXPECT_EQ((*finder)->FindActiveRmId(), "rm2");
  // rm2 has no web address configured: no URL, as RmAddressOf refuses.
  EXPECT_EQ((*finder)->FindActiveWebUrl(), std::nullopt);

  // Nobody active (or the ACL refuses the asker): none found.
  standby.transitions.state = rm::HaState::kStandby;
  EXPECT_EQ((*finder)->FindActiveRmId(), std::nullopt);
  active.transitions.state = rm::HaState::kActive;
  active.admin.acl = "admin";
  EXPECT_EQ((*finder)->FindActiveRmId(), std::nullopt);
}

}  // namespace
}  // namespace spindle::am_protocol
