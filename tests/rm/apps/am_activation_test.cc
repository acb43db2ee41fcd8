#include "rm/apps/am_activation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

namespace spindle::rm {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr int64_t kGb = 1024;
constexpr char kQueue[] = "a";

ApplicationAttemptId Attempt(int32_t app) { return ApplicationAttemptId{{1, app}, 1}; }

AmApplicant Applicant(int32_t app, const std::string& user, int64_t am_gb, int32_t priority = 0) {
  AmApplicant a;
  a.attempt = Attempt(app);
  a.user = user;
  a.am_resource = pool::Resource::Of(am_gb * kGb, 0);
  a.priority = priority;
  return a;
}

// TestApplicationLimits' queue a: 10% of the cluster, user limit 50%,
// user-limit-factor 5, maximum-am-resource-percent 0.1, nothing used.
LeafAmInputs QueueA(const pool::Resource& cluster, double am_fraction = 0.1) {
  LeafAmInputs a;
  a.am_fraction = am_fraction;
  a.absolute_capacity = 0.1;
  a.absolute_maximum_capacity = 1;
  a.minimum_user_limit_percent = 50;
  a.user_limit_factor = 5;
  a.current_limit = cluster;
  return a;
}

AmActivation Activation(HadoopLine line, const pool::Resource& cluster, double am_fraction = 0.1) {
  AmLimitContext context;
  context.line = line;
  context.min_allocation = pool::Resource::Of(kGb, 1);
  context.cluster = cluster;
  AmActivation activation(context);
  activation.SetLeafInputs({{kQueue, QueueA(cluster, am_fraction)}});
  return activation;
}

void ExpectCounts(const AmActivation& activation, int32_t active, int32_t pending) {
  const QueueAmReport report = activation.Report(kQueue);
  EXPECT_EQ(report.active_apps, active);
  EXPECT_EQ(report.pending_apps, pending);
}

void ExpectUser(const AmActivation& activation, const std::string& user, int32_t active,
                int32_t pending) {
  const QueueAmReport report = activation.Report(kQueue);
  auto it = report.users.find(user);
  const UserAmReport none;
  const UserAmReport& u = it == report.users.end() ? none : it->second;
  EXPECT_EQ(u.active_apps, active) << user;
  EXPECT_EQ(u.pending_apps, pending) << user;
}

class AmActivationByLine : public ::testing::TestWithParam<HadoopLine> {};

// TestApplicationLimits#testActiveApplicationLimits (2.7.7, 3.3.0): 10 nodes
// of 16 GB, queue AM limit 16 GB, user AM limit 8 GB (no active user in the
// test's mocks, so the effective user limit is 1).
TEST_P(AmActivationByLine, ActiveApplicationLimits) {
  AmActivation activation = Activation(GetParam(), pool::Resource::Of(10 * 16 * kGb, 320));
  activation.SetActiveUsersCount([](const std::string&) { return 0; });
  EXPECT_EQ(activation.Report(kQueue).limits.queue_am_limit, pool::Resource::Of(16 * kGb, 1));
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit, pool::Resource::Of(8 * kGb, 1));

  EXPECT_THAT(activation.Add(kQueue, Applicant(0, "user_0", 4)).activated, ElementsAre(Attempt(0)));
  EXPECT_THAT(activation.Add(kQueue, Applicant(1, "user_0", 4)).activated, ElementsAre(Attempt(1)));
  ExpectCounts(activation, 2, 0);
  // The third stays pending: user_0 would use 12 GB of its 8 GB.
  AmActivationPass pass = activation.Add(kQueue, Applicant(2, "user_0", 4));
  EXPECT_THAT(pass.activated, IsEmpty());
  ASSERT_EQ(pass.waiting.size(), 1u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kUserAmLimit);
  ExpectCounts(activation, 2, 1);
  ExpectUser(activation, "user_0", 2, 1);
  // app_0 finishes: app_2 goes.
  ASSERT_EQ(activation.Remove(Attempt(0)), std::optional<std::string>(kQueue));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(2)));
  ExpectCounts(activation, 2, 0);
  // Another for user_0 waits.
  EXPECT_THAT(activation.Add(kQueue, Applicant(3, "user_0", 4)).activated, IsEmpty());
  ExpectUser(activation, "user_0", 2, 1);
  // user_1's first (8 GB) goes: the queue then holds 16 GB of AMs.
  EXPECT_THAT(activation.Add(kQueue, Applicant(4, "user_1", 8)).activated, ElementsAre(Attempt(4)));
  ExpectCounts(activation, 3, 1);
  ExpectUser(activation, "user_1", 1, 0);
  // user_2's first is blocked by the queue limit.
  pass = activation.Add(kQueue, Applicant(5, "user_2", 8));
  EXPECT_THAT(pass.activated, IsEmpty());
  ASSERT_EQ(pass.waiting.size(), 2u);
  EXPECT_EQ(pass.waiting[1].attempt, Attempt(5));
  EXPECT_EQ(pass.waiting[1].reason, AmWaitReason::kQueueAmLimit);
  ExpectCounts(activation, 3, 2);
  // user_1's app finishes: app_5 goes (app_3 still over user_0's limit).
  activation.Remove(Attempt(4));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(5)));
  ExpectCounts(activation, 3, 1);
  ExpectUser(activation, "user_0", 2, 1);
  ExpectUser(activation, "user_1", 0, 0);
  ExpectUser(activation, "user_2", 1, 0);
  EXPECT_EQ(activation.Report(kQueue).am_used, pool::Resource::Of(16 * kGb, 0));
}

// TestApplicationLimits#testActiveLimitsWithKilledApps (2.7.7, 3.3.0).
TEST_P(AmActivationByLine, ActiveLimitsWithKilledApps) {
  AmActivation activation = Activation(GetParam(), pool::Resource::Of(10 * 16 * kGb, 320));
  activation.SetActiveUsersCount([](const std::string&) { return 0; });
  for (int32_t app = 0; app < 4; ++app) activation.Add(kQueue, Applicant(app, "user_0", 4));
  ExpectCounts(activation, 2, 2);
  EXPECT_TRUE(activation.IsPending(Attempt(2)));
  EXPECT_TRUE(activation.IsPending(Attempt(3)));
  // Killing the pending app_2 activates nothing.
  activation.Remove(Attempt(2));
  EXPECT_THAT(activation.Activate(kQueue).activated, IsEmpty());
  ExpectCounts(activation, 2, 1);
  EXPECT_FALSE(activation.IsPending(Attempt(2)));
  // app_0 finishes: app_3 goes.
  activation.Remove(Attempt(0));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(3)));
  ExpectCounts(activation, 2, 0);
  activation.Remove(Attempt(1));
  activation.Activate(kQueue);
  ExpectCounts(activation, 1, 0);
  activation.Remove(Attempt(3));
  activation.Activate(kQueue);
  ExpectCounts(activation, 0, 0);
  ExpectUser(activation, "user_0", 0, 0);
  EXPECT_EQ(activation.Report(kQueue).am_used, pool::Resource());
}

// TestApplicationLimits#testAMResourceLimit (2.7.7, 3.3.0): 80 GB; the queue
// may hold 8 GB of AMs, a user 4 GB while one user is active and 2 GB with
// two.
TEST_P(AmActivationByLine, AmResourceLimitWithActiveUsers) {
  AmActivation activation = Activation(GetParam(), pool::Resource::Of(80 * kGb, 40));
  int32_t active_users = 0;
  activation.SetActiveUsersCount([&active_users](const std::string&) { return active_users; });
  activation.Add(kQueue, Applicant(0, "user_0", 2));
  active_users = 1;
  activation.Add(kQueue, Applicant(1, "user_0", 2));
  ExpectUser(activation, "user_0", 2, 0);
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit, pool::Resource::Of(4 * kGb, 1));
  activation.Add(kQueue, Applicant(2, "user_1", 2));
  ExpectCounts(activation, 3, 0);
  active_users = 2;
  EXPECT_EQ(activation.Report(kQueue).limits.queue_am_limit, pool::Resource::Of(8 * kGb, 1));
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit, pool::Resource::Of(2 * kGb, 1));
  // user_1's second cannot start.
  activation.Add(kQueue, Applicant(3, "user_1", 2));
  ExpectCounts(activation, 3, 1);
  ExpectUser(activation, "user_1", 1, 1);
  // app_2 finishes: app_3 goes.
  activation.Remove(Attempt(2));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(3)));
  ExpectCounts(activation, 3, 0);
}

// The first AM of a queue always starts, however low the limit
// (LeafQueue.activateApplications: "skipping enforcement to allow at least
// one application to start"); the second waits.
TEST_P(AmActivationByLine, FirstAmStartsOverTheLimit) {
  // 5% of a 10 GB cluster: 512 MB, rounded up to 1 GB; AMs of 2 GB.
  AmActivation activation = Activation(GetParam(), pool::Resource::Of(10 * kGb, 10), 0.05);
  EXPECT_THAT(activation.Add(kQueue, Applicant(1, "u", 2)).activated, ElementsAre(Attempt(1)));
  EXPECT_THAT(activation.Add(kQueue, Applicant(2, "u", 2)).activated, IsEmpty());
  EXPECT_THAT(activation.Add(kQueue, Applicant(3, "v", 2)).activated, IsEmpty());
  ExpectCounts(activation, 1, 2);
  activation.Remove(Attempt(1));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(2)));
}

INSTANTIATE_TEST_SUITE_P(Lines, AmActivationByLine,
                         ::testing::Values(HadoopLine::k2_7, HadoopLine::k3_3));

// TestApplicationLimits#testActiveApplicationLimits (2.6.0): a count of 10
// active apps, 2 per user; then 3 in the queue. The inputs give those counts:
// ceil(160 x 0.0625 x 1) = 10, ceil(ceil(160 x 0.0625 x 0.1) x 0.5 x 4) = 2;
// with 0.0185: ceil(2.96) = 3 and still 2 per user.
TEST(AmActivationCount, ActiveApplicationLimits26) {
  const pool::Resource cluster = pool::Resource::Of(10 * 16 * kGb, 320);
  AmLimitContext context;
  context.line = HadoopLine::k2_6;
  context.min_allocation = pool::Resource::Of(kGb, 1);
  context.cluster = cluster;
  AmActivation activation(context);
  LeafAmInputs a = QueueA(cluster, 0.0625);
  a.user_limit_factor = 4;
  activation.SetLeafInputs({{kQueue, a}});
  EXPECT_EQ(activation.Report(kQueue).limits.max_active_apps, 10);
  EXPECT_EQ(activation.Report(kQueue).limits.max_active_apps_per_user, 2);

  activation.Add(kQueue, Applicant(0, "user_0", 1));
  activation.Add(kQueue, Applicant(1, "user_0", 1));
  ExpectCounts(activation, 2, 0);
  AmActivationPass pass = activation.Add(kQueue, Applicant(2, "user_0", 1));
  ASSERT_EQ(pass.waiting.size(), 1u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kUserActiveApps);
  ExpectCounts(activation, 2, 1);
  activation.Remove(Attempt(0));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(2)));
  ExpectCounts(activation, 2, 0);
  activation.Add(kQueue, Applicant(3, "user_0", 1));
  ExpectCounts(activation, 2, 1);
  // The queue's maximum becomes 3.
  a.am_fraction = 0.0185;
  activation.SetLeafInputs({{kQueue, a}});
  EXPECT_EQ(activation.Report(kQueue).limits.max_active_apps, 3);
  activation.Add(kQueue, Applicant(4, "user_1", 1));
  ExpectCounts(activation, 3, 1);
  ExpectUser(activation, "user_1", 1, 0);
  // user_1's second is blocked by the queue limit: the loop stops there.
  pass = activation.Add(kQueue, Applicant(5, "user_1", 1));
  ExpectCounts(activation, 3, 2);
  ExpectUser(activation, "user_1", 1, 1);
  ASSERT_EQ(pass.waiting.size(), 2u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kQueueActiveApps);
  // app_4 finishes: app_5 goes (app_3 is still over user_0's two).
  activation.Remove(Attempt(4));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(5)));
  ExpectCounts(activation, 3, 1);
  ExpectUser(activation, "user_0", 2, 1);
  ExpectUser(activation, "user_1", 1, 0);
}

// 3.3 orders pending apps by priority (FifoOrderingPolicyForPendingApps),
// 2.7 by application id only.
TEST(AmActivationOrder, PriorityFirstOn33Only) {
  for (HadoopLine line : {HadoopLine::k2_7, HadoopLine::k3_3}) {
    AmActivation activation = Activation(line, pool::Resource::Of(10 * kGb, 10), 0.05);
    activation.Add(kQueue, Applicant(1, "u", 1));
    activation.Add(kQueue, Applicant(2, "u", 1, /*priority=*/0));
    activation.Add(kQueue, Applicant(3, "u", 1, /*priority=*/5));
    activation.Remove(Attempt(1));
    const auto activated = activation.Activate(kQueue).activated;
    ASSERT_EQ(activated.size(), 1u);
    EXPECT_EQ(activated[0], line == HadoopLine::k3_3 ? Attempt(3) : Attempt(2));
  }
}

// 3.3: an attempt added while the cluster has no resources waits
// (CLUSTER_RESOURCE_EMPTY) until the loop runs again; 2.7 lets the first go.
TEST(AmActivationLines, EmptyClusterHoldsTheFirstAmOn33) {
  AmActivation v33 = Activation(HadoopLine::k3_3, pool::Resource());
  AmActivationPass pass = v33.Add(kQueue, Applicant(1, "u", 1));
  EXPECT_THAT(pass.activated, IsEmpty());
  ASSERT_EQ(pass.waiting.size(), 1u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kClusterEmpty);
  AmLimitContext grown = v33.context();
  grown.cluster = pool::Resource::Of(10 * kGb, 10);
  v33.SetContext(grown);
  EXPECT_THAT(v33.Activate(kQueue).activated, ElementsAre(Attempt(1)));

  AmActivation v27 = Activation(HadoopLine::k2_7, pool::Resource());
  EXPECT_THAT(v27.Add(kQueue, Applicant(1, "u", 1)).activated, ElementsAre(Attempt(1)));
}

// 3.3 also lets an AM start while the queue's AM usage is zero (active apps
// with no AM resource, i.e. unmanaged AMs, do not block it); 2.7 does not.
TEST(AmActivationLines, ZeroAmUsageCountsAsFirstOn33) {
  for (HadoopLine line : {HadoopLine::k2_7, HadoopLine::k3_3}) {
    AmActivation activation = Activation(line, pool::Resource::Of(10 * kGb, 10), 0.05);
    activation.Add(kQueue, Applicant(1, "u", 0));  // unmanaged
    const auto activated = activation.Add(kQueue, Applicant(2, "u", 2)).activated;
    EXPECT_EQ(activated.size(), line == HadoopLine::k3_3 ? 1u : 0u) << static_cast<int>(line);
  }
}

// The user AM limit counts the users whose apps have outstanding requests
// (2.7.7 LeafQueue.getUserAMResourceLimit and 3.3.0
// getUserAMResourceLimitPerPartition: 1 / getNumActiveUsers()), not every
// user with an app in the queue. testAMResourceLimit's queue (80 GB: 4 GB per
// user with one active user, 2 GB with two): user_1's app asks for nothing
// any more, so only user_0 is active and its second 2 GB AM goes.
TEST_P(AmActivationByLine, UsersWhoAskNothingDoNotCount) {
  AmActivation activation = Activation(GetParam(), pool::Resource::Of(80 * kGb, 40));
  std::set<std::string> asking;
  activation.SetActiveUsersCount(
      [&asking](const std::string&) { return static_cast<int32_t>(asking.size()); });
  activation.Add(kQueue, Applicant(0, "user_0", 2));
  asking.insert("user_0");
  activation.Add(kQueue, Applicant(1, "user_1", 2));
  // user_1's AM is placed and its AM asks for nothing yet: inactive.
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit, pool::Resource::Of(4 * kGb, 1));
  EXPECT_THAT(activation.Add(kQueue, Applicant(2, "user_0", 2)).activated, ElementsAre(Attempt(2)));
  ExpectUser(activation, "user_0", 2, 0);
  // user_1 asks again: two active users, 2 GB each; user_0's third waits.
  asking.insert("user_1");
  AmActivationPass pass = activation.Add(kQueue, Applicant(3, "user_0", 2));
  EXPECT_THAT(pass.activated, IsEmpty());
  ASSERT_EQ(pass.waiting.size(), 1u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kUserAmLimit);
  EXPECT_EQ(pass.waiting[0].user_am_limit, pool::Resource::Of(2 * kGb, 1));
}

// 3.3.0 UsersManager.getNumActiveUsers adds activeUsersWithOnlyPendingApps,
// which computeNumActiveUsersWithOnlyPendingApps refreshes when user limits
// are next computed, not inside activateApplications: the pass that holds a
// new user's first app still sees the count without it, the next one with
// it. 2.7.7's ActiveUsersManager has no such term (the supplier's count is
// the whole count). 80 GB, queue AM limit 8 GB, one asking user.
struct PendingOnlyCase {
  HadoopLine line;
  int64_t limit_in_the_pass_gb;  // what the pass that held app_1 used
  int64_t limit_after_gb;        // the user AM limit afterwards
};

class PendingOnlyUsers : public ::testing::TestWithParam<PendingOnlyCase> {};

TEST_P(PendingOnlyUsers, CountFromThePreviousPass) {
  const PendingOnlyCase& c = GetParam();
  AmActivation activation = Activation(c.line, pool::Resource::Of(80 * kGb, 40));
  activation.SetActiveUsersCount([](const std::string&) { return 1; });
  activation.Add(kQueue, Applicant(0, "user_0", 8));  // the first AM: the queue is full
  const AmActivationPass pass = activation.Add(kQueue, Applicant(1, "user_1", 1));
  ASSERT_EQ(pass.waiting.size(), 1u);
  EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kQueueAmLimit);
  EXPECT_EQ(pass.waiting[0].user_am_limit, pool::Resource::Of(c.limit_in_the_pass_gb * kGb, 1));
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit,
            pool::Resource::Of(c.limit_after_gb * kGb, 1));
  // user_1's app goes once user_0's leaves: nobody is pending-only.
  activation.Remove(Attempt(0));
  EXPECT_THAT(activation.Activate(kQueue).activated, ElementsAre(Attempt(1)));
  activation.Add(kQueue, Applicant(2, "user_1", 1));
  EXPECT_EQ(activation.Report(kQueue).limits.user_am_limit, pool::Resource::Of(4 * kGb, 1));
}

INSTANTIATE_TEST_SUITE_P(Lines, PendingOnlyUsers,
                         ::testing::Values(PendingOnlyCase{HadoopLine::k2_7, 4, 4},
                                           PendingOnlyCase{HadoopLine::k3_3, 4, 2}));

// 3.3.0 activateApplications computes the user AM limit once per pass
// (userAmPartitionLimit, keyed by partition only) with the weight of the
// user of the first attempt that reaches the user check; later attempts of
// other users are checked against it. 80 GB, queue AM limit 8 GB, two
// active users: 2 GB a user, 4 GB for user_w (weight 2: min(0.5 x 2, 1)).
// 2.7.7 has no weights: 2 GB for all.
TEST(AmActivationLines, OnePassOneUserLimitOn33) {
  for (HadoopLine line : {HadoopLine::k2_7, HadoopLine::k3_3}) {
    const pool::Resource cluster = pool::Resource::Of(80 * kGb, 40);
    AmActivation activation = Activation(line, cluster);
    LeafAmInputs a = QueueA(cluster);
    a.user_weights = {{"user_w", 2.0f}};
    activation.SetLeafInputs({{kQueue, a}});
    activation.SetActiveUsersCount([](const std::string&) { return 2; });
    activation.Add(kQueue, Applicant(1, "user_x", 5));  // first: active
    EXPECT_THAT(activation.Add(kQueue, Applicant(2, "user_n", 1)).activated,
                ElementsAre(Attempt(2)));
    activation.Add(kQueue, Applicant(3, "user_w", 4));  // 5 + 1 + 4 > 8
    activation.Add(kQueue, Applicant(4, "user_n", 3));  // 5 + 1 + 3 > 8
    ExpectCounts(activation, 2, 2);
    activation.Remove(Attempt(1));
    const AmActivationPass pass = activation.Activate(kQueue);
    if (line == HadoopLine::k3_3) {
      // app_3 sets the pass's limit at 4 GB; user_n's 1 + 3 GB fits it,
      // though its own limit is 2 GB.
      EXPECT_THAT(pass.activated, ElementsAre(Attempt(3), Attempt(4)));
      EXPECT_EQ(activation.Report(kQueue).users.at("user_n").am_limit,
                pool::Resource::Of(2 * kGb, 1));
      EXPECT_EQ(activation.Report(kQueue).users.at("user_w").am_limit,
                pool::Resource::Of(4 * kGb, 1));
    } else {
      EXPECT_THAT(pass.activated, IsEmpty());
      ASSERT_EQ(pass.waiting.size(), 2u);
      EXPECT_EQ(pass.waiting[0].reason, AmWaitReason::kUserAmLimit);
      EXPECT_EQ(pass.waiting[1].reason, AmWaitReason::kUserAmLimit);
    }
  }
}

// A queue with no limits activates every attempt at once.
TEST(AmActivationUnlimited, EveryAttemptIsActive) {
  AmActivation activation;
  for (int32_t app = 1; app <= 5; ++app) {
    EXPECT_THAT(activation.Add("other", Applicant(app, "u", 8)).activated,
                ElementsAre(Attempt(app)));
  }
  EXPECT_FALSE(activation.Report("other").limited);
  EXPECT_EQ(activation.Report("other").active_apps, 5);
}

TEST(AmActivationDiagnostics, PendingTextIsHadoops) {
  AmWait wait{Attempt(1),
              AmWaitReason::kQueueAmLimit,
              pool::Resource::Of(2048, 1),
              pool::Resource::Of(1024, 1),
              pool::Resource::Of(1024, 1),
              pool::Resource::Of(2048, 1)};
  EXPECT_EQ(PendingAmDiagnostics(wait, 1700000000000),
            "[Tue Nov 14 22:13:20 +0000 2023] Application is added to the scheduler and is not "
            "yet activated. Queue's AM resource limit exceeded.  Details : AM Partition = "
            "<DEFAULT_PARTITION>; AM Resource Request = <memory:2048, vCores:1>; Queue Resource "
            "Limit for AM = <memory:1024, vCores:1>; User AM Resource Limit of the queue = "
            "<memory:1024, vCores:1>; Queue AM Resource Usage = <memory:2048, vCores:1>; ");
}

}  // namespace
}  // namespace spindle::rm
