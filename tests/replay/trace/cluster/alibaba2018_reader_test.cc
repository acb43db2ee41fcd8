#include "replay/trace/cluster/alibaba2018_reader.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using testing_files::Drain;
using testing_files::Drained;
using testing_files::Dropped;
using testing_files::WriteFile;

// task_name, instance_num, job_name, task_type, status, start_time,
// end_time, plan_cpu, plan_mem.
const char kDag[] =
    "M1,4,j_1,1,Terminated,100,110,100,0.5\n"
    "M2,2,j_1,1,Terminated,101,105,50,1\n"
    "R3_1_2,1,j_1,2,Terminated,111,120,200,50\n"
    "task_Nzg3ODAw,3,j_1,1,Terminated,130,131,100,0.5\n"
    "J4_3,1,j_1,3,Terminated,121,121,100,0.5\n"
    "M1,1,j_2,1,Terminated,50,60,100,0.5\n";

Result<std::unique_ptr<Alibaba2018Reader>> OpenText(const std::string& name,
                                                    const std::string& text,
                                                    ReadOptions read = ReadOptions(),
                                                    int64_t window = 100) {
  Alibaba2018Options options;
  options.batch_task = WriteFile(name, text);
  options.sort_window_jobs = window;
  read.node_memory_mb = 10000;
  return Alibaba2018Reader::Open(options, read);
}

TEST(Alibaba2018ReaderTest, DagStagesResourcesAndArrivalOrder) {
  auto reader = OpenText("dag.csv", kDag);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  // j_2 starts at 50 s, before j_1 (100 s): the window reorders them.
  EXPECT_EQ(all.jobs[0].id, "j_2");
  EXPECT_EQ(all.jobs[0].arrival_ms, 50'000);
  const TraceJob& j = all.jobs[1];
  EXPECT_EQ(j.id, "j_1");
  EXPECT_EQ(j.arrival_ms, 100'000);
  ASSERT_EQ(j.stages.size(), 5u);
  // Topological, file order among the ready stages: R3_1_2 (line 3) is
  // ready once M2 is placed, before task_... (line 4).
  EXPECT_EQ(j.stages[0].name, "M1");
  EXPECT_EQ(j.stages[1].name, "M2");
  EXPECT_EQ(j.stages[2].name, "R3_1_2");
  EXPECT_EQ(j.stages[3].name, "task_Nzg3ODAw");
  EXPECT_EQ(j.stages[4].name, "J4_3");
  EXPECT_TRUE(j.stages[0].parents.empty());
  EXPECT_TRUE(j.stages[3].parents.empty());
  EXPECT_EQ(j.stages[2].parents, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(j.stages[4].parents, (std::vector<int32_t>{2}));
  ASSERT_EQ(j.stages[0].tasks.size(), 4u);
  EXPECT_EQ(j.stages[0].tasks[0].duration_ms, 10'000);
  EXPECT_EQ(j.stages[0].tasks[0].vcores, 1);
  EXPECT_EQ(j.stages[0].tasks[0].memory_mb, 50);  // 0.5 of 100 of 10000 MB
  EXPECT_EQ(j.stages[0].tasks[0].submit_offset_ms, 0);
  EXPECT_EQ(j.stages[1].tasks[0].vcores, 1);  // 50 -> 0.5 core -> the minimum 1
  EXPECT_EQ(j.stages[1].tasks[0].submit_offset_ms, 1000);
  EXPECT_EQ(j.stages[3].tasks.size(), 3u);
  EXPECT_EQ(j.stages[3].tasks[0].submit_offset_ms, 30'000);
  EXPECT_EQ(j.stages[2].tasks[0].vcores, 2);
  EXPECT_EQ(j.stages[2].tasks[0].memory_mb, 5000);
  EXPECT_EQ(j.stages[2].tasks[0].submit_offset_ms, 0);  // gated by parents
  EXPECT_EQ(j.stages[4].tasks[0].duration_ms, 1);       // start == end
  EXPECT_EQ(j.task_count(), 11);
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.lines, 6);
  EXPECT_EQ(stats.jobs, 2);
  EXPECT_EQ(stats.tasks, 12);
  EXPECT_EQ((*reader)->Describe(), "alibaba-2018 dag.csv");
  EXPECT_EQ((*reader)->Progress(), 1.0);
}

TEST(Alibaba2018ReaderTest, ChildListedBeforeItsParentComesAfterIt) {
  auto reader = OpenText("reverse.csv",
                         "R2_1,1,j_9,1,Terminated,20,30,100,1\n"
                         "M1,1,j_9,1,Terminated,10,20,100,1\n");
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 1u);
  EXPECT_EQ(all.jobs[0].stages[0].name, "M1");
  EXPECT_EQ(all.jobs[0].stages[1].parents, (std::vector<int32_t>{0}));
  EXPECT_EQ(all.jobs[0].arrival_ms, 10'000);
}

struct BadCase {
  std::string text;
  std::string message;
};

TEST(Alibaba2018ReaderTest, BadFieldsAndDagsNameLineAndField) {
  const std::vector<BadCase> cases = {
      {"M1,1,j_1,1,Terminated,10,20,100,1\nM2_7,1,j_1,1,Terminated,20,30,100,1\n",
       "bad.csv:2: field 1 (task_name): parent 7 of 'M2_7' names no task of job j_1"},
      {"M1,1,j_1,1,Terminated,10,20,100,1\nM1_1,1,j_1,1,Terminated,20,30,100,1\n",
       "bad.csv:2: field 1 (task_name): task number 1 is used twice in job j_1"},
      {"M1_2,1,j_1,1,Terminated,10,20,100,1\nM2_1,1,j_1,1,Terminated,20,30,100,1\n",
       "bad.csv:1: field 1 (task_name): 'M1_2' is in a dependency cycle of job j_1"},
      {"M3_x,1,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:1: field 1 (task_name): 'M3_x' is not a DAG name (letters, number, _parents)"},
      {"M3_3,1,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:1: field 1 (task_name): 'M3_3' names itself as its parent"},
      {"M1,x,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:1: field 2 (instance_num): 'x' is not an integer"},
      {"M1,0,j_1,1,Terminated,10,20,100,1\n", "bad.csv:1: field 2 (instance_num): must be >= 1"},
      // The fuzzer's out-of-memory case: a count the file chooses.
      {"M1,999999999999999,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:1: field 2 (instance_num): the job would have more than 1000000 tasks (the "
       "reader's limit; raise it with --max-tasks-per-job)"},
      {"M1,999999,j_1,1,Terminated,10,20,100,1\nM2,2,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:2: field 2 (instance_num): the job would have more than 1000000 tasks (the "
       "reader's limit; raise it with --max-tasks-per-job)"},
      {"M1,1,j_1,1,Terminated,ten,20,100,1\n",
       "bad.csv:1: field 6 (start_time): 'ten' is not an integer"},
      {"M1,1,j_1,1,Terminated,10,,100,1\n", "bad.csv:1: field 7 (end_time): missing (empty)"},
      {"M1,1,j_1,1,Terminated,10,20,1c,1\n", "bad.csv:1: field 8 (plan_cpu): '1c' is not a number"},
      {"M1,1,j_1,1,Terminated,10,20,100,101\n", "bad.csv:1: field 9 (plan_mem): not within 0..100"},
      {"M1,1,,1,Terminated,10,20,100,1\n", "bad.csv:1: field 3 (job_name): missing (empty)"},
      {"M1,1,j_1,1,Terminated,10,20,100\n", "bad.csv:1: expected 9 fields, found 8"},
      {"M1,1,j_1,1,Terminated,10,20,100,1\nM1,1,j_2,1,Terminated,10,20,100,1\n"
       "M2,1,j_1,1,Terminated,10,20,100,1\n",
       "bad.csv:3: field 3 (job_name): job 'j_1' reappears after other jobs' rows (a job's rows "
       "must be contiguous; sort the file by this field)"},
  };
  for (const BadCase& c : cases) {
    auto reader = OpenText("bad.csv", c.text);
    ASSERT_TRUE(reader.ok());
    Drained all = Drain(reader->get());
    ASSERT_FALSE(all.status.ok()) << c.text;
    EXPECT_EQ(all.status.code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(all.status.message(), c.message);
  }
}

TEST(Alibaba2018ReaderTest, SkipBadSkipsTheWholeJob) {
  ReadOptions read;
  read.skip_bad = true;
  auto reader = OpenText("skip.csv",
                         "M1,1,j_1,1,Terminated,10,20,100,1\n"
                         "M2_9,1,j_1,1,Terminated,20,30,100,1\n"  // bad parent: j_1 skipped
                         "M1,1,j_2,1,Terminated,10,20,100,x\n"    // bad field: j_2 skipped
                         "M1,1,j_3,1,Running,10,0,100,1\n"        // never ended: dropped
                         "M1,1,j_4,1,Terminated,12,20,100,1\n"
                         "bad-line\n"                            // skipped alone
                         "M1,1,j_1,1,Terminated,10,20,100,1\n",  // j_1 again: skipped alone
                         read);
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 1u);
  EXPECT_EQ(all.jobs[0].id, "j_4");
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.skipped, 4);
  EXPECT_EQ(stats.lines, 7);
  EXPECT_EQ(Dropped(stats, "job has a task with no end in the trace"), 1);
  ASSERT_EQ(stats.examples.size(), 4u);
  EXPECT_EQ(stats.examples[0],
            "skip.csv:2: field 1 (task_name): parent 9 of 'M2_9' names no task of job j_1");
  EXPECT_EQ(stats.examples[1], "skip.csv:3: field 9 (plan_mem): 'x' is not a number");
  EXPECT_EQ(stats.examples[2], "skip.csv:6: expected 9 fields, found 1");
}

TEST(Alibaba2018ReaderTest, DisorderBeyondTheWindowIsAnError) {
  // Window of 1 job: j_a (100 s) is released once j_b is read; j_c (50 s)
  // then cannot be put before it.
  const std::string text =
      "M1,1,j_a,1,Terminated,100,110,100,1\n"
      "M1,1,j_b,1,Terminated,200,210,100,1\n"
      "M1,1,j_c,1,Terminated,50,60,100,1\n";
  auto reader = OpenText("window.csv", text, ReadOptions(), 1);
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_FALSE(all.status.ok());
  EXPECT_NE(all.status.message().find("window.csv:3: job j_c arrives at 50000 ms, before job "
                                      "j_a (100000 ms), already returned"),
            std::string::npos)
      << all.status.message();
  // A window of 2 holds all three.
  reader = OpenText("window.csv", text, ReadOptions(), 2);
  ASSERT_TRUE(reader.ok());
  all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok());
  ASSERT_EQ(all.jobs.size(), 3u);
  EXPECT_EQ(all.jobs[0].id, "j_c");
  EXPECT_EQ(all.jobs[1].id, "j_a");
  EXPECT_EQ(all.jobs[2].id, "j_b");
}

TEST(Alibaba2018ReaderTest, MaxJobsAndMaxArrival) {
  std::string text;
  for (int k = 0; k < 6; ++k) {
    text += "M1,1,j_" + std::to_string(k) + ",1,Terminated," + std::to_string(10 * k) + "," +
            std::to_string(10 * k + 5) + ",100,1\n";
  }
  ReadOptions read;
  read.max_jobs = 2;
  auto reader = OpenText("limits.csv", text, read);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(Drain(reader->get()).jobs.size(), 2u);
  read = ReadOptions();
  read.max_arrival_ms = 30'000;
  reader = OpenText("limits.csv", text, read);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(Drain(reader->get()).jobs.size(), 3u);
}

TEST(Alibaba2018ReaderTest, OptionsAreValidated) {
  Alibaba2018Options options;
  auto reader = Alibaba2018Reader::Open(options, ReadOptions());
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("batch_task"), std::string::npos);
  options.batch_task = WriteFile("empty.csv", "");
  options.sort_window_jobs = 0;
  reader = Alibaba2018Reader::Open(options, ReadOptions());
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("sort_window_jobs"), std::string::npos);
}

}  // namespace
}  // namespace spindle::replay
