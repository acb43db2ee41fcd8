// The pool's Scheduler run as members of the cell-state service, in-process
// (the service is its own connection), on a ManualClock.
#include "scheduler_pool/remote/scheduler_member.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/scheduler_pool/remote/remote_test_util.h"

namespace spindle::pool::remote {
namespace {

using std::chrono::milliseconds;
using testing::Cluster;
using testing::kLease;
using testing::Member;

TEST(SchedulerMemberTest, MembersPlaceTheirPinnedAppsAsksExactlyOnce) {
  Cluster c;
  pool::testing::AddNodes(&c.cell, 16, 4);
  SchedulerMember a(&c.service, &c.clock, Member(0, 2));
  SchedulerMember b(&c.service, &c.clock, Member(1, 2));
  ASSERT_TRUE(a.Join().ok());
  ASSERT_TRUE(b.Join().ok());
  int64_t asked = 0;
  for (uint64_t i = 1; i <= 10; ++i) {
    ASSERT_TRUE(c.service.AddApp(AppSpec{AppId(i), QueueId(0)}).ok());
    ASSERT_TRUE(
        c.service.SetAsks(AppId(i), {pool::testing::SlotAsk(static_cast<int64_t>(i))}).ok());
    asked += static_cast<int64_t>(i);
  }
  EXPECT_EQ(c.service.Metrics().members.size(), 2u);
  std::map<uint64_t, int64_t> got;
  std::set<uint64_t> ids;
  for (int step = 0; step < 40; ++step) {
    c.clock.Advance(milliseconds(10));
    ASSERT_TRUE(a.Step(c.clock.Now()).ok());
    ASSERT_TRUE(b.Step(c.clock.Now()).ok());
    for (uint64_t i = 1; i <= 10; ++i) {
      std::vector<Placement> out;
      ASSERT_TRUE(c.service.TakePlacements(AppId(i), &out).ok());
      for (const Placement& p : out) {
        EXPECT_TRUE(ids.insert(p.id).second);
        ++got[i];
      }
    }
  }
  for (uint64_t i = 1; i <= 10; ++i) EXPECT_EQ(got[i], static_cast<int64_t>(i)) << "app " << i;
  EXPECT_EQ(c.cell.Allocated(), pool::testing::kSlot * asked);
  EXPECT_TRUE(c.cell.CheckInvariants().ok());
  EXPECT_GT(a.apps(), 0);
  EXPECT_GT(b.apps(), 0);
}

TEST(SchedulerMemberTest, AMemberPartitionedPastItsLeaseMustJoinAgain) {
  Cluster c;
  pool::testing::AddNodes(&c.cell, 4, 4);
  SchedulerMember a(&c.service, &c.clock, Member(0, 2));
  SchedulerMember b(&c.service, &c.clock, Member(1, 2));
  ASSERT_TRUE(a.Join().ok());
  ASSERT_TRUE(c.service.AddApp(AppSpec{AppId(1), QueueId(0)}).ok());
  ASSERT_TRUE(b.Join().ok());
  ASSERT_TRUE(a.Step(c.clock.Now()).ok());
  ASSERT_EQ(a.apps(), 1);
  // a hears nothing for a lease; b keeps renewing and gets a's app.
  for (int i = 0; i < 4; ++i) {
    c.clock.Advance(kLease / 4);
    ASSERT_TRUE(b.Step(c.clock.Now()).ok());
  }
  ASSERT_TRUE(c.service.SetAsks(AppId(1), {pool::testing::SlotAsk(3)}).ok());
  const Result<StepResult> late = a.Step(c.clock.Now());
  EXPECT_EQ(late.status().code(), Status::Code::kAborted) << late.status().ToString();
  ASSERT_TRUE(b.Step(c.clock.Now() + milliseconds(1)).ok());
  std::vector<Placement> out;
  ASSERT_TRUE(c.service.TakePlacements(AppId(1), &out).ok());
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(c.cell.Allocated(), pool::testing::kSlot * 3);
  // Joining again gives a fresh membership.
  ASSERT_TRUE(a.Join().ok());
  ASSERT_TRUE(a.Step(c.clock.Now() + milliseconds(2)).ok());
  EXPECT_EQ(a.apps(), 0);
}

}  // namespace
}  // namespace spindle::pool::remote
