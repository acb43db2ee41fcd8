// Node-label partitions in the pool, in every sync mode and strategy: an ask
// lands only in its partition; a default-partition ask never uses an
// exclusive one and uses a non-exclusive one only once the default
// partition is full and no ask of that label waits (Hadoop 2.8+
// RegularContainerAllocator, TestNodeLabelContainerAllocation
// .testPreferenceOfNeedyAppsTowardsNonExclusivePartition /
// testNonLabeledResourceRequestGetPreferrenceToNonLabeledNode).
#include <gtest/gtest.h>

#include "scheduler_pool/scheduler_pool.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using testing::kSlot;
using testing::ManualPool;
using testing::SlotAsk;

struct LabelCase {
  SyncMode mode;
  StrategyKind strategy;
};

class NodeLabelsPoolTest : public ::testing::TestWithParam<LabelCase> {
 protected:
  NodeLabelsPoolTest() : pool_(Options()) {
    queue_ = pool_.Queue(testing::NamedQueue("default"));
    x_ = pool_.pool->InternLabel("x");
  }
  static PoolOptions Options() {
    PoolOptions o =
        testing::SmallOptions(GetParam().mode, GetParam().mode == SyncMode::kMonolithic ? 1 : 2, 2);
    o.strategy = GetParam().strategy;
    return o;
  }
  NodeId AddNode(int slots, LabelId label) {
    NodeSpec spec = testing::Node(slots);
    spec.label = label;
    auto id = pool_.pool->AddNode(spec);
    EXPECT_TRUE(id.ok());
    return *id;
  }
  void AskFor(AppId app, int64_t count, LabelId label, bool am = false) {
    Ask ask = SlotAsk(count);
    ask.label = label;
    ask.am_container = am;
    ASSERT_TRUE(pool_.pool->SetAsks(app, {ask}).ok());
  }
  // Steps past a few sync gaps, then takes what the app got.
  std::vector<Placement> Run(AppId app) {
    for (int i = 0; i < 20; ++i) pool_.Step(std::chrono::milliseconds(50));
    return pool_.Take(app);
  }
  static std::multiset<NodeId> NodesOf(const std::vector<Placement>& placements) {
    std::multiset<NodeId> out;
    for (const Placement& p : placements) out.insert(p.node);
    return out;
  }

  ManualPool pool_;
  QueueId queue_;
  LabelId x_ = kDefaultLabel;
};

TEST_P(NodeLabelsPoolTest, AsksStayInTheirPartition) {
  const NodeId plain = AddNode(2, kDefaultLabel);
  const NodeId labelled = AddNode(2, x_);
  ASSERT_EQ(pool_.pool->cell().labelled_nodes(), 1);
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(1), queue_}).ok());
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(2), queue_}).ok());
  AskFor(AppId(1), 5, x_);
  AskFor(AppId(2), 5, kDefaultLabel);
  EXPECT_EQ(NodesOf(Run(AppId(1))), (std::multiset<NodeId>{labelled, labelled}));
  // x is exclusive: the default ask gets the plain node only.
  EXPECT_EQ(NodesOf(pool_.Take(AppId(2))), (std::multiset<NodeId>{plain, plain}));
  EXPECT_EQ(pool_.pool->labels().waiting(x_), 1) << "one ask key of x";
  AskFor(AppId(1), 0, x_);
  EXPECT_EQ(pool_.pool->labels().waiting(x_), 0);
  AskFor(AppId(1), 4, x_);
  ASSERT_TRUE(pool_.pool->RemoveApp(AppId(1)).ok());
  EXPECT_EQ(pool_.pool->labels().waiting(x_), 0);
}

TEST_P(NodeLabelsPoolTest, DefaultAsksBorrowAnIdleNonExclusivePartition) {
  pool_.pool->SetLabelExclusive(x_, false);
  const NodeId plain = AddNode(1, kDefaultLabel);
  const NodeId labelled = AddNode(2, x_);
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(1), queue_}).ok());
  AskFor(AppId(1), 3, kDefaultLabel);
  // The default partition first, then x's idle room.
  EXPECT_EQ(NodesOf(Run(AppId(1))), (std::multiset<NodeId>{plain, labelled, labelled}));
}

TEST_P(NodeLabelsPoolTest, NothingIsLentWhileTheLabelHasWaitingAsks) {
  pool_.pool->SetLabelExclusive(x_, false);
  const NodeId plain = AddNode(1, kDefaultLabel);
  const NodeId labelled = AddNode(1, x_);
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(1), queue_}).ok());
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(2), queue_}).ok());
  // App 1 wants two x containers: one fits, the other keeps waiting, so x
  // lends nothing to app 2.
  AskFor(AppId(1), 2, x_);
  AskFor(AppId(2), 2, kDefaultLabel);
  EXPECT_EQ(NodesOf(Run(AppId(1))), (std::multiset<NodeId>{labelled}));
  EXPECT_EQ(NodesOf(pool_.Take(AppId(2))), (std::multiset<NodeId>{plain}));
}

TEST_P(NodeLabelsPoolTest, AmContainersAreNeverLent) {
  pool_.pool->SetLabelExclusive(x_, false);
  AddNode(1, x_);
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(1), queue_}).ok());
  AskFor(AppId(1), 1, kDefaultLabel, /*am=*/true);
  EXPECT_TRUE(Run(AppId(1)).empty());
}

TEST_P(NodeLabelsPoolTest, ARelabelledNodeTakesItsNewPartitionsAsks) {
  const NodeId node = AddNode(2, kDefaultLabel);
  ASSERT_TRUE(pool_.pool->AddApp(AppSpec{AppId(1), queue_}).ok());
  AskFor(AppId(1), 1, x_);
  EXPECT_TRUE(Run(AppId(1)).empty());
  NodeUpdate update;
  update.set_label = true;
  update.label = x_;
  ASSERT_TRUE(pool_.pool->UpdateNode(node, update).ok());
  EXPECT_EQ(NodesOf(Run(AppId(1))), (std::multiset<NodeId>{node}));
}

INSTANTIATE_TEST_SUITE_P(
    EveryMode, NodeLabelsPoolTest,
    ::testing::Values(LabelCase{SyncMode::kMonolithic, StrategyKind::kLatencyFirst},
                      LabelCase{SyncMode::kParSync, StrategyKind::kLatencyFirst},
                      LabelCase{SyncMode::kParSync, StrategyKind::kQualityFirst},
                      LabelCase{SyncMode::kSameSync, StrategyKind::kAdaptive},
                      LabelCase{SyncMode::kStateSync, StrategyKind::kScoreSampling}));

}  // namespace
}  // namespace spindle::pool
