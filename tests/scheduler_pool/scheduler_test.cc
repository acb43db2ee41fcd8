#include "scheduler_pool/scheduler.h"

#include <gtest/gtest.h>

#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;
using testing::kSlot;
using testing::ManualPool;
using testing::SlotAsk;
using testing::SmallOptions;

TEST(SchedulerTest, PlacesAsksAtTheNextStepWithoutHeartbeats) {
  ManualPool mp(SmallOptions(SyncMode::kParSync, 2, 4));
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(mp.pool->AddNode(testing::Node(2)).ok());
  const AppId app(7);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(5)}).ok());
  const TimePoint asked = mp.clock.Now();
  const StepResult r = mp.Step(milliseconds(3));
  EXPECT_EQ(r.placed, 5);
  EXPECT_EQ(r.backlog, 0);
  auto got = mp.Take(app);
  ASSERT_EQ(got.size(), 5u);
  for (const Placement& p : got) {
    EXPECT_EQ(p.app, app);
    EXPECT_EQ(p.queue, q);
    EXPECT_EQ(p.resource, kSlot);
    EXPECT_EQ(p.asked_at, asked);
    EXPECT_EQ(p.committed_at - p.asked_at, milliseconds(3));
  }
  EXPECT_TRUE(mp.Take(app).empty());
  const PoolMetrics m = mp.pool->Metrics();
  EXPECT_EQ(m.overall.placements, 5);
  EXPECT_NEAR(m.overall.delay.Percentile(0.5).count(), 3e6, 3e6 * 0.07);  // bucket error
  EXPECT_EQ(m.overall.delay.max(), milliseconds(3));
  EXPECT_EQ(m.allocated, kSlot * 5);
  EXPECT_EQ(mp.pool->queues().Usage(q), kSlot * 5);
  EXPECT_TRUE(mp.pool->cell().CheckInvariants().ok());
}

TEST(SchedulerTest, AsksAreAbsoluteTotalsAsTheAppKnowsThem) {
  ManualPool mp(SmallOptions(SyncMode::kMonolithic, 1, 1));
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(4)).ok());
  const AppId app(1);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(10)}).ok());
  EXPECT_EQ(mp.Step().placed, 4);
  EXPECT_EQ(mp.Step().backlog, 6);
  // The AM repeats its total before it has seen the 4: still 6 to go, not 10.
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(10)}).ok());
  EXPECT_EQ(mp.Step().backlog, 6);
  // It takes them, and now asks for 6: unchanged.
  auto got = mp.Take(app);
  ASSERT_EQ(got.size(), 4u);
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(6)}).ok());
  EXPECT_EQ(mp.Step().backlog, 6);
  // Lowered to 2, then cancelled.
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(2)}).ok());
  EXPECT_EQ(mp.Step().backlog, 2);
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(0)}).ok());
  EXPECT_EQ(mp.Step().backlog, 0);
  // Releases make room; a new ask is placed on it.
  ASSERT_TRUE(mp.pool->ReleaseBatch(got).ok());
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(3)}).ok());
  EXPECT_EQ(mp.Step().placed, 3);
  EXPECT_EQ(mp.pool->queues().Usage(q), kSlot * 3);
}

// On a virtual clock (kStamp) nothing sleeps: each commit is stamped with
// the step's start plus what its decisions cost (quality-first's x factor),
// the step says when its decisions end, and adaptive's EMA sees that delay,
// not the instant the clock stood at. Adaptive switches on it as ParSync
// §5.2 has it: quality-first while the EMA is under tau, latency-first not.
TEST(SchedulerTest, StampedDecisionCostIsTheDelayAdaptiveObserves) {
  PoolOptions o = SmallOptions(SyncMode::kParSync, 1, 1);
  o.strategy = StrategyKind::kAdaptive;
  o.tau = milliseconds(8);
  o.ema_alpha = 1;  // the last delay is the EMA
  o.emulated_decision_cost = milliseconds(1);
  o.emulated_quality_cost_factor = 2;
  o.decision_pacing = DecisionPacing::kStamp;
  ManualPool mp(o);
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(mp.pool->AddNode(testing::Node(2)).ok());
  const AppId app(1);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  ASSERT_EQ(mp.pool->scheduler(0).strategy().active(), StrategyKind::kQualityFirst);
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(5)}).ok());
  const TimePoint asked = mp.clock.Now();
  StepResult r = mp.Step(milliseconds(3));
  ASSERT_EQ(r.placed, 5);
  // 3 ms waiting for the step, then 5 quality-first decisions at 2 ms.
  EXPECT_EQ(r.decided_until, asked + milliseconds(13));
  EXPECT_EQ(mp.clock.Now(), asked + milliseconds(3));  // the clock stood still
  for (const Placement& p : mp.Take(app)) EXPECT_EQ(p.committed_at - p.asked_at, milliseconds(13));
  EXPECT_EQ(mp.pool->Metrics().overall.delay.max(), milliseconds(13));
  // 13 ms >= tau: latency-first now, its decisions at 1 ms.
  EXPECT_EQ(mp.pool->scheduler(0).strategy().active(), StrategyKind::kLatencyFirst);
  mp.clock.Set(r.decided_until);
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(3)}).ok());
  r = mp.Step(milliseconds(2));
  ASSERT_EQ(r.placed, 3);
  EXPECT_EQ(r.decided_until, asked + milliseconds(13 + 2 + 3));
  for (const Placement& p : mp.Take(app)) EXPECT_EQ(p.committed_at - p.asked_at, milliseconds(5));
  // 5 ms < tau: back to quality-first.
  EXPECT_EQ(mp.pool->scheduler(0).strategy().active(), StrategyKind::kQualityFirst);
  // A step with nothing to decide ends where it starts.
  mp.clock.Set(r.decided_until);
  r = mp.Step(milliseconds(1));
  EXPECT_EQ(r.decided_until, mp.clock.Now());
  EXPECT_TRUE(mp.pool->cell().CheckInvariants().ok());
}

// Two StateSync schedulers share a stale view of two one-slot nodes. The
// first takes one node; the second, not knowing, claims both: one claim
// conflicts, it refreshes that node, finds nothing else and keeps one task.
TEST(SchedulerTest, ConflictRefreshesTheNodeAndRetries) {
  PoolOptions o = SmallOptions(SyncMode::kStateSync, 2, 2);
  o.sync_gap = milliseconds(10'000);
  ManualPool mp(o);
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(1)).ok());
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(1)).ok());
  mp.pool->RunAllOnce(mp.clock.Now());  // both views: two free nodes
  AppId apps[2];
  for (uint64_t id = 1, found = 0; found < 2; ++id) {
    const int s = mp.pool->SchedulerFor(AppId(id), "default");
    if (!apps[s].valid()) {
      apps[s] = AppId(id);
      ++found;
    }
  }
  for (AppId a : apps) ASSERT_TRUE(mp.pool->AddApp(AppSpec{a, q}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(apps[0], {SlotAsk(1)}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(apps[1], {SlotAsk(2)}).ok());
  mp.clock.Advance(milliseconds(1));
  EXPECT_EQ(mp.pool->RunOnce(0, mp.clock.Now()).placed, 1);
  const StepResult r = mp.pool->RunOnce(1, mp.clock.Now());
  EXPECT_EQ(r.placed, 1);
  EXPECT_EQ(r.conflicts, 1);
  EXPECT_EQ(r.backlog, 1);
  // The conflicted node is now full in scheduler 1's view.
  const NodeId taken = mp.Take(apps[0]).at(0).node;
  EXPECT_FALSE(mp.pool->scheduler(1).view().CanFit(taken, kSlot));
  EXPECT_EQ(mp.pool->Metrics().schedulers[1].conflicts, 1);
  // Quota reserved for the refused claim was given back.
  EXPECT_EQ(mp.pool->queues().Usage(q), kSlot * 2);
  EXPECT_TRUE(mp.pool->cell().CheckInvariants().ok());
}

// Coarse-grained detection refuses a node that changed but still has room;
// the scheduler refreshes it and succeeds on the retry, in the same step.
TEST(SchedulerTest, CoarseGrainedConflictIsRetriedWithinTheStep) {
  PoolOptions o = SmallOptions(SyncMode::kStateSync, 2, 2);
  o.sync_gap = milliseconds(10'000);
  o.conflict = ConflictMode::kCoarseGrained;
  ManualPool mp(o);
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(2)).ok());
  mp.pool->RunAllOnce(mp.clock.Now());
  AppId apps[2];
  for (uint64_t id = 1, found = 0; found < 2; ++id) {
    const int s = mp.pool->SchedulerFor(AppId(id), "default");
    if (!apps[s].valid()) {
      apps[s] = AppId(id);
      ++found;
    }
  }
  for (AppId a : apps) {
    ASSERT_TRUE(mp.pool->AddApp(AppSpec{a, q}).ok());
    ASSERT_TRUE(mp.pool->SetAsks(a, {SlotAsk(1)}).ok());
  }
  EXPECT_EQ(mp.pool->RunOnce(0, mp.clock.Now()).placed, 1);
  const StepResult r = mp.pool->RunOnce(1, mp.clock.Now());
  EXPECT_EQ(r.conflicts, 1);
  EXPECT_EQ(r.placed, 1);
  EXPECT_EQ(r.backlog, 0);
}

TEST(SchedulerTest, AllOrNothingPlacesAGangWholeOrNotAtAll) {
  PoolOptions o = SmallOptions(SyncMode::kMonolithic, 1, 1);
  o.transaction = TransactionMode::kAllOrNothing;
  ManualPool mp(o);
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(2)).ok());
  const AppId app(1);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(3)}).ok());
  EXPECT_EQ(mp.Step().placed, 0);
  EXPECT_TRUE(mp.pool->cell().Allocated().IsZero());
  EXPECT_TRUE(mp.pool->queues().Usage(q).IsZero());
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(1)).ok());
  EXPECT_EQ(mp.Step().placed, 3);
}

TEST(SchedulerTest, RemovedAppsGiveBackWhatTheyDidNotTake) {
  ManualPool mp(SmallOptions(SyncMode::kMonolithic, 1, 1));
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(4)).ok());
  const AppId app(1);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(6)}).ok());
  EXPECT_EQ(mp.Step().placed, 4);
  ASSERT_TRUE(mp.pool->RemoveApp(app).ok());
  EXPECT_TRUE(mp.pool->cell().Allocated().IsZero());
  EXPECT_TRUE(mp.pool->queues().Usage(q).IsZero());
  EXPECT_EQ(mp.Step().backlog, 0);
  EXPECT_TRUE(mp.pool->TakePlacements(app, nullptr).IsNotFound());
  EXPECT_TRUE(mp.pool->RemoveApp(app).IsNotFound());
}

TEST(SchedulerTest, QualityCountsPreferredPlacements) {
  ManualPool mp(SmallOptions(SyncMode::kMonolithic, 1, 2));
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  const NodeId a = *mp.pool->AddNode(testing::Node(1, "/ra"));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(4, "/rb")).ok());
  const AppId app(1);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  Ask ask = SlotAsk(2);
  ask.nodes = {a};
  ASSERT_TRUE(mp.pool->SetAsks(app, {ask}).ok());
  EXPECT_EQ(mp.Step().placed, 2);
  const auto m = mp.pool->Metrics().overall;
  EXPECT_EQ(m.with_preference, 2);
  EXPECT_EQ(m.preferred, 1);
  EXPECT_DOUBLE_EQ(m.quality(), 0.5);
  int local = 0;
  for (const Placement& p : mp.Take(app)) local += p.locality == Locality::kNodeLocal;
  EXPECT_EQ(local, 1);
}

TEST(SchedulerTest, TimeSeriesHasOnePointPerSecond) {
  ManualPool mp(SmallOptions(SyncMode::kParSync, 2, 2));
  const QueueId q = mp.Queue(testing::NamedQueue("default"));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(mp.pool->AddNode(testing::Node(100)).ok());
  const AppId app(3);
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
  for (int s = 0; s < 4; ++s) {
    ASSERT_TRUE(mp.pool->SetAsks(app, {SlotAsk(10 * (s + 1))}).ok());
    for (int i = 0; i < 10; ++i) mp.Step(milliseconds(100));
  }
  const auto series = mp.pool->Series();
  ASSERT_GE(series.size(), 3u);
  int64_t placed = 0;
  for (size_t i = 0; i < series.size(); ++i) {
    EXPECT_EQ(series[i].second, static_cast<int64_t>(i));
    placed += series[i].placements;
  }
  EXPECT_GE(placed, 30);
  EXPECT_GT(series[1].utilisation, 0);
}

}  // namespace
}  // namespace spindle::pool
