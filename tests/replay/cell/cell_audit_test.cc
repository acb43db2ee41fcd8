#include "replay/cell/cell_audit.h"

#include <gtest/gtest.h>

#include <chrono>

namespace spindle::replay {
namespace {

using std::chrono::seconds;

bool Mentions(const std::vector<std::string>& violations, const std::string& words) {
  for (const auto& v : violations) {
    if (v.find(words) != std::string::npos) return true;
  }
  return false;
}

class CellAuditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TraceStage map;
    map.name = "map";
    map.tasks.resize(2);
    TraceStage reduce;
    reduce.name = "reduce";
    reduce.parents = {0};
    reduce.tasks.resize(1);
    job_.id = "job_1";
    job_.stages = {map, reduce};
  }
  TraceJob job_;
  std::vector<TraceNode> nodes_ = {{"n1", "/r", 1024, 1}, {"n2", "/r", 1024, 1}};
};

TEST_F(CellAuditTest, AGoodRunHasNoViolations) {
  CellAudit audit(nodes_);
  audit.AddJob(0, &job_);
  audit.OnStarted(0, {0, 0}, "n1", "c1", seconds(1));
  audit.OnStarted(0, {0, 1}, "n2", "c2", seconds(1));
  audit.OnEnded(0, {0, 0}, seconds(2));
  audit.OnEnded(0, {0, 1}, seconds(3));
  audit.OnStarted(0, {1, 0}, "n1", "c3", seconds(4));
  audit.OnEnded(0, {1, 0}, seconds(5));
  audit.OnQueueSample("q", 1024, 2048, seconds(5));
  EXPECT_TRUE(audit.violations().empty());
  ASSERT_EQ(audit.log().runs.size(), 3u);
  EXPECT_EQ(audit.log().runs[2].ended, seconds(5));
  EXPECT_EQ(audit.log().queue_peak_mb.at("q").first, 1024);
  EXPECT_EQ(audit.log().queue_peak_mb.at("q").second, 2048);
}

TEST_F(CellAuditTest, ReportsEachBrokenRule) {
  CellAudit audit(nodes_);
  audit.AddJob(0, &job_);
  audit.OnStarted(0, {0, 0}, "n9", "c1", seconds(1));
  EXPECT_TRUE(
      Mentions(audit.violations(), "job_1 map[0] ran on n9, a node the cell does not have"));
  audit.OnStarted(0, {0, 0}, "n1", "c2", seconds(1));
  EXPECT_TRUE(Mentions(audit.violations(), "job_1 map[0] ran twice"));
  audit.OnStarted(0, {1, 0}, "n1", "c3", seconds(2));
  EXPECT_TRUE(Mentions(audit.violations(), "job_1 reduce[0] started at 2.0"));
  EXPECT_TRUE(Mentions(audit.violations(), "before its parent stage map ended (0 of 2 tasks)"));
  audit.OnEnded(0, {0, 1}, seconds(3));
  EXPECT_TRUE(Mentions(audit.violations(), "job_1 map[1] ended without having started"));
  audit.OnQueueSample("q", 4096, 2048, seconds(3));
  audit.OnQueueSample("q", 4097, 2048, seconds(4));  // reported once per queue
  EXPECT_TRUE(Mentions(audit.violations(), "queue q held 4096 MB"));
  EXPECT_FALSE(Mentions(audit.violations(), "4097"));
  EXPECT_EQ(audit.log().queue_peak_mb.at("q").first, 4097);
  audit.OnUnfinished(0, 1);
  EXPECT_TRUE(Mentions(audit.violations(), "job_1 did not finish: 1 of 3 tasks ran"));
}

TEST_F(CellAuditTest, APreemptedTaskRunsAgainWithoutBeingTwice) {
  CellAudit audit(nodes_);
  audit.AddJob(0, &job_);
  audit.OnStarted(0, {0, 0}, "n1", "c1", seconds(1));
  audit.OnPreempted(0, {0, 0}, seconds(2));
  audit.OnStarted(0, {0, 0}, "n2", "c2", seconds(3));
  audit.OnEnded(0, {0, 0}, seconds(4));
  EXPECT_TRUE(audit.violations().empty()) << audit.violations().front();
  ASSERT_EQ(audit.log().runs.size(), 2u);
  EXPECT_EQ(audit.log().runs[0].ended, seconds(2));
  EXPECT_EQ(audit.log().runs[1].ended, seconds(4));
  audit.OnPreempted(0, {0, 1}, seconds(5));
  EXPECT_TRUE(Mentions(audit.violations(), "job_1 map[1] was preempted without having started"));
}

}  // namespace
}  // namespace spindle::replay
