#include "replay/driver/job_progress.h"

#include <gtest/gtest.h>

namespace spindle::replay {
namespace {

TraceStage Stage(const std::string& name, int tasks, std::vector<int32_t> parents = {}) {
  TraceStage s;
  s.name = name;
  s.parents = std::move(parents);
  s.tasks.resize(static_cast<size_t>(tasks));
  return s;
}

TEST(JobProgressTest, ReducesWaitForEveryMap) {
  TraceJob job;
  job.stages = {Stage("map", 2), Stage("reduce", 1, {0})};
  JobProgress p(&job);
  EXPECT_EQ(p.tasks(), 3);
  std::vector<TaskRef> ready;
  p.TakeReady(0, &ready);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0], (TaskRef{0, 0}));
  EXPECT_EQ(ready[1], (TaskRef{0, 1}));
  ready.clear();
  p.TakeReady(1000, &ready);
  EXPECT_TRUE(ready.empty()) << "handed out once only";
  EXPECT_TRUE(p.OnFinished({0, 0}));
  p.TakeReady(1000, &ready);
  EXPECT_TRUE(ready.empty()) << "one map still runs";
  EXPECT_TRUE(p.OnFinished({0, 1}));
  p.TakeReady(1000, &ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], (TaskRef{1, 0}));
  EXPECT_FALSE(p.done());
  EXPECT_TRUE(p.OnFinished({1, 0}));
  EXPECT_TRUE(p.done());
}

TEST(JobProgressTest, FinishingTwiceOrUnknownChangesNothing) {
  TraceJob job;
  job.stages = {Stage("a", 1), Stage("b", 1, {0})};
  JobProgress p(&job);
  EXPECT_FALSE(p.OnFinished({0, 0})) << "not handed out yet";
  std::vector<TaskRef> ready;
  p.TakeReady(0, &ready);
  EXPECT_TRUE(p.OnFinished({0, 0}));
  EXPECT_FALSE(p.OnFinished({0, 0}));
  EXPECT_FALSE(p.OnFinished({5, 0}));
  EXPECT_FALSE(p.OnFinished({0, 7}));
  EXPECT_EQ(p.finished(), 1);
}

TEST(JobProgressTest, SubmitOffsetsGateTasksInTime) {
  TraceJob job;
  job.stages = {Stage("tasks", 3)};
  job.stages[0].tasks[0].submit_offset_ms = 500;
  job.stages[0].tasks[1].submit_offset_ms = 0;
  job.stages[0].tasks[2].submit_offset_ms = 200;
  JobProgress p(&job);
  std::vector<TaskRef> ready;
  p.TakeReady(0, &ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].task, 1);
  EXPECT_EQ(p.NextOffsetMs(), 200);
  p.TakeReady(499, &ready);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[1].task, 2);
  EXPECT_EQ(p.NextOffsetMs(), 500);
  p.TakeReady(500, &ready);
  EXPECT_EQ(ready.size(), 3u);
  EXPECT_EQ(p.NextOffsetMs(), -1);
}

TEST(JobProgressTest, DiamondAndEmptyStages) {
  // 0 -> {1 (empty), 2} -> 3
  TraceJob job;
  job.stages = {Stage("M1", 1), Stage("M2_1", 0, {0}), Stage("M3_1", 1, {0}),
                Stage("R4_2_3", 1, {1, 2})};
  JobProgress p(&job);
  std::vector<TaskRef> ready;
  p.TakeReady(0, &ready);
  ASSERT_EQ(ready.size(), 1u);
  ASSERT_TRUE(p.OnFinished(ready[0]));
  ready.clear();
  p.TakeReady(0, &ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].stage, 2) << "the empty stage completes at once";
  ASSERT_TRUE(p.OnFinished(ready[0]));
  ready.clear();
  p.TakeReady(0, &ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].stage, 3);
}

}  // namespace
}  // namespace spindle::replay
