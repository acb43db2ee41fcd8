// RmAdminCli against two HaService servers over loopback Hadoop IPC (the
// RM's own HAServiceProtocol, with fake transitions behind it): Hadoop 3.3's
// RMAdminCLI/HAAdmin output text and exit statuses, and its rule that manual
// transitions are refused while automatic failover is on unless
// --forcemanual is given and confirmed.
#include "cmd/rm_admin_cli.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "am_protocol/admin_service/ha_service.h"
#include "base/net/free_port.h"
#include "tests/am_protocol/admin_service/fake_ha_actions.h"
#include "wire/ipc/rpc_server.h"

namespace spindle {
namespace {

using am_protocol::HaService;
using am_protocol::HaServiceOptions;
using am_protocol::testing::FakeAdmin;
using am_protocol::testing::FakeTransitions;

struct Ran {
  int exit_code = 0;
  std::string out;
  std::string err;
};

class RmAdminCliTest : public ::testing::Test {
 protected:
  // An RM per rm-id; `server_automatic` is what the RMs' AdminService
  // believes, `client_automatic` what the CLI's configuration says.
  void Serve(bool server_automatic) {
    for (const std::string id : {"rm1", "rm2"}) {
      HaServiceOptions options;
      options.automatic_failover = server_automatic;
      services_[id] = std::make_unique<HaService>(options, &admins_[id], &transitions_[id]);
      auto registry = std::make_shared<ipc::ServiceRegistry>();
      registry->Add(services_[id]->MakeRpcService());
      servers_[id] = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
      ASSERT_TRUE(servers_[id]->Start().ok());
    }
    transitions_["rm1"].state = rm::HaState::kActive;
    transitions_["rm2"].state = rm::HaState::kStandby;
  }
  void TearDown() override {
    for (auto& [id, server] : servers_) server->Stop();
  }

  rm::Configuration Conf(bool ha, bool automatic) {
    rm::Configuration conf;
    conf.Set("yarn.resourcemanager.ha.enabled", ha ? "true" : "false");
    conf.Set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2");
    conf.Set("yarn.resourcemanager.ha.automatic-failover.enabled", automatic ? "true" : "false");
    for (const std::string id : {"rm1", "rm2"}) {
      const uint16_t port =
          servers_.count(id) != 0 ? servers_[id]->port() : net::PickFreeLoopbackPort().value();
      conf.Set("yarn.resourcemanager.admin.address." + id, "127.0.0.1:" + std::to_string(port));
    }
    return conf;
  }

  Ran Run(const rm::Configuration& conf, const std::vector<std::string>& args,
          const std::string& stdin_text = "") {
    std::ostringstream out;
    std::ostringstream err;
    std::istringstream in(stdin_text);
    RmAdminCli cli(conf, "admin", {&out, &err, &in});
    Ran ran;
    ran.exit_code = cli.Run(args);
    ran.out = out.str();
    ran.err = err.str();
    return ran;
  }

  std::map<std::string, FakeAdmin> admins_;
  std::map<std::string, FakeTransitions> transitions_;
  std::map<std::string, std::unique_ptr<HaService>> services_;
  std::map<std::string, std::unique_ptr<ipc::RpcServer>> servers_;
};

constexpr char kRefusal[] =
    "Automatic failover is enabled for rm1\nRefusing to manually manage HA state, since it may "
    "cause\na split-brain scenario or other incorrect state.\nIf you are very sure you know what "
    "you are doing, please \nspecify the --forcemanual flag.\n";

TEST_F(RmAdminCliTest, GetServiceStateAndTheArgumentErrors) {
  Serve(true);
  const rm::Configuration conf = Conf(true, true);
  EXPECT_EQ(Run(conf, {"-getServiceState", "rm1"}).out, "active\n");
  const Ran standby = Run(conf, {"-getServiceState", "rm2"});
  EXPECT_EQ(standby.exit_code, 0);
  EXPECT_EQ(standby.out, "standby\n");

  const Ran unknown = Run(conf, {"-getServiceState", "rm3"});
  EXPECT_EQ(unknown.exit_code, 255);
  EXPECT_EQ(unknown.err,
            "Illegal argument: rm3 is not a valid serviceId. It should be one of rm1 rm2 \n");
  const Ran none = Run(conf, {"-getServiceState"});
  EXPECT_EQ(none.exit_code, 255);
  EXPECT_EQ(none.err,
            "getServiceState: incorrect number of arguments\nUsage: rmadmin [-getServiceState "
            "<serviceId>]\n");
  const Ran bad_option = Run(conf, {"-transitionToStandby", "--forceactive", "rm1"});
  EXPECT_EQ(bad_option.exit_code, 255);
  EXPECT_EQ(bad_option.err,
            "transitionToStandby: incorrect arguments\nUsage: rmadmin [-transitionToStandby "
            "<serviceId>]\n");
  const Ran nothing = Run(conf, {});
  EXPECT_EQ(nothing.exit_code, 255);
  EXPECT_NE(nothing.err.find("Usage: yarn rmadmin\n"), std::string::npos) << nothing.err;
  EXPECT_NE(nothing.err.find("   -getAllServiceState\n"), std::string::npos) << nothing.err;
  const Ran typo = Run(conf, {"-getServiceStat", "rm1"});
  EXPECT_EQ(typo.exit_code, 255);
  EXPECT_EQ(typo.err.rfind("getServiceStat: Unknown command\nUsage: yarn rmadmin\n", 0), 0u)
      << typo.err;
  const Ran help = Run(conf, {"-help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("   -getServiceState <serviceId>: Returns the state of the service\n"),
            std::string::npos)
      << help.out;
  const Ran one_help = Run(conf, {"-help", "-checkHealth"});
  EXPECT_EQ(one_help.exit_code, 0);
  EXPECT_EQ(one_help.err,
            "Usage: yarn rmadmin [-checkHealth <serviceId>]\n-checkHealth can only be used when "
            "RM HA is enabled\n");
}

TEST_F(RmAdminCliTest, HaCommandsNeedHaOn) {
  Serve(true);
  const Ran off = Run(Conf(false, true), {"-getServiceState", "rm1"});
  EXPECT_EQ(off.exit_code, 255);
  EXPECT_EQ(off.out, "Cannot run -getServiceState when ResourceManager HA is not enabled\n");
}

TEST_F(RmAdminCliTest, ManualTransitionsAreRefusedUnderAutomaticFailoverUnlessForced) {
  Serve(true);
  const rm::Configuration conf = Conf(true, true);
  const Ran refused = Run(conf, {"-transitionToStandby", "rm1"});
  EXPECT_EQ(refused.exit_code, 255);
  EXPECT_EQ(refused.err, kRefusal);
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kActive);

  // --forcemanual asks first: "n" aborts, junk asks again, "y" goes on.
  const Ran aborted = Run(conf, {"-transitionToStandby", "--forcemanual", "rm1"}, "n\n");
  EXPECT_EQ(aborted.exit_code, 255);
  EXPECT_NE(aborted.err.find("Are you sure you want to continue? (Y or N) "), std::string::npos);
  EXPECT_NE(aborted.err.find("Aborted\n"), std::string::npos);
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kActive);
  const Ran eof = Run(conf, {"-transitionToStandby", "--forcemanual", "rm1"}, "");
  EXPECT_EQ(eof.exit_code, 255);
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kActive);

  // rm2 cannot go active while rm1 is.
  const Ran busy = Run(conf, {"-transitionToActive", "--forcemanual", "rm2"}, "yes\n");
  EXPECT_EQ(busy.exit_code, 255);
  EXPECT_NE(busy.err.find("transitionToActive: Node rm1 is already active\nUsage: rmadmin "
                          "[-transitionToActive [--forceactive] <serviceId>]\n"),
            std::string::npos)
      << busy.err;
  EXPECT_EQ(transitions_["rm2"].activations, 0);

  const Ran down = Run(conf, {"-transitionToStandby", "-forcemanual", "rm1"}, "maybe\ny\n");
  EXPECT_EQ(down.exit_code, 0) << down.err;
  EXPECT_NE(down.err.find("Invalid input: maybe\n"), std::string::npos) << down.err;
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kStandby);
  const Ran up = Run(conf, {"-transitionToActive", "--forcemanual", "rm2"}, "Y\n");
  EXPECT_EQ(up.exit_code, 0) << up.err;
  EXPECT_EQ(transitions_["rm2"].state, rm::HaState::kActive);
  EXPECT_EQ(Run(conf, {"-getServiceState", "rm2"}).out, "active\n");
}

TEST_F(RmAdminCliTest, WithoutAutomaticFailoverPlainTransitionsGoThrough) {
  Serve(false);
  const rm::Configuration conf = Conf(true, false);
  EXPECT_EQ(Run(conf, {"-transitionToStandby", "rm1"}).exit_code, 0);
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kStandby);
  EXPECT_EQ(Run(conf, {"-transitionToActive", "rm2"}).exit_code, 0);
  EXPECT_EQ(transitions_["rm2"].state, rm::HaState::kActive);
}

TEST_F(RmAdminCliTest, TheRmsRefusalIsPrintedAsOperationFailed) {
  // The client's configuration says manual, the RMs run automatic failover:
  // the RM's AdminService refuses a plain user request.
  Serve(true);
  const Ran refused = Run(Conf(true, false), {"-transitionToStandby", "rm1"});
  EXPECT_EQ(refused.exit_code, 255);
  EXPECT_EQ(refused.err,
            "Operation failed: Manual failover for this ResourceManager is disallowed, because "
            "automatic failover is enabled.\n");
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kActive);
}

TEST_F(RmAdminCliTest, AllServiceStatesListEveryRmEvenAnUnreachableOne) {
  Serve(true);
  rm::Configuration conf = Conf(true, true);
  const uint16_t closed = net::PickFreeLoopbackPort().value();
  conf.Set("yarn.resourcemanager.admin.address.rm2", "127.0.0.1:" + std::to_string(closed));
  const Ran all = Run(conf, {"-getAllServiceState"});
  EXPECT_EQ(all.exit_code, 0);
  const std::string rm1 = "127.0.0.1:" + std::to_string(servers_["rm1"]->port());
  const std::string first = all.out.substr(0, all.out.find('\n'));
  EXPECT_EQ(first, rm1 + std::string(51 - rm1.size(), ' ') + "active    ");
  const std::string rm2 = "127.0.0.1:" + std::to_string(closed);
  EXPECT_NE(all.out.find("\n" + rm2 + std::string(51 - rm2.size(), ' ') + "Failed to connect: "),
            std::string::npos)
      << all.out;

  // And a transition toward rm1 cannot check the unreachable rm2.
  transitions_["rm1"].state = rm::HaState::kStandby;
  const Ran unchecked = Run(conf, {"-transitionToActive", "--forcemanual", "rm1"}, "y\n");
  EXPECT_EQ(unchecked.exit_code, 255);
  EXPECT_NE(unchecked.err.find("Unexpected error occurred  "), std::string::npos) << unchecked.err;
  // --forceactive skips that check.
  const Ran forced =
      Run(conf, {"-transitionToActive", "--forceactive", "--forcemanual", "rm1"}, "y\n");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(transitions_["rm1"].state, rm::HaState::kActive);
}

TEST_F(RmAdminCliTest, CheckHealth) {
  Serve(true);
  const rm::Configuration conf = Conf(true, true);
  EXPECT_EQ(Run(conf, {"-checkHealth", "rm1"}).exit_code, 0);
  transitions_["rm1"].services_running = false;
  const Ran sick = Run(conf, {"-checkHealth", "rm1"});
  EXPECT_EQ(sick.exit_code, 255);
  EXPECT_EQ(sick.err, "Health check failed: Active ResourceManager services are not running!\n");
  // Not an admin: the RM's AccessControlException.
  admins_["rm2"].acl = "someone-else";
  const Ran denied = Run(conf, {"-checkHealth", "rm2"});
  EXPECT_EQ(denied.exit_code, 255);
  EXPECT_EQ(denied.err.rfind("Operation failed: User admin doesn't have permission", 0), 0u)
      << denied.err;
}

}  // namespace
}  // namespace spindle
