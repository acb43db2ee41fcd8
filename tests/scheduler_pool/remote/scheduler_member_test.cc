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

// A claim the service refuses itself (here the queue's maximum, checked
// in the pool's ledger after the member chose its node) must not stay
// claimed in the member's view: the cell state never saw it, so no DiffSync
// would ever send that node again, and a cell full of such claims is a
// member that places nothing more (the end-to-end stall of issue 22 after
// a takeover: the moved apps, first in their queue's order, had later
// apps' claims refused until every node of the survivor's view was taken).
TEST(SchedulerMemberTest, AClaimTheServiceRefusesLeavesNoClaimInTheMembersView) {
  ManualClock clock;
  CellState cell{CellStateOptions{1, 64}};  // one partition: its "no node fits" note counts
  QueueLedger queues;
  QueueSpec capped = pool::testing::NamedQueue("default");
  capped.max = pool::testing::kSlot;
  ASSERT_TRUE(queues.SetQueues({capped}).ok());
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  pool::testing::AddNodes(&cell, 2, 1);  // two one-slot nodes
  MemberOptions options = Member(0, 1);
  options.pool.num_partitions = 1;
  SchedulerMember a(&service, &clock, options);
  ASSERT_TRUE(a.Join().ok());
  const AppId app(1);
  ASSERT_TRUE(service.AddApp(AppSpec{app, QueueId(0)}).ok());
  ASSERT_TRUE(service.SetAsks(app, {pool::testing::SlotAsk(3)}).ok());
  const auto run = [&](int steps) {
    for (int step = 0; step < steps; ++step) {
      clock.Advance(milliseconds(10));
      ASSERT_TRUE(a.Step(clock.Now()).ok());
    }
  };
  // The member claims both nodes (and finds none for the third task); the
  // service grants one, the queue's maximum refuses the other.
  run(30);
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot);
  EXPECT_GE(service.Metrics().claims_refused_by_queue, 1);
  // The queue may grow: the member places a second task on the refused
  // node, though the cell state never changed that node.
  capped.max = pool::testing::kSlot * 3;
  ASSERT_TRUE(queues.SetQueues({capped}).ok());
  run(30);
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot * 2);
  std::vector<Placement> out;
  ASSERT_TRUE(service.TakePlacements(app, &out).ok());
  EXPECT_EQ(out.size(), 2u);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

// The takeover stall of issue 22: a member that takes over a dead member's
// apps adds them after its own, so in its own submission order they came
// last, while the service's ledger orders the queue pool-wide by the pool's
// submission order (AppSpec::order), where they come first. The survivor
// then filled its view with claims for its own, later apps, which the
// service refused (the moved apps were served first and still asked), and
// found no node left for the moved apps: nothing was ever placed. A member
// orders its apps by AppSpec::order, as the service's ledger does.
TEST(SchedulerMemberTest, ASurvivorOrdersTheAppsItTookOverAsTheServicesLedgerDoes) {
  ManualClock clock;
  CellState cell{CellStateOptions{2, 64}};
  QueueLedger queues;
  QueueSpec fifo = pool::testing::NamedQueue("default");
  fifo.pool_wide_order = true;
  ASSERT_TRUE(queues.SetQueues({fifo}).ok());
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  pool::testing::AddNodes(&cell, 4, 4);  // 16 slots
  queues.SetCellCapacity(cell.Capacity());
  SchedulerMember dead(&service, &clock, Member(0, 2));
  SchedulerMember survivor(&service, &clock, Member(1, 2));
  ASSERT_TRUE(dead.Join().ok());
  ASSERT_TRUE(survivor.Join().ok());
  // Four apps in the pool's submission order, pinned in turn to the two.
  for (uint64_t i = 1; i <= 4; ++i) {
    AppSpec spec{AppId(i), QueueId(0)};
    spec.order = i;
    ASSERT_TRUE(service.AddApp(spec).ok());
  }
  ASSERT_TRUE(survivor.Step(clock.Now()).ok());
  ASSERT_EQ(survivor.apps(), 2);
  // The other member dies: its apps (the first and the third) move to the
  // survivor once its lease lapses.
  for (int i = 0; i < 8; ++i) {
    clock.Advance(kLease / 4);
    ASSERT_TRUE(survivor.Step(clock.Now()).ok());
  }
  ASSERT_EQ(survivor.apps(), 4);
  // Each app asks for the whole cell: the first in the queue's order gets it.
  for (uint64_t i = 1; i <= 4; ++i) {
    ASSERT_TRUE(service.SetAsks(AppId(i), {pool::testing::SlotAsk(16)}).ok());
  }
  for (int step = 0; step < 30; ++step) {
    clock.Advance(milliseconds(10));
    ASSERT_TRUE(survivor.Step(clock.Now()).ok());
  }
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot * 16);
  std::vector<Placement> first;
  ASSERT_TRUE(service.TakePlacements(AppId(1), &first).ok());
  EXPECT_EQ(first.size(), 16u);
  EXPECT_TRUE(cell.CheckInvariants().ok());
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
