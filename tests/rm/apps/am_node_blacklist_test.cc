// AM node blacklisting against Hadoop 3.3.0: Apps.shouldCountTowardsNode-
// Blacklisting (hadoop-yarn-common, lines 274-303), SimpleBlacklistManager.
// getBlacklistUpdates and RMAppAttemptImpl.amContainerFinished (2002-2028).
#include "rm/apps/am_node_blacklist.h"

#include <gtest/gtest.h>

#include <memory>

#include "rm/apps/app_manager.h"
#include "tests/rm/apps/app_manager_fakes.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {
namespace {

TEST(AmNodeBlacklistTest, OnlyFailuresThatMayBeTheNodesCount) {
  for (int32_t status : {0, -100, -101, -102, -103, -104, -105, -106, -107}) {
    EXPECT_FALSE(CountsTowardsAmBlacklisting(status)) << status;
  }
  for (int32_t status : {-1000, 1, 127, 137, 143}) {
    EXPECT_TRUE(CountsTowardsAmBlacklisting(status)) << status;
  }
}

TEST(AmNodeBlacklistTest, IgnoredWholeOnceItReachesTheThresholdShareOfNodes) {
  AmNodeBlacklist blacklist;
  EXPECT_TRUE(blacklist.NodesToAvoid(10, 0.2).empty());
  blacklist.Add(pool::NodeId(0, 3));
  // 1 < 0.2 x 10: applies.
  EXPECT_EQ(blacklist.NodesToAvoid(10, 0.2), std::vector<pool::NodeId>{pool::NodeId(0, 3)});
  blacklist.Add(pool::NodeId(0, 3));
  blacklist.Add(pool::NodeId(0, 5));
  // 2 >= 0.2 x 10: ignored.
  EXPECT_TRUE(blacklist.NodesToAvoid(10, 0.2).empty());
  EXPECT_EQ(blacklist.NodesToAvoid(11, 0.2).size(), 2u);
  // No usable node known: nothing to avoid.
  EXPECT_TRUE(blacklist.NodesToAvoid(0, 0.2).empty());
}

// An ApplicationManager with six equal nodes and blacklisting on.
ApplicationManagerOptions BlacklistingOptions() {
  ApplicationManagerOptions options = RigOptions(pool::Resource::Of(128, 1));
  options.max_attempts = 4;
  options.am_blacklisting_enabled = true;
  return options;
}

class AmBlacklistingTest : public ::testing::Test, protected AppManagerRig {
 protected:
  AmBlacklistingTest()
      : AppManagerRig(BlacklistingOptions(), pool::Resource::Of(8192, 8),
                      {"host0", "host1", "host2", "host3", "host4", "host5"}) {}

  // Places and launches the pending AM container; its node.
  NodeId LaunchAm() {
    Step();
    launcher_.CompleteAll(Status::OK());
    return launcher_.launches.back().node;
  }
};

TEST_F(AmBlacklistingTest, ARelaunchAvoidsTheNodeTheAmFailedOn) {
  Submission s = DemoSubmission(manager_.get(), "default");
  ASSERT_TRUE(manager_->Submit(s).ok());
  const NodeId first = LaunchAm();
  // The AM crashed (exit 1): its node may be at fault.
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches.back().container, 1, "boom"));
  EXPECT_EQ(manager_->GetApp(s.id)->am_blacklist.size(), 1u);
  const NodeId second = LaunchAm();
  EXPECT_NE(second, first);
  // Lost with its node (ABORTED): not the node's fault, nothing added.
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches.back().container, -100, ""));
  EXPECT_EQ(manager_->GetApp(s.id)->am_blacklist.size(), 1u);
  const NodeId third = LaunchAm();
  EXPECT_NE(third, first);
  EXPECT_EQ(manager_->GetApp(s.id)->attempts.size(), 3u);
}

}  // namespace
}  // namespace spindle::rm
