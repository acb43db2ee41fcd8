#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "bench/windtunnel/csv_report.h"
#include "bench/windtunnel/figure5.h"
#include "bench/windtunnel/html_report.h"
#include "bench/windtunnel/json_report.h"
#include "bench/windtunnel/run_mode.h"
#include "bench/windtunnel/text_report.h"
#include "replay/report/svg_chart.h"
#include "tests/support/html_checks.h"

namespace spindle::windtunnel {
namespace {

using replay::ChartSeries;
using replay::ChartSpec;
using replay::RenderLineChart;
using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::CheckTags;

// ---- A strict little JSON checker (RFC 8259 grammar, no extensions) ----
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& text) : s_(text) {}
  bool Valid() {
    SkipWs();
    if (!Value()) return false;
    SkipWs();
    return i_ == s_.size();
  }

 private:
  void SkipWs() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Lit(const char* w) {
    const std::string word(w);
    if (s_.compare(i_, word.size(), word) != 0) return false;
    i_ += word.size();
    return true;
  }
  bool String() {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c < 0x20) return false;
      if (c == '\\') {
        ++i_;
        if (i_ >= s_.size()) return false;
        if (s_[i_] == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (++i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_])))
              return false;
          }
        } else if (std::string("\"\\/bfnrt").find(s_[i_]) == std::string::npos) {
          return false;
        }
      }
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  bool Number() {
    const size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    return i_ > start;
  }
  bool Value() {
    SkipWs();
    if (i_ >= s_.size()) return false;
    switch (s_[i_]) {
      case '{': {
        ++i_;
        SkipWs();
        if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
        for (;;) {
          SkipWs();
          if (!String()) return false;
          SkipWs();
          if (i_ >= s_.size() || s_[i_++] != ':') return false;
          if (!Value()) return false;
          SkipWs();
          if (i_ >= s_.size()) return false;
          if (s_[i_] == '}') return ++i_, true;
          if (s_[i_++] != ',') return false;
        }
      }
      case '[': {
        ++i_;
        SkipWs();
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        for (;;) {
          if (!Value()) return false;
          SkipWs();
          if (i_ >= s_.size()) return false;
          if (s_[i_] == ']') return ++i_, true;
          if (s_[i_++] != ',') return false;
        }
      }
      case '"':
        return String();
      case 't':
        return Lit("true");
      case 'f':
        return Lit("false");
      case 'n':
        return Lit("null");
      default:
        return Number();
    }
  }

  const std::string& s_;
  size_t i_ = 0;
};

// Checks that every non-void element is closed in order; returns "" or
// the first problem.
std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    const size_t nl = s.find('\n', start);
    lines.push_back(s.substr(start, nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + what.size())) ++n;
  return n;
}

// A report from two short virtual runs and a made-up figure table.
WindTunnelReport SampleReport() {
  WindTunnelReport report;
  report.clock = "virtual";
  report.settings = {{"nodes", "500"}, {"a \"quoted\" <key>", "x & y"}};
  for (pool::SyncMode mode : {pool::SyncMode::kParSync, pool::SyncMode::kStateSync}) {
    RunSpec s;
    s.label = std::string(pool::SyncModeName(mode)) + "/latency-first";
    s.mode = mode;
    s.schedulers = 2;
    s.partitions = 4;
    s.sync_gap = milliseconds(100);
    s.step_tasks = 10;
    s.cluster.nodes = 500;
    s.workload.base_rate = 500;
    s.workload.fractions = {0.5, 0.9};
    s.workload.phase_length = seconds(2);
    s.workload.tasks_per_job = 10;
    s.workload.preferred_nodes = 10;
    s.task_duration = seconds(1);
    s.drain = seconds(2);
    s.decision_cost = milliseconds(1);
    auto r = RunVirtual(s);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) report.modes.push_back(std::move(r).value());
  }
  FigureTable t;
  t.id = "2b";
  t.title = "Figure 2: extra slots vs sync gap G";
  t.x_label = "G (s)";
  t.xs = {0.25, 0.5, 1};
  t.series = {"A=1", "A=2"};
  t.extra_percent = {{10, 40, -1}, {0, 5, 15}};
  t.extra_slots = {{20'000, 80'000, -1}, {0, 10'000, 30'000}};
  t.max_percent = 200;
  report.figures.push_back(t);
  AddFigure5(&report, 2000);
  return report;
}

class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { report_ = new WindTunnelReport(SampleReport()); }
  static void TearDownTestSuite() {
    delete report_;
    report_ = nullptr;
  }
  static WindTunnelReport* report_;
};
WindTunnelReport* ReportTest::report_ = nullptr;

TEST_F(ReportTest, JsonIsWellFormedAndCarriesEveryMode) {
  ASSERT_EQ(report_->modes.size(), 2u);
  const std::string json = ToJson(*report_);
  EXPECT_TRUE(JsonChecker(json).Valid()) << json.substr(0, 400);
  EXPECT_NE(json.find("\"bench\":\"windtunnel\""), std::string::npos);
  EXPECT_NE(json.find("\"label\":\"parsync/latency-first\""), std::string::npos);
  EXPECT_NE(json.find("\"label\":\"statesync/latency-first\""), std::string::npos);
  EXPECT_NE(json.find("\"a \\\"quoted\\\" <key>\":\"x & y\""), std::string::npos);
  EXPECT_NE(json.find("\"delay_p99_ms\""), std::string::npos);
  EXPECT_NE(json.find("\"ratios\":[{"), std::string::npos);
  // The figure's missing point (-1) is null, not a number.
  EXPECT_NE(json.find("\"extra_percent\":[10,40,null]"), std::string::npos);
  // 3 windows (2 phases, drain) per mode (Figure 5 names them again).
  EXPECT_EQ(Count(json.substr(0, json.find("\"figure5\"")), "\"name\":\"drain\""), 2u);
}

TEST(JsonTest, EmptyReportAndNonFiniteNumbersStayWellFormed) {
  WindTunnelReport r;
  EXPECT_TRUE(JsonChecker(ToJson(r)).Valid());
  ModeResult m;
  m.label = "x\n\"y\"\\";
  m.total.delay_mean_ms = std::nan("");
  m.total.quality = INFINITY;
  r.modes.push_back(m);
  const std::string json = ToJson(r);
  EXPECT_TRUE(JsonChecker(json).Valid()) << json;
  EXPECT_NE(json.find("\"delay_mean_ms\":null"), std::string::npos);
  EXPECT_FALSE(JsonChecker("{\"a\":1,}").Valid());  // the checker itself is strict
  EXPECT_FALSE(JsonChecker("[1 2]").Valid());
}

TEST_F(ReportTest, CsvHasOneRowPerModeAndSecondWithEveryColumn) {
  const std::string csv = ToCsv(*report_);
  const std::vector<std::string> lines = SplitLines(csv);
  ASSERT_FALSE(lines.empty());
  const size_t columns = Count(lines[0], ",") + 1;
  EXPECT_EQ(columns, 17u);
  size_t rows = 0;
  for (const ModeResult& m : report_->modes) rows += m.series.size();
  EXPECT_GT(rows, 0u);
  ASSERT_EQ(lines.size(), rows + 1);
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(Count(lines[i], ",") + 1, columns) << lines[i];
    EXPECT_TRUE(lines[i].rfind("parsync/", 0) == 0 || lines[i].rfind("statesync/", 0) == 0);
  }
  EXPECT_EQ(lines[1].substr(0, lines[1].find(',')), "parsync/latency-first");
}

TEST_F(ReportTest, FiguresCsvHasEveryFigureInLongForm) {
  const std::vector<std::string> lines = SplitLines(ToFiguresCsv(*report_));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "figure,series,x_label,x,metric,value");
  // Figure 2b: 2 series x 3 xs x 2 metrics; 5a and 5b: 2 modes x 3 windows.
  ASSERT_EQ(lines.size(), 1u + 12 + 2 * 2 * 3);
  for (const std::string& line : lines) EXPECT_EQ(Count(line, ","), 5u) << line;
  // The point that needed more than the largest extra has no value.
  EXPECT_NE(std::find(lines.begin(), lines.end(), "2b,A=1,G (s),1,extra_percent,"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "2b,A=2,G (s),0.5,extra_slots,10000"),
            lines.end());
  EXPECT_EQ(lines.back().rfind("5b,statesync/latency-first,phase,drain,quality,", 0), 0u);
}

TEST_F(ReportTest, JsonCarriesFigure5AndItsTrends) {
  const std::string json = ToJson(*report_);
  EXPECT_NE(json.find("\"figure5\":[{\"id\":\"5a\""), std::string::npos);
  EXPECT_NE(json.find("\"metric\":\"quality\""), std::string::npos);
  EXPECT_NE(json.find("\"phases\":[{\"name\":\"1@50%\",\"fraction\":0.5}"), std::string::npos);
  EXPECT_NE(json.find("\"trends\":[{\"figure\":\"5a\""), std::string::npos);
}

TEST_F(ReportTest, HtmlIsSelfContainedBalancedAndHasTheCharts) {
  const std::string html = ToHtml(*report_);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_EQ(CheckTags(html), "");
  // Figure 5a/5b, seven time series, one simulation figure.
  EXPECT_EQ(Count(html, "<svg"), 10u);
  EXPECT_EQ(Count(html, "</svg>"), 10u);
  EXPECT_NE(html.find("Figure 5a"), std::string::npos);
  EXPECT_NE(html.find("Figure 5b"), std::string::npos);
  EXPECT_NE(html.find("<polyline"), std::string::npos);
  EXPECT_NE(html.find("statesync/latency-first"), std::string::npos);
  // Nothing fetched, nothing run.
  for (const char* banned : {"http://", "https://", "<script", "src=", "@import", "url("}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  }
  // Text is escaped.
  EXPECT_NE(html.find("a &quot;quoted&quot; &lt;key&gt;"), std::string::npos);
  EXPECT_NE(html.find("x &amp; y"), std::string::npos);
  EXPECT_NE(html.find("&gt;200%"), std::string::npos);
}

TEST(SvgChartTest, LogScaleAndGapsRenderBalancedSvg) {
  ChartSpec c;
  c.title = "delay <p99>";
  c.x_label = "time (s)";
  c.y_label = "ms";
  c.log_y = true;
  c.markers = {10, 20};
  c.series = {{"a", {{0, 1}, {1, 10}, {2, -1}, {3, 1000}}}, {"b & c", {{0, 0}, {5, 50}}}};
  const std::string svg = RenderLineChart(c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(CheckTags(svg), "");
  // Series a is split by its missing point; b is one line.
  EXPECT_EQ(Count(svg, "<polyline"), 3u);
  EXPECT_NE(svg.find("delay &lt;p99&gt;"), std::string::npos);
  EXPECT_NE(svg.find("b &amp; c"), std::string::npos);
  EXPECT_EQ(Count(svg, "stroke-dasharray"), 2u);
  // Empty chart.
  EXPECT_EQ(CheckTags(RenderLineChart(ChartSpec())), "");
}

TEST_F(ReportTest, TextTablesNameEveryModeAndPhase) {
  const std::string table = FormatModeTable(report_->modes[0]);
  EXPECT_NE(table.find("parsync/latency-first"), std::string::npos);
  EXPECT_NE(table.find("1@50%"), std::string::npos);
  EXPECT_NE(table.find("2@90%"), std::string::npos);
  EXPECT_NE(table.find("drain"), std::string::npos);
  const std::string summary = FormatSummary(*report_);
  EXPECT_NE(summary.find("p99 scheduling delay"), std::string::npos);
  EXPECT_NE(summary.find("statesync/latency-first"), std::string::npos);
  const std::string ratios = FormatRatios(*report_, "parsync/latency-first");
  EXPECT_NE(ratios.find("ratios to parsync/latency-first"), std::string::npos);
  EXPECT_EQ(Count(ratios, "statesync/latency-first"), 4u);  // 2 phases, drain, all
  const std::string fig = FormatFigureTable(report_->figures[0]);
  EXPECT_NE(fig.find(">200%"), std::string::npos);
  EXPECT_NE(fig.find("40.0% (80k)"), std::string::npos);
  EXPECT_NE(FormatTargets(*report_, 2000).find("statesync vs parsync (latency-first)"),
            std::string::npos);
}

TEST(RatiosTest, ComparesEachPhaseWithTheReference) {
  WindTunnelReport r;
  ModeResult a;
  a.label = "ref";
  a.phases.resize(1);
  a.phases[0].name = "1";
  a.phases[0].delay_p99_ms = 10;
  a.phases[0].conflicts = 100;
  a.total.name = "all";
  ModeResult b = a;
  b.label = "other";
  b.phases[0].delay_p99_ms = 40;
  b.phases[0].conflicts = 50;
  r.modes = {b, a};
  const auto rows = ComputeRatios(r, "ref");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "other");
  EXPECT_EQ(rows[0].reference, "ref");
  EXPECT_DOUBLE_EQ(rows[0].delay_p99, 4);
  EXPECT_DOUBLE_EQ(rows[0].conflicts, 0.5);
  EXPECT_DOUBLE_EQ(rows[1].delay_p99, 0);  // "all": 0 / 0 is reported as 0
}

// A driver that falls behind submits less than the phase's rate and leaves
// no backlog: that is not keeping up either.
TEST(TargetsTest, KeepingUpNeedsTheOfferDeliveredAndNoBacklog) {
  WindTunnelReport r;
  r.clock = "real";
  ModeResult m;
  m.label = "parsync/latency-first";
  PhaseResult p;
  p.name = "1";
  p.fraction = 0.5;
  p.offered_rate = 80000;
  p.start_s = 0;
  p.end_s = 4;
  p.submitted = 320000;
  p.delay_p99_ms = 3;
  m.phases = {p};
  r.modes = {m};
  EXPECT_NE(FormatTargets(r, 2000).find("keeps up in every phase: yes"), std::string::npos);
  r.modes[0].phases[0].submitted = 160000;  // half the offer reached the RM
  EXPECT_NE(FormatTargets(r, 2000).find("keeps up in every phase: NO"), std::string::npos);
  r.modes[0].phases[0].submitted = 320000;
  r.modes[0].phases[0].backlog_end = 40000;  // 500 ms of arrivals waiting
  EXPECT_NE(FormatTargets(r, 2000).find("keeps up in every phase: NO"), std::string::npos);
}

}  // namespace
}  // namespace spindle::windtunnel
