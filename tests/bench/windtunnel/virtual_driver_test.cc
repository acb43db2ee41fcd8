#include <gtest/gtest.h>

#include "bench/windtunnel/run_mode.h"
#include "tests/bench/windtunnel/small_spec.h"

namespace spindle::windtunnel {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(VirtualDriverTest, SameSeedGivesAnIdenticalSummary) {
  for (pool::SyncMode mode : {pool::SyncMode::kParSync, pool::SyncMode::kStateSync}) {
    const RunSpec spec = SmallSpec(mode, pool::StrategyKind::kAdaptive);
    auto a = RunVirtual(spec);
    auto b = RunVirtual(spec);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_GT(a->committed, 0);
    EXPECT_EQ(SummaryOf(*a), SummaryOf(*b)) << spec.label;
  }
}

TEST(VirtualDriverTest, ADifferentSeedGivesADifferentRun) {
  RunSpec spec = SmallSpec(pool::SyncMode::kParSync, pool::StrategyKind::kQualityFirst);
  auto a = RunVirtual(spec);
  spec.seed = spec.cluster.seed = spec.workload.seed = 10;
  auto b = RunVirtual(spec);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(SummaryOf(*a), SummaryOf(*b));
}

TEST(VirtualDriverTest, EveryModeCommitsAndCompletesEveryJob) {
  for (pool::SyncMode mode : {pool::SyncMode::kParSync, pool::SyncMode::kSameSync,
                              pool::SyncMode::kStateSync, pool::SyncMode::kMonolithic}) {
    for (pool::StrategyKind strategy :
         {pool::StrategyKind::kLatencyFirst, pool::StrategyKind::kQualityFirst}) {
      RunSpec spec = SmallSpec(mode, strategy);
      if (mode == pool::SyncMode::kMonolithic) spec.decision_cost = std::chrono::microseconds(100);
      auto r = RunVirtual(spec);
      ASSERT_TRUE(r.ok()) << spec.label << ": " << r.status().ToString();
      SCOPED_TRACE(spec.label);
      EXPECT_TRUE(r->invariants_ok);
      EXPECT_EQ(r->clock, "virtual");
      // 2,000 + 3,800 tasks in jobs of 20.
      EXPECT_EQ(r->submitted, 5800);
      EXPECT_EQ(r->committed, r->submitted);
      EXPECT_TRUE(r->all_committed);
      EXPECT_EQ(r->total.jobs, 290);
      EXPECT_EQ(r->total.jobs_scheduled, 290);
      EXPECT_EQ(r->total.jobs_done, 290);
      ASSERT_EQ(r->phases.size(), 3u);  // two phases and the drain
      EXPECT_EQ(r->phases[0].submitted, 2000);
      EXPECT_EQ(r->phases[1].submitted, 3800);
      EXPECT_EQ(r->phases[2].name, "drain");
      // Every decision costs 1 ms (0.1 ms monolithic): a job of 20 tasks
      // waits at least for its own decisions.
      EXPECT_GE(r->total.jsd_mean_ms, 20 * (mode == pool::SyncMode::kMonolithic ? 0.1 : 1) * 0.9);
      EXPECT_GE(r->decisions, r->committed);
      EXPECT_GE(r->total.jct_mean_s, 1.0);
      EXPECT_LE(r->total.utilisation, 1.0);
      EXPECT_GT(r->phases[1].utilisation, r->phases[0].utilisation);
      EXPECT_GT(r->total.quality, 0);
      // 4 s of phases, then until the last tasks (1 s) end.
      EXPECT_GE(r->series.size(), 4u);
      EXPECT_LE(r->series.size(), 7u);
    }
  }
}

// One job of 10 tasks on an idle cluster: its scheduler pays 10 decisions
// before the tasks count as committed; quality-first pays the factor more.
TEST(VirtualDriverTest, ChargesTheDecisionCostPerDecision) {
  for (auto [strategy, factor, want_ms] : {std::tuple{pool::StrategyKind::kLatencyFirst, 3.0, 10.0},
                                           std::tuple{pool::StrategyKind::kQualityFirst, 3.0, 30.0},
                                           std::tuple{pool::StrategyKind::kAdaptive, 2.0, 20.0}}) {
    RunSpec s;
    s.label = pool::StrategyKindName(strategy);
    s.strategy = strategy;
    s.schedulers = 1;
    s.partitions = 1;
    s.cluster.nodes = 100;
    s.workload.base_rate = 10;
    s.workload.fractions = {1.0};
    s.workload.phase_length = seconds(1);
    s.workload.tasks_per_job = 10;
    s.workload.preferred_nodes = 0;
    s.task_duration = seconds(2);
    s.drain = seconds(3);
    s.decision_cost = milliseconds(1);
    s.quality_cost_factor = factor;
    auto r = RunVirtual(s);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    SCOPED_TRACE(s.label);
    EXPECT_EQ(r->committed, 10);
    EXPECT_EQ(r->decisions, 10);
    // Histogram buckets are within 6.25%.
    EXPECT_NEAR(r->total.delay_p50_ms, want_ms, want_ms * 0.07);
    EXPECT_NEAR(r->total.delay_max_ms, want_ms, want_ms * 0.07);
    EXPECT_NEAR(r->total.jsd_mean_ms, want_ms, want_ms * 0.07);
    EXPECT_NEAR(r->total.jct_mean_s, 2 + want_ms / 1000, 0.01);
    // The job arrives at 0.5 s and the run ends once it has completed.
    EXPECT_NEAR(r->last_commit_s, 0.5 + want_ms / 1000, 1e-6);
    EXPECT_EQ(r->total.quality, 0);  // no preferences
  }
}

TEST(VirtualDriverTest, RejectsABadSpec) {
  RunSpec s = SmallSpec(pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst);
  s.decision_cost = Duration(0);
  EXPECT_FALSE(RunVirtual(s).ok());
  s = SmallSpec(pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst);
  s.partitions = 2;  // parsync needs P >= N
  EXPECT_FALSE(RunVirtual(s).ok());
}

}  // namespace
}  // namespace spindle::windtunnel
