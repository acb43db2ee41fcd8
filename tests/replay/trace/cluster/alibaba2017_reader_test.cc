#include "replay/trace/cluster/alibaba2017_reader.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using testing_files::Drain;
using testing_files::Drained;
using testing_files::Dropped;
using testing_files::WriteFile;

// create_time, end_time, job_id, task_id, instances, status, cpus, memory.
TEST(Alibaba2017ReaderTest, StagesPerTaskIndependent) {
  Alibaba2017Options options;
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
  EXPECT_EQ(j.stages[1].tasks[0].vcores, 1);  // 0.5 rounds to 1 (and the minimum)
  EXPECT_EQ(Dropped((*reader)->stats(), "job has a task with no end in the trace"), 1);
}

TEST(Alibaba2017ReaderTest, BadFieldsNameLineAndField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x,160,7,1,3,Terminated,2,0.25\n",
       "bad.csv:1: field 1 (create_time): 'x' is not an integer"},
      {"100,160,7,1,3,Terminated,2,1.5\n",
       "bad.csv:1: field 8 (normalised memory): not within 0..1"},
      {"100,160,7,1,3,Terminated,two,0.5\n",
       "bad.csv:1: field 7 (cpus per instance): 'two' is not a number"},
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
