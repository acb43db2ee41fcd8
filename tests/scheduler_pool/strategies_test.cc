#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>

#include "base/random.h"
#include "scheduler_pool/cell_view.h"
#include "scheduler_pool/strategies/adaptive.h"
#include "scheduler_pool/strategies/latency_first.h"
#include "scheduler_pool/strategies/locality.h"
#include "scheduler_pool/strategies/quality_first.h"
#include "scheduler_pool/strategies/score_sampling.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;
using testing::At;
using testing::kSlot;

// A cell of `partitions` partitions with `per_partition` nodes each; node
// scores come from `score(p, i)`.
class StrategyTest : public ::testing::Test {
 protected:
  void Build(
      int partitions, int per_partition, int slots,
      double (*score)(int p, int i) = [](int, int) { return 1.0; }) {
    CellStateOptions o;
    o.num_partitions = partitions;
    cell_ = std::make_unique<CellState>(o);
    // AddNode fills partitions round-robin: node k goes to partition k % P.
    for (int i = 0; i < per_partition; ++i) {
      for (int p = 0; p < partitions; ++p) {
        const std::string rack = "/rack" + std::to_string(i % 2);
        auto id = cell_->AddNode(NodeSpec{kSlot * slots, rack, score(p, i)});
        ASSERT_TRUE(id.ok());
        ASSERT_EQ(id->partition(), static_cast<uint32_t>(p));
      }
    }
    view_ = std::make_unique<CellView>(partitions, kSlot);
  }
  void SyncAt(int p, int ms) { view_->Sync(*cell_, p, At(milliseconds(ms))); }
  StrategyContext Context(int now_ms) {
    view_->FreshnessOrder(0, &order_);
    StrategyContext ctx;
    ctx.view = view_.get();
    ctx.rng = &rng_;
    ctx.now = At(milliseconds(now_ms));
    ctx.freshness_order = &order_;
    return ctx;
  }

  std::unique_ptr<CellState> cell_;
  std::unique_ptr<CellView> view_;
  std::vector<int> order_;
  Random rng_{42};
};

TEST_F(StrategyTest, LatencyFirstUsesTheFreshestPartitionThenTheLeastStale) {
  Build(3, 2, 2);  // 4 slots per partition
  SyncAt(0, 10);
  SyncAt(1, 30);
  SyncAt(2, 20);
  LatencyFirst s;
  auto ctx = Context(40);
  EXPECT_EQ(order_, (std::vector<int>{1, 2, 0}));
  std::vector<Choice> out;
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 4, ctx, &out), 4);
  for (const Choice& c : out) EXPECT_EQ(c.node.partition(), 1u);
  out.clear();
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 5, ctx, &out), 5);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[static_cast<size_t>(i)].node.partition(), 2u);
  EXPECT_EQ(out[4].node.partition(), 0u);
  // Claims are applied to the view: the chosen nodes are now full there.
  EXPECT_FALSE(view_->CanFit(out[0].node, kSlot));
}

// One draw by score over every free node of the view, whatever partition
// it is in: node i of any partition has score i + 1, and partition 1 has
// more free nodes (its view shows them free), so it wins more draws.
TEST_F(StrategyTest, ScoreSamplingDrawsEveryFreeNodeByScore) {
  Build(2, 4, 1, [](int, int i) { return i + 1.0; });
  SyncAt(0, 10);
  SyncAt(1, 10);
  ScoreSampling s;
  EXPECT_EQ(s.kind(), StrategyKind::kScoreSampling);
  auto ctx = Context(20);
  // Partition 0 looks full but for its node of score 1.
  std::vector<Choice> taken;
  for (uint32_t slot = 1; slot < 4; ++slot) {
    const NodeId id(0, slot);
    taken.push_back(Choice{id, view_->Claim(id, kSlot), Locality::kOffSwitch});
  }
  // Free: (0, score 1) and (1, scores 1..4); total score 11.
  std::map<std::pair<uint32_t, uint32_t>, int> hits;
  const int kDraws = 22'000;
  for (int d = 0; d < kDraws; ++d) {
    std::vector<Choice> out;
    ASSERT_EQ(s.PlaceAnywhere(kSlot, 1, ctx, &out), 1);
    ++hits[{out[0].node.partition(), out[0].node.slot()}];
    view_->Unclaim(out[0].node, kSlot);
  }
  const auto hit = [&](uint32_t p, uint32_t slot) { return hits[std::make_pair(p, slot)]; };
  EXPECT_EQ(hit(0, 1), 0);  // claimed in the view
  EXPECT_NEAR(hit(0, 0), kDraws * 1 / 11.0, 300);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_NEAR(hit(1, i), kDraws * (i + 1) / 11.0, 300) << i;
  // Five tasks take the five free nodes, then nothing is left.
  std::vector<Choice> out;
  EXPECT_EQ(s.PlaceAnywhere(kSlot, 7, ctx, &out), 5);
  EXPECT_EQ(s.Rank(ctx, NodeId(1, 3)), 4.0);
}

TEST_F(StrategyTest, LatencyFirstTiesAreBrokenByRotation) {
  Build(4, 1, 1);
  for (int p = 0; p < 4; ++p) SyncAt(p, 10);
  view_->FreshnessOrder(2, &order_);
  EXPECT_EQ(order_, (std::vector<int>{2, 3, 0, 1}));
}

// The scheduler brings its order up to date after each step's syncs rather
// than sorting it afresh: the result must be the sort's, whatever was
// synced (some partitions never, several at one instant, repeats, time
// standing still or jumping, syncs earlier than the latest one).
TEST_F(StrategyTest, AnAdvancedFreshnessOrderIsTheSortedOne) {
  constexpr int kPartitions = 9;
  Build(kPartitions, 1, 1);
  Random draw(7);
  for (int rotation : {0, 4, -3, 11}) {
    view_ = std::make_unique<CellView>(kPartitions, kSlot);
    std::vector<int> advanced;
    std::set<int> ever;
    view_->FreshnessOrder(rotation, &advanced);
    int now = 0;
    for (int step = 0; step < 400; ++step) {
      // Mostly forward, sometimes standing still, sometimes behind the
      // last sync (the order must not assume time only moves forward).
      const uint64_t move = draw.Next() % 6;
      now = move == 0 ? now : (move == 1 ? std::max(0, now - 5) : now + static_cast<int>(move));
      std::vector<int> synced;
      const uint64_t count = draw.Next() % 4;  // 0 to 3, repeats allowed
      for (uint64_t i = 0; i < count; ++i) {
        // Partition 8 is never synced: it stays last.
        const int p = static_cast<int>(draw.Next() % (kPartitions - 1));
        SyncAt(p, now);
        synced.push_back(p);
      }
      view_->AdvanceFreshnessOrder(rotation, synced, &advanced);
      std::vector<int> sorted;
      view_->FreshnessOrder(rotation, &sorted);
      ASSERT_EQ(advanced, sorted) << "rotation " << rotation << ", step " << step;
      // Every synced partition comes before the never-synced one.
      for (int p : synced) ever.insert(p);
      const auto never = std::find(advanced.begin(), advanced.end(), kPartitions - 1);
      EXPECT_GE(never - advanced.begin(), static_cast<std::ptrdiff_t>(ever.size()));
    }
  }
}

TEST_F(StrategyTest, QualityFirstPicksThePartitionWithTheBestAverageScore) {
  Build(3, 4, 1, [](int p, int) { return p == 1 ? 9.0 : 2.0; });
  for (int p = 0; p < 3; ++p) SyncAt(p, 10);
  QualityFirst s;
  auto ctx = Context(20);
  std::vector<Choice> out;
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 4, ctx, &out), 4);
  for (const Choice& c : out) EXPECT_EQ(c.node.partition(), 1u);
  // Partition 1 is now full in the view: the next best take over.
  out.clear();
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 1, ctx, &out), 1);
  EXPECT_NE(out[0].node.partition(), 1u);
}

TEST_F(StrategyTest, QualityFirstSamplesNodesInProportionToScore) {
  // One partition: node 0 scores 1, node 1 scores 9; both roomy.
  Build(1, 2, 100000, [](int, int i) { return i == 0 ? 1.0 : 9.0; });
  SyncAt(0, 10);
  QualityFirst s;
  auto ctx = Context(20);
  std::vector<Choice> out;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) ASSERT_EQ(s.PlaceAnywhere(kSlot, 1, ctx, &out), 1);
  int high = 0;
  for (const Choice& c : out) high += c.node.slot() == 1;
  EXPECT_NEAR(static_cast<double>(high) / kDraws, 0.9, 0.02);
}

TEST_F(StrategyTest, QualityFirstFallsBackToNextFitForLargeAsks) {
  Build(1, 8, 1, [](int, int i) { return i == 5 ? 1.0 : 10.0; });
  // Node 5 alone can take a 2-slot ask.
  NodeUpdate grow;
  grow.set_total = true;
  grow.total = kSlot * 2;
  ASSERT_TRUE(cell_->UpdateNode(NodeId(0, 5), grow).ok());
  SyncAt(0, 10);
  QualityFirst s(/*samples_per_task=*/1);
  auto ctx = Context(20);
  std::vector<Choice> out;
  ASSERT_EQ(s.PlaceAnywhere(kSlot * 2, 1, ctx, &out), 1);
  EXPECT_EQ(out[0].node, NodeId(0, 5));
  EXPECT_EQ(s.PlaceAnywhere(kSlot * 2, 1, ctx, &out), 0);
}

TEST_F(StrategyTest, AdaptiveSwitchesOnTheDelayEma) {
  // Partition 0: fresh, low scores. Partition 1: stale, high scores.
  Build(2, 4, 1, [](int p, int) { return p == 1 ? 10.0 : 1.0; });
  SyncAt(1, 10);
  SyncAt(0, 90);
  Adaptive s(milliseconds(100), /*alpha=*/0.5);
  auto ctx = Context(100);
  std::vector<Choice> out;
  EXPECT_EQ(s.active(), StrategyKind::kQualityFirst);
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 1, ctx, &out), 1);
  EXPECT_EQ(out.back().node.partition(), 1u);  // quality: best scores
  s.ObserveDelay(milliseconds(500));
  EXPECT_EQ(s.active(), StrategyKind::kLatencyFirst);
  ASSERT_EQ(s.PlaceAnywhere(kSlot, 1, ctx, &out), 1);
  EXPECT_EQ(out.back().node.partition(), 0u);  // latency: freshest
  // The EMA comes back under tau after short delays.
  for (int i = 0; i < 10; ++i) s.ObserveDelay(milliseconds(1));
  EXPECT_LT(s.ema(), milliseconds(100));
  EXPECT_EQ(s.active(), StrategyKind::kQualityFirst);
}

TEST_F(StrategyTest, LocalityNodeThenRackThenAnywhere) {
  Build(2, 4, 1);  // racks: node i of each partition in /rack(i % 2)
  SyncAt(0, 10);
  SyncAt(1, 10);
  LatencyFirst s;
  auto ctx = Context(20);
  const RackId rack1 = *cell_->FindRack("/rack1");
  Ask ask = testing::SlotAsk(1);
  ask.nodes = {NodeId(0, 2)};  // in /rack0
  ask.racks = {rack1};
  std::vector<Choice> out;
  ASSERT_EQ(PlaceWithLocality(ask, 1, &s, ctx, &out), 1);
  EXPECT_EQ(out[0].node, NodeId(0, 2));
  EXPECT_EQ(out[0].locality, Locality::kNodeLocal);
  EXPECT_TRUE(IsPreferred(ask, out[0].locality));
  // The preferred node is full now: rack1's nodes next (4 of them).
  out.clear();
  ASSERT_EQ(PlaceWithLocality(ask, 4, &s, ctx, &out), 4);
  for (const Choice& c : out) {
    EXPECT_EQ(c.locality, Locality::kRackLocal);
    EXPECT_EQ(view_->Find(c.node)->rack, rack1);
    EXPECT_FALSE(IsPreferred(ask, c.locality));  // the ask named a node
  }
  // Then anywhere, since locality is relaxed.
  out.clear();
  ASSERT_EQ(PlaceWithLocality(ask, 1, &s, ctx, &out), 1);
  EXPECT_EQ(out[0].locality, Locality::kOffSwitch);
  // Strict locality: nothing more.
  ask.relax_locality = false;
  out.clear();
  EXPECT_EQ(PlaceWithLocality(ask, 1, &s, ctx, &out), 0);
  // Rack-only asks count rack-local as preferred.
  Ask rack_only = testing::SlotAsk(1);
  rack_only.racks = {rack1};
  EXPECT_TRUE(IsPreferred(rack_only, Locality::kRackLocal));
  EXPECT_FALSE(IsPreferred(testing::SlotAsk(1), Locality::kOffSwitch));
}

// The ParSync paper's latency-first (PreferenceScope::kFreshest): a relaxed
// ask's preferred nodes count only within the freshest partitions that have
// room; it fills those before it looks at staler ones.
TEST_F(StrategyTest, LatencyFirstFreshestTakesTheFreshestSliceBeforeStalePreferredNodes) {
  Build(3, 2, 2);  // 2 nodes x 2 slots per partition
  SyncAt(0, 10);
  SyncAt(1, 30);
  SyncAt(2, 20);
  LatencyFirst s(PreferenceScope::kFreshest);
  EXPECT_TRUE(s.FreshnessBeforePreference());
  auto ctx = Context(40);
  Ask ask = testing::SlotAsk(1);
  ask.nodes = {NodeId(0, 0), NodeId(1, 1)};  // one stale, one in the freshest
  std::vector<Choice> out;
  ASSERT_EQ(PlaceWithLocality(ask, 4, &s, ctx, &out), 4);
  // Partition 1 (the freshest): its preferred node first, then its other.
  EXPECT_EQ(out[0].node, NodeId(1, 1));
  EXPECT_EQ(out[0].locality, Locality::kNodeLocal);
  EXPECT_EQ(out[1].node, NodeId(1, 1));
  for (size_t i = 2; i < 4; ++i) {
    EXPECT_EQ(out[i].node, NodeId(1, 0));
    EXPECT_EQ(out[i].locality, Locality::kOffSwitch);
  }
  // Partition 1 is full: partition 2 (synced at 20) before partition 0.
  out.clear();
  ASSERT_EQ(PlaceWithLocality(ask, 5, &s, ctx, &out), 5);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(out[i].node.partition(), 2u) << i;
  EXPECT_EQ(out[4].node, NodeId(0, 0));  // the stale preferred node, first in partition 0
  EXPECT_EQ(out[4].locality, Locality::kNodeLocal);
  EXPECT_TRUE(IsPreferred(ask, out[4].locality));
}

TEST_F(StrategyTest, LatencyFirstFreshestTakesPartitionsSyncedTogetherAsOne) {
  // Synced at the same instant (a StateSync round, or one ParSync slice):
  // preferred nodes anywhere in them come first, as with kAnywhere.
  Build(2, 2, 1);
  SyncAt(0, 10);
  SyncAt(1, 10);
  LatencyFirst s(PreferenceScope::kFreshest);
  auto ctx = Context(20);
  Ask ask = testing::SlotAsk(1);
  ask.nodes = {NodeId(1, 1)};
  std::vector<Choice> out;
  ASSERT_EQ(PlaceWithLocality(ask, 1, &s, ctx, &out), 1);
  EXPECT_EQ(out[0].node, NodeId(1, 1));
  EXPECT_EQ(out[0].locality, Locality::kNodeLocal);
  // A strict ask keeps YARN's order whatever the scope.
  SyncAt(0, 30);
  auto later = Context(40);
  Ask strict = testing::SlotAsk(1);
  strict.nodes = {NodeId(1, 0)};
  strict.relax_locality = false;
  out.clear();
  ASSERT_EQ(PlaceWithLocality(strict, 2, &s, later, &out), 1);
  EXPECT_EQ(out[0].node, NodeId(1, 0));
}

TEST_F(StrategyTest, QualityFirstPutsWhatItsPreferencesLeaveWhereLatencyFirstWould) {
  // Partition 0: fresh, low scores. Partition 1: stale, high scores.
  Build(2, 4, 1, [](int p, int) { return p == 1 ? 10.0 : 1.0; });
  SyncAt(1, 10);
  SyncAt(0, 90);
  QualityFirst s;
  auto ctx = Context(100);
  Ask ask = testing::SlotAsk(1);
  ask.nodes = {NodeId(1, 2)};
  std::vector<Choice> out;
  ASSERT_EQ(PlaceWithLocality(ask, 3, &s, ctx, &out), 3);
  EXPECT_EQ(out[0].node, NodeId(1, 2));  // its preferred node, stale or not
  EXPECT_EQ(out[0].locality, Locality::kNodeLocal);
  // The score is not these tasks' quality: the freshest partition.
  EXPECT_EQ(out[1].node.partition(), 0u);
  EXPECT_EQ(out[2].node.partition(), 0u);
  // An ask with no preferences: the score is its quality.
  out.clear();
  ASSERT_EQ(PlaceWithLocality(testing::SlotAsk(1), 1, &s, ctx, &out), 1);
  EXPECT_EQ(out[0].node.partition(), 1u);
}

TEST_F(StrategyTest, AdaptivePutsFreshnessFirstOnlyWhileLatencyFirst) {
  Adaptive s(milliseconds(100), /*alpha=*/1, PreferenceScope::kFreshest);
  EXPECT_FALSE(s.FreshnessBeforePreference());  // quality-first
  s.ObserveDelay(milliseconds(500));
  EXPECT_EQ(s.active(), StrategyKind::kLatencyFirst);
  EXPECT_TRUE(s.FreshnessBeforePreference());
  Adaptive yarn(milliseconds(100), /*alpha=*/1);
  yarn.ObserveDelay(milliseconds(500));
  EXPECT_FALSE(yarn.FreshnessBeforePreference());
}

}  // namespace
}  // namespace spindle::pool
