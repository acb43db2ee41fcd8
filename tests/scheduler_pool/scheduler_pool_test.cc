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

}  // namespace
}  // namespace spindle::pool
