// The policy against the numbers of Hadoop 3.3's
// TestProportionalCapacityPreemptionPolicy (monitor/capacity): each case
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

Built Build(const Table& t, bool am_containers = false, double am_fraction = 0) {
  Built b;
  int64_t cluster = 0;
  for (size_t i = 0; i < t.abs.size(); ++i) {
    if (t.subqueues[i] == 0) cluster += t.abs[i];
  }
  b.input.cluster = R(cluster);
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
    q.guaranteed = R(t.abs[i]);
    q.maximum = R(t.max_cap[i]);
    q.used = R(t.used[i]);
    q.pending = R(t.pending[i]);
    q.maximum_am_fraction = am_fraction;
    b.input.queues.push_back(q);
    if (t.subqueues[i] != 0 || t.apps[i] == 0) continue;
    const int64_t app_used = (t.used[i] + t.apps[i] - 1) / t.apps[i];
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
PreemptionOptions IdealOptions() {
  PreemptionOptions o;
  o.total_preemption_per_round = 1.0;
  o.natural_termination_factor = 1.0;
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
