#include "scheduler_pool/scheduler_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
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

// ---- RecoverPlacement (work-preserving RM restart) ----

class RecoverPlacementTest : public ::testing::TestWithParam<SyncMode> {
 protected:
  void SetUp() override {
    const SyncMode mode = GetParam();
    const int n = mode == SyncMode::kMonolithic ? 1 : 2;
    pool_ = std::move(SchedulerPool::Create(testing::SmallOptions(mode, n, 2), &clock_)).value();
    queue_ = (*pool_->SetQueues({testing::NamedQueue("default")}))[0];
  }
  StepResult Steps(int count) {
    StepResult sum;
    for (int i = 0; i < count; ++i) {
      clock_.Advance(milliseconds(100));
      const StepResult r = pool_->RunAllOnce(clock_.Now());
      sum.placed += r.placed;
    }
    return sum;
  }
  std::vector<Placement> Take(AppId app) {
    std::vector<Placement> out;
    EXPECT_TRUE(pool_->TakePlacements(app, &out).ok());
    return out;
  }

  ManualClock clock_;
  std::unique_ptr<SchedulerPool> pool_;
  QueueId queue_;
};

INSTANTIATE_TEST_SUITE_P(Modes, RecoverPlacementTest,
                         ::testing::Values(SyncMode::kMonolithic, SyncMode::kParSync,
                                           SyncMode::kSameSync, SyncMode::kStateSync),
                         [](const auto& param_info) {
                           return std::string(SyncModeName(param_info.param));
                         });

// A node with room for 2 containers runs 1 recovered: an ask for 2 gets 1,
// and the recovered one shows in the metrics and the queue's usage.
TEST_P(RecoverPlacementTest, RecoveredContainersTakeRoomAndAreCharged) {
  const NodeId node = *pool_->AddNode(testing::Node(2));
  const AppId app(1);
  ASSERT_TRUE(pool_->AddApp(AppSpec{app, queue_}).ok());
  Steps(1);  // the schedulers' views now hold the node empty

  clock_.Advance(milliseconds(5));
  auto recovered = pool_->RecoverPlacement(app, node, kSlot, 3, 42);
  ASSERT_TRUE(recovered.ok()) << recovered.status().ToString();
  const Placement& r = *recovered;
  EXPECT_EQ(r.app, app);
  EXPECT_EQ(r.queue, queue_);
  EXPECT_EQ(r.node, node);
  EXPECT_EQ(r.resource, kSlot);
  EXPECT_EQ(r.priority, 3);
  EXPECT_EQ(r.allocation_request_id, 42);
  EXPECT_EQ(r.locality, Locality::kOffSwitch);
  EXPECT_EQ(r.committed_at, clock_.Now());
  EXPECT_EQ(pool_->queues().Usage(queue_), kSlot);
  EXPECT_EQ(pool_->Metrics().allocated, kSlot);
  EXPECT_EQ(pool_->Metrics().overall.placements, 0);  // not a scheduling decision

  ASSERT_TRUE(pool_->SetAsks(app, {SlotAsk(2)}).ok());
  Steps(10);
  const std::vector<Placement> placed = Take(app);
  ASSERT_EQ(placed.size(), 1u);  // the recovered one is not handed out again
  EXPECT_NE(placed[0].id, r.id);
  EXPECT_EQ(pool_->queues().Usage(queue_), kSlot * 2);
  EXPECT_EQ(pool_->Metrics().allocated, kSlot * 2);
  EXPECT_EQ(pool_->Metrics().overall.backlog, 1);
  EXPECT_TRUE(pool_->cell().CheckInvariants().ok());

  // Releasing the recovered container gives its room to the ask left.
  ASSERT_TRUE(pool_->Release(r).ok());
  EXPECT_EQ(pool_->queues().Usage(queue_), kSlot);
  Steps(10);
  const std::vector<Placement> more = Take(app);
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].node, node);
  ASSERT_TRUE(pool_->Release(placed[0]).ok());
  ASSERT_TRUE(pool_->Release(more[0]).ok());
  EXPECT_TRUE(pool_->queues().Usage(queue_).IsZero());
  EXPECT_TRUE(pool_->Metrics().allocated.IsZero());
  EXPECT_TRUE(pool_->cell().CheckInvariants().ok());
}

// More recovered than the node holds: recorded (the node runs them), the
// node is over-committed and takes nothing new until it fits again; the
// queue is charged beyond its maximum.
TEST_P(RecoverPlacementTest, OverCommitIsRecordedAndBlocksNewWork) {
  QueueSpec capped = testing::NamedQueue("capped");
  capped.max = kSlot;
  const QueueId small = (*pool_->SetQueues({capped}))[0];
  const NodeId node = *pool_->AddNode(testing::Node(1));
  ASSERT_TRUE(pool_->AddApp(AppSpec{AppId(1), small}).ok());
  ASSERT_TRUE(pool_->AddApp(AppSpec{AppId(2), queue_}).ok());
  auto first = pool_->RecoverPlacement(AppId(1), node, kSlot, 0, -1);
  auto second = pool_->RecoverPlacement(AppId(1), node, kSlot, 0, -1);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_NE(first->id, second->id);
  EXPECT_EQ(pool_->queues().Usage(small), kSlot * 2);  // beyond its max of 1
  EXPECT_TRUE(pool_->cell().GetNode(node)->overcommitted);
  EXPECT_TRUE(pool_->cell().CheckInvariants().ok());

  ASSERT_TRUE(pool_->SetAsks(AppId(2), {SlotAsk(1)}).ok());
  Steps(10);
  EXPECT_TRUE(Take(AppId(2)).empty());
  ASSERT_TRUE(pool_->Release(*first).ok());  // fits again, but full
  EXPECT_FALSE(pool_->cell().GetNode(node)->overcommitted);
  Steps(10);
  EXPECT_TRUE(Take(AppId(2)).empty());
  ASSERT_TRUE(pool_->Release(*second).ok());
  Steps(10);
  EXPECT_EQ(Take(AppId(2)).size(), 1u);
  EXPECT_TRUE(pool_->queues().Usage(small).IsZero());
  EXPECT_TRUE(pool_->cell().CheckInvariants().ok());
}

TEST_P(RecoverPlacementTest, UnknownAppOrNodeIsNotFoundAndChangesNothing) {
  const NodeId node = *pool_->AddNode(testing::Node(2));
  const NodeId gone = *pool_->AddNode(testing::Node(2));
  ASSERT_TRUE(pool_->RemoveNode(gone).ok());
  ASSERT_TRUE(pool_->AddApp(AppSpec{AppId(1), queue_}).ok());
  EXPECT_TRUE(pool_->RecoverPlacement(AppId(9), node, kSlot, 0, -1).status().IsNotFound());
  EXPECT_TRUE(pool_->RecoverPlacement(AppId(1), NodeId(1, 50), kSlot, 0, -1).status().IsNotFound());
  EXPECT_TRUE(pool_->RecoverPlacement(AppId(1), NodeId(), kSlot, 0, -1).status().IsNotFound());
  EXPECT_TRUE(pool_->RecoverPlacement(AppId(1), gone, kSlot, 0, -1).status().IsNotFound());
  EXPECT_EQ(pool_->RecoverPlacement(AppId(1), node, Resource(), 0, -1).status().code(),
            Status::Code::kInvalidArgument);
  ASSERT_TRUE(pool_->RemoveApp(AppId(1)).ok());
  EXPECT_TRUE(pool_->RecoverPlacement(AppId(1), node, kSlot, 0, -1).status().IsNotFound());
  EXPECT_TRUE(pool_->queues().Usage(queue_).IsZero());
  EXPECT_TRUE(pool_->Metrics().allocated.IsZero());
  EXPECT_TRUE(pool_->cell().CheckInvariants().ok());
}

// A recovered placement follows its app across queues like a taken one.
TEST_P(RecoverPlacementTest, RecoveredChargeFollowsTheAppsQueue) {
  const QueueId other = (*pool_->SetQueues({testing::NamedQueue("other")}))[0];
  const NodeId node = *pool_->AddNode(testing::Node(4));
  ASSERT_TRUE(pool_->AddApp(AppSpec{AppId(1), queue_}).ok());
  ASSERT_TRUE(pool_->UpdateApp(AppSpec{AppId(1), other}).ok());
  auto p = pool_->RecoverPlacement(AppId(1), node, kSlot * 2, 0, -1);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->queue, other);
  EXPECT_EQ(pool_->queues().Usage(other), kSlot * 2);
  ASSERT_TRUE(pool_->MoveCharge(&*p, queue_).ok());
  ASSERT_TRUE(pool_->Release(*p).ok());
  EXPECT_TRUE(pool_->queues().Usage(queue_).IsZero());
  EXPECT_TRUE(pool_->queues().Usage(other).IsZero());
}

// Recoveries from several threads while the pool's own threads place work:
// ids stay unique and everything adds up.
TEST(SchedulerPoolTest, ConcurrentRecoveriesWhileSchedulingAddUp) {
  PoolOptions o = testing::SmallOptions(SyncMode::kParSync, 2, 4);
  o.sync_gap = milliseconds(5);
  auto pool = std::move(SchedulerPool::Create(o, SystemClock::Get())).value();
  const QueueId q = (*pool->SetQueues({testing::NamedQueue("default")}))[0];
  std::vector<NodeId> nodes;
  for (int i = 0; i < 8; ++i) nodes.push_back(*pool->AddNode(testing::Node(4)));
  for (int a = 1; a <= 4; ++a) ASSERT_TRUE(pool->AddApp(AppSpec{AppId(a), q}).ok());
  ASSERT_TRUE(pool->Start().ok());
  ASSERT_TRUE(pool->SetAsks(AppId(4), {SlotAsk(8)}).ok());
  std::vector<std::vector<Placement>> recovered(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 6; ++i) {
        auto p = pool->RecoverPlacement(AppId(t + 1), nodes[static_cast<size_t>(i + t) % 8], kSlot,
                                        0, -1);
        EXPECT_TRUE(p.ok()) << p.status().ToString();
        if (p.ok()) recovered[static_cast<size_t>(t)].push_back(*p);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<Placement> placed;
  EXPECT_TRUE(Eventually([&] {
    EXPECT_TRUE(pool->TakePlacements(AppId(4), &placed).ok());
    return placed.size() == 8;
  }));
  pool->Stop();
  std::set<uint64_t> ids;
  for (const auto& v : recovered) {
    for (const Placement& p : v) ids.insert(p.id);
  }
  for (const Placement& p : placed) ids.insert(p.id);
  EXPECT_EQ(ids.size(), 26u);
  EXPECT_EQ(pool->Metrics().allocated, kSlot * 26);
  EXPECT_EQ(pool->queues().Usage(q), kSlot * 26);
  EXPECT_TRUE(pool->cell().CheckInvariants().ok());
  for (const auto& v : recovered) ASSERT_TRUE(pool->ReleaseBatch(v).ok());
  ASSERT_TRUE(pool->ReleaseBatch(placed).ok());
  EXPECT_TRUE(pool->Metrics().allocated.IsZero());
  EXPECT_TRUE(pool->queues().Usage(q).IsZero());
}

}  // namespace
}  // namespace spindle::pool
