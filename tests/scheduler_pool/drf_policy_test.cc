#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <utility>

#include "scheduler_pool/policy/drf.h"
#include "scheduler_pool/queue_ledger.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using testing::kSlot;

// ---- Closed-form DRF ----

// DRF paper (Ghodsi et al. 2011, §4): 9 CPUs and 18 GB; user A runs tasks of
// <1 CPU, 4 GB>, user B tasks of <3 CPU, 1 GB>. DRF gives A 3 tasks
// <3 CPU, 12 GB> and B 2 tasks <6 CPU, 2 GB>: both dominant shares are 2/3.
TEST(DrfTest, TextbookExampleFromTheDrfPaper) {
  const Resource capacity = Resource::Of(18 * 1024, 9);
  const Resource a_task = Resource::Of(4 * 1024, 1);
  const Resource b_task = Resource::Of(1024, 3);
  const int64_t many = 1000;  // both users have more tasks than fit
  const auto shares = DrfFairShares(capacity, {{a_task * many, 1.0}, {b_task * many, 1.0}});
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_NEAR(shares[0].fraction * many, 3.0, 1e-6);
  EXPECT_NEAR(shares[1].fraction * many, 2.0, 1e-6);
  EXPECT_NEAR(shares[0].dominant_share, 2.0 / 3, 1e-6);
  EXPECT_NEAR(shares[1].dominant_share, 2.0 / 3, 1e-6);
  EXPECT_NEAR(shares[0].Of(a_task * many, kVcoresIndex), 3.0, 1e-6);
  EXPECT_NEAR(shares[1].Of(b_task * many, kMemoryIndex), 2.0 * 1024, 1e-3);
}

// Carbyne (OSDI 2016, Fig. 2): two jobs contending on one bottleneck
// resource each get half of it under DRF; when J2 can only use 0.29 (one
// task), J1 gets the remaining 0.71 (progressive filling is work
// conserving). With P(altruism) = 0 Carbyne is exactly this.
TEST(DrfTest, CarbyneTwoJobsOnOneResource) {
  const Resource capacity = Resource::Of(100, 0);
  auto shares = DrfFairShares(capacity, {{Resource::Of(100, 0), 1}, {Resource::Of(100, 0), 1}});
  EXPECT_NEAR(shares[0].dominant_share, 0.5, 1e-9);
  EXPECT_NEAR(shares[1].dominant_share, 0.5, 1e-9);
  shares = DrfFairShares(capacity, {{Resource::Of(100, 0), 1}, {Resource::Of(29, 0), 1}});
  EXPECT_NEAR(shares[0].dominant_share, 0.71, 1e-9);
  EXPECT_NEAR(shares[1].dominant_share, 0.29, 1e-9);
  EXPECT_NEAR(shares[1].fraction, 1.0, 1e-9);
}

TEST(DrfTest, WeightsAndUnusableDemands) {
  const Resource capacity = Resource::Of(90, 9);
  auto shares = DrfFairShares(capacity, {{Resource::Of(90, 0), 2}, {Resource::Of(90, 0), 1}});
  EXPECT_NEAR(shares[0].dominant_share, 2.0 / 3, 1e-9);
  EXPECT_NEAR(shares[1].dominant_share, 1.0 / 3, 1e-9);
  // A demand for a resource with no capacity gets nothing.
  shares = DrfFairShares(Resource::Of(90, 0), {{Resource::Of(10, 1), 1}, {Resource::Of(10, 0), 1}});
  EXPECT_EQ(shares[0].fraction, 0);
  EXPECT_NEAR(shares[1].fraction, 1.0, 1e-9);
}

// ---- The policy, through a monolithic scheduler on real commits ----

class PolicyTest : public ::testing::Test {
 protected:
  PolicyTest() : mp_(testing::SmallOptions(SyncMode::kMonolithic, 1, 1)) {}

  AppId App(uint64_t id, QueueId queue, int32_t priority = 0) {
    EXPECT_TRUE(mp_.pool->AddApp(AppSpec{AppId(id), queue, priority}).ok());
    return AppId(id);
  }
  void AskFor(AppId app, const Resource& r, int64_t count, int32_t priority = 0) {
    Ask a;
    a.capability = r;
    a.count = count;
    a.priority = priority;
    ASSERT_TRUE(mp_.pool->SetAsks(app, {a}).ok());
  }
  // Steps until nothing more is placed.
  void Settle() {
    for (int i = 0; i < 100; ++i) {
      if (mp_.Step().placed == 0 && i > 0) return;
    }
  }
  int64_t Placed(AppId app) { return static_cast<int64_t>(mp_.Take(app).size()); }

  testing::ManualPool mp_;
};

TEST_F(PolicyTest, DrfPaperExampleOnOneNode) {
  ASSERT_TRUE(mp_.pool->AddNode(NodeSpec{Resource::Of(18 * 1024, 9), "/r", 1}).ok());
  auto ids = *mp_.pool->SetQueues({testing::NamedQueue("a"), testing::NamedQueue("b")});
  const AppId a = App(1, ids[0]);
  const AppId b = App(2, ids[1]);
  AskFor(a, Resource::Of(4 * 1024, 1), 100);
  AskFor(b, Resource::Of(1024, 3), 100);
  Settle();
  EXPECT_EQ(Placed(a), 3);
  EXPECT_EQ(Placed(b), 2);
  EXPECT_TRUE(mp_.pool->cell().CheckInvariants().ok());
}

TEST_F(PolicyTest, EqualQueuesSplitEvenlyAndWeightsSkewIt) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(12)).ok());
  QueueSpec heavy = testing::NamedQueue("heavy");
  heavy.weight = 2;
  auto ids = *mp_.pool->SetQueues({testing::NamedQueue("a"), testing::NamedQueue("b"), heavy});
  const AppId a = App(1, ids[0]);
  const AppId b = App(2, ids[1]);
  const AppId h = App(3, ids[2]);
  AskFor(a, kSlot, 100);
  AskFor(b, kSlot, 100);
  AskFor(h, kSlot, 100);
  Settle();
  EXPECT_EQ(Placed(a), 3);
  EXPECT_EQ(Placed(b), 3);
  EXPECT_EQ(Placed(h), 6);
}

TEST_F(PolicyTest, GuaranteedMinComesFirst) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(10)).ok());
  QueueSpec a = testing::NamedQueue("a");
  a.min = kSlot * 7;
  auto ids = *mp_.pool->SetQueues({a, testing::NamedQueue("b")});
  const AppId app_b = App(1, ids[1]);  // b's app comes first in every other order
  const AppId app_a = App(2, ids[0]);
  AskFor(app_b, kSlot, 100);
  AskFor(app_a, kSlot, 100);
  Settle();
  EXPECT_EQ(Placed(app_a), 7);
  EXPECT_EQ(Placed(app_b), 3);
}

TEST_F(PolicyTest, MaximumIsNeverExceeded) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(10)).ok());
  QueueSpec a = testing::NamedQueue("a");
  a.max = kSlot * 2;
  auto ids = *mp_.pool->SetQueues({a, testing::NamedQueue("b")});
  const AppId app_a = App(1, ids[0]);
  const AppId app_b = App(2, ids[1]);
  AskFor(app_a, kSlot, 100);
  AskFor(app_b, kSlot, 100);
  Settle();
  EXPECT_EQ(Placed(app_a), 2);
  EXPECT_EQ(Placed(app_b), 8);
  EXPECT_EQ(mp_.pool->queues().Usage(ids[0]), kSlot * 2);
}

TEST_F(PolicyTest, PrioritiesThenFifoThenFair) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(4)).ok());
  QueueSpec fair = testing::NamedQueue("fair");
  fair.ordering = QueueOrdering::kFair;
  auto ids = *mp_.pool->SetQueues({testing::NamedQueue("fifo"), fair});
  // FIFO queue: the earlier app takes everything; app priority beats order.
  const AppId first = App(1, ids[0]);
  const AppId second = App(2, ids[0]);
  const AppId urgent = App(3, ids[0], /*priority=*/5);
  AskFor(first, kSlot, 3);
  AskFor(second, kSlot, 3);
  AskFor(urgent, kSlot, 2);
  Settle();
  EXPECT_EQ(Placed(urgent), 2);
  EXPECT_EQ(Placed(first), 2);
  EXPECT_EQ(Placed(second), 0);
}

TEST_F(PolicyTest, FairOrderingSplitsAQueueBetweenItsApps) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(6)).ok());
  QueueSpec fair = testing::NamedQueue("fair");
  fair.ordering = QueueOrdering::kFair;
  auto ids = *mp_.pool->SetQueues({fair});
  const AppId x = App(1, ids[0]);
  const AppId y = App(2, ids[0]);
  AskFor(x, kSlot, 10);
  AskFor(y, kSlot, 10);
  Settle();
  EXPECT_EQ(Placed(x), 3);
  EXPECT_EQ(Placed(y), 3);
}

// Hadoop 3.3 FairOrderingPolicy compares the memory apps use, not their
// dominant shares: a 2 GB x 1 vcore app and a 1 GB x 8 vcore app (the same
// dominant share per container on a 12 GB x 64 vcore node) split the
// memory, 3 and 6 containers, where DRF would give 4 and 4.
TEST_F(PolicyTest, FairOrderingBalancesMemoryUsed) {
  ASSERT_TRUE(mp_.pool->AddNode(NodeSpec{Resource::Of(12 * 1024, 64), "/r", 1}).ok());
  QueueSpec fair = testing::NamedQueue("fair");
  fair.ordering = QueueOrdering::kFair;
  auto ids = *mp_.pool->SetQueues({fair});
  const AppId x = App(1, ids[0]);
  const AppId y = App(2, ids[0]);
  AskFor(x, Resource::Of(2048, 1), 20);
  AskFor(y, Resource::Of(1024, 8), 20);
  Settle();
  EXPECT_EQ(Placed(x), 3);
  EXPECT_EQ(Placed(y), 6);
}

// A plain app (submitted first) and one of priority 5, each asking for
// `asks` slots of a 4-slot node in a queue ordered by `ordering`: what
// each gets.
std::pair<int64_t, int64_t> PlainAndUrgent(QueueOrdering ordering, int64_t asks) {
  testing::ManualPool mp(testing::SmallOptions(SyncMode::kMonolithic, 1, 1));
  EXPECT_TRUE(mp.pool->AddNode(testing::Node(4)).ok());
  QueueSpec q = testing::NamedQueue("q");
  q.ordering = ordering;
  auto ids = *mp.pool->SetQueues({q});
  EXPECT_TRUE(mp.pool->AddApp(AppSpec{AppId(1), ids[0]}).ok());
  EXPECT_TRUE(mp.pool->AddApp(AppSpec{AppId(2), ids[0], /*priority=*/5}).ok());
  EXPECT_TRUE(mp.pool->SetAsks(AppId(1), {testing::SlotAsk(asks)}).ok());
  EXPECT_TRUE(mp.pool->SetAsks(AppId(2), {testing::SlotAsk(asks)}).ok());
  for (int i = 0; i < 100; ++i) {
    if (mp.Step().placed == 0 && i > 0) break;
  }
  return {static_cast<int64_t>(mp.Take(AppId(1)).size()),
          static_cast<int64_t>(mp.Take(AppId(2)).size())};
}

// Application priority: 3.3's FIFO puts it first; 3.3's FairOrderingPolicy
// has no PriorityComparator; 2.6 / 2.7 have neither application priority
// nor ordering policies in the CapacityScheduler (application id alone).
TEST(PolicyOrderingTest, ApplicationPriorityCountsUnder33FifoOnly) {
  EXPECT_EQ(PlainAndUrgent(QueueOrdering::kFifo, 3), std::make_pair(int64_t{1}, int64_t{3}));
  EXPECT_EQ(PlainAndUrgent(QueueOrdering::kFair, 10), std::make_pair(int64_t{2}, int64_t{2}));
  EXPECT_EQ(PlainAndUrgent(QueueOrdering::kApplicationId, 3),
            std::make_pair(int64_t{3}, int64_t{1}));
}

// An application held by the AM limit is offered nothing, even with asks of
// its own (an unmanaged AM registers and asks while its app waits): Hadoop's
// LeafQueue.assignContainers walks the activated applications only, as
// TestApplicationLimits#testActiveApplicationLimits relies on (a pending app
// gets no container). Once activated, it is served.
TEST(PolicyHeldAppTest, HeldAppsAsksWaitUntilActivated) {
  testing::ManualPool mp(testing::SmallOptions(SyncMode::kMonolithic, 1, 1));
  ASSERT_TRUE(mp.pool->AddNode(testing::Node(4)).ok());
  auto ids = *mp.pool->SetQueues({testing::NamedQueue("q")});
  AppSpec held{AppId(1), ids[0]};
  held.held = true;
  ASSERT_TRUE(mp.pool->AddApp(held).ok());
  ASSERT_TRUE(mp.pool->AddApp(AppSpec{AppId(2), ids[0]}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(AppId(1), {testing::SlotAsk(4)}).ok());
  ASSERT_TRUE(mp.pool->SetAsks(AppId(2), {testing::SlotAsk(1)}).ok());
  for (int i = 0; i < 20; ++i) mp.Step();
  EXPECT_EQ(mp.Take(AppId(1)).size(), 0u);
  EXPECT_EQ(mp.Take(AppId(2)).size(), 1u);
  held.held = false;
  ASSERT_TRUE(mp.pool->UpdateApp(held).ok());
  for (int i = 0; i < 20; ++i) mp.Step();
  EXPECT_EQ(mp.Take(AppId(1)).size(), 3u);
}

// ordering-policy.fair.enable-size-based-weight: memory used over
// log2(1 + used + pending). An app with 100 GB of demand and one with 8 GB
// on a 10-slot node: 1 GB weighs 61.5 for the first and 78.8 for the second,
// so the first gets 6 containers of 10 (5 without the weight).
TEST_F(PolicyTest, FairSizeBasedWeightFavoursTheLargerDemand) {
  for (const bool size_based : {false, true}) {
    testing::ManualPool mp(testing::SmallOptions(SyncMode::kMonolithic, 1, 1));
    ASSERT_TRUE(mp.pool->AddNode(testing::Node(10)).ok());
    QueueSpec fair = testing::NamedQueue("fair");
    fair.ordering = QueueOrdering::kFair;
    fair.fair_size_based_weight = size_based;
    auto ids = *mp.pool->SetQueues({fair});
    ASSERT_TRUE(mp.pool->AddApp(AppSpec{AppId(1), ids[0]}).ok());
    ASSERT_TRUE(mp.pool->AddApp(AppSpec{AppId(2), ids[0]}).ok());
    ASSERT_TRUE(mp.pool->SetAsks(AppId(1), {testing::SlotAsk(100)}).ok());
    ASSERT_TRUE(mp.pool->SetAsks(AppId(2), {testing::SlotAsk(8)}).ok());
    for (int i = 0; i < 100; ++i) {
      if (mp.Step().placed == 0 && i > 0) break;
    }
    EXPECT_EQ(mp.Take(AppId(1)).size(), size_based ? 6u : 5u) << size_based;
    EXPECT_EQ(mp.Take(AppId(2)).size(), size_based ? 4u : 5u) << size_based;
  }
}

TEST_F(PolicyTest, AskPrioritiesWithinAnApp) {
  ASSERT_TRUE(mp_.pool->AddNode(testing::Node(3)).ok());
  auto ids = *mp_.pool->SetQueues({testing::NamedQueue("q")});
  const AppId app = App(1, ids[0]);
  Ask low = testing::SlotAsk(5, /*priority=*/20);
  Ask high = testing::SlotAsk(2, /*priority=*/1);
  ASSERT_TRUE(mp_.pool->SetAsks(app, {low, high}).ok());
  Settle();
  auto got = mp_.Take(app);
  ASSERT_EQ(got.size(), 3u);
  int high_count = 0;
  for (const Placement& p : got) high_count += p.priority == 1;
  EXPECT_EQ(high_count, 2);
}

// The ledger's cap holds under concurrent reservations.
TEST(QueueLedgerTest, ConcurrentReservationsRespectMax) {
  QueueLedger ledger;
  QueueSpec spec = testing::NamedQueue("q");
  spec.max = kSlot * 1000;
  const QueueId q = (*ledger.SetQueues({spec}))[0];
  std::atomic<int64_t> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        const int64_t k = ledger.TryReserve(q, kSlot, 3);
        granted += k;
        if (i % 7 == 0 && k > 0) {
          ledger.Release(q, kSlot);
          granted -= 1;
        }
        EXPECT_TRUE(ledger.Usage(q).FitsIn(spec.max));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ledger.Usage(q), kSlot * granted.load());
  EXPECT_TRUE(ledger.Usage(q).FitsIn(spec.max));
}

TEST(QueueLedgerTest, RejectsBadSpecs) {
  QueueLedger ledger;
  QueueSpec bad = testing::NamedQueue("q");
  bad.weight = 0;
  EXPECT_EQ(ledger.SetQueues({bad}).status().code(), Status::Code::kInvalidArgument);
  bad.weight = 1;
  bad.min = kSlot * 3;
  bad.max = kSlot * 2;
  EXPECT_EQ(ledger.SetQueues({bad}).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ledger.SetQueues({testing::NamedQueue("x"), testing::NamedQueue("x")}).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(ledger.size(), 0);
  auto ids = *ledger.SetQueues({testing::NamedQueue("x"), testing::NamedQueue("y")});
  auto again = *ledger.SetQueues({testing::NamedQueue("y"), testing::NamedQueue("z")});
  EXPECT_EQ(again[0], ids[1]);
  EXPECT_EQ(again[1].value(), 2u);
}

}  // namespace
}  // namespace spindle::pool
