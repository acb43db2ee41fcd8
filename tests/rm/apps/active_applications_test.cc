// ActiveApplications against the numbers of Hadoop's own tests:
// TestLeafQueue#testHeadroomWithMaxCap (release-2.6.0; the active-user
// counts as AppSchedulingInfo drives ActiveUsersManager),
// TestSchedulerApplicationAttempt#testMove (one active app moves with its
// app) and UsersManager.activateApplication's gate (rel/release-3.3.0).
#include "rm/apps/active_applications.h"

#include <gtest/gtest.h>

#include <string>

namespace spindle::rm {
namespace {

ApplicationId App(int32_t seq) { return ApplicationId{1700000000000, seq}; }

int64_t Users(const ActiveApplications& a, const std::string& queue) {
  const auto report = a.Report();
  auto it = report.find(queue);
  return it == report.end() ? 0 : static_cast<int64_t>(it->second.users.size());
}

int64_t Apps(const ActiveApplications& a, const std::string& queue) {
  const auto report = a.Report();
  auto it = report.find(queue);
  return it == report.end() ? 0 : it->second.active_apps;
}

class ActiveApplicationsByLine : public ::testing::TestWithParam<HadoopLine> {};

// TestLeafQueue#testHeadroomWithMaxCap: user_0's app_0 (1 container) and
// app_1 (2) ask, user_1's app_2 does not: one active user. app_2 asks: two.
// app_0 is served (its ANY reaches 0) and app_1 unsets its ask: one again.
TEST_P(ActiveApplicationsByLine, UsersAreActiveWhileOneOfTheirAppsAsks) {
  ActiveApplications a;
  const HadoopLine line = GetParam();
  // Every app activated under the AM limits (3.3's gate open).
  a.Activate(line, "a", "user_0", App(0), 2);
  a.Activate(line, "a", "user_0", App(1), 2);
  EXPECT_EQ(Users(a, "a"), 1);
  EXPECT_EQ(Apps(a, "a"), 2);
  a.Activate(line, "a", "user_1", App(2), 1);
  EXPECT_EQ(Users(a, "a"), 2);
  EXPECT_EQ(Apps(a, "a"), 3);
  a.Deactivate("a", "user_0", App(0));
  EXPECT_EQ(Users(a, "a"), 2) << "user_0's app_1 still asks";
  a.Deactivate("a", "user_0", App(1));
  EXPECT_EQ(Users(a, "a"), 1);
  EXPECT_EQ(Apps(a, "a"), 1);
  EXPECT_TRUE(a.IsActive("a", App(2)));
  EXPECT_FALSE(a.IsActive("a", App(0)));
}

// ActiveUsersManager keeps a set: an app asking again is not counted again,
// and deactivating an app that is not active changes nothing.
TEST_P(ActiveApplicationsByLine, ActivationIsIdempotentPerApp) {
  ActiveApplications a;
  a.Activate(GetParam(), "a", "alice", App(1), 1);
  a.Activate(GetParam(), "a", "alice", App(1), 1);
  EXPECT_EQ(Apps(a, "a"), 1);
  a.Deactivate("a", "alice", App(7));
  a.Deactivate("b", "alice", App(1));
  EXPECT_EQ(Apps(a, "a"), 1);
  a.Deactivate("a", "alice", App(1));
  a.Deactivate("a", "alice", App(1));
  EXPECT_TRUE(a.Report().empty());
}

// TestSchedulerApplicationAttempt#testMove: the app is active in the old
// queue (1), then in the new one (1) and no longer in the old (0).
TEST_P(ActiveApplicationsByLine, AMovedAppIsActiveInItsNewQueueOnly) {
  ActiveApplications a;
  a.Activate(GetParam(), "old", "user1", App(0), 1);
  EXPECT_EQ(Apps(a, "old"), 1);
  EXPECT_EQ(Apps(a, "new"), 0);
  a.Deactivate("old", "user1", App(0));
  a.Activate(GetParam(), "new", "user1", App(0), 1);
  EXPECT_EQ(Apps(a, "old"), 0);
  EXPECT_EQ(Apps(a, "new"), 1);
  EXPECT_EQ(Users(a, "new"), 1);
}

// UsersManager.activateApplication (3.3): while none of the user's apps is
// activated under the AM limits, its asks make nobody active; 2.6 / 2.7's
// ActiveUsersManager has no such gate. An app already active stays so.
TEST_P(ActiveApplicationsByLine, ThreeThreeIgnoresUsersWithoutAnActivatedApp) {
  ActiveApplications a;
  const bool gated = GetParam() == HadoopLine::k3_3;
  EXPECT_EQ(a.Activate(GetParam(), "a", "held", App(1), 0), !gated);
  EXPECT_EQ(Users(a, "a"), gated ? 0 : 1);
  EXPECT_TRUE(a.Activate(GetParam(), "a", "held", App(1), 1));
  EXPECT_TRUE(a.Activate(GetParam(), "a", "held", App(1), 0)) << "already active";
  EXPECT_EQ(Apps(a, "a"), 1);
}

INSTANTIATE_TEST_SUITE_P(Lines, ActiveApplicationsByLine,
                         ::testing::Values(HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3));

}  // namespace
}  // namespace spindle::rm
