#include "replay/report/tenant_compare.h"

#include <gtest/gtest.h>

#include "replay/report/replay_writers.h"

namespace spindle::replay {
namespace {

TenantRow Row(const std::string& queue, const std::string& user, int64_t mb, int64_t running,
              int64_t pending, int64_t preempted = 0) {
  TenantRow r;
  r.queue = queue;
  r.user = user;
  r.memory_mb = mb;
  r.apps_running = running;
  r.apps_pending = pending;
  r.preempted = preempted;
  return r;
}

// A report as `spindle replay --mode cell --out` writes it, with tenant
// samples at 0, 10, 20 and 30 s of user `u`'s memory.
std::string Report(const std::string& rm, const std::vector<int64_t>& memory,
                   int64_t scheduler_pending) {
  ReplayReport report;
  report.title = "t";
  ReplayModeResult m;
  m.label = "cell";
  m.driver = "cell";
  m.rm = rm;
  m.jobs_submitted = 3;
  m.jobs_finished = 2;
  m.jobs_rejected = 1;
  m.rejections = {"job_3: Queue default already has 2 applications"};
  for (size_t i = 0; i < memory.size(); ++i) {
    TenantSample s;
    s.at_s = 10.0 * static_cast<double>(i);
    TenantRow q = Row("default", "", memory[i], 1, 1);
    q.scheduler_apps_pending = scheduler_pending;
    s.rows = {q, Row("default", "u", memory[i], 1, 1, static_cast<int64_t>(i))};
    s.jobs_counted = i > 0;  // the first as an older census wrote it
    if (s.jobs_counted) s.jobs = {{"job_1", memory[i]}};
    m.tenants.push_back(s);
  }
  report.modes.push_back(m);
  return ToJson(report);
}

TEST(TenantCompareTest, ReadsTheReportJsonBack) {
  auto run = ParseTenantRun("a.json", Report("--rm h:1,h:2,h:3 (Hadoop 3.3)", {0, 1024}, 2));
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->label, "cell");
  EXPECT_EQ(run->rm, "--rm h:1,h:2,h:3 (Hadoop 3.3)");
  EXPECT_EQ(run->jobs_rejected, 1);
  ASSERT_EQ(run->rejections.size(), 1u);
  ASSERT_EQ(run->samples.size(), 2u);
  EXPECT_DOUBLE_EQ(run->samples[1].at_s, 10);
  ASSERT_EQ(run->samples[1].rows.size(), 2u);
  EXPECT_EQ(run->samples[1].rows[0].scheduler_apps_pending, 2);
  EXPECT_EQ(run->samples[1].rows[1].scheduler_apps_pending, -1) << "users have none";
  EXPECT_EQ(run->samples[1].rows[1].user, "u");
  EXPECT_EQ(run->samples[1].rows[1].memory_mb, 1024);
  EXPECT_EQ(run->samples[1].rows[1].preempted, 1);
  EXPECT_FALSE(run->samples[0].jobs_counted) << "no \"jobs\" key";
  ASSERT_TRUE(run->samples[1].jobs_counted);
  ASSERT_EQ(run->samples[1].jobs.size(), 1u);
  EXPECT_EQ(run->samples[1].jobs[0].job, "job_1");
  EXPECT_EQ(run->samples[1].jobs[0].memory_mb, 1024);
}

TEST(TenantCompareTest, RefusesWhatIsNotACellReport) {
  EXPECT_EQ(ParseTenantRun("x", "{\"title\": 1}").status().code(), Status::Code::kCorruption);
  EXPECT_EQ(ParseTenantRun("x", Report("", {}, -1)).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_FALSE(ParseTenantRun("x", "{").ok());
  EXPECT_EQ(ReadTenantRun("/nonexistent/report.json").status().code(), Status::Code::kNotFound);
}

TEST(TenantCompareTest, FiguresPerTenantAndTheirDifference) {
  auto a = ParseTenantRun("java.json", Report("java", {0, 1000, 3000, 3000}, 2));
  auto b = ParseTenantRun("spindle.json", Report("spindle", {0, 2000, 2000, 4000}, 0));
  ASSERT_TRUE(a.ok() && b.ok());
  const auto rows = CompareTenants(*a, *b);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].user, "");
  EXPECT_EQ(rows[1].user, "u");
  const TenantComparison& u = rows[1];
  EXPECT_DOUBLE_EQ(u.a.mean_memory_mb, 7000.0 / 4);
  EXPECT_DOUBLE_EQ(u.b.mean_memory_mb, 8000.0 / 4);
  // The second half: samples at 20 and 30 s of a 30 s run (15 s on).
  EXPECT_DOUBLE_EQ(u.a.late_mean_memory_mb, 3000);
  EXPECT_DOUBLE_EQ(u.b.late_mean_memory_mb, 3000);
  // Its queue's one user had an application in every sample.
  EXPECT_DOUBLE_EQ(u.a.contended_mean_memory_mb, 7000.0 / 4);
  EXPECT_EQ(u.a.peak_memory_mb, 3000);
  EXPECT_EQ(u.b.peak_memory_mb, 4000);
  EXPECT_EQ(u.a.preempted, 3);
  EXPECT_EQ(rows[0].a.max_scheduler_apps_pending, 2);
  EXPECT_EQ(rows[0].b.max_scheduler_apps_pending, 0);
  const std::string table = ToCompareTable(*a, *b, rows);
  EXPECT_NE(table.find("A: java.json (cell, java)"), std::string::npos) << table;
  EXPECT_NE(table.find("1 rejected"), std::string::npos) << table;
  EXPECT_NE(table.find("default/u"), std::string::npos) << table;
  EXPECT_NE(table.find("3000|4000|+1000"), std::string::npos) << table;
}

TEST(TenantCompareTest, ContendedMeansEveryUserOfTheQueueHadWork) {
  TenantRun run;
  run.name = "r";
  auto sample = [](double at, std::vector<TenantRow> rows) {
    TenantSample s;
    s.at_s = at;
    s.rows = std::move(rows);
    return s;
  };
  run.samples = {
      sample(0, {Row("q", "a", 4000, 1, 0)}),                          // b has no work yet
      sample(1, {Row("q", "a", 2000, 1, 0), Row("q", "b", 0, 0, 1)}),  // b pending counts
      sample(2, {Row("q", "a", 1000, 1, 0), Row("q", "b", 3000, 1, 0)}),
      sample(3, {Row("q", "b", 500, 1, 0)}),  // a done
  };
  const auto rows = CompareTenants(run, run);
  ASSERT_EQ(rows.size(), 2u) << "no queue rows in this run";
  EXPECT_EQ(rows[0].user, "a");
  EXPECT_DOUBLE_EQ(rows[0].a.contended_mean_memory_mb, 1500);
  EXPECT_DOUBLE_EQ(rows[1].a.contended_mean_memory_mb, 1500);
  TenantRun lonely;
  lonely.samples = {sample(0, {Row("q", "a", 1, 1, 0)}), sample(1, {Row("q", "b", 1, 1, 0)})};
  EXPECT_DOUBLE_EQ(CompareTenants(lonely, lonely)[0].a.contended_mean_memory_mb, -1);
}

TEST(TenantCompareTest, CsvAlignsBOnASampleTimes) {
  auto a = ParseTenantRun("a", Report("a", {100, 200, 300}, -1));
  auto b = ParseTenantRun("b", Report("b", {7, 8}, -1));
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string csv = ToCompareCsv(*a, *b);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "at_s,queue,user,a_memory_mb,b_memory_mb,a_apps_running,b_apps_running,"
            "a_apps_pending,b_apps_pending,a_preempted,b_preempted");
  EXPECT_NE(csv.find("\n10.000,default,u,200,8,1,1,1,1,1,1\n"), std::string::npos) << csv;
  // B ended at 10 s: its last sample stands for 20 s.
  EXPECT_NE(csv.find("\n20.000,default,u,300,8,1,1,1,1,2,1\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace spindle::replay
