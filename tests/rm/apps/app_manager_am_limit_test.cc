// The ApplicationManager under AM limits (am_activation.h): a pending app
// stays ACCEPTED with no AM container asked for, and is activated when an
// AM finishes, an app leaves, or the limits grow.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "rm/apps/app_manager.h"
#include "tests/rm/apps/app_manager_fakes.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr int64_t kGb = 1024;

class AmLimitTest : public ::testing::TestWithParam<HadoopLine>, protected AppManagerRig {
 protected:
  void SetUp() override {
    // 10% of a 10 GB cluster: 1 GB of AMs (on 2.6: one active app).
    SetLimits("0.1", pool::Resource::Of(10 * kGb, 10));
  }

  void SetLimits(const std::string& am_percent, pool::Resource cluster) {
    SetAmPercent(GetParam(), am_percent, cluster);
  }

  ApplicationId Submit(const std::string& user = "alice") {
    Submission s = DemoSubmission(manager_.get(), "default");
    s.user = user;
    s.am_resource = pool::Resource::Of(kGb, 1);
    EXPECT_TRUE(manager_->Submit(s).ok());
    return s.id;
  }

  // Brings an app whose AM was launched to its end.
  void FinishApp(const ApplicationId& id) {
    launcher_.CompleteAll(Status::OK());
    const ApplicationAttemptId attempt{id, 1};
    ASSERT_TRUE(manager_->RegisterAm(attempt, "h", 1, "").ok());
    ASSERT_TRUE(manager_->FinishAm(attempt, FinalStatus::kSucceeded, "", "").ok());
    ASSERT_TRUE(manager_->OnContainerFinished(
        manager_->GetApp(id)->current_attempt()->am_container->id, 0, ""));
  }

  bool HasAmContainer(const ApplicationId& id) {
    return manager_->GetApp(id)->current_attempt()->am_container.has_value();
  }
};

// The cell scenario of issue 18 at unit scale: with a 10% AM limit the 2nd
// and 3rd AMs stay pending (ACCEPTED, no AM container) and go one at a time
// as the AM before them finishes, in submission order.
TEST_P(AmLimitTest, SecondAmWaitsUntilTheFirstFinishes) {
  const ApplicationId first = Submit();
  const ApplicationId second = Submit();
  const ApplicationId third = Submit("bob");
  Step();
  Step();
  EXPECT_TRUE(HasAmContainer(first));
  EXPECT_FALSE(HasAmContainer(second));
  EXPECT_FALSE(HasAmContainer(third));
  EXPECT_EQ(manager_->GetApp(second)->yarn_state(), YarnAppState::kAccepted);
  EXPECT_EQ(manager_->GetApp(second)->current_attempt()->state, AttemptState::kScheduled);
  QueueAmReport report = manager_->AmReport("default");
  EXPECT_TRUE(report.limited);
  EXPECT_EQ(report.active_apps, 1);
  EXPECT_EQ(report.pending_apps, 2);
  EXPECT_EQ(report.am_used, pool::Resource::Of(kGb, 1));
  if (GetParam() == HadoopLine::k2_6) {
    EXPECT_EQ(report.limits.max_active_apps, 1);
  } else {
    EXPECT_EQ(report.limits.queue_am_limit, pool::Resource::Of(kGb, 1));
  }
  // A copy: GetApp answers a snapshot by value.
  const std::string waiting = manager_->GetApp(second)->current_attempt()->am_launch_diagnostics;
  if (GetParam() == HadoopLine::k3_3) {
    EXPECT_THAT(waiting, HasSubstr("Application is added to the scheduler and is not yet "
                                   "activated. Queue's AM resource limit exceeded."));
    EXPECT_THAT(waiting, HasSubstr("Queue AM Resource Usage = <memory:1024, vCores:1>"));
    EXPECT_EQ(ReportedDiagnostics(*manager_->GetApp(second)->current_attempt()), waiting);
  } else {
    EXPECT_THAT(waiting, IsEmpty()) << "2.x reports no AM launch diagnostics";
  }

  FinishApp(first);
  Step();
  EXPECT_TRUE(HasAmContainer(second));
  EXPECT_FALSE(HasAmContainer(third));
  EXPECT_THAT(manager_->GetApp(second)->current_attempt()->am_launch_diagnostics, IsEmpty());
  EXPECT_EQ(manager_->AmReport("default").pending_apps, 1);

  FinishApp(second);
  Step();
  EXPECT_TRUE(HasAmContainer(third));
  report = manager_->AmReport("default");
  EXPECT_EQ(report.active_apps, 1);
  EXPECT_EQ(report.pending_apps, 0);
}

// Killing a pending app frees nothing and asks for nothing; killing the
// active one lets the next go.
TEST_P(AmLimitTest, KilledAppsLeaveTheQueue) {
  const ApplicationId first = Submit();
  const ApplicationId second = Submit();
  const ApplicationId third = Submit();
  Step();
  ASSERT_TRUE(manager_->Kill(second, "").ok());
  Step();
  EXPECT_EQ(manager_->GetApp(second)->yarn_state(), YarnAppState::kKilled);
  EXPECT_FALSE(HasAmContainer(third));
  EXPECT_EQ(manager_->AmReport("default").pending_apps, 1);
  ASSERT_TRUE(manager_->Kill(first, "").ok());
  Step();
  EXPECT_TRUE(HasAmContainer(third));
  EXPECT_EQ(manager_->AmReport("default").active_apps, 1);
  EXPECT_EQ(manager_->AmReport("default").pending_apps, 0);
}

// A larger cluster (or refreshQueues raising the percentage) activates the
// waiting apps at once.
TEST_P(AmLimitTest, GrowingLimitsActivateWaitingApps) {
  Submit();
  const ApplicationId second = Submit();
  const ApplicationId third = Submit();
  Step();
  EXPECT_FALSE(HasAmContainer(second));
  SetLimits("0.3", pool::Resource::Of(10 * kGb, 10));
  Step();
  EXPECT_TRUE(HasAmContainer(second));
  EXPECT_TRUE(HasAmContainer(third));
  EXPECT_EQ(manager_->AmReport("default").pending_apps, 0);
}

// An AM that fails and is retried goes back to the pending apps, behind
// those that waited before it only if their ids are smaller.
TEST_P(AmLimitTest, RetriedAttemptWaitsLikeANewOne) {
  const ApplicationId first = Submit();
  const ApplicationId second = Submit();
  Step();
  launcher_.CompleteAll(Status::OK());
  // The first AM container exits: its attempt fails, the second app goes,
  // the first's new attempt waits.
  ASSERT_TRUE(manager_->OnContainerFinished(
      manager_->GetApp(first)->current_attempt()->am_container->id, 1, "boom"));
  Step();
  EXPECT_EQ(manager_->GetApp(first)->attempts.size(), 2u);
  EXPECT_FALSE(HasAmContainer(first));
  EXPECT_TRUE(HasAmContainer(second));
  EXPECT_EQ(manager_->AmReport("default").pending_apps, 1);
}

// Unmanaged AMs ask for no container, yet they hold a place: 2.7 and 3.3
// count the scheduler's minimum allocation (1 GB here) as their AM resource
// (FiCaSchedulerApp's constructor: release-2.7.7 lines 79-89, release-3.3.0
// lines 148-160; LeafQueue.activateApplications adds it to the AM usage),
// 2.6 counts apps (LeafQueue.activateApplications, release-2.6.0 lines
// 610-631: one active app here). With a 1 GB AM limit the second one waits,
// ACCEPTED, until the first leaves. Hadoop's TestApplicationLimits
// (testActiveApplicationLimits) holds apps the same way with managed AMs.
TEST_P(AmLimitTest, UnmanagedAmsCountAgainstTheLimit) {
  auto submit_unmanaged = [&] {
    Submission s = DemoSubmission(manager_.get(), "default");
    s.unmanaged_am = true;
    EXPECT_TRUE(manager_->Submit(s).ok());
    return s.id;
  };
  const ApplicationId first = submit_unmanaged();
  const ApplicationId second = submit_unmanaged();
  Step();
  QueueAmReport report = manager_->AmReport("default");
  EXPECT_EQ(report.active_apps, 1);
  EXPECT_EQ(report.pending_apps, 1);
  if (GetParam() != HadoopLine::k2_6) {
    EXPECT_EQ(report.am_used, pool::Resource::Of(kGb, 1));
  }
  ASSERT_TRUE(manager_->Kill(first, "").ok());
  Step();
  report = manager_->AmReport("default");
  EXPECT_EQ(report.active_apps, 1);
  EXPECT_EQ(report.pending_apps, 0);
  EXPECT_EQ(manager_->GetApp(second)->yarn_state(), YarnAppState::kAccepted);
}

// The user AM limit divides by Hadoop's active users, the users whose apps
// have outstanding requests (2.7.7 LeafQueue.getUserAMResourceLimit, 3.3.0
// getUserAMResourceLimitPerPartition: 1 / getNumActiveUsers()), not by the
// users with an app in the queue. MULP 25, AM 50% of 10 GB: 5 GB for the
// queue's AMs, 5 GB x max(0.25, 1 / active users) for a user's. alice, bob
// and carol each have an AM placed and nothing asked since: none is active,
// so alice's next two AMs go (1 + 2 GB of her 5 GB), where counting the
// three users in the queue would give her 2 GB and hold the second.
TEST_P(AmLimitTest, UserAmLimitCountsOnlyUsersWhoAsk) {
  if (GetParam() == HadoopLine::k2_6) GTEST_SKIP() << "2.6 limits counts, not resources";
  AmLimitContext context;
  context.line = GetParam();
  context.min_allocation = pool::Resource::Of(kGb, 1);
  context.cluster = pool::Resource::Of(10 * kGb, 10);
  manager_->SetAmLimits(
      test_support::ParsedTree({{"root.queues", "default"},
                                {"root.default.capacity", "100"},
                                {"root.default.minimum-user-limit-percent", "25"},
                                {"root.default.maximum-am-resource-percent", "0.5"}}),
      context);
  const ApplicationId a1 = Submit("alice");
  const ApplicationId b1 = Submit("bob");
  const ApplicationId c1 = Submit("carol");
  Step();
  for (const ApplicationId& id : {a1, b1, c1}) EXPECT_TRUE(HasAmContainer(id));
  EXPECT_TRUE(manager_->ActivityReport().empty()) << "AMs placed, nothing asked";
  const ApplicationId a2 = Submit("alice");
  const ApplicationId a3 = Submit("alice");
  EXPECT_TRUE(manager_->AmActive({a2, 1}));
  EXPECT_TRUE(manager_->AmActive({a3, 1}));
  QueueAmReport report = manager_->AmReport("default");
  EXPECT_EQ(report.users.at("alice").active_apps, 3);
  EXPECT_EQ(report.users.at("alice").am_used, pool::Resource::Of(3 * kGb, 3));
  // One active user (alice, her AM requests outstanding): 5 GB.
  EXPECT_EQ(report.limits.user_am_limit, pool::Resource::Of(5 * kGb, 1));
  // bob asks again: two active users, 2.5 GB rounded up to 3 GB; alice's
  // fourth would take her to 4 GB and waits (the queue's 5 GB are used too).
  ApplicationManager::AskActivity asking;
  asking.newly_asking = true;
  asking.outstanding = true;
  manager_->OnAsksUpdated({b1, 1}, asking);
  EXPECT_EQ(manager_->AmReport("default").limits.user_am_limit, pool::Resource::Of(3 * kGb, 1));
  const ApplicationId a4 = Submit("alice");
  EXPECT_FALSE(manager_->AmActive({a4, 1}));
}

INSTANTIATE_TEST_SUITE_P(Lines, AmLimitTest,
                         ::testing::Values(HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3));

// Without SetAmLimits (no queue tree) nothing waits, as before.
TEST(AmLimitUnset, EveryAmIsAskedForAtOnce) {
  ManualClock clock{TimePoint{}, 1700000000000};
  auto pool = test_support::MakeOneQueuePool(&clock).pool;
  FakeNodes nodes;
  auto node = pool->AddNode({pool::Resource::Of(10 * kGb, 10), "/default-rack", 1.0});
  ASSERT_TRUE(node.ok());
  nodes.nodes[node->value()] = NodeInfo{NodeId{"host1", 45454}, "host1:8042", "/default-rack"};
  FakeLauncher launcher;
  ContainerRegistry containers(pool.get());
  ApplicationManagerOptions options;
  options.cluster_timestamp_ms = 1700000000000;
  ApplicationManager manager(options, pool.get(), &containers, &launcher, &nodes, &clock);
  for (int i = 0; i < 3; ++i) {
    Submission s = DemoSubmission(&manager, "default");
    ASSERT_TRUE(manager.Submit(s).ok());
  }
  pool->RunAllOnce(clock.Now());
  manager.Tick();
  EXPECT_EQ(launcher.launches.size(), 3u);
  EXPECT_FALSE(manager.AmReport("default").limited);
}

}  // namespace
}  // namespace spindle::rm
