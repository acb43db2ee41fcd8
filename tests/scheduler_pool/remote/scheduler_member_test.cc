// The pool's Scheduler run as members of the cell-state service, in-process
// (the service is its own connection), on a ManualClock.
#include "scheduler_pool/remote/scheduler_member.h"

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <set>

#include "tests/scheduler_pool/remote/remote_test_util.h"

namespace spindle::pool::remote {
namespace {

using std::chrono::milliseconds;
using testing::Cluster;
using testing::kLease;
using testing::Member;

// Steps `member` `steps` times, `every` apart on `clock` (call under
// ASSERT_NO_FATAL_FAILURE).
void StepEvery(SchedulerMember* member, ManualClock* clock, int steps, Duration every) {
  for (int step = 0; step < steps; ++step) {
    clock->Advance(every);
    ASSERT_TRUE(member->Step(clock->Now()).ok());
  }
}

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
  ASSERT_NO_FATAL_FAILURE(StepEvery(&survivor, &clock, 8, kLease / 4));
  ASSERT_EQ(survivor.apps(), 4);
  // Each app asks for the whole cell: the first in the queue's order gets it.
  for (uint64_t i = 1; i <= 4; ++i) {
    ASSERT_TRUE(service.SetAsks(AppId(i), {pool::testing::SlotAsk(16)}).ok());
  }
  ASSERT_NO_FATAL_FAILURE(StepEvery(&survivor, &clock, 30, milliseconds(10)));
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot * 16);
  std::vector<Placement> first;
  ASSERT_TRUE(service.TakePlacements(AppId(1), &first).ok());
  EXPECT_EQ(first.size(), 16u);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

// The same disagreement in a fair-ordered queue: the service's ledger
// serves first the app that uses least memory (FairOrderingPolicy), by the
// usage the service counts. A member that ordered the queue FIFO, or fair
// by its own commits only (none yet for an app it took over), would serve
// the app that already holds half the cell, and the service would refuse
// every claim of it: nothing placed. The member learns the queue's ordering
// at Join and each app's usage from the board.
TEST(SchedulerMemberTest, AMemberOrdersAFairQueueAsTheServicesLedgerDoes) {
  ManualClock clock;
  CellState cell{CellStateOptions{2, 64}};
  QueueLedger queues;
  QueueSpec fair = pool::testing::NamedQueue("default");
  fair.ordering = QueueOrdering::kFair;
  fair.pool_wide_order = true;
  ASSERT_TRUE(queues.SetQueues({fair}).ok());
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  pool::testing::AddNodes(&cell, 4, 4);  // 16 slots
  queues.SetCellCapacity(cell.Capacity());
  SchedulerMember dead(&service, &clock, Member(0, 2));
  SchedulerMember survivor(&service, &clock, Member(1, 2));
  ASSERT_TRUE(dead.Join().ok());
  ASSERT_TRUE(survivor.Join().ok());
  for (uint64_t i = 1; i <= 2; ++i) {
    AppSpec spec{AppId(i), QueueId(0)};
    spec.order = i;
    ASSERT_TRUE(service.AddApp(spec).ok());
  }
  ASSERT_EQ(*service.OwnerOf(AppId(1)), dead.token().member);
  ASSERT_EQ(*service.OwnerOf(AppId(2)), survivor.token().member);
  ASSERT_TRUE(dead.Step(clock.Now()).ok());
  ASSERT_EQ(dead.queues()->Snapshot(QueueId(0)).spec.ordering, QueueOrdering::kFair);
  // The first app takes half the cell while it is the queue's only asker.
  ASSERT_TRUE(service.SetAsks(AppId(1), {pool::testing::SlotAsk(8)}).ok());
  for (int step = 0; step < 10; ++step) {
    clock.Advance(milliseconds(10));
    ASSERT_TRUE(dead.Step(clock.Now()).ok());
    ASSERT_TRUE(survivor.Step(clock.Now()).ok());
  }
  std::vector<Placement> held;
  ASSERT_TRUE(service.TakePlacements(AppId(1), &held).ok());
  ASSERT_EQ(held.size(), 8u);
  // Its member dies; the survivor takes it over within a lease.
  ASSERT_NO_FATAL_FAILURE(StepEvery(&survivor, &clock, 8, kLease / 4));
  ASSERT_EQ(survivor.apps(), 2);
  // Both ask for the whole cell: the second app, using nothing, comes first
  // until it uses as much as the first, which is the rest of the cell.
  for (uint64_t i = 1; i <= 2; ++i) {
    ASSERT_TRUE(service.SetAsks(AppId(i), {pool::testing::SlotAsk(16)}).ok());
  }
  ASSERT_NO_FATAL_FAILURE(StepEvery(&survivor, &clock, 30, milliseconds(10)));
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot * 16);
  std::vector<Placement> second;
  ASSERT_TRUE(service.TakePlacements(AppId(2), &second).ok());
  EXPECT_EQ(second.size(), 8u);
  EXPECT_EQ(service.Metrics().claims_refused_by_queue, 0);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

// The board sends an app again when anything of it changes (here its
// blacklist). The member's total must be what is left then: a total frozen
// when the RM last set it would have the member ask again for what it has
// placed since.
TEST(SchedulerMemberTest, AnAppSentAgainIsNotAskedAgainForWhatTheMemberPlaced) {
  Cluster c;
  pool::testing::AddNodes(&c.cell, 2, 1);  // room for two of the four
  SchedulerMember a(&c.service, &c.clock, Member(0, 1));
  ASSERT_TRUE(a.Join().ok());
  const AppId app(1);
  ASSERT_TRUE(c.service.AddApp(AppSpec{app, QueueId(0)}).ok());
  ASSERT_TRUE(c.service.SetAsks(app, {pool::testing::SlotAsk(4)}).ok());
  const auto run = [&](int steps) {
    for (int step = 0; step < steps; ++step) {
      c.clock.Advance(milliseconds(10));
      ASSERT_TRUE(a.Step(c.clock.Now()).ok());
    }
  };
  run(20);
  ASSERT_EQ(c.cell.Allocated(), pool::testing::kSlot * 2);
  ASSERT_TRUE(c.service.SetBlacklist(app, {}, {}).ok());
  pool::testing::AddNodes(&c.cell, 4, 1);  // room for more than it asks
  run(30);
  std::vector<Placement> out;
  ASSERT_TRUE(c.service.TakePlacements(app, &out).ok());
  EXPECT_EQ(out.size(), 4u);
  EXPECT_EQ(c.cell.Allocated(), pool::testing::kSlot * 4);
  EXPECT_TRUE(c.cell.CheckInvariants().ok());
}

// The queues change at the service (the RM refreshed its queue tree): the
// member's ledger follows from the board, with new queues and orderings.
TEST(SchedulerMemberTest, AMemberTakesTheQueuesOrderingsAgainWhenTheyChange) {
  Cluster c;
  SchedulerMember a(&c.service, &c.clock, Member(0, 1));
  ASSERT_TRUE(a.Join().ok());
  ASSERT_EQ(a.queues()->size(), 1);
  EXPECT_EQ(a.queues()->Snapshot(QueueId(0)).spec.ordering, QueueOrdering::kFifo);
  QueueSpec fair = pool::testing::NamedQueue("default");
  fair.ordering = QueueOrdering::kFair;
  fair.fair_size_based_weight = true;
  QueueSpec other = pool::testing::NamedQueue("other");
  other.ordering = QueueOrdering::kApplicationId;
  ASSERT_TRUE(c.queues.SetQueues({fair, other}).ok());
  c.clock.Advance(milliseconds(10));
  ASSERT_TRUE(a.Step(c.clock.Now()).ok());
  ASSERT_EQ(a.queues()->size(), 2);
  const QueueSpec mine = a.queues()->Snapshot(QueueId(0)).spec;
  EXPECT_EQ(mine.ordering, QueueOrdering::kFair);
  EXPECT_TRUE(mine.fair_size_based_weight);
  EXPECT_EQ(a.queues()->Snapshot(QueueId(1)).spec.name, "other");
  EXPECT_EQ(a.queues()->Snapshot(QueueId(1)).spec.ordering, QueueOrdering::kApplicationId);
}

// Counts a member's calls to the service; `on_board`, when set, may change
// the boards the member reads.
class CountingConnection final : public CellServiceConnection {
 public:
  explicit CountingConnection(CellServiceConnection* inner) : inner_(inner) {}
  Result<JoinInfo> Join(const std::string& name) override { return inner_->Join(name); }
  Status Renew(const MemberToken& token, const MemberReport& report) override {
    return inner_->Renew(token, report);
  }
  Status Leave(const MemberToken& token) override { return inner_->Leave(token); }
  Status Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
              std::vector<PartitionSlice>* slices, CellFigures* figures) override {
    return inner_->Sync(token, wants, slices, figures);
  }
  Status Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                CommitResult* result) override {
    ++commits;
    return inner_->Commit(token, seq, txn, result);
  }
  Result<Assignments> AssignmentsSince(const MemberToken& token, uint64_t since,
                                       uint64_t queues_since) override {
    Result<Assignments> board = inner_->AssignmentsSince(token, since, queues_since);
    if (board.ok() && on_board) on_board(&*board);
    return board;
  }
  int64_t commits = 0;
  std::function<void(Assignments*)> on_board;

 private:
  CellServiceConnection* const inner_;
};

// A member whose claims the service refuses (here its queue's maximum,
// which the member's ledger does not know) sent the same claims again at
// once, step after step: a commit per step and more, for nothing. Now it
// waits for the next sync slot and a doubling backoff, and a change on the
// board (here the queue's new maximum) ends the wait at once.
TEST(SchedulerMemberTest, AMemberWhoseClaimsAreRefusedWaitsForAChangeInsteadOfSpinning) {
  ManualClock clock;
  CellState cell{CellStateOptions{1, 64}};
  QueueLedger queues;
  QueueSpec capped = pool::testing::NamedQueue("default");
  capped.max = pool::testing::kSlot;
  ASSERT_TRUE(queues.SetQueues({capped}).ok());
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  pool::testing::AddNodes(&cell, 4, 1);
  CountingConnection counted(&service);
  MemberOptions options = Member(0, 1);
  options.pool.num_partitions = 1;
  SchedulerMember a(&counted, &clock, options);
  ASSERT_TRUE(a.Join().ok());
  const AppId app(1);
  ASSERT_TRUE(service.AddApp(AppSpec{app, QueueId(0)}).ok());
  ASSERT_TRUE(service.SetAsks(app, {pool::testing::SlotAsk(3)}).ok());
  const auto run = [&](int steps) {
    for (int step = 0; step < steps; ++step) {
      clock.Advance(milliseconds(1));
      ASSERT_TRUE(a.Step(clock.Now()).ok());
    }
  };
  // The queue's maximum lets one task through; the rest are refused.
  run(5);
  ASSERT_EQ(cell.Allocated(), pool::testing::kSlot);
  // Two syncs' worth of steps (G is 100 ms) at 1 ms each: a member that
  // stepped its scheduler each time would commit 200 times at least.
  const int64_t commits = counted.commits;
  const int64_t held = a.held_steps();
  run(200);
  const int64_t retried = counted.commits - commits;
  std::cout << "commits in 200 steps while refused: " << retried << "\n";
  EXPECT_GE(retried, 1);  // it does try again after a sync
  EXPECT_LE(retried, 12);
  EXPECT_GE(a.held_steps() - held, 180);
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot);
  // The queue grows: the board says so, and the next step places the rest.
  capped.max = pool::testing::kSlot * 3;
  ASSERT_TRUE(queues.SetQueues({capped}).ok());
  run(2);
  EXPECT_EQ(cell.Allocated(), pool::testing::kSlot * 3);
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

// A board whose queues do not line up with the member's queue ids (a
// queue it lacks sent where it has another): claims would charge the wrong
// queue, so the member leaves, the step says to join again, and a fresh
// membership places the rest, every task once.
TEST(SchedulerMemberTest, AMemberWhoseQueueIdsNoLongerMatchTheServicesJoinsAgain) {
  Cluster c;
  pool::testing::AddNodes(&c.cell, 4, 4);
  CountingConnection tampered(&c.service);
  SchedulerMember a(&tampered, &c.clock, Member(0, 1));
  ASSERT_TRUE(a.Join().ok());
  const AppId app(1);
  ASSERT_TRUE(c.service.AddApp(AppSpec{app, QueueId(0)}).ok());
  ASSERT_TRUE(c.service.SetAsks(app, {pool::testing::SlotAsk(2)}).ok());
  c.clock.Advance(milliseconds(1));
  ASSERT_TRUE(a.Step(c.clock.Now()).ok());
  ASSERT_EQ(c.cell.Allocated(), pool::testing::kSlot * 2);

  tampered.on_board = [](Assignments* board) {
    board->queues_changed = true;
    board->queues = {MemberQueue{"elsewhere"}, MemberQueue{"default"}};
  };
  c.clock.Advance(milliseconds(1));
  const Result<StepResult> mismatched = a.Step(c.clock.Now());
  EXPECT_EQ(mismatched.status().code(), Status::Code::kAborted) << mismatched.status().ToString();
  EXPECT_FALSE(a.joined());

  tampered.on_board = nullptr;
  ASSERT_TRUE(c.service.SetAsks(app, {pool::testing::SlotAsk(3)}).ok());
  ASSERT_TRUE(a.Join().ok());
  ASSERT_NO_FATAL_FAILURE(StepEvery(&a, &c.clock, 3, milliseconds(1)));
  EXPECT_EQ(a.apps(), 1);
  std::vector<Placement> out;
  ASSERT_TRUE(c.service.TakePlacements(app, &out).ok());
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(c.cell.Allocated(), pool::testing::kSlot * 3);
  EXPECT_TRUE(c.cell.CheckInvariants().ok());
}

}  // namespace
}  // namespace spindle::pool::remote
