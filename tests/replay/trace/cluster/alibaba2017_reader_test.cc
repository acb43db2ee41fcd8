#include "replay/trace/cluster/alibaba2017_reader.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using testing_files::Drain;
using testing_files::Drained;
using testing_files::Dropped;
using testing_files::WriteFile;

// create_time, end_time, job_id, task_id, instances, status, plan_cpu,
// plan_mem (plan_cpu in whole cores here: cpu_per_core 1).
TEST(Alibaba2017ReaderTest, StagesPerTaskIndependent) {
  Alibaba2017Options options;
  options.cpu_per_core = 1;
  options.batch_task = WriteFile("v2017.csv",
                                 "100,160,7,1,3,Terminated,2,0.25\n"
                                 "110,120,7,2,1,Terminated,0.5,0.5\n"
                                 "90,95,8,1,1,Terminated,1,0.1\n"
                                 "95,0,9,1,1,Running,1,0.1\n");
  ReadOptions read;
  read.node_memory_mb = 1000;
  auto reader = Alibaba2017Reader::Open(options, read);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  EXPECT_EQ(all.jobs[0].id, "8");
  EXPECT_EQ(all.jobs[0].arrival_ms, 90'000);
  const TraceJob& j = all.jobs[1];
  EXPECT_EQ(j.id, "7");
  EXPECT_EQ(j.arrival_ms, 100'000);
  ASSERT_EQ(j.stages.size(), 2u);
  EXPECT_EQ(j.stages[0].name, "1");
  EXPECT_TRUE(j.stages[1].parents.empty());
  ASSERT_EQ(j.stages[0].tasks.size(), 3u);
  EXPECT_EQ(j.stages[0].tasks[0].duration_ms, 60'000);
  EXPECT_EQ(j.stages[0].tasks[0].vcores, 2);
  EXPECT_EQ(j.stages[0].tasks[0].memory_mb, 250);
  EXPECT_EQ(j.stages[1].tasks[0].submit_offset_ms, 10'000);
  EXPECT_EQ(j.stages[1].tasks[0].vcores, 1);  // 0.5 rounds up to 1 (and the minimum)
  // Job 9's only task never ended: the task is dropped, then its job.
  EXPECT_EQ(Dropped((*reader)->stats(), kV2017TaskNoEnd), 1);
  EXPECT_EQ(Dropped((*reader)->stats(), kV2017JobEmpty), 1);
}

int64_t Adjusted(const ReadStats& stats, const std::string& reason) {
  for (const auto& [r, n] : stats.adjusted) {
    if (r == reason) return n;
  }
  return 0;
}

// The published file as it is: rows as trace_201708.md lays them out, with
// the published units (plan_cpu in hundredths of a core).
TEST(Alibaba2017ReaderTest, PublishedFileAsItIs) {
  Alibaba2017Options options;  // cpu_per_core 100: the default
  options.batch_task = WriteFile(
      "batch_task.csv",
      // An exported header line.
      "create_timestamp,modify_timestamp,job_id,task_id,instance_num,status,plan_cpu,plan_mem\n"
      // Job 4: a task still waiting (no request yet) beside one that ran.
      "6036,6046,4,6,452,Waiting,,\n"
      "6030,6100,4,7,2,Terminated,50,0.01600704061294748\n"
      // Job 15: created before the trace window (negative), 1.5 and 2 cores.
      "-20,40,15,64,1,Terminated,150,0.5\n"
      "10,40,15,65,1,Terminated,200,0.25\n"
      // Job 16: waiting only: nothing to replay.
      "7000,7010,16,70,3,Waiting,,\n");
  ReadOptions read;
  read.node_memory_mb = 1000;
  auto reader = Alibaba2017Reader::Open(options, read);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  const TraceJob& early = all.jobs[0];
  EXPECT_EQ(early.id, "15");
  EXPECT_EQ(early.arrival_ms, 0) << "clamped to the window's start";
  ASSERT_EQ(early.stages.size(), 2u);
  EXPECT_EQ(early.stages[0].tasks[0].duration_ms, 40'000);
  EXPECT_EQ(early.stages[0].tasks[0].vcores, 2);  // 150 hundredths: 1.5 cores, rounded up
  EXPECT_EQ(early.stages[0].tasks[0].memory_mb, 500);
  EXPECT_EQ(early.stages[1].tasks[0].vcores, 2);
  EXPECT_EQ(early.stages[1].tasks[0].submit_offset_ms, 10'000);
  const TraceJob& kept = all.jobs[1];
  EXPECT_EQ(kept.id, "4");
  ASSERT_EQ(kept.stages.size(), 1u) << "the waiting task is dropped, not its job";
  EXPECT_EQ(kept.stages[0].name, "7");
  EXPECT_EQ(kept.stages[0].tasks.size(), 2u);
  EXPECT_EQ(kept.stages[0].tasks[0].vcores, 1);  // half a core
  EXPECT_EQ(kept.stages[0].tasks[0].memory_mb, 16);
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(Dropped(stats, kV2017TaskWaiting), 2);
  EXPECT_EQ(Dropped(stats, kV2017JobEmpty), 1);
  EXPECT_EQ(Adjusted(stats, kV2017NegativeCreate), 1);
  EXPECT_EQ(Adjusted(stats, "header line (column names): passed over"), 1);
  EXPECT_EQ(stats.skipped, 0);
}

TEST(Alibaba2017ReaderTest, CpuUnitIsConfigurable) {
  const std::string file = WriteFile("batch_task.csv", "0,10,1,1,1,Terminated,50,0.1\n");
  for (const auto& [per_core, vcores] :
       std::vector<std::pair<double, int>>{{100, 1}, {1, 50}, {10, 5}}) {
    Alibaba2017Options options;
    options.batch_task = file;
    options.cpu_per_core = per_core;
    auto reader = Alibaba2017Reader::Open(options, ReadOptions());
    ASSERT_TRUE(reader.ok());
    Drained all = Drain(reader->get());
    ASSERT_EQ(all.jobs.size(), 1u);
    EXPECT_EQ(all.jobs[0].stages[0].tasks[0].vcores, vcores) << per_core;
  }
  Alibaba2017Options zero;
  zero.batch_task = file;
  zero.cpu_per_core = 0;
  EXPECT_FALSE(Alibaba2017Reader::Open(zero, ReadOptions()).ok());
}

// --skip-bad skips the record, not its job (v2017's tasks are independent).
TEST(Alibaba2017ReaderTest, SkipBadSkipsTheRowNotTheJob) {
  Alibaba2017Options options;
  options.batch_task = WriteFile("batch_task.csv",
                                 "0,10,1,1,1,Terminated,50,0.1\n"
                                 "0,10,1,2,1,Terminated,fifty,0.1\n"
                                 "5,20,1,3,2,Terminated,100,0.2\n");
  ReadOptions read;
  read.skip_bad = true;
  auto reader = Alibaba2017Reader::Open(options, read);
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 1u);
  ASSERT_EQ(all.jobs[0].stages.size(), 2u);
  EXPECT_EQ(all.jobs[0].stages[0].name, "1");
  EXPECT_EQ(all.jobs[0].stages[1].name, "3");
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.skipped, 1);
  ASSERT_EQ(stats.examples.size(), 1u);
  EXPECT_EQ(stats.examples[0], "batch_task.csv:2: field 7 (plan_cpu): 'fifty' is not a number");
}

// batch_instance.csv: start, end, job, task, machine, status, seq_no,
// total_seq_no, real cpu max/avg, real mem max/avg.
TEST(Alibaba2017ReaderTest, RunTimesComeFromBatchInstance) {
  Alibaba2017Options options;
  options.batch_task = WriteFile("batch_task.csv",
                                 // 3 instances, 2 runs recorded: the third reuses the first.
                                 "100,400,1,10,3,Terminated,100,0.1\n"
                                 // No run recorded: end - create.
                                 "100,130,1,11,1,Terminated,100,0.1\n"
                                 // Never ended, but its instance ran: the run.
                                 "200,0,2,20,1,Running,100,0.1\n");
  options.batch_instance = WriteFile("batch_instance.csv",
                                     "110,170,1,10,299,Terminated,1,1,1.5,0.29,1.0,1.2\n"
                                     "105,0,1,10,300,Failed,1,2,,,,\n"
                                     "120,125,1,10,301,Terminated,2,2,1.5,0.29,1.0,1.2\n"
                                     "76058,76058,,,769,Terminated,1,1,0.5,0.5,,\n"
                                     "-5,15,2,20,12,Terminated,1,1,,,,\n"
                                     "0,,1,10,686,Interrupted,1,1,,,,\n");
  auto reader = Alibaba2017Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_NE((*reader)->Describe().find("batch_instance.csv"), std::string::npos);
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  const TraceJob& j1 = all.jobs[0];
  ASSERT_EQ(j1.stages.size(), 2u);
  ASSERT_EQ(j1.stages[0].tasks.size(), 3u);
  EXPECT_EQ(j1.stages[0].tasks[0].duration_ms, 60'000);
  EXPECT_EQ(j1.stages[0].tasks[1].duration_ms, 5'000);
  EXPECT_EQ(j1.stages[0].tasks[2].duration_ms, 60'000);
  EXPECT_EQ(j1.stages[1].tasks[0].duration_ms, 30'000);
  const TraceJob& j2 = all.jobs[1];
  EXPECT_EQ(j2.stages[0].tasks[0].duration_ms, 15'000) << "start clamped to 0";
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(Adjusted(stats, kV2017FewerRuns), 1);
  EXPECT_EQ(Adjusted(stats, kV2017NoRuns), 1);
  EXPECT_EQ(Adjusted(stats,
                     "batch_instance.csv: instance rows without job_id or task_id (a known issue "
                     "of the trace): not matched to a task"),
            1);
  EXPECT_EQ(Adjusted(stats,
                     "batch_instance.csv: start_timestamp before the trace window (negative): "
                     "clamped to 0"),
            1);
}

TEST(Alibaba2017ReaderTest, BadFieldsNameLineAndField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x,160,7,1,3,Terminated,2,0.25\n",
       "bad.csv:1: field 1 (create_time): 'x' is not an integer"},
      {"100,160,7,1,3,Terminated,2,1.5\n", "bad.csv:1: field 8 (plan_mem): not within 0..1"},
      {"100,160,7,1,3,Terminated,two,0.5\n",
       "bad.csv:1: field 7 (plan_cpu): 'two' is not a number"},
      {"100,160,7,,3,Terminated,2,0.5\n", "bad.csv:1: field 4 (task_id): missing (empty)"},
      {"100,160,7,1,0,Terminated,2,0.5\n",
       "bad.csv:1: field 5 (number of instances): must be >= 1"},
      // A count the file chooses never becomes an allocation: the fuzzer's
      // out-of-memory case, and a job whose stages add up past the limit.
      {"100,160,7,1,999999999999999,Terminated,2,0.5\n",
       "bad.csv:1: field 5 (number of instances): the job would have more than 1000000 tasks "
       "(the reader's limit; raise it with --max-tasks-per-job)"},
      {"100,160,7,1,600000,Terminated,2,0.5\n100,160,7,2,400001,Terminated,2,0.5\n",
       "bad.csv:2: field 5 (number of instances): the job would have more than 1000000 tasks "
       "(the reader's limit; raise it with --max-tasks-per-job)"},
  };
  for (const auto& [text, message] : cases) {
    Alibaba2017Options options;
    options.batch_task = WriteFile("bad.csv", text);
    auto reader = Alibaba2017Reader::Open(options, ReadOptions());
    ASSERT_TRUE(reader.ok());
    Drained all = Drain(reader->get());
    ASSERT_FALSE(all.status.ok()) << text;
    EXPECT_EQ(all.status.message(), message);
  }
}

}  // namespace
}  // namespace spindle::replay
