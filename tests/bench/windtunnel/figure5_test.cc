#include "bench/windtunnel/figure5.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "bench/windtunnel/csv_report.h"
#include "bench/windtunnel/run_mode.h"
#include "bench/windtunnel/table1.h"
#include "bench/windtunnel/text_report.h"
#include "tests/bench/windtunnel/small_spec.h"

namespace spindle::windtunnel {
namespace {

const std::vector<double> kPhases = {0.5, 0.8, 0.95, 0.8, 0.5};

// A mode with the given mean delay and quality per phase (then a drain).
ModeResult Mode(const std::string& mode, const std::string& strategy,
                const std::vector<double>& delay, const std::vector<double>& quality) {
  ModeResult m;
  m.mode = mode;
  m.strategy = strategy;
  m.label = mode + "/" + strategy;
  for (size_t i = 0; i <= kPhases.size(); ++i) {
    PhaseResult p;
    const bool drain = i == kPhases.size();
    p.name = drain ? "drain" : std::to_string(i + 1);
    p.fraction = drain ? 0 : kPhases[i];
    p.delay_mean_ms = drain ? 1 : delay[i];
    p.quality = drain ? 0 : quality[i];
    m.phases.push_back(p);
  }
  return m;
}

const TrendCheck* FindTrend(const WindTunnelReport& r, const std::string& start) {
  for (const TrendCheck& t : r.trends) {
    if (t.claim.rfind(start, 0) == 0) return &t;
  }
  return nullptr;
}

// The paper's Figure 5 in made-up numbers with its shape.
WindTunnelReport PaperLike() {
  WindTunnelReport r;
  r.modes.push_back(Mode("parsync", "latency-first", {5, 10, 20, 10, 5}, {.5, .4, .3, .4, .5}));
  r.modes.push_back(
      Mode("parsync", "quality-first", {10, 200, 1500, 400, 20}, {.9, .9, .8, .9, .9}));
  r.modes.push_back(Mode("parsync", "adaptive", {10, 150, 1200, 300, 20}, {.9, .8, .5, .8, .9}));
  r.modes.push_back(
      Mode("statesync", "latency-first", {50, 900, 4000, 5000, 800}, {.6, .5, .4, .5, .6}));
  r.modes.push_back(
      Mode("monolithic", "latency-first", {1e5, 1e5, 1e5, 1e5, 1e5}, {1, 1, 1, 1, 1}));
  return r;
}

TEST(Figure5Test, TablesArePhasesByParsyncAndStatesyncModes) {
  WindTunnelReport r = PaperLike();
  AddFigure5(&r, 2000);
  ASSERT_EQ(r.phase_figures.size(), 2u);
  const PhaseFigure& a = r.phase_figures[0];
  const PhaseFigure& b = r.phase_figures[1];
  EXPECT_EQ(a.id, "5a");
  EXPECT_EQ(b.id, "5b");
  EXPECT_EQ(a.metric, "delay_mean_ms");
  EXPECT_EQ(b.metric, "quality");
  EXPECT_EQ(a.phases,
            (std::vector<std::string>{"1@50%", "2@80%", "3@95%", "4@80%", "5@50%", "drain"}));
  // Monolithic is not in the paper's figure.
  EXPECT_EQ(a.series, (std::vector<std::string>{"parsync/latency-first", "parsync/quality-first",
                                                "parsync/adaptive", "statesync/latency-first"}));
  EXPECT_EQ(b.series, a.series);
  ASSERT_EQ(a.values.size(), 4u);
  EXPECT_EQ(a.values[1], (std::vector<double>{10, 200, 1500, 400, 20, 1}));
  EXPECT_EQ(b.values[0], (std::vector<double>{.5, .4, .3, .4, .5, 0}));

  const std::string text = FormatPhaseFigure(a);
  EXPECT_NE(text.find("Figure 5a"), std::string::npos);
  EXPECT_NE(text.find("3@95%"), std::string::npos);
  EXPECT_NE(text.find("1500.0"), std::string::npos);
  EXPECT_EQ(text.find("monolithic"), std::string::npos);
  // Long-form CSV: a header and a row per series and phase of each figure.
  const std::string csv = ToFiguresCsv(r);
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 2 * 4 * 6);
  EXPECT_NE(csv.find("5a,parsync/quality-first,phase,3@95%,delay_mean_ms,1500\n"),
            std::string::npos);
  EXPECT_NE(csv.find("5b,statesync/latency-first,phase,1@50%,quality,0.6\n"), std::string::npos);
}

TEST(Figure5Test, ThePapersTrendsHoldOnThePapersShape) {
  WindTunnelReport r = PaperLike();
  AddFigure5(&r, 2000);
  ASSERT_EQ(r.trends.size(), 8u);
  for (const TrendCheck& t : r.trends) EXPECT_TRUE(t.holds) << t.claim << ": " << t.detail;
  EXPECT_NE(FormatTrends(r.trends).find("yes"), std::string::npos);
}

TEST(Figure5Test, EachTrendFailsWhenTheNumbersSaySo) {
  {
    // Adaptive above tau at the peak; latency-first no longer the lowest.
    WindTunnelReport r = PaperLike();
    r.modes[2].phases[2].delay_mean_ms = 2500;
    r.modes[0].phases[0].delay_mean_ms = 60;
    AddFigure5(&r, 2000);
    EXPECT_FALSE(FindTrend(r, "parsync/adaptive's")->holds);
    EXPECT_FALSE(FindTrend(r, "parsync/latency-first has")->holds);
    EXPECT_TRUE(FindTrend(r, "StateSync's delay")->holds);
  }
  {
    // No quality-first surge; StateSync peaking in phase 1.
    WindTunnelReport r = PaperLike();
    r.modes[1].phases[2].delay_mean_ms = 15;
    r.modes[3].phases[0].delay_mean_ms = 9000;
    AddFigure5(&r, 2000);
    EXPECT_FALSE(FindTrend(r, "parsync/quality-first's delay rises")->holds);
    EXPECT_FALSE(FindTrend(r, "StateSync's delay")->holds);
    EXPECT_TRUE(FindTrend(r, "parsync/quality-first's delay at the peak")->holds);
  }
  {
    // Quality-first worse than latency-first in one phase; StateSync poor.
    WindTunnelReport r = PaperLike();
    r.modes[1].phases[4].quality = 0.4;
    for (PhaseResult& p : r.modes[3].phases) p.quality = 0.1;
    AddFigure5(&r, 2000);
    EXPECT_FALSE(FindTrend(r, "parsync/quality-first's quality")->holds);
    EXPECT_FALSE(FindTrend(r, "StateSync's quality")->holds);
    EXPECT_TRUE(FindTrend(r, "parsync/adaptive's quality")->holds);
    r.modes[2].phases[2].quality = 0.3;  // adaptive level with latency-first at the peak
    AddFigure5(&r, 2000);
    EXPECT_FALSE(FindTrend(r, "parsync/adaptive's quality")->holds);
  }
}

TEST(Figure5Test, NoParsyncOrStatesyncNoFigure) {
  WindTunnelReport r;
  r.modes.push_back(Mode("monolithic", "latency-first", {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}));
  AddFigure5(&r, 2000);
  EXPECT_TRUE(r.phase_figures.empty());
  EXPECT_TRUE(r.trends.empty());
  // Only latency-first: the table, and no trend that needs another mode.
  r.modes.push_back(Mode("parsync", "latency-first", {1, 2, 3, 2, 1}, {.5, .5, .5, .5, .5}));
  AddFigure5(&r, 2000);
  ASSERT_EQ(r.phase_figures.size(), 2u);
  EXPECT_EQ(r.phase_figures[0].series.size(), 1u);
  EXPECT_TRUE(r.trends.empty());
}

// A tiny deterministic wind tunnel on the virtual clock in the paper's
// regime (schedulers with twice the capacity the load needs at 100%,
// quality-first decisions 1.5x as costly): SmallSpec on 1,000 nodes (2,000
// slots of 1 s tasks, R = 2,000/s) in five 2 s phases at 50/80/95/80/50%. Pins Figure 5's shape and
// the trends this small run shows.
TEST(Figure5Test, TinyVirtualRunHasThePapersDelayTrends) {
  WindTunnelReport r;
  r.clock = "virtual";
  for (const auto& [mode, strategy] :
       {std::pair{pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst},
        std::pair{pool::SyncMode::kParSync, pool::StrategyKind::kQualityFirst},
        std::pair{pool::SyncMode::kStateSync, pool::StrategyKind::kLatencyFirst}}) {
    RunSpec s = SmallSpec(mode, strategy);
    s.cluster.nodes = 1000;
    s.workload.fractions = kPhases;
    s.quality_cost_factor = 1.5;
    auto m = RunVirtual(s);
    ASSERT_TRUE(m.ok()) << s.label << ": " << m.status().ToString();
    ASSERT_TRUE(m->all_committed) << s.label;
    r.modes.push_back(std::move(m).value());
  }
  AddFigure5(&r, 2000);
  ASSERT_EQ(r.phase_figures.size(), 2u);
  const PhaseFigure& a = r.phase_figures[0];
  EXPECT_EQ(a.series, (std::vector<std::string>{"parsync/latency-first", "parsync/quality-first",
                                                "statesync/latency-first"}));
  ASSERT_EQ(a.phases.size(), 6u);  // five phases and the drain
  EXPECT_EQ(a.phases[2], "3@95%");
  for (const auto& row : a.values) {
    for (size_t i = 0; i < 5; ++i) EXPECT_GT(row[i], 0) << i;
  }
  for (const auto& row : r.phase_figures[1].values) {
    for (size_t i = 0; i < 5; ++i) EXPECT_TRUE(row[i] > 0 && row[i] <= 1) << i;
  }
  const auto& lf = a.values[0];
  const auto& qf = a.values[1];
  const auto& ss = a.values[2];
  SCOPED_TRACE(FormatPhaseFigure(a) + FormatTrends(r.trends));
  // Latency-first is the fastest in every phase; quality-first's delay
  // surges into the 95% phase, faster than latency-first's; StateSync is
  // slower than ParSync at the peak, rising into it and falling after.
  EXPECT_TRUE(FindTrend(r, "parsync/latency-first has")->holds);
  EXPECT_TRUE(FindTrend(r, "parsync/quality-first's delay rises")->holds);
  EXPECT_TRUE(FindTrend(r, "StateSync's delay")->holds);
  // Trends, not magnitudes: at this size the surge is x1.3-x1.7 by seed.
  EXPECT_GT(qf[2], qf[0]);
  EXPECT_GT(qf[2], lf[2]);
  EXPECT_GT(ss[2], lf[2]);
  EXPECT_GT(ss[2], ss[0]);
  EXPECT_LT(ss[4], ss[2]);
}

// The paper's Figure 5 trends on a fixed-seed virtual run small enough for
// CI: its five phases (50/80/95/80/50%), schedulers busy about 71% of the
// time at 95% with latency-first's decisions and quality-first's 1.5x as
// costly (so quality-first's backlog grows through the peak). Same seed,
// same run (VirtualDriverTest.SameSeedGivesAnIdenticalSummary): a trend that
// turns NO here is a regression, not noise. Every trend is computed and
// printed, and every one but quality-first's peak below StateSync's is
// asserted (that one is the tunnel's model at this size, not reproduced:
// bench/windtunnel/README.md, issue 21).
//
// tau as the paper sets it against its delays: between latency-first's and
// quality-first's, so that adaptive has something to bound. Table 1 (tau =
// 1 s): mean JSD latency-first 0.4 s, quality-first 1.5-3.7 s, so tau is
// 2.5x latency-first's and below quality-first's; Figure 5 (tau = 2 s):
// quality-first's delay passes tau at the peak. Here latency-first's mean
// delay is 30-38 ms per phase and quality-first's 131-190 ms in phases 3-4,
// so tau = 100 ms (SmallSpec's 200 ms is never reached: adaptive would
// never switch, and equal quality-first to the digit).
TEST(Figure5Test, ThePapersTrendsOnAFixedSeedVirtualRun) {
  WindTunnelReport r;
  r.clock = "virtual";
  RunSpec base = SmallSpec(pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst);
  base.cluster.nodes = 1000;
  base.workload.fractions = kPhases;
  base.quality_cost_factor = 1.5;
  base.tau = std::chrono::milliseconds(100);
  // 1.5 ms per decision: at 95% a scheduler gets 475 tasks/s, latency-first
  // is busy ~71% of the time and quality-first over 100%, so quality-first's
  // backlog grows through the peak as the paper's does.
  base.decision_cost = std::chrono::microseconds(1500);
  for (const auto& [mode, strategy] :
       {std::pair{pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst},
        std::pair{pool::SyncMode::kParSync, pool::StrategyKind::kQualityFirst},
        std::pair{pool::SyncMode::kParSync, pool::StrategyKind::kAdaptive},
        std::pair{pool::SyncMode::kStateSync, pool::StrategyKind::kLatencyFirst}}) {
    RunSpec s = base;
    s.mode = mode;
    s.strategy = strategy;
    s.label = SmallSpec(mode, strategy).label;
    auto m = RunVirtual(s);
    ASSERT_TRUE(m.ok()) << s.label << ": " << m.status().ToString();
    ASSERT_TRUE(m->all_committed) << s.label;
    r.modes.push_back(std::move(m).value());
  }
  const double tau_ms = std::chrono::duration<double, std::milli>(base.tau).count();
  AddFigure5(&r, tau_ms);
  AddTable1(&r);
  const std::string figures = FormatPhaseFigure(r.phase_figures[0]) +
                              FormatPhaseFigure(r.phase_figures[1]) + FormatTrends(r.trends);
  std::cout << figures;            // what the verdicts were judged on, in the test's log
  ASSERT_EQ(r.trends.size(), 9u);  // eight of Figure 5, one of Table 1
  const std::string not_reproduced = "parsync/quality-first's delay at the peak stays below";
  ASSERT_NE(FindTrend(r, not_reproduced), nullptr);
  for (const TrendCheck& t : r.trends) {
    if (t.claim.rfind(not_reproduced, 0) == 0) continue;
    EXPECT_TRUE(t.holds) << "[" << t.figure << "] " << t.claim << ": " << t.detail;
  }
  // Adaptive switched: it is neither of the two strategies it runs.
  const ModeResult& qf = r.modes[1];
  const ModeResult& ad = r.modes[2];
  EXPECT_LT(ad.total.jsd_mean_ms, qf.total.jsd_mean_ms);
  EXPECT_NE(ad.phases[2].quality, qf.phases[2].quality);
}

}  // namespace
}  // namespace spindle::windtunnel
