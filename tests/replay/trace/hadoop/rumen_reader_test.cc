#include "replay/trace/hadoop/rumen_reader.h"

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
using ::testing::Pair;

Status FirstError(const std::string& text, RumenReaderOptions o = {}) {
  std::unique_ptr<RumenReader> r = RumenReader::FromString("r.json", text, o);
  TraceJob job;
  while (true) {
    Result<bool> got = r->Next(&job);
    if (!got.ok()) return got.status();
    if (!*got) return Status::OK();
  }
}

std::string Attempt(const std::string& result, int64_t start, int64_t finish,
                    const std::string& host = "/rk/h1") {
  return "{\"result\": \"" + result + "\", \"startTime\": " + std::to_string(start) +
         ", \"finishTime\": " + std::to_string(finish) + ", \"hostName\": \"" + host + "\"}";
}

std::string Task(const std::string& attempts, const std::string& locations = "") {
  return "{\"attempts\": [" + attempts + "], \"preferredLocations\": [" + locations + "]}";
}

std::string Job(const std::string& id, int64_t submit, const std::string& maps,
                const std::string& reduces = "", const std::string& extra = "") {
  return "{\"jobID\": \"" + id + "\", \"submitTime\": " + std::to_string(submit) +
         ", \"user\": \"u\", \"queue\": \"q\", \"mapTasks\": [" + maps + "], \"reduceTasks\": [" +
         reduces + "]" + extra + "}\n";
}

TEST(RumenReaderTest, ReadsSharedSample) {
  Result<std::unique_ptr<RumenReader>> r =
      RumenReader::Open(SharedTrace("hadoop-sls/2jobs2min-rumen-jh.json"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 2u);

  const TraceJob& j1 = jobs[0];
  EXPECT_EQ(j1.id, "job_1369942127770_1205");
  EXPECT_EQ(j1.arrival_ms, 0);
  EXPECT_EQ(j1.user, "jenkins");
  EXPECT_EQ(j1.queue, "sls_queue_1");
  ASSERT_EQ(j1.stages.size(), 1u);  // TeraGen: no reduces
  EXPECT_EQ(j1.stages[0].name, "map");
  EXPECT_EQ(j1.stages[0].priority, 20);
  ASSERT_EQ(j1.stages[0].tasks.size(), 96u);
  EXPECT_EQ(j1.stages[0].tasks[0].duration_ms, 17043);
  EXPECT_EQ(j1.stages[0].tasks[1].duration_ms, 14928);
  EXPECT_EQ(j1.stages[0].tasks[95].duration_ms, 17843);
  EXPECT_THAT(j1.stages[0].tasks[0].preferred_nodes, ElementsAre("a2118.smile.com"));
  EXPECT_THAT(j1.stages[0].tasks[0].preferred_racks, ElementsAre("/default-rack"));
  EXPECT_THAT(j1.stages[0].tasks[95].preferred_nodes, ElementsAre("a2115.smile.com"));
  EXPECT_EQ(j1.stages[0].tasks[0].memory_mb, 200);  // jobMapMB
  EXPECT_EQ(j1.stages[0].tasks[0].vcores, 1);
  int64_t sum = 0;
  for (const TraceTask& t : j1.stages[0].tasks) sum += t.duration_ms;
  EXPECT_EQ(sum, 2024885);

  const TraceJob& j2 = jobs[1];
  EXPECT_EQ(j2.id, "job_1369942127770_1206");
  EXPECT_EQ(j2.arrival_ms, 105204);
  ASSERT_EQ(j2.stages.size(), 1u);
  ASSERT_EQ(j2.stages[0].tasks.size(), 96u);
  EXPECT_EQ(j2.stages[0].tasks[0].duration_ms, 22163);
  EXPECT_EQ(j2.stages[0].tasks[95].duration_ms, 13327);
  sum = 0;
  for (const TraceTask& t : j2.stages[0].tasks) sum += t.duration_ms;
  EXPECT_EQ(sum, 1961401);

  EXPECT_EQ((*r)->stats().jobs, 2);
  EXPECT_EQ((*r)->stats().tasks, 192);
  EXPECT_TRUE((*r)->stats().dropped.empty());
}

TEST(RumenReaderTest, SharedSampleWithSlsDefaultMemory) {
  RumenReaderOptions o;
  o.use_job_memory = false;
  Result<std::unique_ptr<RumenReader>> r =
      RumenReader::Open(SharedTrace("hadoop-sls/2jobs2min-rumen-jh.json"), o);
  ASSERT_TRUE(r.ok());
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].stages[0].tasks[0].memory_mb, 1024);
}

TEST(RumenReaderTest, SuccessfulAttemptReducesAndLocations) {
  const std::string maps =
      Task(Attempt("FAILED", 100, 150) + "," + Attempt("SUCCESS", 160, 260, "h7"),
           "{\"layers\": [\"rackA\", \"hostA\"]}, {\"layers\": [\"rackB\", \"hostB\"]}") +
      "," + Task(Attempt("KILLED", 100, 300)) + "," + Task("");
  const std::string reduces = Task(Attempt("SUCCESS", 400, 1400, "/rr/hr"));
  const std::string j1 =
      "{\"jobID\": \"j1\", \"submitTime\": 2000, \"queue\": null, "
      "\"jobMapMB\": -1, \"mapTasks\": [" +
      Task(Attempt("SUCCESS", 1, 2)) + "]}";
  const std::string text = Job("j2", 5000, maps, reduces) + j1;
  std::unique_ptr<RumenReader> r = RumenReader::FromString("r.json", text);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 2u);
  // Sorted, and relative to the earliest submit time.
  EXPECT_EQ(jobs[0].id, "j1");
  EXPECT_EQ(jobs[0].arrival_ms, 0);
  EXPECT_EQ(jobs[0].queue, "default");
  EXPECT_EQ(jobs[0].stages[0].tasks[0].memory_mb, 1024);
  EXPECT_EQ(jobs[1].id, "j2");
  EXPECT_EQ(jobs[1].arrival_ms, 3000);
  const TraceJob& j = jobs[1];
  ASSERT_EQ(j.stages.size(), 2u);
  ASSERT_EQ(j.stages[0].tasks.size(), 1u);
  EXPECT_EQ(j.stages[0].tasks[0].duration_ms, 100);
  EXPECT_THAT(j.stages[0].tasks[0].preferred_nodes, ElementsAre("hostA", "hostB"));
  EXPECT_THAT(j.stages[0].tasks[0].preferred_racks, ElementsAre("/rackA", "/rackB"));
  EXPECT_EQ(j.stages[1].name, "reduce");
  EXPECT_EQ(j.stages[1].priority, 10);
  EXPECT_THAT(j.stages[1].parents, ElementsAre(0));
  EXPECT_EQ(j.stages[1].tasks[0].duration_ms, 1000);
  EXPECT_THAT(j.stages[1].tasks[0].preferred_nodes, ElementsAre("hr"));
  EXPECT_THAT(j.stages[1].tasks[0].preferred_racks, ElementsAre("/rr"));
  EXPECT_THAT(r->stats().dropped, ElementsAre(Pair("task has no successful attempt", 2)));
}

TEST(RumenReaderTest, JobWithoutTasksIsDropped) {
  std::unique_ptr<RumenReader> r =
      RumenReader::FromString("r.json", Job("a", 1, Task(Attempt("FAILED", 1, 2))) +
                                            Job("b", 2, Task(Attempt("SUCCESS", 1, 2))));
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].id, "b");
  EXPECT_EQ(jobs[0].arrival_ms, 0);
  EXPECT_THAT(r->stats().dropped,
              ElementsAre(Pair("task has no successful attempt", 1), Pair("job has no tasks", 1)));
}

TEST(RumenReaderTest, Errors) {
  EXPECT_THAT(FirstError(Job("a", 1, Task(Attempt("SUCCESS", 50, 50)))).message(),
              HasSubstr("r.json:1: field mapTasks[0].attempts[0].finishTime: attempt duration "
                        "must be > 0 ms, got 0"));
  EXPECT_THAT(FirstError("{\"submitTime\": 1}").message(), HasSubstr("field jobID: missing"));
  EXPECT_THAT(FirstError("{\"jobID\": \"a\"}").message(), HasSubstr("field submitTime: missing"));
  EXPECT_THAT(FirstError("{\"jobID\": \"a\", \"submitTime\": 1, \"mapTasks\": {}}").message(),
              HasSubstr("field mapTasks: expected an array, got object"));
  EXPECT_THAT(
      FirstError(Job("a", 1, "{\"attempts\": [{\"result\": \"SUCCESS\", \"startTime\": 1}]}"))
          .message(),
      HasSubstr("field mapTasks[0].attempts[0].finishTime: missing"));
  EXPECT_THAT(FirstError("{\"jobID\": \"a\",\n\"submitTime\": [1]}").message(),
              HasSubstr("r.json:2: field submitTime: expected an integer, got array"));
  RumenReaderOptions o;
  o.reorder_window = 1;
  EXPECT_THAT(FirstError(Job("a", 10, Task(Attempt("SUCCESS", 1, 2))) +
                             Job("b", 5, Task(Attempt("SUCCESS", 1, 2))),
                         o)
                  .message(),
              HasSubstr("r.json:2: field submitTime: job b arrives at 5"));
}

TEST(RumenReaderTest, SkipBad) {
  RumenReaderOptions o;
  o.read.skip_bad = true;
  std::unique_ptr<RumenReader> r = RumenReader::FromString(
      "r.json",
      Job("a", 1, Task(Attempt("SUCCESS", 9, 3))) + Job("b", 2, Task(Attempt("SUCCESS", 1, 2))), o);
  std::vector<TraceJob> jobs = ReadAll(r.get());
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].id, "b");
  EXPECT_EQ(r->stats().skipped, 1);
  ASSERT_EQ(r->stats().examples.size(), 1u);
  EXPECT_THAT(r->stats().examples[0], HasSubstr("finishTime"));
}

}  // namespace
}  // namespace spindle::replay::hadoop
