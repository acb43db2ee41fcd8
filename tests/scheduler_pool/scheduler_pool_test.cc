#include "scheduler_pool/scheduler_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;
using testing::kSlot;
using testing::SlotAsk;

// Polls `done` until it holds or `timeout` passes; never sleeps for
// synchronisation (it yields between polls).
template <typename F>
bool Eventually(F done, std::chrono::seconds timeout = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::yield();
  }
  return done();
}

struct ModeCase {
  SyncMode mode;
  StrategyKind strategy;
};

class ThreadedPoolTest : public ::testing::TestWithParam<ModeCase> {};

// The pool's own threads place asks as they arrive while the "RM" takes
// and releases placements and a sweeper checks the cell's invariants: every
// task is placed exactly once and no node is ever over-committed.
TEST_P(ThreadedPoolTest, PlacesEverythingAndNeverOverCommits) {
  PoolOptions o;
  o.mode = GetParam().mode;
  o.strategy = GetParam().strategy;
  o.num_schedulers = 4;
  o.num_partitions = 8;
  o.sync_gap = milliseconds(20);
  o.tau = milliseconds(5);
  o.min_unit = kSlot;
  auto created = SchedulerPool::Create(o, SystemClock::Get());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  auto& pool = *created;
  const QueueId q = (*pool->SetQueues({testing::NamedQueue("default")}))[0];
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(pool->AddNode(testing::Node(2, "/r" + std::to_string(i % 4), 1 + i % 5)).ok());
  }
  ASSERT_TRUE(pool->Start().ok());
  std::atomic<bool> done{false};
  std::thread sweeper([&] {
    while (!done.load()) {
      const Status s = pool->cell().CheckInvariants();
      EXPECT_TRUE(s.ok()) << s.ToString();
      std::this_thread::yield();
    }
  });
  // 12 apps x 50 tasks = 600 tasks through 80 slots: placements must be
  // released for the rest to go.
  constexpr int kApps = 12;
  constexpr int kTasks = 50;
  for (int a = 1; a <= kApps; ++a) {
    ASSERT_TRUE(pool->AddApp(AppSpec{AppId(a), q}).ok());
    ASSERT_TRUE(pool->SetAsks(AppId(a), {SlotAsk(kTasks)}).ok());
  }
  int64_t taken = 0;
  const bool all = Eventually([&] {
    for (int a = 1; a <= kApps; ++a) {
      std::vector<Placement> got;
      EXPECT_TRUE(pool->TakePlacements(AppId(a), &got).ok());
      taken += static_cast<int64_t>(got.size());
      EXPECT_TRUE(pool->ReleaseBatch(got).ok());
    }
    return taken == kApps * kTasks;
  });
  done = true;
  sweeper.join();
  pool->Stop();
  EXPECT_TRUE(all) << "placed " << taken << " of " << kApps * kTasks;
  EXPECT_EQ(taken, kApps * kTasks);
  const PoolMetrics m = pool->Metrics();
  EXPECT_EQ(m.overall.placements, kApps * kTasks);
  EXPECT_EQ(m.overall.backlog, 0);
  EXPECT_TRUE(m.allocated.IsZero());
  EXPECT_TRUE(pool->queues().Usage(q).IsZero());
  EXPECT_TRUE(pool->cell().CheckInvariants().ok());
}

TEST_P(ThreadedPoolTest, BlacklistedNodesAndRacksTakeNothingOfTheApp) {
  ManualClock clock;
  const ModeCase c = GetParam();
  PoolOptions o = testing::SmallOptions(c.mode, c.mode == SyncMode::kMonolithic ? 1 : 2, 4);
  o.strategy = c.strategy;
  auto pool = std::move(SchedulerPool::Create(o, &clock)).value();
  const QueueId q = (*pool->SetQueues({testing::NamedQueue("default")}))[0];
  std::vector<NodeId> nodes;
  for (int i = 0; i < 8; ++i) {
    nodes.push_back(*pool->AddNode(testing::Node(4, "/r" + std::to_string(i % 2))));
  }
  const RackId r1 = *pool->FindRack("/r1");
  ASSERT_TRUE(pool->AddApp(AppSpec{AppId(1), q}).ok());
  ASSERT_TRUE(pool->AddApp(AppSpec{AppId(2), q}).ok());
  // App 1 avoids rack /r1 (odd nodes) and node 0; it even prefers node 0.
  ASSERT_TRUE(pool->SetBlacklist(AppId(1), {nodes[0]}, {r1}).ok());
  Ask wants_zero = SlotAsk(12);
  wants_zero.nodes = {nodes[0]};
  ASSERT_TRUE(pool->SetAsks(AppId(1), {wants_zero}).ok());
  ASSERT_TRUE(pool->SetAsks(AppId(2), {SlotAsk(4)}).ok());
  for (int i = 0; i < 20; ++i) {
    clock.Advance(std::chrono::milliseconds(100));
    pool->RunAllOnce(clock.Now());
  }
  std::vector<Placement> one;
  std::vector<Placement> two;
  ASSERT_TRUE(pool->TakePlacements(AppId(1), &one).ok());
  ASSERT_TRUE(pool->TakePlacements(AppId(2), &two).ok());
  EXPECT_EQ(one.size(), 12u);  // nodes 2, 4 and 6: 4 slots each
  for (const Placement& p : one) {
    EXPECT_NE(p.node, nodes[0]);
    EXPECT_TRUE(p.node == nodes[2] || p.node == nodes[4] || p.node == nodes[6]);
  }
  EXPECT_EQ(two.size(), 4u);  // others are not affected
  // Lifting the blacklist lets the app use them again.
  ASSERT_TRUE(pool->SetBlacklist(AppId(1), {}, {}).ok());
  ASSERT_TRUE(pool->SetAsks(AppId(1), {SlotAsk(4)}).ok());
  for (int i = 0; i < 20; ++i) {
    clock.Advance(std::chrono::milliseconds(100));
    pool->RunAllOnce(clock.Now());
  }
  one.clear();
  ASSERT_TRUE(pool->TakePlacements(AppId(1), &one).ok());
  EXPECT_EQ(one.size(), 4u);
  EXPECT_TRUE(pool->SetBlacklist(AppId(9), {}, {}).IsNotFound());
}

INSTANTIATE_TEST_SUITE_P(
    Modes, ThreadedPoolTest,
    ::testing::Values(ModeCase{SyncMode::kParSync, StrategyKind::kLatencyFirst},
                      ModeCase{SyncMode::kParSync, StrategyKind::kQualityFirst},
                      ModeCase{SyncMode::kSameSync, StrategyKind::kAdaptive},
                      ModeCase{SyncMode::kStateSync, StrategyKind::kLatencyFirst},
                      ModeCase{SyncMode::kMonolithic, StrategyKind::kQualityFirst}));

TEST(SchedulerPoolTest, FacadeValidatesItsInput) {
  PoolOptions bad;
  bad.num_partitions = 2;  // < 20 schedulers
  EXPECT_EQ(SchedulerPool::Create(bad, SystemClock::Get()).status().code(),
            Status::Code::kInvalidArgument);
  auto pool = std::move(SchedulerPool::Create(PoolOptions(), SystemClock::Get())).value();
  EXPECT_EQ(pool->num_schedulers(), 20);
  EXPECT_EQ(pool->AddApp(AppSpec{AppId(1), QueueId(0)}).code(), Status::Code::kInvalidArgument);
  const QueueId q = (*pool->SetQueues({testing::NamedQueue("default")}))[0];
  ASSERT_TRUE(pool->AddApp(AppSpec{AppId(1), q}).ok());
  EXPECT_EQ(pool->AddApp(AppSpec{AppId(1), q}).code(), Status::Code::kAlreadyExists);
  EXPECT_TRUE(pool->SetAsks(AppId(2), {SlotAsk(1)}).IsNotFound());
  Ask negative = SlotAsk(-1);
  EXPECT_EQ(pool->SetAsks(AppId(1), {negative}).code(), Status::Code::kInvalidArgument);
  Ask empty = SlotAsk(1);
  empty.capability = Resource();
  EXPECT_EQ(pool->SetAsks(AppId(1), {empty}).code(), Status::Code::kInvalidArgument);
  Placement p;
  EXPECT_EQ(pool->Release(p).code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(pool->Start().ok());
  EXPECT_EQ(pool->Start().code(), Status::Code::kAborted);
  pool->Stop();
  pool->Stop();
}

TEST(SchedulerPoolTest, QueueGroupsPinAppsToTheirSchedulers) {
  PoolOptions o;
  o.num_schedulers = 6;
  o.num_partitions = 6;
  o.pinning = PinningMode::kQueueGroups;
  o.queue_groups["batch"] = {0, 3};
  o.queue_groups["service"] = {4, 5};
  auto pool = std::move(SchedulerPool::Create(o, SystemClock::Get())).value();
  for (uint64_t a = 0; a < 200; ++a) {
    const int b = pool->SchedulerFor(AppId(a), "batch");
    const int s = pool->SchedulerFor(AppId(a), "service");
    EXPECT_GE(b, 0);
    EXPECT_LE(b, 3);
    EXPECT_GE(s, 4);
    EXPECT_LE(s, 5);
    EXPECT_LT(pool->SchedulerFor(AppId(a), "other"), 6);
  }
}

TEST(SchedulerPoolTest, UpdateAppMovesUsageAndRechargesWhatItHolds) {
  ManualClock clock;
  auto pool =
      std::move(SchedulerPool::Create(testing::SmallOptions(SyncMode::kMonolithic, 1, 1), &clock))
          .value();
  const auto queues = *pool->SetQueues({testing::NamedQueue("a"), testing::NamedQueue("b")});
  const QueueId a = queues[0];
  const QueueId b = queues[1];
  ASSERT_TRUE(pool->AddNode(testing::Node(8)).ok());
  ASSERT_TRUE(pool->AddApp(AppSpec{AppId(1), a}).ok());
  ASSERT_TRUE(pool->SetAsks(AppId(1), {SlotAsk(2)}).ok());
  pool->RunAllOnce(clock.Now());
  EXPECT_EQ(pool->queues().Usage(a), testing::kSlot * 2);

  // Committed, not yet taken: their charge moves with the app.
  ASSERT_TRUE(pool->UpdateApp(AppSpec{AppId(1), b, 3}).ok());
  EXPECT_EQ(pool->queues().Usage(a), Resource());
  EXPECT_EQ(pool->queues().Usage(b), testing::kSlot * 2);
  std::vector<Placement> taken;
  ASSERT_TRUE(pool->TakePlacements(AppId(1), &taken).ok());
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].queue, b);

  // Later commits charge the new queue.
  ASSERT_TRUE(pool->SetAsks(AppId(1), {SlotAsk(1)}).ok());
  pool->RunAllOnce(clock.Now());
  EXPECT_EQ(pool->queues().Usage(b), testing::kSlot * 3);

  // A taken placement moves by itself; its release credits where it is now.
  ASSERT_TRUE(pool->MoveCharge(&taken[0], a).ok());
  EXPECT_EQ(taken[0].queue, a);
  EXPECT_EQ(pool->queues().Usage(a), testing::kSlot);
  EXPECT_EQ(pool->queues().Usage(b), testing::kSlot * 2);
  ASSERT_TRUE(pool->Release(taken[0]).ok());
  EXPECT_EQ(pool->queues().Usage(a), Resource());

  EXPECT_TRUE(pool->UpdateApp(AppSpec{AppId(7), b}).IsNotFound());
  EXPECT_EQ(pool->UpdateApp(AppSpec{AppId(1), QueueId(99)}).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(pool->MoveCharge(&taken[1], QueueId(99)).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::pool
