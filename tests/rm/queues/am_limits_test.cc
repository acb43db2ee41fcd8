#include "rm/queues/am_limits.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/rm/capacity_scheduler_conf.h"

namespace spindle::rm {
namespace {

constexpr int64_t kGb = 1024;

// TestApplicationLimits.setupQueueConfiguration: root.a 10% (user limit 50,
// user-limit-factor 5), root.b 90%.
QueueTree HadoopTestTree(const std::map<std::string, std::string>& extra = {}) {
  std::map<std::string, std::string> properties = {
      {"root.queues", "a,b"},
      {"root.a.capacity", "10"},
      {"root.b.capacity", "90"},
      {"root.a.minimum-user-limit-percent", "50"},
      {"root.a.user-limit-factor", "5.0"},
  };
  for (const auto& [k, v] : extra) properties[k] = v;
  auto tree = QueueTree::Parse(test_support::CapacitySchedulerConf(properties));
  EXPECT_TRUE(tree.ok()) << tree.status().ToString();
  return std::move(tree).value();
}

AmLimitContext Context(HadoopLine line, pool::Resource cluster) {
  AmLimitContext context;
  context.line = line;
  context.min_allocation = pool::Resource::Of(kGb, 1);
  context.cluster = cluster;
  return context;
}

LeafAmLimits LimitsOfA(const QueueTree& tree, const AmLimitContext& context, int32_t users,
                       const std::map<std::string, pool::Resource>& usage = {}) {
  auto inputs = LeafAmInputsOf(tree, context, [&usage](const std::string& name) {
    auto it = usage.find(name);
    return it == usage.end() ? pool::Resource() : it->second;
  });
  return ComputeLeafAmLimits(context, inputs.at("a"), users);
}

class AmLimitsByLine : public ::testing::TestWithParam<HadoopLine> {};

// TestApplicationLimits#testLimitsComputation (2.7.7 and 3.3.0): 100 nodes of
// 16 GB -> queue AM limit 160 GB, user AM limit 80 GB; 120 nodes -> 192 GB and
// 96 GB; maximum-am-resource-percent 0.5 -> 800 GB and 400 GB.
TEST_P(AmLimitsByLine, LimitsComputationMatchesHadoop) {
  const QueueTree tree = HadoopTestTree();
  auto limits = LimitsOfA(tree, Context(GetParam(), pool::Resource::Of(100 * 16 * kGb, 1600)), 0);
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(160 * kGb, 1));
  EXPECT_EQ(limits.user_am_limit, pool::Resource::Of(80 * kGb, 1));
  EXPECT_EQ(limits.max_active_apps, -1) << "a resource limit, not a count";

  limits = LimitsOfA(tree, Context(GetParam(), pool::Resource::Of(120 * 16 * kGb, 1)), 0);
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(192 * kGb, 1));
  EXPECT_EQ(limits.user_am_limit, pool::Resource::Of(96 * kGb, 1));

  const QueueTree half = HadoopTestTree({{"root.a.maximum-am-resource-percent", "0.5"}});
  limits = LimitsOfA(half, Context(GetParam(), pool::Resource::Of(100 * 16 * kGb, 1)), 0);
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(800 * kGb, 1));
  EXPECT_EQ(limits.user_am_limit, pool::Resource::Of(400 * kGb, 1));
}

// TestApplicationLimits#testAMResourceLimit: 80 GB -> 8 GB for the queue; the
// user limit is 4 GB with one active user and 2 GB (the 50% user limit) with
// two.
TEST_P(AmLimitsByLine, UserAmLimitFollowsActiveUsers) {
  const QueueTree tree = HadoopTestTree();
  const AmLimitContext context = Context(GetParam(), pool::Resource::Of(80 * kGb, 40));
  EXPECT_EQ(LimitsOfA(tree, context, 1).queue_am_limit, pool::Resource::Of(8 * kGb, 1));
  EXPECT_EQ(LimitsOfA(tree, context, 1).user_am_limit, pool::Resource::Of(4 * kGb, 1));
  EXPECT_EQ(LimitsOfA(tree, context, 2).user_am_limit, pool::Resource::Of(2 * kGb, 1));
  // Three users: 1/3 < 50%, the user limit stays at 50%.
  EXPECT_EQ(LimitsOfA(tree, context, 3).user_am_limit, pool::Resource::Of(2 * kGb, 1));
}

// The current limit (ParentQueue.getResourceLimitsOfChild): what the other
// queues use is not the queue's to count on. 80 GB cluster, b uses 60 GB:
// a may use 20 GB now, its guarantee 8 GB; the AM limit is 10% of the larger.
TEST_P(AmLimitsByLine, QueueLimitShrinksWhenOtherQueuesUseTheCluster) {
  const QueueTree tree = HadoopTestTree();
  const AmLimitContext context = Context(GetParam(), pool::Resource::Of(80 * kGb, 40));
  auto limits = LimitsOfA(tree, context, 1, {{"b", pool::Resource::Of(60 * kGb, 30)}});
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(2 * kGb, 1));  // 10% of 20 GB, rounded up
  // Everything used by b: the guarantee (8 GB) still counts: 10% -> 1 GB.
  limits = LimitsOfA(tree, context, 1, {{"b", pool::Resource::Of(80 * kGb, 40)}});
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(1 * kGb, 1));
  // a's own use stays available to it.
  limits =
      LimitsOfA(tree, context, 1,
                {{"a", pool::Resource::Of(30 * kGb, 10)}, {"b", pool::Resource::Of(50 * kGb, 30)}});
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(3 * kGb, 1));
}

INSTANTIATE_TEST_SUITE_P(Lines, AmLimitsByLine,
                         ::testing::Values(HadoopLine::k2_7, HadoopLine::k3_3));

// TestApplicationLimits#testLimitsComputation (2.6.0): counts of active apps.
// 100 x 16 GB, 1 GB minimum: max(1, ceil(1600 x 0.1 x 1.0)) = 160 in the queue;
// per user ceil(ceil(1600 x 0.1 x 0.1) x 0.5 x 5) = 40. 120 nodes: 192, 50.
// maximum-am-resource-percent 0.5: 800.
TEST(AmLimitsCount, LimitsComputationMatchesHadoop26) {
  const QueueTree tree = HadoopTestTree();
  auto limits =
      LimitsOfA(tree, Context(HadoopLine::k2_6, pool::Resource::Of(100 * 16 * kGb, 1600)), 0);
  EXPECT_EQ(limits.max_active_apps, 160);
  EXPECT_EQ(limits.max_active_apps_per_user, 40);
  limits = LimitsOfA(tree, Context(HadoopLine::k2_6, pool::Resource::Of(120 * 16 * kGb, 1)), 0);
  EXPECT_EQ(limits.max_active_apps, 192);
  EXPECT_EQ(limits.max_active_apps_per_user, 50);
  const QueueTree half = HadoopTestTree({{"root.a.maximum-am-resource-percent", "0.5"}});
  limits = LimitsOfA(half, Context(HadoopLine::k2_6, pool::Resource::Of(100 * 16 * kGb, 1)), 0);
  EXPECT_EQ(limits.max_active_apps, 800);
  // An empty cluster still lets one app go (per user: ceil(1 x 0.5 x 5)).
  limits = LimitsOfA(tree, Context(HadoopLine::k2_6, pool::Resource()), 0);
  EXPECT_EQ(limits.max_active_apps, 1);
  EXPECT_EQ(limits.max_active_apps_per_user, 3);
}

// 3.3 caps the user AM limit at the queue's; 2.7 does not. a: 10%, maximum
// 10%, user-limit-factor 20 on 80 GB: queue limit 10% of 8 GB -> 1 GB; user
// limit 8 GB x 0.1 x 1 x 20 = 16 GB, capped to 1 GB on 3.3 only.
TEST(AmLimitsLines, UserLimitCappedByQueueLimitOn33Only) {
  const QueueTree tree =
      HadoopTestTree({{"root.a.maximum-capacity", "10"}, {"root.a.user-limit-factor", "20"}});
  const pool::Resource cluster = pool::Resource::Of(80 * kGb, 40);
  EXPECT_EQ(LimitsOfA(tree, Context(HadoopLine::k3_3, cluster), 1).user_am_limit,
            pool::Resource::Of(1 * kGb, 1));
  EXPECT_EQ(LimitsOfA(tree, Context(HadoopLine::k2_7, cluster), 1).user_am_limit,
            pool::Resource::Of(16 * kGb, 1));
}

// With labelled nodes, 3.3 computes the default partition's AM limits over
// that partition's resources (calculateAndGetAMResourceLimitPerPartition:
// getEffectiveCapacity(""), the root's limit getResourceByLabel("")); 2.7
// over the whole cluster. testLimitsComputation's queue with 100 unlabelled
// nodes of 16 GB beside 100 labelled ones: 3.3 gives that test's 160 GB and
// 80 GB, 2.7 twice as much.
TEST(AmLimitsLines, TheDefaultPartitionIsWhatThe33LimitsAreOf) {
  const QueueTree tree = HadoopTestTree();
  AmLimitContext context = Context(HadoopLine::k3_3, pool::Resource::Of(200 * 16 * kGb, 3200));
  context.default_partition = pool::Resource::Of(100 * 16 * kGb, 1600);
  auto limits = LimitsOfA(tree, context, 0);
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(160 * kGb, 1));
  EXPECT_EQ(limits.user_am_limit, pool::Resource::Of(80 * kGb, 1));
  context.line = HadoopLine::k2_7;
  limits = LimitsOfA(tree, context, 0);
  EXPECT_EQ(limits.queue_am_limit, pool::Resource::Of(320 * kGb, 1));
  EXPECT_EQ(limits.user_am_limit, pool::Resource::Of(160 * kGb, 1));
}

// 3.3 LeafQueue.getUserAMResourceLimitPerPartition weighs the user part:
// a leaf of 50% of 160 GB (80 GB guaranteed), AM 10%, MULP 50, two active
// users: 80 GB x 0.1 x max(0.5, 1/2) = 4 GB; weight 1.5 -> x 0.75 = 6 GB;
// weight 3 -> min(1.5, 1) = 8 GB, the queue's AM limit. 2.x has no weights.
TEST(AmLimitsLines, UserWeightScalesTheUserAmLimitOn33) {
  LeafAmInputs leaf;
  leaf.am_fraction = 0.1;
  leaf.absolute_capacity = 0.5;
  leaf.minimum_user_limit_percent = 50;
  leaf.user_limit_factor = 1;
  leaf.user_weights = {{"heavy", 1.5f}, {"heavier", 3.0f}};
  const pool::Resource cluster = pool::Resource::Of(160 * kGb, 160);
  const AmLimitContext context = Context(HadoopLine::k3_3, cluster);
  const LeafAmLimits limits = ComputeLeafAmLimits(context, leaf, 2);
  EXPECT_EQ(limits.user_am_limit.memory_mb(), 4 * kGb);
  EXPECT_EQ(UserAmLimitOf(context, leaf, limits, 2, "plain").memory_mb(), 4 * kGb);
  EXPECT_EQ(UserAmLimitOf(context, leaf, limits, 2, "heavy").memory_mb(), 6 * kGb);
  EXPECT_EQ(UserAmLimitOf(context, leaf, limits, 2, "heavier").memory_mb(), 8 * kGb);
  const AmLimitContext old = Context(HadoopLine::k2_7, cluster);
  const LeafAmLimits old_limits = ComputeLeafAmLimits(old, leaf, 2);
  EXPECT_EQ(UserAmLimitOf(old, leaf, old_limits, 2, "heavy"), old_limits.user_am_limit);
}

TEST(AmLimitsArithmetic, CalculatorsRoundAsHadoop) {
  const pool::Resource step = pool::Resource::Of(1024, 1);
  // Default: memory only, 1 vcore.
  EXPECT_EQ(
      MultiplyAndNormalizeUp(ResourceCalculator::kDefault, pool::Resource::Of(10000, 7), 0.1, step),
      pool::Resource::Of(1024, 1));
  EXPECT_EQ(MultiplyAndNormalizeUp(ResourceCalculator::kDefault, pool::Resource(), 0.1, step),
            pool::Resource());
  // Dominant: every dimension, ceil then round up.
  EXPECT_EQ(MultiplyAndNormalizeUp(ResourceCalculator::kDominant, pool::Resource::Of(10000, 7), 0.1,
                                   step),
            pool::Resource::Of(1024, 1));
  EXPECT_EQ(MultiplyAndNormalizeUp(ResourceCalculator::kDominant, pool::Resource::Of(20480, 40),
                                   0.1, step),
            pool::Resource::Of(2048, 4));
  EXPECT_EQ(HadoopResourceString(pool::Resource::Of(2048, 1)), "<memory:2048, vCores:1>");
  // 2.7 compares as the calculator does; 3.3 fits dimension by dimension.
  AmLimitContext dominant = Context(HadoopLine::k2_7, pool::Resource::Of(100 * kGb, 100));
  dominant.calculator = ResourceCalculator::kDominant;
  EXPECT_TRUE(AmFits(dominant, pool::Resource::Of(1 * kGb, 5), pool::Resource::Of(5 * kGb, 1)));
  dominant.line = HadoopLine::k3_3;
  EXPECT_FALSE(AmFits(dominant, pool::Resource::Of(1 * kGb, 5), pool::Resource::Of(5 * kGb, 1)));
}

}  // namespace
}  // namespace spindle::rm
