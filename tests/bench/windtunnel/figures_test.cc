#include "bench/windtunnel/figures.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace spindle::windtunnel {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(FiguresTest, SimSpecScalesThePapersSetting) {
  FigureOptions o;  // scale 0.05, 0.25 ms per decision, score-sampling
  EXPECT_EQ(o.fig2_strategy, pool::StrategyKind::kScoreSampling);
  EXPECT_EQ(o.fig3_strategy, pool::StrategyKind::kScoreSampling);
  EXPECT_EQ(o.seeds, 3);
  SimPoint p;
  p.mode = pool::SyncMode::kParSync;
  p.strategy = pool::StrategyKind::kLatencyFirst;
  p.rate = 40'000;
  p.a = 2;
  p.partitions = 8;
  const RunSpec s = MakeSimSpec(o, p, 50);
  // N x K = A x R with K = 4,000 tasks/s per scheduler.
  EXPECT_EQ(s.schedulers, 20);
  EXPECT_EQ(s.partitions, 20);  // raised to N for parsync
  EXPECT_DOUBLE_EQ(s.workload.base_rate, 2000);
  // S = R x T x scale = 10,000 slots, +50%, 2 slots per node.
  EXPECT_EQ(s.cluster.nodes, 7500);
  EXPECT_EQ(s.workload.tasks_per_job, 3);  // round(100 x 0.05 / 2)
  EXPECT_EQ(s.step_tasks, 3);
  EXPECT_EQ(s.decision_cost, milliseconds(5));  // 0.25 ms / 0.05
  EXPECT_TRUE(s.stop_when_committed);
  EXPECT_EQ(s.workload.fractions, std::vector<double>{1.0});
  p.mode = pool::SyncMode::kStateSync;
  EXPECT_EQ(MakeSimSpec(o, p, 0).partitions, 8);
  EXPECT_EQ(MakeSimSpec(o, p, 0).cluster.nodes, 5000);
}

// A tiny sweep: the search returns a grid value, more schedulers never need
// more slots here, and the tables have the promised shape.
TEST(FiguresTest, TinySweepHasTheShapeOfTheTables) {
  FigureOptions o;
  o.figures = {2};
  o.scale = 0.01;
  o.seconds = seconds(8);
  o.grid_percent = {0, 25, 100};
  o.rates = {40'000};
  o.gaps_s = {0.5};
  o.variances = {2};
  o.fig2_a = {2, 4};
  o.seeds = 1;
  o.jobs = 2;
  int progress = 0;
  auto tables = RunFigures(o, [&](const FigureTable&) { ++progress; });
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  ASSERT_EQ(tables->size(), 3u);
  EXPECT_EQ(progress, 3);
  EXPECT_EQ((*tables)[0].id, "2a");
  EXPECT_EQ((*tables)[2].id, "2c");
  for (const FigureTable& t : *tables) {
    ASSERT_EQ(t.series.size(), 2u);
    ASSERT_EQ(t.extra_percent.size(), 2u);
    EXPECT_EQ(t.max_percent, 100);
    for (const auto& row : t.extra_percent) {
      ASSERT_EQ(row.size(), 1u);
      EXPECT_TRUE(row[0] < 0 || std::find(o.grid_percent.begin(), o.grid_percent.end(), row[0]) !=
                                    o.grid_percent.end());
    }
  }
  // The default point (R, G, V) recurs in each table: one answer.
  EXPECT_EQ((*tables)[0].extra_percent, (*tables)[1].extra_percent);
  EXPECT_EQ((*tables)[1].extra_percent, (*tables)[2].extra_percent);
}

// A point's value is the mean of its seeds' own answers, each a grid value.
TEST(FiguresTest, PointsAreMeansOverSeeds) {
  FigureOptions o;
  o.scale = 0.01;
  o.seconds = seconds(4);
  o.grid_percent = {0, 25, 100};
  o.seed = 5;
  o.seeds = 3;
  SimPoint p;
  p.mode = pool::SyncMode::kSameSync;
  p.strategy = pool::StrategyKind::kScoreSampling;
  p.a = 2;
  p.partitions = 8;
  double sum = 0;
  bool all_pass = true;
  for (uint64_t seed = 5; seed < 8; ++seed) {
    FigureOptions one = o;
    one.seed = seed;
    auto e = ExtraSlotsNeeded(one, p);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    all_pass &= *e >= 0;
    EXPECT_TRUE(*e < 0 || std::find(o.grid_percent.begin(), o.grid_percent.end(), *e) !=
                              o.grid_percent.end());
    sum += *e;
  }
  auto mean = MeanExtraSlotsNeeded(o, p);
  ASSERT_TRUE(mean.ok());
  if (all_pass) {
    EXPECT_DOUBLE_EQ(*mean, sum / 3);
  } else {
    EXPECT_LT(*mean, 0);
  }
  o.seeds = 0;
  EXPECT_FALSE(MeanExtraSlotsNeeded(o, p).ok());
}

}  // namespace
}  // namespace spindle::windtunnel
