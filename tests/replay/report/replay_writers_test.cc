#include "replay/report/replay_writers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "replay/report/replay_recorder.h"
#include "tests/support/html_checks.h"

namespace spindle::replay {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + what.size())) ++n;
  return n;
}

ReplayModeResult Mode(const std::string& label, int64_t delay_ms) {
  RecorderOptions o;
  o.capacity_memory_mb = 4096;
  o.capacity_vcores = 4;
  o.queues = {{"a", 0.5}, {"b, \"quoted\"", 0.5}};
  ReplayRecorder rec(o);
  for (int j = 0; j < 3; ++j) {
    rec.OnJobSubmitted(j, "job_" + std::to_string(j), j % 2 ? "a" : "b, \"quoted\"", 1,
                       seconds(j * 30));
    rec.OnTasksAsked(j, 1, seconds(j * 30));
    rec.OnTaskPlaced(j, seconds(j * 30), seconds(j * 30) + milliseconds(delay_ms), 0, 1024, 1, true,
                     j == 0);
    rec.OnTaskEnded(j, seconds(j * 30 + 20), 1024, 1);
    rec.OnJobFinished(j, seconds(j * 30 + 20));
  }
  rec.OnJobSubmitted(3, "job_x", "nope", 1, seconds(5));
  rec.OnJobRejected(3, "unknown queue <nope>", seconds(5));
  ReplayModeResult r = rec.Finish(seconds(125));
  r.label = label;
  r.driver = "windtunnel";
  return r;
}

ReplayReport Report() {
  ReplayReport r;
  r.title = "spindle replay: test <trace>";
  r.settings = {{"trace", "x.json"}, {"mode", "windtunnel"}};
  r.modes = {Mode("parsync:latency-first", 5), Mode("statesync", 50)};
  r.modes[1].violations = {"1 task ran twice"};
  return r;
}

TEST(ReplayWritersTest, SummaryTableHasARowPerModeAndTheProblems) {
  const std::string t = ToSummaryTable(Report());
  EXPECT_NE(t.find("parsync:latency-first"), std::string::npos);
  EXPECT_NE(t.find("VIOLATION statesync: 1 task ran twice"), std::string::npos);
  EXPECT_NE(t.find("rejected statesync: job_x: unknown queue <nope>"), std::string::npos);
  EXPECT_NE(t.find("50.0ms"), std::string::npos) << t;
  EXPECT_NE(t.find("33.3%"), std::string::npos) << "quality of one of three" << t;
}

TEST(ReplayWritersTest, CsvHasOneRowPerModeAndSecondAndQuotesLabels) {
  ReplayReport r = Report();
  r.modes[1].label = "odd,label";
  const std::string csv = ToSeriesCsv(r);
  EXPECT_EQ(Count(csv, "\n"), 1 + r.modes[0].series.size() + r.modes[1].series.size());
  EXPECT_EQ(r.modes[0].series.size(), 125u);
  EXPECT_NE(csv.find("\n\"odd,label\",0,"), std::string::npos);
  // Every row has the header's number of fields.
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const size_t fields = Count(line, ",");
  while (std::getline(in, line)) {
    if (line.rfind("\"odd", 0) == 0) line = line.substr(line.find("\",") + 1);
    ASSERT_EQ(Count(line, ","), fields) << line;
  }
}

TEST(ReplayWritersTest, HtmlIsSelfContainedAndBalanced) {
  const std::string html = ToHtml(Report());
  EXPECT_EQ(testing::CheckTags(html), "");
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"))
      << "nothing fetched from the network";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // Delay CDF, p99, p50, utilisation, running, backlog, quality, conflicts,
  // Jain, a share chart per mode, JCT CDF.
  EXPECT_EQ(Count(html, "<svg"), 12u);
  EXPECT_NE(html.find("&lt;trace&gt;"), std::string::npos) << "titles are escaped";
  EXPECT_NE(html.find("1 task ran twice"), std::string::npos);
}

// Tied policies' lines would hide each other; empty charts would read as
// zero; wide tables and long lines must stay inside the page.
TEST(ReplayWritersTest, HtmlMarksTiesNotesEmptyChartsAndScrollsWideTables) {
  ReplayReport r;
  r.title = "ties";
  r.modes = {Mode("parsync:latency-first", 5), Mode("monolithic", 5)};
  for (ReplayModeResult& m : r.modes) {
    for (ReplaySeriesRow& row : m.series) row.quality = -1;  // no task had a preference
  }
  r.warnings = {
      "trace: 3 x task with no plan_cpu/plan_mem (still waiting in the trace): task "
      "dropped"};
  const std::string html = ToHtml(r);
  EXPECT_EQ(testing::CheckTags(html), "");
  EXPECT_NE(html.find("monolithic (same as parsync:latency-first)"), std::string::npos);
  EXPECT_NE(html.find("no data (no task had a preferred node or rack)"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg"), 11u) << "the quality chart is a note";
  EXPECT_NE(html.find("<div class=\"scroll\"><table><tr><th>queue</th>"), std::string::npos);
  EXPECT_NE(html.find("overflow-x:auto"), std::string::npos);
  EXPECT_NE(html.find("warning: trace: 3 x task with no plan_cpu"), std::string::npos);
}

TEST(ReplayWritersTest, SummaryListsWarningsCutAndNotRunPolicies) {
  ReplayReport r = Report();
  r.warnings = {"trace: 2 malformed records skipped (--skip-bad); first: x.csv:3: bad"};
  r.modes[1].cut = true;
  r.not_run = {"monolithic (stopped before it)"};
  const std::string t = ToSummaryTable(r);
  EXPECT_NE(t.find("WARNING: trace: 2 malformed records skipped"), std::string::npos) << t;
  EXPECT_NE(t.find("CUT statesync: stopped by a signal at trace 125.0s"), std::string::npos) << t;
  EXPECT_EQ(t.find("CUT parsync"), std::string::npos) << t;
  EXPECT_NE(t.find("NOT RUN monolithic (stopped before it)"), std::string::npos) << t;
  const std::string json = ToJson(r);
  EXPECT_NE(json.find("\"warnings\":[\"trace: 2 malformed"), std::string::npos) << json;
  EXPECT_NE(json.find("\"not_run\":[\"monolithic (stopped before it)\"]"), std::string::npos);
  EXPECT_NE(json.find("\"cut\":true"), std::string::npos);
}

TEST(ReplayWritersTest, JsonCarriesEveryModeAndEscapes) {
  const std::string json = ToJson(Report());
  EXPECT_EQ(Count(json, "\"label\":"), 2u);
  EXPECT_NE(json.find("\"b, \\\"quoted\\\"\""), std::string::npos);
  EXPECT_NE(json.find("\"cdf\":[["), std::string::npos);
  EXPECT_EQ(Count(json, "{"), Count(json, "}"));
  EXPECT_EQ(Count(json, "["), Count(json, "]"));
}

TEST(ReplayWritersTest, WriteReportFilesWritesTheFourFiles) {
  const std::string dir =
      ::testing::TempDir() + "/replay_report_" + std::to_string(::getpid()) + "/nested";
  ASSERT_TRUE(WriteReportFiles(dir, Report()).ok());
  for (const char* f : {"summary.txt", "report.json", "series.csv", "report.html"}) {
    EXPECT_GT(std::filesystem::file_size(dir + "/" + f), 100u) << f;
  }
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  const Status s = WriteReportFiles("/proc/no/such/dir", Report());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("/proc/no/such/dir"), std::string::npos);
}

}  // namespace
}  // namespace spindle::replay
