// The queue's active applications and users (QueueMetrics ActiveApplications
// / ActiveUsers) as real allocate calls move them: AttemptAllocator tells
// the ApplicationManager when an ANY total goes from none to some, or to
// zero (written, or by the containers handed out), as AppSchedulingInfo
// calls activateApplication / checkForDeactivation (release-2.6.0
// updateResourceRequests / decrementOutstanding; rel/release-3.3.0
// updatePendingResources / LocalityAppPlacementAllocator).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/rm/core/attempt_allocator_fixture.h"

namespace spindle::rm {
namespace {

using test_support::Ask;

class QueueActivityTest : public test_support::AttemptAllocatorFixture {
 protected:
  ApplicationAttemptId Submitted(const std::string& user) {
    Submission s = DemoSubmission(apps_.get(), "default");
    s.user = user;
    EXPECT_TRUE(apps_->Submit(s).ok());
    return ApplicationAttemptId{s.id, 1};
  }
  // Submitted, its AM container placed and launched, registered.
  ApplicationAttemptId Registered(const std::string& user) {
    const ApplicationAttemptId attempt = Submitted(user);
    Place();
    launcher_.CompleteAll(Status::OK());
    EXPECT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
    return attempt;
  }
  int64_t ActiveApps() const {
    const auto report = apps_->ActivityReport();
    auto it = report.find("default");
    return it == report.end() ? 0 : it->second.active_apps;
  }
  std::set<std::string> ActiveUsers() const {
    std::set<std::string> users;
    const auto report = apps_->ActivityReport();
    if (auto it = report.find("default"); it != report.end()) {
      for (const auto& [user, apps] : it->second.users) users.insert(user);
    }
    return users;
  }
};

// TestSchedulerApplicationAttempt / AppSchedulingInfo: active from the AM
// request, inactive once the AM container is allocated, active again while
// the AM's asks want containers, inactive once the last is handed out or
// the total is written as zero.
TEST_F(QueueActivityTest, AnAppIsActiveWhileItsRequestsWantContainers) {
  const ApplicationAttemptId attempt = Submitted("alice");
  EXPECT_EQ(ActiveApps(), 1);
  EXPECT_EQ(ActiveUsers(), std::set<std::string>{"alice"});
  Place();
  EXPECT_EQ(ActiveApps(), 0) << "the AM request is served";
  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
  EXPECT_EQ(ActiveApps(), 0);

  CallWith(attempt, {Ask("*", 3)});
  EXPECT_EQ(ActiveApps(), 1);
  CallWith(attempt, {Ask("*", 3)});  // the same total again
  EXPECT_EQ(ActiveApps(), 1);
  Place();
  EXPECT_EQ(ActiveApps(), 1) << "placed, not yet handed out";
  ASSERT_EQ(Call(attempt)->allocated.size(), 3u);
  EXPECT_EQ(ActiveApps(), 0) << "the total reached zero";

  CallWith(attempt, {Ask("*", 2)});
  EXPECT_EQ(ActiveApps(), 1) << "a total raised again";
  CallWith(attempt, {Ask("*", 0)});
  EXPECT_EQ(ActiveApps(), 0) << "a total written as zero";
  EXPECT_TRUE(ActiveUsers().empty());
}

// checkForDeactivation looks at every key: one emptied while another still
// asks leaves the app active.
TEST_F(QueueActivityTest, TheAppStaysActiveWhileAnyKeyAsks) {
  const ApplicationAttemptId attempt = Registered("alice");
  CallWith(attempt, {Ask("*", 1, true, pool::Resource::Of(1024, 1), 1),
                     Ask("*", 1, true, pool::Resource::Of(2048, 1), 2)});
  EXPECT_EQ(ActiveApps(), 1);
  CallWith(attempt, {Ask("*", 0, true, pool::Resource::Of(1024, 1), 1)});
  EXPECT_EQ(ActiveApps(), 1);
  CallWith(attempt, {Ask("*", 0, true, pool::Resource::Of(2048, 1), 2)});
  EXPECT_EQ(ActiveApps(), 0);
}

// TestLeafQueue#testHeadroomWithMaxCap (release-2.6.0): user_0's app_0
// (1 x 2 GB) and app_1 (2 x 1 GB) ask and user_1's app_2 does not: one
// active user. app_2 asks: two. app_1 unsets its ask and app_0 is served:
// one (user_1).
TEST_F(QueueActivityTest, ActiveUsersAsTestHeadroomWithMaxCapCountsThem) {
  const ApplicationAttemptId app_0 = Registered("user_0");
  const ApplicationAttemptId app_1 = Registered("user_0");
  const ApplicationAttemptId app_2 = Registered("user_1");
  CallWith(app_0, {Ask("*", 1, true, pool::Resource::Of(2048, 1))});
  CallWith(app_1, {Ask("*", 2)});
  EXPECT_EQ(ActiveUsers(), std::set<std::string>{"user_0"});
  EXPECT_EQ(ActiveApps(), 2);
  CallWith(app_2, {Ask("*", 1)});
  EXPECT_EQ(ActiveUsers(), (std::set<std::string>{"user_0", "user_1"}));
  CallWith(app_1, {Ask("*", 0)});
  EXPECT_EQ(ActiveUsers().size(), 2u) << "app_0 still asks";
  Place();
  ASSERT_EQ(Call(app_0)->allocated.size(), 1u);
  EXPECT_EQ(ActiveUsers(), std::set<std::string>{"user_1"});
  EXPECT_EQ(ActiveApps(), 1);
}

// LeafQueue.finishApplication: an app that ends is inactive whatever its
// table still asks.
TEST_F(QueueActivityTest, AnAppThatEndsIsInactive) {
  const ApplicationAttemptId attempt = Registered("alice");
  CallWith(attempt, {Ask("*", 4)});
  EXPECT_EQ(ActiveApps(), 1);
  ASSERT_TRUE(apps_->Kill(attempt.app, "").ok());
  EXPECT_EQ(ActiveApps(), 0);
}

}  // namespace
}  // namespace spindle::rm
