// The test server itself: it serves, stops, and restarts with its data.
#include "tests/support/mini_zookeeper.h"

#include <gtest/gtest.h>

#include "persist/zk/zk_session.h"
#include "tests/persist/temp_dir.h"

namespace spindle::testing {
namespace {

TEST(MiniZooKeeperTest, ServesStopsAndRestartsWithItsData) {
  const std::string missing = MiniZooKeeper::MissingComponent();
  if (!missing.empty()) GTEST_SKIP() << "ZooKeeper server not installed: " << missing;
  persist::TempDir dir;
  MiniZooKeeperOptions options;
  options.work_dir = dir.path();
  auto started = MiniZooKeeper::Start(options);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  MiniZooKeeper& zk = **started;
  EXPECT_GT(zk.port(), 0);
  EXPECT_EQ(*zk.FourLetterWord("ruok"), "imok");
  EXPECT_NE(zk.FourLetterWord("srvr")->find("Mode: standalone"), std::string::npos);

  zk::ZkSessionOptions client;
  client.connect_string = zk.connect_string();
  client.session_timeout = std::chrono::milliseconds(4000);
  {
    auto session = zk::ZkSession::Open(client);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    ASSERT_TRUE((*session)->Create("/kept", "bytes", {zk::WorldAnyone()}).ok());
  }

  zk.Stop();
  EXPECT_FALSE(zk.FourLetterWord("ruok").ok());
  ASSERT_TRUE(zk.Restart().ok());
  auto session = zk::ZkSession::Open(client);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ((*session)->Get("/kept")->data, "bytes");
}

}  // namespace
}  // namespace spindle::testing
