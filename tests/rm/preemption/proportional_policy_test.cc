// The policy against the numbers of Hadoop's
// TestProportionalCapacityPreemptionPolicy (monitor/capacity; 3.3.0 unless a
// test names 2.6.0 or 2.7.7, whose harness and policy differ): each case
// builds the same queue tree from the same table (abs capacity, max capacity,
// used, pending, apps, container size, subqueues; resources <v, v>, the
// DefaultResourceCalculator) and checks how many containers of which
// application are asked back, as the Java test counts
// MARK_CONTAINER_FOR_PREEMPTION events.
#include "rm/preemption/proportional_policy.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>

namespace spindle::rm::preemption {
namespace {

using pool::Resource;

// The rows of a Java test's qData table.
struct Table {
  std::vector<int64_t> abs, max_cap, used, pending, apps, granularity, subqueues;
};

Resource R(int64_t v) { return Resource::Of(v, v); }

// mockNested + mockLeafQueue + mockApp: queues in pre-order, each app of a
// leaf holding ceil(used / apps) in containers of the leaf's granularity
// (the first one its AM when `am_containers`), apps numbered left to right.
struct Built {
  PolicyInput input;
  std::vector<ApplicationAttemptId> app_ids;  // appA, appB, ...
};

//
// `harness` is the Java test's line: 2.6's and 2.7's mocks hand the policy
// absolute capacities as floats (abs / total), which it multiplies back by
// the cluster and truncates (2.6 does the same for usage), and split a
// queue's usage over its apps rounding down (2.6) or up (2.7, 3.3).
Built Build(const Table& t, bool am_containers = false, double am_fraction = 0,
            HadoopLine harness = HadoopLine::k3_3) {
  Built b;
  int64_t cluster = 0;
  for (size_t i = 0; i < t.abs.size(); ++i) {
    if (t.subqueues[i] == 0) cluster += t.abs[i];
  }
  b.input.cluster = R(cluster);
  const auto through_float = [&](int64_t v) {
    const float fraction = static_cast<float>(v) / static_cast<float>(cluster);
    return static_cast<int64_t>(static_cast<double>(cluster) * static_cast<double>(fraction));
  };
  const bool float_capacities = harness != HadoopLine::k3_3;
  const bool float_usage = harness == HadoopLine::k2_6;
  std::deque<int> parents;
  int next_app = 0;
  for (size_t i = 0; i < t.abs.size(); ++i) {
    QueueInput q;
    q.path = i == 0 ? "root" : "queue" + std::string(1, static_cast<char>('A' + i - 1));
    if (i > 0) {
      q.parent = parents.back();
      parents.pop_back();
    }
    for (int64_t k = 0; k < t.subqueues[i]; ++k) parents.push_back(static_cast<int>(i));
    q.guaranteed = R(float_capacities ? through_float(t.abs[i]) : t.abs[i]);
    q.maximum = R(float_capacities ? through_float(t.max_cap[i]) : t.max_cap[i]);
    q.used = R(float_usage ? through_float(t.used[i]) : t.used[i]);
    q.pending = R(t.pending[i]);
    q.maximum_am_fraction = am_fraction;
    b.input.queues.push_back(q);
    if (t.subqueues[i] != 0 || t.apps[i] == 0) continue;
    const int64_t app_used = harness == HadoopLine::k2_6 ? t.used[i] / t.apps[i]
                                                         : (t.used[i] + t.apps[i] - 1) / t.apps[i];
    for (int64_t a = 0; a < t.apps[i]; ++a) {
      AppInput app;
      app.attempt = ApplicationAttemptId{ApplicationId{1000, next_app++}, 0};
      app.queue = static_cast<int>(i);
      int64_t held = 0;
      for (int64_t c = 0; held < app_used; ++c, held += t.granularity[i]) {
        ContainerInput container;
        container.id = ContainerId{app.attempt, c};
        container.resource = R(t.granularity[i]);
        container.is_am = am_containers && c == 0;
        container.priority = container.is_am ? 0 : 1;
        app.containers.push_back(container);
      }
      b.app_ids.push_back(app.attempt);
      b.input.apps.push_back(std::move(app));
    }
  }
  return b;
}

// The options of the Java test's setup(): "report ideal preempt".
PreemptionOptions IdealOptions(HadoopLine line = HadoopLine::k3_3) {
  PreemptionOptions o;
  o.total_preemption_per_round = 1.0;
  o.natural_termination_factor = 1.0;
  o.line = line;
  return o;
}

std::map<ApplicationAttemptId, int> CountByApp(const PolicyOutcome& outcome) {
  std::map<ApplicationAttemptId, int> n;
  for (const SelectedContainer& s : outcome.selected) ++n[s.attempt];
  return n;
}

// testIgnore: no demand, no preemption.
TEST(ProportionalPolicyTest, NoDemandNoPreemption) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 0, 60, 40},
                   {0, 0, 0, 0},
                   {3, 1, 1, 1},
                   {-1, 1, 1, 1},
                   {3, 0, 0, 0}});
  EXPECT_TRUE(ComputePreemption(b.input, IdealOptions()).selected.empty());
}

// testProportionalPreemption: A (10% guaranteed, using 30) gives back 10.
TEST(ProportionalPolicyTest, ProportionalPreemption) {
  Built b = Build({{100, 10, 40, 20, 30},
                   {100, 100, 100, 100, 100},
                   {100, 30, 60, 10, 0},
                   {45, 20, 5, 20, 0},
                   {3, 1, 1, 1, 0},
                   {-1, 1, 1, 1, 1},
                   {4, 0, 0, 0, 0}});
  const PolicyOutcome out = ComputePreemption(b.input, IdealOptions());
  EXPECT_EQ(CountByApp(out)[b.app_ids[0]], 10);
}

// testMaxCap: B is at its maximum, so A's excess over guarantee stays.
TEST(ProportionalPolicyTest, QueueAtItsMaximumTakesNothing) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 45, 100},
                   {100, 55, 45, 0},
                   {20, 10, 10, 0},
                   {2, 1, 1, 0},
                   {-1, 1, 1, 0},
                   {3, 0, 0, 0}});
  EXPECT_EQ(CountByApp(ComputePreemption(b.input, IdealOptions()))[b.app_ids[0]], 0);
}

// testPreemptCycle: A's whole pending (10) comes from C (20 over guarantee).
TEST(ProportionalPolicyTest, PendingOfAStarvedQueueComesFromTheOverCapacityOne) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 0, 60, 40},
                   {10, 10, 0, 0},
                   {3, 1, 1, 1},
                   {-1, 1, 1, 1},
                   {3, 0, 0, 0}});
  const PolicyOutcome out = ComputePreemption(b.input, IdealOptions());
  auto n = CountByApp(out);
  EXPECT_EQ(n[b.app_ids[2]], 10);  // appC
  EXPECT_EQ(out.selected.size(), 10u);
  // The memory calculator decides on memory alone.
  EXPECT_EQ(out.queues[1].ideal_assigned.memory_mb(), 10);  // A gets its pending
  EXPECT_EQ(out.queues[3].ideal_assigned.memory_mb(), 30);  // C keeps 30
}

// testDeadzone: within 10% over guarantee nothing is preempted.
TEST(ProportionalPolicyTest, DeadZoneIgnoresSmallExcess) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 39, 43, 21},
                   {10, 10, 0, 0},
                   {3, 1, 1, 1},
                   {-1, 1, 1, 1},
                   {3, 0, 0, 0}});
  EXPECT_TRUE(ComputePreemption(b.input, IdealOptions()).selected.empty());
}

// testPerQueueDisablePreemption: a queue with disable_preemption keeps its
// excess; the other gives all; without it both give proportionally.
TEST(ProportionalPolicyTest, PerQueueDisablePreemption) {
  const Table t{{100, 55, 25, 20}, {100, 100, 100, 100}, {100, 0, 54, 46}, {10, 10, 0, 0},
                {3, 1, 1, 1},      {-1, 1, 1, 1},        {3, 0, 0, 0}};
  Built b = Build(t);
  b.input.queues[2].preemption_disabled = true;
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions()));
  EXPECT_EQ(n[b.app_ids[2]], 10);
  EXPECT_EQ(n[b.app_ids[1]], 0);
  Built both = Build(t);
  n = CountByApp(ComputePreemption(both.input, IdealOptions()));
  EXPECT_EQ(n[both.app_ids[1]], 4);
  EXPECT_EQ(n[both.app_ids[2]], 6);
}

// testOverCapacityImbalance: both over-capacity queues keep what they have.
TEST(ProportionalPolicyTest, NoPreemptionBetweenOverCapacityQueues) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 55, 45, 0},
                   {20, 10, 10, 0},
                   {2, 1, 1, 0},
                   {-1, 1, 1, 0},
                   {3, 0, 0, 0}});
  EXPECT_EQ(CountByApp(ComputePreemption(b.input, IdealOptions()))[b.app_ids[0]], 0);
}

// testNaturalTermination: with a factor of 0.1, nothing either.
TEST(ProportionalPolicyTest, NaturalTerminationFactorDampens) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 55, 45, 0},
                   {20, 10, 10, 0},
                   {2, 1, 1, 0},
                   {-1, 1, 1, 0},
                   {3, 0, 0, 0}});
  PreemptionOptions o = IdealOptions();
  o.natural_termination_factor = 0.1;
  EXPECT_TRUE(ComputePreemption(b.input, o).selected.empty());
}

// testHierarchical: taken from A's leaf B, not from E far over its own
// guarantee (E's parent D is within its guarantee).
TEST(ProportionalPolicyTest, HierarchyProtectsLeavesOfParentsWithinGuarantee) {
  Built b = Build({{200, 100, 50, 50, 100, 10, 90},
                   {200, 200, 200, 200, 200, 200, 200},
                   {200, 110, 60, 50, 90, 90, 0},
                   {10, 0, 0, 0, 10, 0, 10},
                   {4, 2, 1, 1, 2, 1, 1},
                   {-1, -1, 1, 1, -1, 1, 1},
                   {2, 2, 0, 0, 2, 0, 0}});
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions()));
  EXPECT_EQ(n[b.app_ids[0]], 10);
  EXPECT_EQ(n[b.app_ids[2]], 0);
}

// testZeroGuar: a zero-guarantee leaf under a parent within its guarantee
// keeps its containers.
TEST(ProportionalPolicyTest, ZeroGuaranteeLeafUnderASatisfiedParentKeepsItsContainers) {
  Built b = Build({{200, 100, 0, 99, 100, 10, 90},
                   {200, 200, 200, 200, 200, 200, 200},
                   {170, 80, 60, 20, 90, 90, 0},
                   {10, 0, 0, 0, 10, 0, 10},
                   {4, 2, 1, 1, 2, 1, 1},
                   {-1, -1, 1, 1, -1, 1, 1},
                   {2, 2, 0, 0, 2, 0, 0}});
  EXPECT_EQ(CountByApp(ComputePreemption(b.input, IdealOptions()))[b.app_ids[0]], 0);
}

// testHierarchicalLarge (with the Java test's rounding: 9 from appA, 6 from
// appE).
TEST(ProportionalPolicyTest, HierarchicalLarge) {
  Built b = Build({{400, 200, 60, 140, 100, 70, 30, 100, 10, 90},
                   {400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
                   {400, 210, 70, 140, 100, 50, 50, 90, 90, 0},
                   {15, 0, 0, 0, 0, 0, 0, 0, 0, 15},
                   {6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
                   {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
                   {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}});
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions()));
  EXPECT_EQ(n[b.app_ids[0]], 9);
  EXPECT_EQ(n[b.app_ids[4]], 6);
}

// testSkipAMContainer: AM containers are kept; the latest apps give first.
TEST(ProportionalPolicyTest, AmContainersAreSkipped) {
  Built b = Build({{100, 50, 50},
                   {100, 100, 100},
                   {100, 100, 0},
                   {70, 20, 50},
                   {5, 4, 1},
                   {-1, 1, 1},
                   {2, 0, 0}},
                  /*am_containers=*/true);
  const PolicyOutcome out = ComputePreemption(b.input, IdealOptions());
  auto n = CountByApp(out);
  EXPECT_EQ(n[b.app_ids[3]], 24);  // appD
  EXPECT_EQ(n[b.app_ids[2]], 24);  // appC
  EXPECT_EQ(n[b.app_ids[1]], 2);   // appB
  for (const SelectedContainer& s : out.selected) EXPECT_FALSE(s.is_am);
  // Youngest first: appB gives its last two containers.
  std::vector<int64_t> from_b;
  for (const SelectedContainer& s : out.selected) {
    if (s.attempt == b.app_ids[1]) from_b.push_back(s.container.id);
  }
  EXPECT_EQ(from_b, (std::vector<int64_t>{24, 23}));
}

// The table of testPreemptSkippedAMContainers and
// testAMResourcePercentForSkippedAMContainers: A (10%) holds everything in
// four apps of 5-unit containers, the first of each its AM; B wants 90.
const Table kSkippedAmTable{{100, 10, 90}, {100, 100, 100}, {100, 100, 0}, {70, 20, 90},
                            {5, 4, 1},     {-1, 5, 5},      {2, 0, 0}};

// testPreemptSkippedAMContainers: when the rest is not enough, AM containers
// of the latest apps go too (the queue's AM allowance is 0 here).
TEST(ProportionalPolicyTest, SkippedAmContainersGoWhenStillNeeded) {
  Built b = Build(kSkippedAmTable, /*am_containers=*/true);
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions()));
  EXPECT_EQ(n[b.app_ids[3]], 5);
  EXPECT_EQ(n[b.app_ids[2]], 5);
  EXPECT_EQ(n[b.app_ids[1]], 4);
  EXPECT_EQ(n[b.app_ids[0]], 4);
}

// testAMResourcePercentForSkippedAMContainers: the queue keeps AM containers
// up to guarantee x maximum-am-resource-percent.
TEST(ProportionalPolicyTest, AmResourcePercentKeepsSomeAmContainers) {
  Built b = Build(kSkippedAmTable, /*am_containers=*/true, /*am_fraction=*/0.5);
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions()));
  EXPECT_EQ(n[b.app_ids[3]], 5);
  EXPECT_EQ(n[b.app_ids[2]], 5);
  EXPECT_EQ(n[b.app_ids[1]], 4);
  EXPECT_EQ(n[b.app_ids[0]], 4);
}

// total_preemption_per_round caps a round: with 0.1 of 100, at most 10 go
// (testPreemptCycle's tree with A wanting 40).
TEST(ProportionalPolicyTest, TotalPreemptionPerRoundCapsTheRound) {
  Built b = Build({{100, 40, 40, 20},
                   {100, 100, 100, 100},
                   {100, 0, 60, 40},
                   {40, 40, 0, 0},
                   {3, 1, 1, 1},
                   {-1, 1, 1, 1},
                   {3, 0, 0, 0}});
  PreemptionOptions o = IdealOptions();
  o.total_preemption_per_round = 0.1;
  const PolicyOutcome out = ComputePreemption(b.input, o);
  EXPECT_LE(out.selected.size(), 10u);
  EXPECT_GT(out.selected.size(), 0u);
  // Uncapped: A's water-filling stops at 39, as Hadoop's does (each offer
  // is (long)(unassigned x 0.4 + 0.5): 16, 10, 6, 3, 2, 1, 1, then 0 of the
  // last unit, which goes to B), so 19 + 20 are asked back.
  const PolicyOutcome full = ComputePreemption(b.input, IdealOptions());
  EXPECT_EQ(full.queues[1].ideal_assigned.memory_mb(), 39);
  EXPECT_EQ(full.queues[2].ideal_assigned.memory_mb(), 41);
  EXPECT_EQ(full.selected.size(), 39u);
}

// The dominant resource calculator compares dominant shares: a queue whose
// vcores are over its guarantee is preempted though its memory is not
// (TestProportionalCapacityPreemptionPolicy.testPreemptionWithVCoreResource
// shape: A wants vcores B holds).
TEST(ProportionalPolicyTest, DominantCalculatorSeesVcores) {
  PolicyInput in;
  in.cluster = Resource::Of(100, 100);
  QueueInput root{
      "root", -1, Resource::Of(100, 100), Resource::Of(100, 100), Resource::Of(40, 100), {},
      false,  0};
  QueueInput a{"root.a",
               0,
               Resource::Of(50, 50),
               Resource::Of(100, 100),
               Resource::Of(0, 0),
               Resource::Of(10, 10),
               false,
               0};
  QueueInput bq{
      "root.b", 0, Resource::Of(50, 50), Resource::Of(100, 100), Resource::Of(40, 100), {},
      false,    0};
  in.queues = {root, a, bq};
  AppInput app{ApplicationAttemptId{ApplicationId{1, 1}, 1}, 2, {}};
  for (int c = 0; c < 20; ++c) {
    app.containers.push_back(
        ContainerInput{ContainerId{app.attempt, c}, Resource::Of(2, 5), 1, 0, false});
  }
  in.apps = {app};
  PreemptionOptions o = IdealOptions();
  EXPECT_TRUE(ComputePreemption(in, o).selected.empty()) << "memory alone: b is within 50";
  o.calculator = Calculator::kDominant;
  const PolicyOutcome out = ComputePreemption(in, o);
  EXPECT_EQ(out.selected.size(), 2u) << "10 vcores for a: two containers of 5";
}

// ---- Hadoop 2.6 and 2.7: the same tables, those lines' policies ----

// The tables of tests whose outcome differs between lines.
const Table kProportionalTable{
    {100, 10, 40, 20, 30}, {100, 100, 100, 100, 100}, {100, 30, 60, 10, 0}, {45, 20, 5, 20, 0},
    {3, 1, 1, 1, 0},       {-1, 1, 1, 1, 1},          {4, 0, 0, 0, 0}};
const Table kOverCapacityImbalanceTable{{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 55, 45, 0},
                                        {20, 10, 10, 0},   {2, 1, 1, 0},         {-1, 1, 1, 0},
                                        {3, 0, 0, 0}};
// 2.6.0's and 2.7.7's testZeroGuarOverCap (3.3.0 gives C 100, not 99).
const Table kZeroGuarOverCap2xTable{
    {200, 100, 0, 99, 0, 100, 100}, {200, 200, 200, 200, 200, 200, 200},
    {170, 170, 60, 20, 90, 0, 0},   {85, 50, 30, 10, 10, 20, 20},
    {4, 3, 1, 1, 1, 1, 1},          {-1, -1, 1, 1, 1, -1, 1},
    {2, 3, 0, 0, 0, 1, 0}};
const Table kHierarchicalLargeTable{{400, 200, 60, 140, 100, 70, 30, 100, 10, 90},
                                    {400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
                                    {400, 210, 70, 140, 100, 50, 50, 90, 90, 0},
                                    {10, 0, 0, 0, 0, 0, 0, 0, 0, 15},
                                    {6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
                                    {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
                                    {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}};

std::map<ApplicationAttemptId, int> RunTable(const Table& t, HadoopLine line,
                                             bool am_containers = false, double am_fraction = 0,
                                             std::vector<ApplicationAttemptId>* apps = nullptr) {
  Built b = Build(t, am_containers, am_fraction, line);
  if (apps != nullptr) *apps = b.app_ids;
  return CountByApp(ComputePreemption(b.input, IdealOptions(line)));
}

int From(const Table& t, HadoopLine line, size_t app) {
  std::vector<ApplicationAttemptId> apps;
  auto n = RunTable(t, line, false, 0, &apps);
  return n[apps[app]];
}

// testProportionalPreemption: 2.6 and 2.7 let A's ideal stop at what the
// water-filling offers it (24 of 40 guaranteed here), so A, using 30 of a
// 10 guarantee, gives back 16; 3.3 gives back 10.
TEST(ProportionalPolicyLinesTest, ProportionalPreemption) {
  EXPECT_EQ(From(kProportionalTable, HadoopLine::k2_6, 0), 16);
  EXPECT_EQ(From(kProportionalTable, HadoopLine::k2_7, 0), 16);
  EXPECT_EQ(From(kProportionalTable, HadoopLine::k3_3, 0), 10);
}

// testOverCapacityImbalance: 2.x rebalances two over-capacity queues (5 from
// A); 3.3 never preempts a queue for another beyond its guarantee.
TEST(ProportionalPolicyLinesTest, OverCapacityImbalance) {
  EXPECT_EQ(From(kOverCapacityImbalanceTable, HadoopLine::k2_6, 0), 5);
  EXPECT_EQ(From(kOverCapacityImbalanceTable, HadoopLine::k2_7, 0), 5);
  EXPECT_EQ(From(kOverCapacityImbalanceTable, HadoopLine::k3_3, 0), 0);
}

// testZeroGuarOverCap (2.6.0: 14 from appC; 2.7.7: 15).
TEST(ProportionalPolicyLinesTest, ZeroGuaranteeOverCapacity) {
  EXPECT_EQ(From(kZeroGuarOverCap2xTable, HadoopLine::k2_6, 2), 14);
  EXPECT_EQ(From(kZeroGuarOverCap2xTable, HadoopLine::k2_7, 2), 15);
}

// testHierarchicalLarge: 9 from appA on every line; appE gives 4 on 2.6, 6
// on 2.7.
TEST(ProportionalPolicyLinesTest, HierarchicalLarge) {
  EXPECT_EQ(From(kHierarchicalLargeTable, HadoopLine::k2_6, 0), 9);
  EXPECT_EQ(From(kHierarchicalLargeTable, HadoopLine::k2_6, 4), 4);
  EXPECT_EQ(From(kHierarchicalLargeTable, HadoopLine::k2_7, 0), 9);
  EXPECT_EQ(From(kHierarchicalLargeTable, HadoopLine::k2_7, 4), 6);
}

// The cases whose counts are the same on 2.6.0 and 2.7.7 as on 3.3.0.
TEST(ProportionalPolicyLinesTest, CasesEveryLineAgreesOn) {
  for (HadoopLine line : {HadoopLine::k2_6, HadoopLine::k2_7}) {
    SCOPED_TRACE(static_cast<int>(line));
    // testPreemptCycle: 10 from appC.
    const Table cycle{{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {10, 10, 0, 0},
                      {3, 1, 1, 1},      {-1, 1, 1, 1},        {3, 0, 0, 0}};
    EXPECT_EQ(From(cycle, line, 2), 10);
    // testMaxCap: nothing from appA.
    const Table max_cap{{100, 40, 40, 20}, {100, 100, 45, 100}, {100, 55, 45, 0}, {20, 10, 10, 0},
                        {2, 1, 1, 0},      {-1, 1, 1, 0},       {3, 0, 0, 0}};
    EXPECT_EQ(From(max_cap, line, 0), 0);
    // testHierarchical: 10 from appA.
    const Table hierarchical{{200, 100, 50, 50, 100, 10, 90},
                             {200, 200, 200, 200, 200, 200, 200},
                             {200, 110, 60, 50, 90, 90, 0},
                             {10, 0, 0, 0, 10, 0, 10},
                             {4, 2, 1, 1, 2, 1, 1},
                             {-1, -1, 1, 1, -1, 1, 1},
                             {2, 2, 0, 0, 2, 0, 0}};
    EXPECT_EQ(From(hierarchical, line, 0), 10);
    // testZeroGuar: nothing from appA.
    const Table zero_guar{{200, 100, 0, 99, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200},
                          {170, 80, 60, 20, 90, 90, 0},   {10, 0, 0, 0, 10, 0, 10},
                          {4, 2, 1, 1, 2, 1, 1},          {-1, -1, 1, 1, -1, 1, 1},
                          {2, 2, 0, 0, 2, 0, 0}};
    EXPECT_EQ(From(zero_guar, line, 0), 0);
    // testDeadzone (max_ignored_over_capacity 0.1): nothing.
    const Table dead_zone{{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 39, 43, 21},
                          {10, 10, 0, 0},    {3, 1, 1, 1},         {-1, 1, 1, 1},
                          {3, 0, 0, 0}};
    PreemptionOptions o = IdealOptions(line);
    o.max_ignored_over_capacity = 0.1;
    EXPECT_TRUE(ComputePreemption(Build(dead_zone, false, 0, line).input, o).selected.empty());
    // testNaturalTermination (factor 0.1): nothing.
    o = IdealOptions(line);
    o.natural_termination_factor = 0.1;
    EXPECT_TRUE(ComputePreemption(Build(kOverCapacityImbalanceTable, false, 0, line).input, o)
                    .selected.empty());
    // testSkipAMContainer: 24, 24, 2 from appD, appC, appB.
    const Table skip_am{{100, 50, 50}, {100, 100, 100}, {100, 100, 0}, {70, 20, 50},
                        {5, 4, 1},     {-1, 1, 1},      {2, 0, 0}};
    std::vector<ApplicationAttemptId> apps;
    auto n = RunTable(skip_am, line, true, 0, &apps);
    EXPECT_EQ(n[apps[3]], 24);
    EXPECT_EQ(n[apps[2]], 24);
    EXPECT_EQ(n[apps[1]], 2);
    // testPreemptSkippedAMContainers / testAMResourcePercentForSkippedAMContainers:
    // 5, 5, 4, 4.
    for (double am_fraction : {0.0, 0.5}) {
      n = RunTable(kSkippedAmTable, line, true, am_fraction, &apps);
      EXPECT_EQ(n[apps[3]], 5);
      EXPECT_EQ(n[apps[2]], 5);
      EXPECT_EQ(n[apps[1]], 4);
      EXPECT_EQ(n[apps[0]], 4);
    }
  }
}

// testPerQueueDisablePreemption (2.7.7): B (disabled) keeps its excess, C
// gives 10; enabled, B gives 4 and C 6. 2.6 has no such switch (and no such
// test): the flag changes nothing there.
TEST(ProportionalPolicyLinesTest, PerQueueDisablePreemptionFrom27On) {
  const Table t{{100, 55, 25, 20}, {100, 100, 100, 100}, {100, 0, 54, 46}, {10, 10, 0, 0},
                {3, 1, 1, 1},      {-1, 1, 1, 1},        {3, 0, 0, 0}};
  Built b = Build(t, false, 0, HadoopLine::k2_7);
  b.input.queues[2].preemption_disabled = true;
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions(HadoopLine::k2_7)));
  EXPECT_EQ(n[b.app_ids[2]], 10);
  EXPECT_EQ(n[b.app_ids[1]], 0);
  b.input.queues[2].preemption_disabled = false;
  n = CountByApp(ComputePreemption(b.input, IdealOptions(HadoopLine::k2_7)));
  EXPECT_EQ(n[b.app_ids[1]], 4);
  EXPECT_EQ(n[b.app_ids[2]], 6);

  Built b26 = Build(t, false, 0, HadoopLine::k2_6);
  const auto enabled = CountByApp(ComputePreemption(b26.input, IdealOptions(HadoopLine::k2_6)));
  b26.input.queues[2].preemption_disabled = true;
  const auto disabled = CountByApp(ComputePreemption(b26.input, IdealOptions(HadoopLine::k2_6)));
  EXPECT_EQ(enabled, disabled);
  EXPECT_GT(disabled.count(b26.app_ids[1]), 0u);
}

// testPerQueueDisablePreemptionBroadHierarchical (2.7.7: 28 from appA and 22
// from appC; 3.3.0: 27 and 23); with queueB disabled, 50 from appC.
TEST(ProportionalPolicyLinesTest, BroadHierarchy) {
  const Table t{{1000, 350, 150, 200, 400, 200, 200, 250, 100, 150},
                {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
                {1000, 400, 200, 200, 400, 250, 150, 200, 150, 50},
                {50, 0, 0, 0, 50, 0, 50, 0, 0, 0},
                {6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
                {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
                {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}};
  EXPECT_EQ(From(t, HadoopLine::k2_7, 0), 28);
  EXPECT_EQ(From(t, HadoopLine::k2_7, 2), 22);
  EXPECT_EQ(From(t, HadoopLine::k3_3, 0), 27);
  EXPECT_EQ(From(t, HadoopLine::k3_3, 2), 23);
  Built b = Build(t, false, 0, HadoopLine::k2_7);
  b.input.queues[2].preemption_disabled = true;  // root.queueA.queueB
  auto n = CountByApp(ComputePreemption(b.input, IdealOptions(HadoopLine::k2_7)));
  EXPECT_EQ(n[b.app_ids[2]], 50);
  EXPECT_EQ(n[b.app_ids[0]], 0);
}

TEST(PreemptionOptionsTest, DefaultsAndKeys) {
  Configuration conf;
  auto o = PreemptionOptions::FromConfiguration(conf);
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->enabled);
  EXPECT_EQ(o->monitoring_interval.count(), 3000);
  EXPECT_EQ(o->max_wait_before_kill.count(), 15000);
  EXPECT_DOUBLE_EQ(o->total_preemption_per_round, 0.1);
  EXPECT_DOUBLE_EQ(o->max_ignored_over_capacity, 0.1);
  EXPECT_DOUBLE_EQ(o->natural_termination_factor, 0.2);
  EXPECT_FALSE(o->observe_only);

  conf.Set("yarn.resourcemanager.scheduler.monitor.enable", "true");
  conf.Set("yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "100");
  conf.Set("yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "500");
  conf.Set("yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "1");
  o = PreemptionOptions::FromConfiguration(conf);
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->enabled);
  EXPECT_EQ(o->monitoring_interval.count(), 100);
  EXPECT_EQ(o->max_wait_before_kill.count(), 500);
  EXPECT_DOUBLE_EQ(o->natural_termination_factor, 1.0);

  conf.Set("yarn.resourcemanager.scheduler.monitor.policies", "com.example.OtherPolicy");
  EXPECT_FALSE(PreemptionOptions::FromConfiguration(conf).ok());
  conf.Set("yarn.resourcemanager.scheduler.monitor.policies", kProportionalPolicyClass);
  conf.Set("yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "1.5");
  EXPECT_FALSE(PreemptionOptions::FromConfiguration(conf).ok());
}

}  // namespace
}  // namespace spindle::rm::preemption
