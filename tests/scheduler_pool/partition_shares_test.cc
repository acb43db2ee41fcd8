// Queue capacities per node-label partition in the pool (PartitionShare),
// in every sync mode and strategy: a queue's usage of a partition stops at
// its maximum there; queues converge to their guarantees per partition;
// default-partition asks that borrow a non-exclusive partition are held by
// no queue maximum and count in that partition (3.3 AbstractCSQueue.
// getCurrentLimitResource, IGNORE_PARTITION_EXCLUSIVITY). Numbers from
// Hadoop's TestNodeLabelContainerAllocation where cited.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "scheduler_pool/scheduler_pool.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using testing::kSlot;
using testing::ManualPool;
using testing::SlotAsk;

struct ShareCase {
  SyncMode mode;
  StrategyKind strategy;
};

class PartitionSharesTest : public ::testing::TestWithParam<ShareCase> {
 protected:
  PartitionSharesTest() : pool_(Options()) { x_ = pool_.pool->InternLabel("x"); }
  static PoolOptions Options() {
    PoolOptions o =
        testing::SmallOptions(GetParam().mode, GetParam().mode == SyncMode::kMonolithic ? 1 : 2, 2);
    o.strategy = GetParam().strategy;
    return o;
  }
  // A queue of the CapacityScheduler's kind: `min`/`max` slots of the
  // default partition, `x_min`/`x_max` slots of x, no other partition.
  static QueueSpec Queue(const std::string& name, int64_t min, int64_t max, int64_t x_min,
                         int64_t x_max) {
    QueueSpec q = testing::NamedQueue(name);
    q.min = kSlot * min;
    q.max = kSlot * max;
    q.weight = static_cast<double>(std::max<int64_t>(min, 1));
    q.partitions.push_back(PartitionShare{"x", kDefaultLabel, kSlot * x_min, kSlot * x_max,
                                          static_cast<double>(std::max<int64_t>(x_min, 1))});
    q.unlisted_partitions = UnlistedPartitions::kClosed;
    return q;
  }
  std::vector<QueueId> SetQueues(const std::vector<QueueSpec>& specs) {
    auto ids = pool_.pool->SetQueues(specs);
    EXPECT_TRUE(ids.ok()) << ids.status().ToString();
    return ids.ok() ? *ids : std::vector<QueueId>{};
  }
  NodeId AddNode(int slots, LabelId label) {
    NodeSpec spec = testing::Node(slots);
    spec.label = label;
    auto id = pool_.pool->AddNode(spec);
    EXPECT_TRUE(id.ok());
    return *id;
  }
  void AddApp(AppId app, QueueId queue) {
    ASSERT_TRUE(pool_.pool->AddApp(AppSpec{app, queue}).ok());
  }
  void AskFor(AppId app, int64_t count, LabelId label) {
    Ask ask = SlotAsk(count);
    ask.label = label;
    ASSERT_TRUE(pool_.pool->SetAsks(app, {ask}).ok());
  }
  void Run() {
    for (int i = 0; i < 20; ++i) pool_.Step(std::chrono::milliseconds(50));
  }
  int64_t Slots(QueueId queue, LabelId label) const {
    return pool_.pool->queues().UsageIn(queue, label).memory_mb() / kSlot.memory_mb();
  }
  static int64_t CountOn(const std::vector<Placement>& placements, LabelId label) {
    int64_t n = 0;
    for (const Placement& p : placements) n += p.label == label;
    return n;
  }

  ManualPool pool_;
  LabelId x_ = kDefaultLabel;
};

// TestNodeLabelContainerAllocation.testQueueMetricsWithLabelsDisableElasticity:
// one 20 GB node of x; a1 may use 30% of x (6 GB), a2 20% (4 GB); each asks
// for more and gets its maximum.
TEST_P(PartitionSharesTest, EachQueueStopsAtItsMaximumInThePartition) {
  const auto ids = SetQueues({Queue("a1", 0, 0, 6, 6), Queue("a2", 0, 0, 4, 4)});
  AddNode(20, x_);
  AddApp(AppId(1), ids[0]);
  AddApp(AppId(2), ids[1]);
  AskFor(AppId(1), 10, x_);
  AskFor(AppId(2), 10, x_);
  Run();
  EXPECT_EQ(pool_.Take(AppId(1)).size(), 6u);
  EXPECT_EQ(pool_.Take(AppId(2)).size(), 4u);
  EXPECT_EQ(Slots(ids[0], x_), 6);
  EXPECT_EQ(Slots(ids[1], x_), 4);
  EXPECT_EQ(Slots(ids[0], kDefaultLabel), 0);
}

// A queue without a share of x (the CapacityScheduler's closed rule) gets
// nothing there; a release gives the partition's room back to its queue.
TEST_P(PartitionSharesTest, NoShareNoContainersAndReleasesCreditThePartition) {
  QueueSpec none = testing::NamedQueue("none");
  none.unlisted_partitions = UnlistedPartitions::kClosed;
  const auto ids = SetQueues({none, Queue("a", 0, 0, 2, 2)});
  AddNode(8, x_);
  AddApp(AppId(1), ids[0]);
  AddApp(AppId(2), ids[1]);
  AskFor(AppId(1), 4, x_);
  AskFor(AppId(2), 4, x_);
  Run();
  EXPECT_TRUE(pool_.Take(AppId(1)).empty());
  const std::vector<Placement> got = pool_.Take(AppId(2));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(CountOn(got, x_), 2);
  ASSERT_TRUE(pool_.pool->Release(got[0]).ok());
  EXPECT_EQ(Slots(ids[1], x_), 1);
  AskFor(AppId(2), 3, x_);  // 2 asked before, 1 of them released
  Run();
  EXPECT_EQ(pool_.Take(AppId(2)).size(), 1u);
  EXPECT_EQ(Slots(ids[1], x_), 2);
}

// Two queues whose guarantees differ per partition: on the default
// partition a 7 and b 3 of 10, on x a 3 and b 7 of 10, both elastic (max
// the whole partition). Each asks for more than the cell; the full
// partitions end at the guarantees, and keep them as containers complete.
// The apps share one scheduler: each scheduler orders its own apps
// (QuotaDrfPolicy), so across schedulers a queue above its guarantee may
// race one below it, as on the default partition; only the maximum is
// exact across schedulers (the ledger's reservation).
TEST_P(PartitionSharesTest, QueuesConvergeToTheirGuaranteesPerPartition) {
  const auto ids = SetQueues({Queue("a", 7, 10, 3, 10), Queue("b", 3, 10, 7, 10)});
  AddNode(10, kDefaultLabel);
  AddNode(10, x_);
  // Apps 1, 2 in a and 3, 4 in b (default partition, x), all on the
  // scheduler of the first.
  std::vector<AppId> apps;
  const int home = pool_.pool->SchedulerFor(AppId(1), "a");
  for (uint64_t id = 1; apps.size() < 4; ++id) {
    const std::string queue = apps.size() < 2 ? "a" : "b";
    if (pool_.pool->SchedulerFor(AppId(id), queue) == home) apps.push_back(AppId(id));
  }
  for (size_t i = 0; i < apps.size(); ++i) AddApp(apps[i], ids[i / 2]);
  for (size_t i = 0; i < apps.size(); ++i) AskFor(apps[i], 30, i % 2 == 0 ? kDefaultLabel : x_);
  std::map<size_t, std::vector<Placement>> held;
  for (int round = 0; round < 5; ++round) {
    Run();
    for (size_t i = 0; i < apps.size(); ++i) {
      for (const Placement& p : pool_.Take(apps[i])) held[i].push_back(p);
    }
    EXPECT_EQ(Slots(ids[0], kDefaultLabel), 7) << round;
    EXPECT_EQ(Slots(ids[1], kDefaultLabel), 3) << round;
    EXPECT_EQ(Slots(ids[0], x_), 3) << round;
    EXPECT_EQ(Slots(ids[1], x_), 7) << round;
    // One container of each app completes (their asks stay outstanding):
    // the freed room goes back to the queue below its guarantee.
    for (size_t i = 0; i < apps.size(); ++i) {
      ASSERT_FALSE(held[i].empty());
      ASSERT_TRUE(pool_.pool->Release(held[i].back()).ok());
      held[i].pop_back();
    }
  }
}

// TestNodeLabelContainerAllocation.testQueuesWithoutAccessUsingPartitionedNodes
// and 3.3 getCurrentLimitResource: b has no share of the non-exclusive x
// and a default maximum of 5 of the default partition's 10; its
// default-partition app asks for 50 and gets 5 there and all 10 of x, which
// count in x.
TEST_P(PartitionSharesTest, BorrowedContainersIgnoreTheQueueMaximumAndCountInTheirPartition) {
  pool_.pool->SetLabelExclusive(x_, false);
  QueueSpec b = testing::NamedQueue("b");
  b.max = kSlot * 5;
  b.unlisted_partitions = UnlistedPartitions::kClosed;
  const auto ids = SetQueues({b});
  AddNode(10, kDefaultLabel);
  AddNode(10, x_);
  AddApp(AppId(1), ids[0]);
  AskFor(AppId(1), 50, kDefaultLabel);
  Run();
  const std::vector<Placement> got = pool_.Take(AppId(1));
  EXPECT_EQ(CountOn(got, kDefaultLabel), 5);
  EXPECT_EQ(CountOn(got, x_), 10);
  EXPECT_EQ(Slots(ids[0], kDefaultLabel), 5);
  EXPECT_EQ(Slots(ids[0], x_), 10);
  // Released lent containers credit x.
  std::vector<Placement> lent;
  for (const Placement& p : got) {
    if (p.label == x_) lent.push_back(p);
  }
  ASSERT_TRUE(pool_.pool->ReleaseBatch(lent).ok());
  EXPECT_EQ(Slots(ids[0], x_), 0);
  EXPECT_EQ(Slots(ids[0], kDefaultLabel), 5);
}

INSTANTIATE_TEST_SUITE_P(
    EveryMode, PartitionSharesTest,
    ::testing::Values(ShareCase{SyncMode::kMonolithic, StrategyKind::kLatencyFirst},
                      ShareCase{SyncMode::kParSync, StrategyKind::kLatencyFirst},
                      ShareCase{SyncMode::kParSync, StrategyKind::kQualityFirst},
                      ShareCase{SyncMode::kSameSync, StrategyKind::kAdaptive},
                      ShareCase{SyncMode::kStateSync, StrategyKind::kScoreSampling}));

// The ledger alone: per-partition reservations, and the spec checks.
TEST(PartitionLedgerTest, ReservesPerPartitionAndRefusesBadShares) {
  QueueLedger ledger;
  QueueSpec q = testing::NamedQueue("q");
  q.max = kSlot * 4;
  q.partitions.push_back(PartitionShare{"x", LabelId{1}, kSlot, kSlot * 2, 1.0});
  q.unlisted_partitions = UnlistedPartitions::kClosed;
  auto ids = ledger.SetQueues({q});
  ASSERT_TRUE(ids.ok());
  const QueueId id = ids->front();
  EXPECT_EQ(ledger.TryReserve(id, kSlot, 3, LabelId{1}), 2);
  EXPECT_EQ(ledger.TryReserve(id, kSlot, 3, LabelId{2}), 0);  // unlisted: closed
  EXPECT_EQ(ledger.TryReserve(id, kSlot, 5), 4);              // the default partition's own
  EXPECT_EQ(ledger.Usage(id), kSlot * 6);
  EXPECT_EQ(ledger.Snapshot(id, LabelId{1}).spec.max, kSlot * 2);
  EXPECT_EQ(ledger.Snapshot(id, LabelId{1}).usage, kSlot * 2);
  EXPECT_EQ(ledger.Snapshot(id).usage, kSlot * 4);
  q.unlisted_partitions = UnlistedPartitions::kOpen;
  ASSERT_TRUE(ledger.SetQueues({q}).ok());
  EXPECT_EQ(ledger.TryReserve(id, kSlot, 3, LabelId{2}), 3);  // open: unlimited
  q.partitions.push_back(q.partitions.front());
  EXPECT_FALSE(ledger.SetQueues({q}).ok());  // listed twice
  q.partitions.pop_back();
  q.partitions.front().min = kSlot * 3;  // min above max
  EXPECT_FALSE(ledger.SetQueues({q}).ok());
}

}  // namespace
}  // namespace spindle::pool
