#include "replay/trace/synthetic/parsync_phases_reader.h"

#include <gtest/gtest.h>

#include <set>

#include "replay/trace/synthetic/uniform_cluster.h"
#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

std::vector<TraceNode> Nodes(int64_t n) {
  UniformClusterOptions o;
  o.nodes = n;
  o.nodes_per_rack = 10;
  return *MakeUniformNodes(o);
}

ParSyncPhasesOptions Small() {
  ParSyncPhasesOptions o;
  o.base_rate = 1000;
  o.fractions = {0.5, 0.8, 0.95, 0.8, 0.5};
  o.phase_length_ms = 10'000;
  o.tasks_per_job = 10;
  o.task_duration_ms = 2000;
  o.preferred_nodes = 3;
  return o;
}

TEST(ParSyncPhasesReaderTest, RatesPerPhaseAndJobShape) {
  auto reader = ParSyncPhasesReader::Open(Small(), Nodes(50));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const std::vector<TraceJob> jobs = testing_files::ReadAll(reader->get());
  // 10 s at 500, 800, 950, 800, 500 tasks/s, 10 tasks a job: 3550 jobs.
  ASSERT_EQ(jobs.size(), 3550u);
  int64_t per_phase[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TraceJob& j = jobs[i];
    if (i > 0) {
      ASSERT_LE(jobs[i - 1].arrival_ms, j.arrival_ms);
    }
    const int64_t phase = j.arrival_ms / 10'000;
    ASSERT_LT(phase, 5);
    per_phase[phase] += j.task_count();
    ASSERT_EQ(j.stages.size(), 1u);
    ASSERT_EQ(j.stages[0].tasks.size(), 10u);
    const TraceTask& t = j.stages[0].tasks[0];
    ASSERT_EQ(t.duration_ms, 2000);
    ASSERT_EQ(t.vcores, 1);
    ASSERT_EQ(t.preferred_nodes.size(), 3u);
    ASSERT_EQ(std::set<std::string>(t.preferred_nodes.begin(), t.preferred_nodes.end()).size(), 3u);
    ASSERT_FALSE(t.preferred_racks.empty());
  }
  // Tasks per phase = rate x 10 s (to within a job).
  EXPECT_NEAR(per_phase[0], 5000, 10);
  EXPECT_NEAR(per_phase[1], 8000, 10);
  EXPECT_NEAR(per_phase[2], 9500, 10);
  EXPECT_NEAR(per_phase[3], 8000, 10);
  EXPECT_NEAR(per_phase[4], 5000, 10);
  EXPECT_EQ(jobs[0].id, "parsync_0");
  EXPECT_EQ((*reader)->stats().jobs, 3550);
  EXPECT_EQ((*reader)->Progress(), 1.0);
  EXPECT_EQ((*reader)->stats().tasks, 35500);
}

TEST(ParSyncPhasesReaderTest, DeterministicBySeed) {
  auto a = ParSyncPhasesReader::Open(Small(), Nodes(50));
  auto b = ParSyncPhasesReader::Open(Small(), Nodes(50));
  ParSyncPhasesOptions other = Small();
  other.seed = 2;
  auto c = ParSyncPhasesReader::Open(other, Nodes(50));
  const auto ja = testing_files::ReadAll(a->get()), jb = testing_files::ReadAll(b->get()),
             jc = testing_files::ReadAll(c->get());
  ASSERT_EQ(ja.size(), jb.size());
  ASSERT_EQ(ja.size(), jc.size());
  bool differs = false;
  for (size_t i = 0; i < ja.size(); ++i) {
    ASSERT_EQ(ja[i].arrival_ms, jb[i].arrival_ms);
    ASSERT_EQ(ja[i].stages[0].tasks[0].preferred_nodes, jb[i].stages[0].tasks[0].preferred_nodes);
    ASSERT_EQ(ja[i].arrival_ms, jc[i].arrival_ms);  // the seed moves preferences only
    differs |= ja[i].stages[0].tasks[0].preferred_nodes != jc[i].stages[0].tasks[0].preferred_nodes;
  }
  EXPECT_TRUE(differs);
}

TEST(ParSyncPhasesReaderTest, ScoresTiltPreferencesTowardsHighScores) {
  // Node 0..49: score 0 except nodes 0..4 at 10: with tilt 1 nearly every
  // draw lands on them (weight e^10 each against 1).
  ParSyncPhasesOptions o = Small();
  o.preferred_nodes = 1;
  o.node_scores.assign(50, 0.0);
  for (int i = 0; i < 5; ++i) o.node_scores[static_cast<size_t>(i)] = 10;
  auto reader = ParSyncPhasesReader::Open(o, Nodes(50));
  ASSERT_TRUE(reader.ok());
  int high = 0, total = 0;
  for (const TraceJob& j : testing_files::ReadAll(reader->get())) {
    const std::string& host = j.stages[0].tasks[0].preferred_nodes[0];
    high += host <= "node00005";
    ++total;
  }
  EXPECT_GT(high, total * 99 / 100);
}

TEST(ParSyncPhasesReaderTest, LimitsAndValidation) {
  ReadOptions read;
  read.max_arrival_ms = 10'000;
  auto reader = ParSyncPhasesReader::Open(Small(), Nodes(50), read);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(testing_files::ReadAll(reader->get()).size(), 500u);
  read = ReadOptions();
  read.max_jobs = 7;
  reader = ParSyncPhasesReader::Open(Small(), Nodes(50), read);
  EXPECT_EQ(testing_files::ReadAll(reader->get()).size(), 7u);

  ParSyncPhasesOptions o = Small();
  o.fractions = {0.5, -0.1};
  auto bad = ParSyncPhasesReader::Open(o, Nodes(5));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "ParSyncPhasesOptions::fractions: each must be >= 0");
  o = Small();
  bad = ParSyncPhasesReader::Open(o, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("preferred_nodes"), std::string::npos);
  o.node_scores = {1, 2};
  bad = ParSyncPhasesReader::Open(o, Nodes(5));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "ParSyncPhasesOptions::node_scores: 2 scores for 5 nodes");
  o = Small();
  o.task_duration_ms = 0;
  EXPECT_FALSE(ParSyncPhasesReader::Open(o, Nodes(5)).ok());
  o = Small();
  read = ReadOptions();
  read.max_tasks_per_job = 100;
  o.tasks_per_job = 101;
  bad = ParSyncPhasesReader::Open(o, Nodes(50), read);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "ParSyncPhasesOptions::tasks_per_job: must be within 1..100");
}

}  // namespace
}  // namespace spindle::replay
