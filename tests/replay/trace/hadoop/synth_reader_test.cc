#include "replay/trace/hadoop/synth_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay::hadoop {
namespace {

using namespace ::spindle::replay::testing_files;  // NOLINT(google-build-using-namespace)

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SynthReaderTest, SharedSample) {
  Result<std::unique_ptr<SynthReader>> r = SynthReader::Open(SharedTrace("hadoop-sls/syn.json"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->num_jobs(), 10);
  EXPECT_EQ((*r)->seed(), 2);
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 10u);
  int64_t last = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TraceJob& j = jobs[i];
    char id[32];
    std::snprintf(id, sizeof(id), "class_1_%06zu", i);
    EXPECT_EQ(j.id, id);
    EXPECT_EQ(j.queue, "sls_queue_1");
    EXPECT_EQ(j.user, "foobar");
    // Bucket [1 s, 60 s): whole seconds, in order.
    EXPECT_GE(j.arrival_ms, 1000);
    EXPECT_LT(j.arrival_ms, 60000);
    EXPECT_EQ(j.arrival_ms % 1000, 0);
    EXPECT_GE(j.arrival_ms, last);
    last = j.arrival_ms;
    ASSERT_EQ(j.stages.size(), 2u);
    EXPECT_EQ(j.stages[0].name, "map");
    EXPECT_EQ(j.stages[0].priority, 20);
    EXPECT_EQ(j.stages[1].name, "reduce");
    EXPECT_EQ(j.stages[1].priority, 10);
    EXPECT_THAT(j.stages[1].parents, ElementsAre(0));
    // mtasks ~ LogNormal(mean 5, sd 1).
    EXPECT_GE(j.stages[0].tasks.size(), 1u);
    EXPECT_LE(j.stages[0].tasks.size(), 12u);
    for (const TraceTask& t : j.stages[0].tasks) {
      EXPECT_EQ(t.memory_mb, 1024);
      EXPECT_EQ(t.vcores, 1);
      EXPECT_EQ(t.duration_ms % 1000, 0);
      EXPECT_GE(t.duration_ms, 2000);  // mtime ~ LogNormal(10 s, 2 s)
      EXPECT_LE(t.duration_ms, 30000);
    }
    for (const TraceTask& t : j.stages[1].tasks) {
      EXPECT_EQ(t.memory_mb, 2048);
      EXPECT_EQ(t.vcores, 2);
      EXPECT_GE(t.duration_ms, 5000);  // rtime ~ LogNormal(20 s, 4 s)
      EXPECT_LE(t.duration_ms, 60000);
    }
  }
  // Deterministic from the seed.
  Result<std::unique_ptr<SynthReader>> again =
      SynthReader::Open(SharedTrace("hadoop-sls/syn.json"));
  ASSERT_TRUE(again.ok());
  std::vector<TraceJob> jobs2 = ReadAll(again->get());
  ASSERT_EQ(jobs2.size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ(jobs2[i].arrival_ms, jobs[i].arrival_ms);
    EXPECT_EQ(jobs2[i].task_count(), jobs[i].task_count());
    for (size_t s = 0; s < jobs[i].stages.size(); ++s) {
      for (size_t t = 0; t < jobs[i].stages[s].tasks.size(); ++t) {
        EXPECT_EQ(jobs2[i].stages[s].tasks[t].duration_ms, jobs[i].stages[s].tasks[t].duration_ms);
      }
    }
  }
  EXPECT_EQ((*r)->stats().jobs, 10);
}

TEST(SynthReaderTest, SharedSampleNodes) {
  Result<std::unique_ptr<SynthReader>> r = SynthReader::Open(SharedTrace("hadoop-sls/syn.json"));
  ASSERT_TRUE(r.ok());
  std::vector<TraceNode> nodes = (*r)->Nodes();
  ASSERT_EQ(nodes.size(), 20u);  // num_nodes 20, nodes_per_rack 4: 5 racks
  EXPECT_EQ(nodes[0].host, "node0");
  EXPECT_EQ(nodes[0].rack, "/rack0");
  EXPECT_EQ(nodes[4].rack, "/rack4");
  EXPECT_EQ(nodes[5].rack, "/rack0");
  EXPECT_EQ(nodes[19].host, "node19");
  EXPECT_EQ(nodes[19].memory_mb, 10240);
}

std::string Spec(const std::string& tasks, int64_t jobs = 4, int64_t seed = 7,
                 const std::string& times = "[{\"time\": 10, \"weight\": 1}]") {
  return "{\"num_jobs\": " + std::to_string(jobs) + ", \"rand_seed\": " + std::to_string(seed) +
         ", \"workloads\": [{\"workload_weight\": 1, \"queue_name\": \"q\", "
         "\"time_distribution\": " +
         times +
         ", \"job_classes\": [{\"class_name\": \"c\", \"class_weight\": 1, \"type\": "
         "\"mapreduce\", \"tasks\": " +
         tasks + "}]}]}";
}

TEST(SynthReaderTest, NewFormatConstantAndDiscreteSamples) {
  const std::string tasks =
      "[{\"type\": \"map\", \"count\": {\"val\": 3}, \"time\": {\"val\": 2}, "
      "\"max_memory\": {\"val\": 4096}, \"max_vcores\": {\"val\": 3}, \"priority\": 7},"
      " {\"type\": \"reduce\", \"count\": {\"discrete\": [1, \"2\"], \"weights\": [0, 1]}, "
      "\"time\": 5}]";
  SynthReaderOptions o;
  o.time_unit_ms = 1;  // SLS's current reading of task times
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", Spec(tasks), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 4u);
  for (const TraceJob& j : jobs) {
    EXPECT_EQ(j.arrival_ms, 10000);  // one bucket with no range
    EXPECT_EQ(j.user, "default");
    ASSERT_EQ(j.stages.size(), 2u);
    EXPECT_EQ(j.stages[0].priority, 7);
    ASSERT_EQ(j.stages[0].tasks.size(), 3u);
    EXPECT_EQ(j.stages[0].tasks[0].duration_ms, 2);
    EXPECT_EQ(j.stages[0].tasks[0].memory_mb, 4096);
    EXPECT_EQ(j.stages[0].tasks[0].vcores, 3);
    ASSERT_EQ(j.stages[1].tasks.size(), 2u);
    EXPECT_EQ(j.stages[1].tasks[0].duration_ms, 5);
    EXPECT_EQ(j.stages[1].tasks[0].memory_mb, 1024);  // SLS's minimum
    EXPECT_EQ(j.stages[1].tasks[0].vcores, 1);
  }
  EXPECT_EQ(jobs[3].id, "c_000003");
}

TEST(SynthReaderTest, NormalDistributionHasItsMean) {
  const std::string tasks =
      "[{\"type\": \"map\", \"count\": 1, \"time\": {\"val\": 100, \"std\": 10, \"dist\": "
      "\"NORM\"}}]";
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", Spec(tasks, 2000));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 2000u);
  double sum = 0, sum2 = 0;
  for (const TraceJob& j : jobs) {
    const double s = j.stages[0].tasks[0].duration_ms / 1000.0;
    sum += s;
    sum2 += s * s;
  }
  const double mean = sum / 2000, sd = std::sqrt(sum2 / 2000 - mean * mean);
  EXPECT_NEAR(mean, 100, 1.5);
  EXPECT_NEAR(sd, 10, 1.5);
}

TEST(SynthReaderTest, SubmitTimesFollowBucketWeights) {
  const std::string tasks = "[{\"type\": \"map\", \"count\": 1, \"time\": 1}]";
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString(
      "s.json", Spec(tasks, 1000, 3,
                     "[{\"time\": 0, \"weight\": 1}, {\"time\": 100, \"weight\": 3}, "
                     "{\"time\": 200, \"weight\": 0}]"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 1000u);
  int early = 0;
  for (const TraceJob& j : jobs) {
    EXPECT_LT(j.arrival_ms, 200000);
    if (j.arrival_ms < 100000) ++early;
  }
  EXPECT_NEAR(early, 250, 50);
  EXPECT_EQ(jobs.front().id, "c_000000");
  EXPECT_LE(jobs.front().arrival_ms, jobs.back().arrival_ms);
}

TEST(SynthReaderTest, ZeroTimeTasksAreDroppedAndCounted) {
  const std::string tasks =
      "[{\"type\": \"map\", \"count\": 2, \"time\": 0}, {\"type\": \"reduce\", \"count\": 1, "
      "\"time\": 0.4}]";
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", Spec(tasks, 3));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(ReadAll(r->get()).empty());
  EXPECT_THAT((*r)->stats().dropped,
              ElementsAre(::testing::Pair("synthetic task time rounds to <= 0", 9),
                          ::testing::Pair("job has no tasks", 3)));
}

TEST(SynthReaderTest, TooManyTasks) {
  const std::string tasks = "[{\"type\": \"map\", \"count\": 5, \"time\": 1}]";
  SynthReaderOptions o;
  o.read.max_tasks_per_job = 4;
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", Spec(tasks, 2), o);
  ASSERT_TRUE(r.ok());
  TraceJob job;
  Result<bool> got = (*r)->Next(&job);
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(got.status().message(), HasSubstr("job c_000000 of class c samples more than 4"));

  o.read.skip_bad = true;
  r = SynthReader::FromString("s.json", Spec(tasks, 2), o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(ReadAll(r->get()).empty());
  EXPECT_EQ((*r)->stats().skipped, 2);
  EXPECT_EQ((*r)->stats().examples.size(), 2u);
}

TEST(SynthReaderTest, MaxJobs) {
  SynthReaderOptions o;
  o.read.max_jobs = 2;
  Result<std::unique_ptr<SynthReader>> r = SynthReader::Open(SharedTrace("hadoop-sls/syn.json"), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ReadAll(r->get()).size(), 2u);
}

TEST(SynthReaderTest, Errors) {
  auto err = [](const std::string& text) {
    Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", text);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  const std::string map = "[{\"type\": \"map\", \"count\": 1, \"time\": 1}]";
  EXPECT_THAT(err("{\"rand_seed\": 1, \"workloads\": []}"), HasSubstr("field num_jobs: missing"));
  EXPECT_THAT(err("{\"num_jobs\": 1, \"rand_seed\": 1, \"workloads\": []}"),
              HasSubstr("field workloads: must not be empty"));
  EXPECT_THAT(err(Spec("[{\"type\": \"map\", \"count\": {\"val\": 1, \"std\": 1, \"dist\": "
                       "\"GAMMA\"}, \"time\": 1}]")),
              HasSubstr("field workloads[0].job_classes[0].tasks[0].count.dist: 'GAMMA'"));
  EXPECT_THAT(err(Spec("[{\"type\": \"map\", \"count\": {\"val\": -1, \"std\": 1}, \"time\": 1}]")),
              HasSubstr("a distribution needs a mean > 0"));
  EXPECT_THAT(err(Spec("[{\"type\": \"map\", \"time\": 1}]")),
              HasSubstr("tasks[0].count: missing"));
  EXPECT_THAT(err(Spec("[{\"type\": \"shuffle\", \"count\": 1, \"time\": 1}]")),
              HasSubstr("'shuffle' is neither map nor reduce"));
  EXPECT_THAT(err(Spec("[{\"type\": \"map\", \"count\": {\"discrete\": [1], \"weights\": [1, "
                       "2]}, \"time\": 1}]")),
              HasSubstr("as many entries as discrete"));
  EXPECT_THAT(err(Spec(map, 1, 1, "[{\"time\": 1, \"weight\": 0}]")),
              HasSubstr("time_distribution: weights must not all be 0"));
  EXPECT_THAT(err(Spec("[{\"type\": \"map\", \"count\": 1, \"time\": 1, \"execution_type\": "
                       "\"OPPORTUNISTIC\"}]")),
              HasSubstr("execution_type: 'OPPORTUNISTIC' is not supported"));
  EXPECT_THAT(err(Spec(map) + "{}"), HasSubstr("holds one JSON object"));
  EXPECT_THAT(err("{\"num_jobs\": 1,\n \"rand_seed\": \"x\"}"),
              HasSubstr("s.json:2: field rand_seed: expected an integer"));
  // Open() draws every job and builds the node list whole: the counts that
  // size them are bounded, never an allocation the file chooses.
  EXPECT_THAT(err("{\"num_jobs\": 1000000000000, \"rand_seed\": 1, \"workloads\": []}"),
              HasSubstr("field num_jobs: must be within 0..10000000"));
  EXPECT_THAT(err("{\"num_nodes\": 1000000000000, \"num_jobs\": 1, \"rand_seed\": 1}"),
              HasSubstr("field num_nodes: must be within 0..1000000"));
  EXPECT_EQ(err(Spec(map)), "ok");
}

TEST(SynthReaderTest, OldFormatMapOnlyClass) {
  // Reduce fields left out: a map-only job (SLS would fail on the 0 mean).
  const std::string text =
      "{\"num_jobs\": 3, \"rand_seed\": 1, \"workloads\": [{\"workload_weight\": 1, "
      "\"queue_name\": \"q\", \"time_distribution\": [{\"time\": 0, \"weight\": 1}], "
      "\"job_classes\": [{\"class_name\": \"m\", \"class_weight\": 1, \"mtasks_avg\": 4, "
      "\"mtasks_stddev\": 0.0001, \"mtime_avg\": 30, \"mtime_stddev\": 0.0001}]}]}";
  Result<std::unique_ptr<SynthReader>> r = SynthReader::FromString("s.json", text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<TraceJob> jobs = ReadAll(r->get());
  ASSERT_EQ(jobs.size(), 3u);
  for (const TraceJob& j : jobs) {
    ASSERT_EQ(j.stages.size(), 1u);
    EXPECT_EQ(j.stages[0].tasks.size(), 4u);
    EXPECT_EQ(j.stages[0].tasks[0].duration_ms, 30000);
    EXPECT_EQ(j.arrival_ms, 0);
  }
}

}  // namespace
}  // namespace spindle::replay::hadoop
