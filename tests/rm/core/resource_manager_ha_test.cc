// The RM core as an HA member: two ResourceManagers in one process with the
// embedded elector on a real ZooKeeper (MiniZooKeeper): Start leaves them
// standby, the election makes one active, a fenced store sends the active
// standby and back into the election, Stop quits it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "integration/wait_for.h"
#include "rm/config/configuration_directory.h"
#include "rm/core/resource_manager.h"
#include "rm/yarn_exceptions.h"
#include "tests/persist/zk/zk_test_server.h"

namespace spindle::rm {
namespace {

using std::chrono::milliseconds;

class NoLauncher : public AmLauncher {
 public:
  void Launch(const AmLaunch&, std::function<void(Status)> done) override { done(Status::OK()); }
  void Cleanup(const AmLaunch&) override {}
};

class ResourceManagerHaTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { zk::ZkTestServer::Shutdown(); }

  void SetUp() override {
    SPINDLE_REQUIRE_ZOOKEEPER();
    test_name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = std::filesystem::temp_directory_path() /
           ("rm_ha_test_" + std::to_string(::getpid()) + "_" + test_name_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Result<std::unique_ptr<ResourceManager>> MakeRm(const std::string& rm_id,
                                                  const std::string& line = "3.3") {
    const std::filesystem::path conf_dir = dir_ / rm_id;
    std::filesystem::create_directories(conf_dir);
    std::map<std::string, std::string> keys = {
        {"spindle.compat.hadoop-version", line},
        {"spindle.scheduler.count", "1"},
        {"spindle.scheduler.partitions", "1"},
        {"yarn.resourcemanager.ha.enabled", "true"},
        {"yarn.resourcemanager.ha.rm-ids", "rm1,rm2"},
        {"yarn.resourcemanager.ha.id", rm_id},
        {"yarn.resourcemanager.hostname.rm1", "127.0.0.1"},
        {"yarn.resourcemanager.hostname.rm2", "127.0.0.1"},
        {"yarn.resourcemanager.cluster-id", test_name_},
        {"yarn.resourcemanager.ha.automatic-failover.zk-base-path", "/rm-ha-test"},
        {"yarn.resourcemanager.zk-address", zk::ZkTestServer::server()->connect_string()},
        {"yarn.resourcemanager.zk-timeout-ms", "2000"},
    };
    std::ofstream xml(conf_dir / "yarn-site.xml", std::ios::trunc);
    xml << "<configuration>\n";
    for (const auto& [key, value] : keys) {
      xml << "<property><name>" << key << "</name><value>" << value << "</value></property>\n";
    }
    xml << "</configuration>\n";
    xml.close();
    ASSIGN_OR_RETURN(Configuration conf, LoadConfigurationDirectory(conf_dir.string()));
    ResourceManagerOptions options;
    options.node_token_service = [](const NodeId& node) { return node.ToString(); };
    options.launcher_factory = [](const SecretManagers&) { return std::make_unique<NoLauncher>(); };
    options.elector_sleep_after_failure = milliseconds(100);
    options.on_fatal_store_failure = [this] { terminated_.store(true); };
    return ResourceManager::Create(std::move(conf), std::move(options));
  }

  std::string test_name_;
  std::filesystem::path dir_;
  std::atomic<bool> terminated_{false};
};

TEST_F(ResourceManagerHaTest, StartsStandbyAndTheElectionMakesExactlyOneActive) {
  auto rm1 = MakeRm("rm1");
  ASSERT_TRUE(rm1.ok()) << rm1.status().ToString();
  auto rm2 = MakeRm("rm2");
  ASSERT_TRUE(rm2.ok()) << rm2.status().ToString();
  ASSERT_NE((*rm1)->elector(), nullptr);
  EXPECT_EQ((*rm1)->ha_state(), HaState::kStandby);

  ASSERT_TRUE((*rm1)->Start().ok());
  ASSERT_TRUE(WaitFor([&] { return (*rm1)->active(); }));
  ASSERT_TRUE((*rm2)->Start().ok());
  ASSERT_TRUE(WaitFor([&] {
    return (*rm2)->elector()->elector().state() == ActiveStandbyElector::State::kStandby;
  }));
  EXPECT_EQ((*rm2)->ha_state(), HaState::kStandby);
  // The standby's AM path answers StandbyException.
  auto secret = (*rm2)->RetrieveAmrmSecret("x");
  ASSERT_FALSE(secret.ok());
  EXPECT_EQ(secret.status().java_class(), yarn::kStandby);

  // Stop quits the election: the other takes over at once.
  (*rm1)->Stop();
  EXPECT_EQ((*rm1)->ha_state(), HaState::kStopped);
  ASSERT_TRUE(WaitFor([&] { return (*rm2)->active(); }));
  EXPECT_FALSE(terminated_.load());
}

TEST_F(ResourceManagerHaTest, AFencedStoreSendsTheActiveStandbyAndBackIntoTheElection) {
  auto rm1 = MakeRm("rm1");
  auto rm2 = MakeRm("rm2");
  ASSERT_TRUE(rm1.ok() && rm2.ok());
  ASSERT_TRUE((*rm1)->Start().ok());
  ASSERT_TRUE(WaitFor([&] { return (*rm1)->active(); }));
  ASSERT_TRUE((*rm2)->Start().ok());
  ASSERT_TRUE(WaitFor([&] {
    return (*rm2)->elector()->elector().state() == ActiveStandbyElector::State::kStandby;
  }));
  // 3.3: standby in a new thread, then the elector rejoins; its quit
  // released the lock, so rm2 wins and rm1 rejoins behind it.
  (*rm1)->OnStoreFenced("fenced by the test");
  ASSERT_TRUE(WaitFor([&] { return (*rm2)->active(); }));
  ASSERT_TRUE(WaitFor([&] {
    return (*rm1)->elector()->elector().state() == ActiveStandbyElector::State::kStandby;
  }));
  EXPECT_EQ((*rm1)->ha_state(), HaState::kStandby);
  EXPECT_TRUE((*rm1)->elector()->elector().in_election());
  EXPECT_FALSE(terminated_.load());
}

TEST_F(ResourceManagerHaTest, TwoSixGoesStandbyOnAFencedStoreWithoutRejoining) {
  auto rm1 = MakeRm("rm1", "2.6");
  ASSERT_TRUE(rm1.ok()) << rm1.status().ToString();
  ASSERT_TRUE((*rm1)->Start().ok());
  ASSERT_TRUE(WaitFor([&] { return (*rm1)->active(); }));
  (*rm1)->OnStoreFenced("fenced by the test");
  ASSERT_TRUE(WaitFor([&] { return (*rm1)->ha_state() == HaState::kStandby; }));
  // Still holding the lock (2.6's dispatcher resets nothing): no second
  // activation comes.
  EXPECT_TRUE((*rm1)->elector()->elector().in_election());
  EXPECT_FALSE(terminated_.load());
}

TEST_F(ResourceManagerHaTest, WithoutHaAFencedStoreStopsTheRm) {
  const std::filesystem::path conf_dir = dir_ / "plain";
  std::filesystem::create_directories(conf_dir);
  auto conf = LoadConfigurationDirectory(conf_dir.string());
  ASSERT_TRUE(conf.ok());
  ResourceManagerOptions options;
  options.node_token_service = [](const NodeId& node) { return node.ToString(); };
  options.launcher_factory = [](const SecretManagers&) { return std::make_unique<NoLauncher>(); };
  options.on_fatal_store_failure = [this] { terminated_.store(true); };
  auto rm = ResourceManager::Create(std::move(*conf), std::move(options));
  ASSERT_TRUE(rm.ok());
  EXPECT_EQ((*rm)->elector(), nullptr);
  ASSERT_TRUE((*rm)->Start().ok());
  EXPECT_TRUE((*rm)->active());
  (*rm)->OnStoreFenced("fenced by the test");
  EXPECT_TRUE(terminated_.load());
}

}  // namespace
}  // namespace spindle::rm
