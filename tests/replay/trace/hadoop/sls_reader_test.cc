#include "replay/trace/hadoop/sls_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay::hadoop {
namespace {

using namespace ::spindle::replay::testing_files;  // NOLINT(google-build-using-namespace)

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Status ReadError(const std::string& text, SlsReaderOptions o = {}) {
  const std::string path = WriteFile("trace.json", text);
  Result<std::unique_ptr<SlsReader>> r = SlsReader::Open(path, o);
  if (!r.ok()) return r.status();
  TraceJob job;
  while (true) {
    Result<bool> got = (*r)->Next(&job);
    if (!got.ok()) return got.status();
    if (!*got) return Status::OK();
  }
}

std::string Job(const std::string& id, int64_t start, const std::string& tasks) {
  return "{\"job.id\": \"" + id + "\", \"job.start.ms\": " + std::to_string(start) +
         ", \"job.tasks\": [" + tasks + "]}\n";
}
const char kTask[] =
    "{\"container.host\": \"/r1/n1\", \"container.start.ms\": 10, \"container.end.ms\": 30}";

TEST(SlsReaderTest, ReadsSharedSample) {
  Result<std::unique_ptr<SlsReader>> r = SlsReader::Open(SharedTrace("hadoop-sls/inputsls.json"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 2u);

  const TraceJob& j1 = jobs[0];
  EXPECT_EQ(j1.id, "job_1");
  EXPECT_EQ(j1.arrival_ms, 0);
  EXPECT_EQ(j1.queue, "sls_queue_1");
  EXPECT_EQ(j1.user, "default");
  ASSERT_EQ(j1.stages.size(), 1u);
  EXPECT_EQ(j1.stages[0].name, "map");
  EXPECT_EQ(j1.stages[0].priority, 20);
  EXPECT_TRUE(j1.stages[0].parents.empty());
  ASSERT_EQ(j1.stages[0].tasks.size(), 3u);
  std::vector<int64_t> durations;
  for (const TraceTask& t : j1.stages[0].tasks) durations.push_back(t.duration_ms);
  EXPECT_THAT(durations, ElementsAre(17043, 14928, 17843));
  EXPECT_THAT(j1.stages[0].tasks[1].preferred_nodes, ElementsAre("node3"));
  EXPECT_THAT(j1.stages[0].tasks[1].preferred_racks, ElementsAre("/default-rack"));
  EXPECT_EQ(j1.stages[0].tasks[0].memory_mb, 1024);
  EXPECT_EQ(j1.stages[0].tasks[0].vcores, 1);

  const TraceJob& j2 = jobs[1];
  EXPECT_EQ(j2.id, "job_2");
  EXPECT_EQ(j2.arrival_ms, 105204);
  EXPECT_EQ(j2.queue, "sls_queue_2");
  ASSERT_EQ(j2.stages.size(), 1u);
  ASSERT_EQ(j2.stages[0].tasks.size(), 2u);
  EXPECT_EQ(j2.stages[0].tasks[0].duration_ms, 22163);
  EXPECT_EQ(j2.stages[0].tasks[1].duration_ms, 19589);
  EXPECT_THAT(j2.stages[0].tasks[1].preferred_nodes, ElementsAre("node2"));

  EXPECT_EQ((*r)->stats().jobs, 2);
  EXPECT_EQ((*r)->stats().tasks, 5);
  EXPECT_EQ((*r)->stats().lines, 2);
  EXPECT_EQ((*r)->stats().skipped, 0);
  EXPECT_THAT((*r)->Describe(), HasSubstr("inputsls.json"));
}

TEST(SlsReaderTest, MapsAndReducesResourcesAndCounts) {
  const std::string text =
      "[{\"job.id\": \"j\", \"job.start.ms\": 5, \"job.user\": \"alice\", \"job.queue.name\": "
      "\"q\", \"am.type\": \"mapreduce\", \"job.tasks\": ["
      "{\"container.type\": \"reduce\", \"duration.ms\": 7, \"container.memory-mb\": 2048, "
      "\"container.vcores\": 2},"
      "{\"container.type\": \"map\", \"container.duration.ms\": \"9\", \"count\": 3, "
      "\"container.host\": \"/a/b/host9\", \"container.request.delay\": 100},"
      "{\"container.start.ms\": 0, \"container.end.ms\": 4, \"container.priority\": 5, "
      "\"container.memory\": 512}]}]";
  std::unique_ptr<SlsReader> r = SlsReader::FromString("mem.json", text);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 1u);
  const TraceJob& j = jobs[0];
  EXPECT_EQ(j.user, "alice");
  EXPECT_EQ(j.queue, "q");
  EXPECT_EQ(j.arrival_ms, 5);
  ASSERT_EQ(j.stages.size(), 3u);
  // Two map priorities -> two map stages; the reduce waits for both.
  EXPECT_EQ(j.stages[0].name, "map_p20");
  EXPECT_EQ(j.stages[0].tasks.size(), 3u);
  EXPECT_EQ(j.stages[0].tasks[2].duration_ms, 9);
  EXPECT_EQ(j.stages[0].tasks[0].submit_offset_ms, 100);
  EXPECT_THAT(j.stages[0].tasks[0].preferred_nodes, ElementsAre("host9"));
  EXPECT_THAT(j.stages[0].tasks[0].preferred_racks, ElementsAre("/a/b"));
  EXPECT_EQ(j.stages[1].name, "map_p5");
  EXPECT_EQ(j.stages[1].priority, 5);
  EXPECT_EQ(j.stages[1].tasks[0].memory_mb, 512);
  EXPECT_EQ(j.stages[1].tasks[0].duration_ms, 4);
  EXPECT_TRUE(j.stages[1].tasks[0].preferred_nodes.empty());
  EXPECT_EQ(j.stages[2].name, "reduce");
  EXPECT_EQ(j.stages[2].priority, 10);
  EXPECT_THAT(j.stages[2].parents, ElementsAre(0, 1));
  EXPECT_EQ(j.stages[2].tasks[0].memory_mb, 2048);
  EXPECT_EQ(j.stages[2].tasks[0].vcores, 2);
  EXPECT_EQ(j.stages[2].tasks[0].duration_ms, 7);
}

TEST(SlsReaderTest, JobCountMakesCopiesAndDefaultId) {
  const std::string text =
      "{\"job.start.ms\": 1, \"job.count\": 2, \"job.tasks\": [" + std::string(kTask) + "]}";
  std::unique_ptr<SlsReader> r = SlsReader::FromString("m.json", text);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].id, "sls_job_1#0");
  EXPECT_EQ(jobs[1].id, "sls_job_1#1");
}

TEST(SlsReaderTest, UnsortedWithinWindowIsSorted) {
  const std::string text =
      Job("a", 300, kTask) + Job("b", 100, kTask) + Job("c", 200, kTask) + Job("d", 100, kTask);
  std::unique_ptr<SlsReader> r = SlsReader::FromString("m.json", text);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(jobs[0].id, "b");  // ties keep file order
  EXPECT_EQ(jobs[1].id, "d");
  EXPECT_EQ(jobs[2].id, "c");
  EXPECT_EQ(jobs[3].id, "a");
}

TEST(SlsReaderTest, UnsortedBeyondWindowIsAnError) {
  SlsReaderOptions o;
  o.reorder_window = 2;
  const std::string text =
      Job("a", 300, kTask) + Job("b", 200, kTask) + Job("c", 400, kTask) + Job("d", 100, kTask);
  Status s = ReadError(text, o);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("trace.json:4: field job.start.ms: job d arrives at 100"));
  EXPECT_THAT(s.message(), HasSubstr("reorder window of 2 jobs"));
}

TEST(SlsReaderTest, FieldErrorsNameFileLineAndField) {
  // Bad JSON token.
  EXPECT_THAT(ReadError(Job("a", 1, kTask) + "{\"job.start.ms\": x}").message(),
              HasSubstr("trace.json:2: bad JSON"));
  // Missing required field.
  EXPECT_THAT(
      ReadError("{\"job.id\": \"a\", \"job.tasks\": [" + std::string(kTask) + "]}").message(),
      HasSubstr("trace.json:1: field job.start.ms: missing"));
  EXPECT_THAT(ReadError("{\"job.start.ms\": 1}").message(), HasSubstr("field job.tasks: missing"));
  EXPECT_THAT(ReadError(Job("a", 1, "")).message(), HasSubstr("at least one task"));
  // Wrong type.
  EXPECT_THAT(ReadError("{\"job.start.ms\": \"soon\", \"job.tasks\": []}").message(),
              HasSubstr("field job.start.ms: expected an integer, got string \"soon\""));
  EXPECT_THAT(ReadError(Job("a", 1, "{\"container.host\": 5, \"duration.ms\": 1}")).message(),
              HasSubstr("field job.tasks[0].container.host: expected a string"));
  EXPECT_THAT(ReadError("{\"job.start.ms\": 1.5, \"job.tasks\": []}").message(),
              HasSubstr("expected an integer, got number 1.5"));
  EXPECT_THAT(ReadError("[1]").message(), HasSubstr("must be a JSON object"));
  // Negative or zero duration, on the line of the field.
  Status neg = ReadError(Job("a", 1, kTask) + "{\"job.start.ms\": 2, \"job.tasks\": [\n" +
                         "{\"container.start.ms\": 50,\n \"container.end.ms\": 40}]}");
  EXPECT_THAT(neg.message(),
              HasSubstr("trace.json:4: field job.tasks[0].container.end.ms: task duration must "
                        "be > 0 ms, got -10"));
  EXPECT_THAT(ReadError(Job("a", 1, "{\"duration.ms\": 0}")).message(),
              HasSubstr("field job.tasks[0].duration.ms: task duration must be > 0"));
  EXPECT_THAT(ReadError(Job("a", 1, "{\"container.start.ms\": 5}")).message(),
              HasSubstr("field job.tasks[0].container.end.ms: missing"));
  // Values that cannot be replayed faithfully.
  EXPECT_THAT(
      ReadError(Job("a", 1, "{\"duration.ms\": 5, \"container.type\": \"shuffle\"}")).message(),
      HasSubstr("container.type: 'shuffle' is neither map nor reduce"));
  EXPECT_THAT(ReadError("{\"am.type\": \"stream\", \"job.start.ms\": 1, \"job.tasks\": [" +
                        std::string(kTask) + "]}")
                  .message(),
              HasSubstr("field am.type: 'stream' is not supported"));
  EXPECT_THAT(ReadError(Job("a", 1,
                            "{\"duration.ms\": 5, \"container.execution.type\": "
                            "\"OPPORTUNISTIC\"}"))
                  .message(),
              HasSubstr("container.execution.type"));
  EXPECT_THAT(ReadError(Job("a", 1, "{\"duration.ms\": 5, \"container.vcores\": 0}")).message(),
              HasSubstr("container.vcores: must be > 0"));
  EXPECT_THAT(ReadError(Job("a", -1, kTask)).message(), HasSubstr("job.start.ms: must be >= 0"));
  EXPECT_THAT(ReadError(Job("a", 1,
                            "{\"duration.ms\": 5, \"container.memory\": 1, "
                            "\"container.memory-mb\": 2}"))
                  .message(),
              HasSubstr("not both"));
  EXPECT_THAT(ReadError(Job("a", 1, "{\"duration.ms\": 5, \"container.host\": \"/r/\"}")).message(),
              HasSubstr("container.host: host path '/r/' has no host name"));
}

TEST(SlsReaderTest, ErrorLeavesReaderFailed) {
  std::unique_ptr<SlsReader> r =
      SlsReader::FromString("m.json", Job("a", 1, "{\"duration.ms\": -1}") + Job("b", 2, kTask));
  TraceJob job;
  EXPECT_FALSE(r->Next(&job).ok());
  EXPECT_FALSE(r->Next(&job).ok());
}

TEST(SlsReaderTest, SkipBadCountsAndContinues) {
  SlsReaderOptions o;
  o.read.skip_bad = true;
  o.read.max_examples = 1;
  const std::string text = Job("a", 1, kTask) + Job("b", 2, "{\"duration.ms\": -1}") +
                           "{\"job.start.ms\": \"x\", \"job.tasks\": []}\n" + Job("c", 3, kTask);
  std::unique_ptr<SlsReader> r = SlsReader::FromString("m.json", text, o);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].id, "a");
  EXPECT_EQ(jobs[1].id, "c");
  EXPECT_EQ(r->stats().skipped, 2);
  EXPECT_EQ(r->stats().lines, 4);
  ASSERT_EQ(r->stats().examples.size(), 1u);
  EXPECT_THAT(r->stats().examples[0], HasSubstr("m.json:2: field job.tasks[0].duration.ms"));
}

TEST(SlsReaderTest, SkipBadDoesNotSkipPastBadJson) {
  SlsReaderOptions o;
  o.read.skip_bad = true;
  std::unique_ptr<SlsReader> r = SlsReader::FromString(
      "m.json", Job("a", 1, kTask) + "{\"job.start.ms\": }" + Job("c", 3, kTask), o);
  TraceJob job;
  // The window reads ahead, so the syntax error comes before job a.
  Result<bool> got = r->Next(&job);
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(got.status().message(), HasSubstr("m.json:2: bad JSON"));
  EXPECT_FALSE(r->Next(&job).ok());
  EXPECT_EQ(r->stats().skipped, 0);
}

TEST(SlsReaderTest, MaxJobsAndMaxArrival) {
  const std::string text = Job("a", 0, kTask) + Job("b", 10, kTask) + Job("c", 20, kTask);
  SlsReaderOptions o;
  o.read.max_jobs = 2;
  EXPECT_EQ(ReadAll(SlsReader::FromString("m.json", text, o).get()).size(), 2u);
  o.read.max_jobs = 0;
  o.read.max_arrival_ms = 20;
  std::vector<TraceJob> jobs = ReadAll(SlsReader::FromString("m.json", text, o).get());
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].id, "b");
}

}  // namespace
}  // namespace spindle::replay::hadoop
