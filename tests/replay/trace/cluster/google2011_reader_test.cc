#include "replay/trace/cluster/google2011_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

const std::string kDir = std::string(SPINDLE_SHARED_DIR) + "/traces/google-2011/";
const std::string kTasks = kDir + "task_events-part-00001-of-00500.csv.gz";
const std::string kJobs = kDir + "job_events-part-00001-of-00500.csv.gz";

using testing_files::Drain;
using testing_files::Drained;
using testing_files::Dropped;
using testing_files::WriteFile;

// Figures computed independently of the reader with zcat | awk over the
// task events (a run opens at SUBMIT, ends at event 2..6):
//   zcat task_events-part-00001-of-00500.csv.gz | awk -F, '
//     {k=$3" "$4} $6==0 {if (k in seen) resub++; seen[k]; open[k]; s[k]=0}
//     $6==1 && (k in open) {s[k]=1}
//     $6>=2 && $6<=6 {if (k in open) {runs++; if (!s[k]) u++; delete open[k]}
//                     else before++}
//     END {for (k in open) n++; print runs, u, before, resub, n}'
//   -> 18529 runs, 10 without SCHEDULE, 7194 ends of runs submitted before
//      the slice, 5683 re-submissions, 7293 runs open at the end; 25,822
//      SUBMITs = 18529 + 7293 (no SUBMIT repeats an open run); 967 jobs
//      have an ended run.
TEST(Google2011ReaderTest, SampleSliceFiguresWithoutJobEvents) {
  Google2011Options options;
  options.task_events = {kTasks};
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  // The slice's first job has a run that never ends in it: with the
  // default max_hold_ms (6 h, longer than the slice) every job waits for
  // the end of the slice.
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  EXPECT_EQ((*reader)->Progress(), 1.0);
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.lines, 77776);
  EXPECT_EQ(stats.skipped, 0);
  EXPECT_EQ(Dropped(stats, "task submitted before the trace slice"), 7194);
  EXPECT_EQ(Dropped(stats, "task never ended in the trace slice"), 7293);
  EXPECT_EQ(Dropped(stats, "task re-submitted without an end event"), 0);
  const int64_t late = Dropped(stats, "task submitted after its job was returned");
  EXPECT_EQ(stats.tasks + late, 18529);
  EXPECT_EQ((*reader)->counters().unscheduled_runs, 10);
  EXPECT_EQ(stats.jobs, static_cast<int64_t>(all.jobs.size()));
  for (size_t i = 1; i < all.jobs.size(); ++i) {
    ASSERT_LE(all.jobs[i - 1].arrival_ms, all.jobs[i].arrival_ms) << i;
  }
  // The slice opens with an end event at 5611824441 us; its first SUBMIT is
  // at 5612587446 us (zcat | awk -F, '$6==0' | head -1).
  EXPECT_EQ(all.jobs.front().arrival_ms, 763);
  // ~83.5 minutes of trace.
  EXPECT_LT(all.jobs.back().arrival_ms, 84 * 60 * 1000);
  EXPECT_GT(all.jobs.back().arrival_ms, 60 * 60 * 1000);
}

// With a 10-minute hold the reader streams: the first job comes out with
// most of the slice unread, and the runs open after 10 minutes are counted.
TEST(Google2011ReaderTest, MaxHoldStreamsTheSample) {
  Google2011Options options;
  options.task_events = {kTasks};
  options.max_hold_ms = 10 * 60 * 1000;
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok());
  TraceJob first;
  ASSERT_TRUE(*(*reader)->Next(&first));
  // (Progress() counts compressed bytes read in 1 MiB chunks: the whole
  // 0.9 MB part at once; lines tell.)
  EXPECT_GT((*reader)->Progress(), 0);
  EXPECT_LT((*reader)->stats().lines, 77776 / 4);
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok());
  const ReadStats& stats = (*reader)->stats();
  const int64_t held = Dropped(stats, "task still running max_hold_ms after its job arrived");
  EXPECT_GT(held, 0);
  EXPECT_GT((*reader)->counters().jobs_closed_by_hold, 0);
  // Every SUBMIT is still accounted for: returned, or dropped for a reason.
  EXPECT_EQ(stats.tasks + held + Dropped(stats, "task never ended in the trace slice") +
                Dropped(stats, "task submitted after its job was returned"),
            25822);
  for (size_t i = 1; i < all.jobs.size(); ++i) {
    ASSERT_LE(all.jobs[i - 1].arrival_ms, all.jobs[i].arrival_ms) << i;
  }
}

TEST(Google2011ReaderTest, SampleSliceWithJobEventsKeepsTheSameRuns) {
  Google2011Options options;
  options.task_events = {kTasks};
  options.job_events = {kJobs};
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  const ReadStats& stats = (*reader)->stats();
  // 77,776 task events + job events (zcat job_events... | wc -l: 3,099).
  EXPECT_EQ(stats.lines, 77776 + 3099);
  // Jobs wait for their job end event, so no run comes after its job.
  EXPECT_EQ(Dropped(stats, "task submitted after its job was returned"), 0);
  EXPECT_EQ(stats.tasks, 18529);
  EXPECT_EQ(Dropped(stats, "task never ended in the trace slice"), 7293);
  for (size_t i = 1; i < all.jobs.size(); ++i) {
    ASSERT_LE(all.jobs[i - 1].arrival_ms, all.jobs[i].arrival_ms) << i;
  }
  // Resources: normalised x the default node shape (65536 MB, 32 vcores).
  for (const TraceJob& job : all.jobs) {
    ASSERT_EQ(job.stages.size(), 1u);
    for (const TraceTask& t : job.stages[0].tasks) {
      ASSERT_GE(t.memory_mb, 1);
      ASSERT_LE(t.memory_mb, 65536);
      ASSERT_GE(t.vcores, 1);
      ASSERT_LE(t.vcores, 32);
      ASSERT_GT(t.duration_ms, 0);
      ASSERT_GE(t.submit_offset_ms, 0);
    }
  }
}

// A hand-made slice: columns as the 2011 schema (13 task, 8 job fields).
std::string TaskEvent(int64_t ts, int64_t job, int64_t task, int type, const std::string& cpu,
                      const std::string& mem, int prio = 2) {
  return std::to_string(ts) + ",," + std::to_string(job) + "," + std::to_string(task) + ",m1," +
         std::to_string(type) + ",userA,0," + std::to_string(prio) + "," + cpu + "," + mem +
         ",0.001,0\n";
}

TEST(Google2011ReaderTest, RunsDurationsResourcesAndOrder) {
  std::string t;
  t += TaskEvent(1'000'000, 7, 0, 0, "0.5", "0.25", 9);  // job 7 arrives at 0 ms
  t += TaskEvent(1'500'000, 8, 0, 0, "0.01", "");        // job 8 at 500 ms; memory missing
  t += TaskEvent(2'000'000, 7, 0, 1, "", "");            // scheduled at 1000 ms
  t += TaskEvent(3'000'000, 7, 1, 0, "0.1", "0.1");      // second task, offset 2000 ms
  t += TaskEvent(3'500'000, 8, 0, 5, "", "");            // killed pending: SUBMIT -> end
  t += TaskEvent(4'000'000, 7, 0, 2, "", "");            // evicted after 2 s
  t += TaskEvent(4'000'000, 7, 0, 0, "0.5", "0.5");      // re-submitted: a second run
  t += TaskEvent(4'200'000, 9, 3, 4, "0.1", "0.1");      // submitted before the slice
  t += TaskEvent(5'000'000, 7, 0, 1, "", "");
  t += TaskEvent(6'000'000, 7, 1, 1, "", "");
  t += TaskEvent(9'000'000, 7, 0, 4, "", "");         // run 2: 4 s
  t += TaskEvent(9'000'000, 7, 1, 4, "", "");         // 3 s
  t += TaskEvent(9'500'000, 10, 0, 0, "0.1", "0.1");  // never ends
  Google2011Options options;
  options.task_events = {WriteFile("runs.csv", t)};
  ReadOptions read;
  read.node_memory_mb = 1000;
  read.node_vcores = 10;
  auto reader = Google2011Reader::Open(options, read);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  // Job 8 completed first but arrived after job 7: returned after it.
  const TraceJob& j7 = all.jobs[0];
  EXPECT_EQ(j7.id, "7");
  EXPECT_EQ(j7.arrival_ms, 0);
  EXPECT_EQ(j7.user, "userA");
  EXPECT_EQ(j7.priority, 9);
  ASSERT_EQ(j7.stages.size(), 1u);
  ASSERT_EQ(j7.stages[0].tasks.size(), 3u);
  const auto& run1 = j7.stages[0].tasks[0];  // evicted run of task 0
  EXPECT_EQ(run1.duration_ms, 2000);
  EXPECT_EQ(run1.submit_offset_ms, 0);
  EXPECT_EQ(run1.vcores, 5);
  EXPECT_EQ(run1.memory_mb, 250);
  const auto& run2 = j7.stages[0].tasks[1];  // task 0's second run... or task 1
  const auto& run3 = j7.stages[0].tasks[2];
  // Both end at 9 s; order among equal timestamps is the file's.
  EXPECT_EQ(run2.duration_ms, 4000);
  EXPECT_EQ(run2.submit_offset_ms, 3000);
  EXPECT_EQ(run2.memory_mb, 500);
  EXPECT_EQ(run3.duration_ms, 3000);
  EXPECT_EQ(run3.submit_offset_ms, 2000);
  EXPECT_EQ(run3.vcores, 1);
  EXPECT_EQ(run3.memory_mb, 100);
  const TraceJob& j8 = all.jobs[1];
  EXPECT_EQ(j8.arrival_ms, 500);
  ASSERT_EQ(j8.task_count(), 1);
  EXPECT_EQ(j8.stages[0].tasks[0].duration_ms, 2000);  // SUBMIT 1.5 s -> KILL 3.5 s
  EXPECT_EQ(j8.stages[0].tasks[0].memory_mb, 1);       // missing: the minimum
  EXPECT_EQ(j8.stages[0].tasks[0].vcores, 1);          // 0.01 x 10 rounds to 0: the minimum

  const auto& c = (*reader)->counters();
  EXPECT_EQ(c.resubmissions, 1);
  EXPECT_EQ(c.unscheduled_runs, 1);
  EXPECT_EQ(c.missing_requests, 1);
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.jobs, 2);
  EXPECT_EQ(stats.tasks, 4);
  EXPECT_EQ(stats.lines, 13);
  EXPECT_EQ(Dropped(stats, "task submitted before the trace slice"), 1);
  EXPECT_EQ(Dropped(stats, "task never ended in the trace slice"), 1);
  EXPECT_EQ(Dropped(stats, "job has no task run in the slice"), 1);  // job 10
}

TEST(Google2011ReaderTest, OpenRunsCanEndAtTheTraceEnd) {
  std::string t = TaskEvent(1'000'000, 1, 0, 0, "0.1", "0.1") +
                  TaskEvent(2'000'000, 1, 0, 1, "", "") +
                  TaskEvent(7'000'000, 2, 0, 0, "0.1", "0.1");
  Google2011Options options;
  options.task_events = {WriteFile("open.csv", t)};
  options.end_open_runs_at_trace_end = true;
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok());
  ASSERT_EQ(all.jobs.size(), 2u);
  EXPECT_EQ(all.jobs[0].stages[0].tasks[0].duration_ms, 5000);  // SCHEDULE 2 s -> end 7 s
  EXPECT_EQ(all.jobs[1].stages[0].tasks[0].duration_ms, 1);     // SUBMIT at the end itself
  EXPECT_EQ((*reader)->counters().ended_at_trace_end, 2);
}

TEST(Google2011ReaderTest, JobEventsSetArrivalAndHoldJobsUntilTheirEnd) {
  // Job 5's task ends at 2 s, then a second task comes at 3 s; its job end
  // event at 4 s completes it. Without job events job 5 is complete from
  // 2 s, returned once the event at 2.5 s is read, and its second task is
  // "submitted after its job was returned".
  std::string t =
      TaskEvent(1'000'000, 5, 0, 0, "0.1", "0.1") + TaskEvent(2'000'000, 5, 0, 4, "", "") +
      TaskEvent(2'500'000, 4, 0, 4, "", "") + TaskEvent(3'000'000, 5, 1, 0, "0.1", "0.1") +
      TaskEvent(4'000'000, 5, 1, 4, "", "") + TaskEvent(5'000'000, 6, 0, 0, "0.1", "0.1") +
      TaskEvent(6'000'000, 6, 0, 4, "", "");
  std::string j =
      "500000,,5,0,userJ,0,n,l\n4000000,,5,4,userJ,0,n,l\n"
      "5000000,,6,0,userJ,0,n,l\n6000000,,6,4,userJ,0,n,l\n";
  Google2011Options options;
  options.task_events = {WriteFile("held-tasks.csv", t)};
  options.job_events = {WriteFile("held-jobs.csv", j)};
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok()) << all.status.ToString();
  ASSERT_EQ(all.jobs.size(), 2u);
  EXPECT_EQ(all.jobs[0].arrival_ms, 0);  // the job SUBMIT at 0.5 s is the origin
  EXPECT_EQ(all.jobs[0].user, "userJ");
  ASSERT_EQ(all.jobs[0].task_count(), 2);
  EXPECT_EQ(all.jobs[0].stages[0].tasks[0].submit_offset_ms, 500);
  EXPECT_EQ(all.jobs[0].stages[0].tasks[1].submit_offset_ms, 2500);
  EXPECT_EQ(all.jobs[1].arrival_ms, 4500);

  options.job_events.clear();
  reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok());
  all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok());
  EXPECT_EQ(all.jobs[0].task_count(), 1);
  EXPECT_EQ(Dropped((*reader)->stats(), "task submitted after its job was returned"), 1);
}

TEST(Google2011ReaderTest, MaxJobsAndMaxArrival) {
  std::string t;
  for (int k = 0; k < 10; ++k) {
    t += TaskEvent(1'000'000 + k * 1'000'000, 100 + k, 0, 0, "0.1", "0.1");
    t += TaskEvent(1'000'000 + k * 1'000'000 + 500'000, 100 + k, 0, 4, "", "");
  }
  Google2011Options options;
  options.task_events = {WriteFile("limits.csv", t)};
  ReadOptions read;
  read.max_jobs = 3;
  auto reader = Google2011Reader::Open(options, read);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(Drain(reader->get()).jobs.size(), 3u);
  read = ReadOptions();
  read.max_arrival_ms = 4000;  // jobs at 0, 1000, 2000, 3000 ms
  reader = Google2011Reader::Open(options, read);
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_EQ(all.jobs.size(), 4u);
  EXPECT_EQ(all.jobs.back().arrival_ms, 3000);
}

struct BadLine {
  std::string line;
  std::string message;
};

TEST(Google2011ReaderTest, BadFieldsNameFileLineAndField) {
  const std::string good = TaskEvent(1'000'000, 1, 0, 0, "0.1", "0.1");
  const std::vector<BadLine> cases = {
      {"1000001,,1,0,m,0,u,0,2,0.1,x,0.001,0\n",
       "bad.csv:2: field 11 (memory request): 'x' is not a number"},
      {"1000001,,1,0,m,0,u,0,2,abc,0.1,0.001,0\n",
       "bad.csv:2: field 10 (CPU request): 'abc' is not a number"},
      {"1000001,,1,0,m,12,u,0,2,0.1,0.1,0.001,0\n",
       "bad.csv:2: field 6 (event type): '12' is not 0..8"},
      {"1000001,,j1,0,m,0,u,0,2,0.1,0.1,0.001,0\n",
       "bad.csv:2: field 3 (job ID): 'j1' is not an integer"},
      {"1000001,,1,,m,0,u,0,2,0.1,0.1,0.001,0\n",
       "bad.csv:2: field 4 (task index): missing (empty)"},
      {"1000001,,1,0,m,0,,0,2,0.1,0.1,0.001,0\n", "bad.csv:2: field 7 (user): missing (empty)"},
      {"1000001,,1,0,m,0,u,0,2,0.1,0.1\n", "bad.csv:2: expected 13 fields, found 11"},
      {"999999,,1,0,m,0,u,0,2,0.1,0.1,0.001,0\n",
       "bad.csv:2: field 1 (timestamp): 999999 is earlier than the previous event's 1000000 "
       "(events must be time-sorted)"},
      {"1000001,,1,0,m,0,u,0,2,-0.1,0.1,0.001,0\n", "bad.csv:2: field 10 (CPU request): negative"},
  };
  for (const BadLine& c : cases) {
    Google2011Options options;
    options.task_events = {WriteFile("bad.csv", good + c.line)};
    auto reader = Google2011Reader::Open(options, ReadOptions());
    ASSERT_TRUE(reader.ok());
    Drained all = Drain(reader->get());
    ASSERT_FALSE(all.status.ok()) << c.line;
    EXPECT_EQ(all.status.code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(all.status.message(), c.message);
  }
  // A bad job_events line names its own file and field.
  Google2011Options options;
  options.task_events = {WriteFile("bad.csv", good)};
  options.job_events = {WriteFile("badjobs.csv", "1000000,,1,zero,u,0,n,l\n")};
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_FALSE(reader.ok());  // the first line is read when opening
  EXPECT_EQ(reader.status().message(),
            "badjobs.csv:1: field 4 (event type): 'zero' is not an integer");
}

TEST(Google2011ReaderTest, SkipBadCountsAndKeepsExamples) {
  std::string t = TaskEvent(1'000'000, 1, 0, 0, "0.1", "0.1");
  for (int i = 0; i < 7; ++i) t += "1000001,,1,0,m,0,u,0,2,0.1,x,0.001,0\n";
  t += TaskEvent(2'000'000, 1, 0, 4, "", "");
  Google2011Options options;
  options.task_events = {WriteFile("skip.csv", t)};
  ReadOptions read;
  read.skip_bad = true;
  read.max_examples = 3;
  auto reader = Google2011Reader::Open(options, read);
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_TRUE(all.status.ok());
  ASSERT_EQ(all.jobs.size(), 1u);
  EXPECT_EQ(all.jobs[0].stages[0].tasks[0].duration_ms, 1000);
  const ReadStats& stats = (*reader)->stats();
  EXPECT_EQ(stats.skipped, 7);
  EXPECT_EQ(stats.lines, 9);
  ASSERT_EQ(stats.examples.size(), 3u);
  EXPECT_EQ(stats.examples[0], "skip.csv:2: field 11 (memory request): 'x' is not a number");
  EXPECT_EQ(stats.examples[2], "skip.csv:4: field 11 (memory request): 'x' is not a number");
}

TEST(Google2011ReaderTest, TruncatedGzipIsCorruptionNamingTheFile) {
  std::ifstream in(kTasks, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 500'000u);
  Google2011Options options;
  options.task_events = {WriteFile("cut-task-events.csv.gz", bytes.substr(0, 500'000))};
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_TRUE(reader.ok());
  Drained all = Drain(reader->get());
  ASSERT_FALSE(all.status.ok());
  EXPECT_EQ(all.status.code(), Status::Code::kCorruption);
  EXPECT_NE(all.status.message().find("cut-task-events.csv.gz"), std::string::npos);
  // Even with skip_bad: a broken stream is not a bad record.
  ReadOptions read;
  read.skip_bad = true;
  reader = Google2011Reader::Open(options, read);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(Drain(reader->get()).status.code(), Status::Code::kCorruption);
}

TEST(Google2011ReaderTest, OptionsAreValidated) {
  Google2011Options options;
  auto reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("task_events"), std::string::npos);
  options.task_events = {testing::TempDir() + "missing.csv.gz"};
  reader = Google2011Reader::Open(options, ReadOptions());
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(reader.status().IsNotFound());
}

}  // namespace
}  // namespace spindle::replay
