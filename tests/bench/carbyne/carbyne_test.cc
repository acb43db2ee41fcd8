// Carbyne's model (bench/carbyne): DRF's closed form, the intra-job plan
// (forward and reverse packing) on a hand-made DAG, the mechanism, then the
// paper's trends on a small synthetic workload. All on the virtual clock with
// fixed seeds: the same inputs give the same figures on any machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bench/carbyne/drf_share.h"
#include "bench/carbyne/experiment.h"
#include "bench/carbyne/job_plan.h"
#include "bench/carbyne/simulation.h"
#include "bench/carbyne/text_report.h"
#include "bench/carbyne/trace_jobs.h"
#include "bench/carbyne/workload.h"
#include "replay/trace/cluster/alibaba2018_reader.h"

namespace spindle::bench::carbyne {
namespace {

// DRF paper's example: 9 CPUs and 18 GB; A's tasks <1 CPU, 4 GB>, B's
// <3 CPUs, 1 GB>. DRF gives A <3, 12> and B <6, 2>: dominant shares 2/3.
TEST(CarbyneDrfShareTest, EqualDominantSharesUntilAResourceRunsOut) {
  const Resources capacity{18, 9};
  const std::vector<Allocation> a = DrfShares({{400, 100}, {100, 300}}, capacity);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_NEAR(a[0].vcores, 3, 1e-9);
  EXPECT_NEAR(a[0].memory_mb, 12, 1e-9);
  EXPECT_NEAR(a[1].vcores, 6, 1e-9);
  EXPECT_NEAR(a[1].memory_mb, 2, 1e-9);
}

TEST(CarbyneDrfShareTest, AJobStopsAtItsDemandAndTheRestIsShared) {
  const Resources capacity{100, 100};
  const std::vector<Allocation> a = DrfShares({{10, 10}, {0, 0}, {1000, 1000}}, capacity);
  EXPECT_NEAR(a[0].vcores, 10, 1e-9);
  EXPECT_EQ(a[1].vcores, 0);
  EXPECT_NEAR(a[2].vcores, 90, 1e-9);
  EXPECT_NEAR(a[2].memory_mb, 90, 1e-9);
}

StageSpec Stage(std::vector<Time> durations, std::vector<int> parents = {}) {
  StageSpec s;
  s.demand = {1024, 1};
  s.durations = std::move(durations);
  s.parents = std::move(parents);
  return s;
}

std::vector<StageState> Fresh(const JobSpec& job) {
  std::vector<StageState> st(job.stages.size());
  for (size_t s = 0; s < job.stages.size(); ++s) {
    for (size_t t = 0; t < job.stages[s].durations.size(); ++t) {
      st[s].pending.push_back(static_cast<int>(t));
    }
    st[s].unfinished = static_cast<int>(job.stages[s].durations.size());
    st[s].parents_left = static_cast<int>(job.stages[s].parents.size());
  }
  return st;
}

// Two vcores; stage A: one 3 s task; stage B: two 1 s tasks; C joins A and B
// (a barrier) with one 1 s task. T_k = 4 s. A is on the critical path and
// must start now; B's tasks can wait until 2 s without delaying T_k (§3.3's
// "postpone ... donating ... to leftover").
TEST(CarbynePlanTest, CriticalPathStartsNowTheRestWaitsUntilItsLatestStart) {
  JobSpec job;
  job.stages = {Stage({3000}), Stage({1000, 1000}), Stage({1000}, {0, 1})};
  const Time now = 5000;
  const JobPlan plan = PlanJob(job, Fresh(job), Allocation{2048, 2}, now);
  EXPECT_EQ(plan.completion, now + 4000);
  EXPECT_LE(plan.latest_start[0][0], now);
  EXPECT_EQ(plan.latest_start[1][0], now + 2000);
  EXPECT_EQ(plan.latest_start[1][1], now + 2000);
  EXPECT_EQ(plan.latest_start[2][0], now + 3000);
  // With four vcores nothing changes for A, and B still may wait.
  const JobPlan wide = PlanJob(job, Fresh(job), Allocation{4096, 4}, now);
  EXPECT_EQ(wide.completion, now + 4000);
  EXPECT_EQ(wide.latest_start[1][0], now + 2000);
}

// A running task holds its share until it ends, in both packings.
TEST(CarbynePlanTest, RunningTasksHoldTheirShareUntilTheyEnd) {
  JobSpec job;
  job.stages = {Stage({2000, 2000})};
  std::vector<StageState> st = Fresh(job);
  st[0].pending = {1};
  st[0].running_end = {1500};
  const JobPlan plan = PlanJob(job, st, Allocation{1024, 1}, 0);
  EXPECT_EQ(plan.completion, 3500);
  EXPECT_EQ(plan.latest_start[0][1], 1500);
}

ModelOptions Small() {
  ModelOptions o;
  o.machines = 10;
  o.jobs = 40;
  o.max_tasks = 40;
  o.max_stages = 8;
  return o;
}

// Runs `policies` on `o`'s workload; the table goes to the test log.
std::vector<PolicyResult> RunOrDie(const ModelOptions& o,
                                   const std::vector<PolicyKind>& policies = AllPolicies()) {
  Result<std::vector<PolicyResult>> results = RunPolicies(o, policies);
  if (!results.ok()) {
    ADD_FAILURE() << results.status().ToString();
    return {};
  }
  std::fputs((FormatSetting(o) + FormatTable(*results)).c_str(), stdout);
  return std::move(*results);
}

TEST(CarbyneExperimentTest, SameSeedSameFiguresOtherSeedOtherFigures) {
  ModelOptions o = Small();
  o.jobs = 15;
  std::vector<std::string> tables;
  for (uint64_t seed : {1, 1, 2}) {
    o.seed = seed;
    const Result<std::vector<PolicyResult>> r = RunPolicies(o, AllPolicies());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    tables.push_back(FormatTable(*r));
  }
  EXPECT_EQ(tables[0], tables[1]);
  EXPECT_NE(tables[0], tables[2]);
}

TEST(CarbyneExperimentTest, InvalidOptionsAndJobsAreRefused) {
  ModelOptions o = Small();
  o.p_altruism = 1.5;
  EXPECT_FALSE(RunPolicies(o, AllPolicies()).ok());
  o = Small();
  o.max_task_memory_gb = 200;
  EXPECT_FALSE(RunPolicies(o, AllPolicies()).ok());
  o = Small();
  JobSpec bad;
  bad.stages = {Stage({1000}, {0})};  // its own parent
  EXPECT_FALSE(RunPoliciesOn(o, {bad}, AllPolicies()).ok());
  bad.stages = {Stage({0})};
  EXPECT_FALSE(RunPoliciesOn(o, {bad}, AllPolicies()).ok());
  bad.stages = {Stage({1000})};
  bad.stages[0].demand.vcores = o.machine.vcores + 1;
  EXPECT_FALSE(RunPoliciesOn(o, {bad}, AllPolicies()).ok());
  EXPECT_FALSE(RunPoliciesOn(o, {}, AllPolicies()).ok());
}

// Every task runs once, for its duration, within the machines' capacity;
// a stage starts after its parents (checked by the JCT lower bound: no job
// ends before its critical path).
TEST(CarbyneSimulationTest, NoJobBeatsItsCriticalPath) {
  const ModelOptions o = Small();
  const std::vector<JobSpec> jobs = GenerateWorkload(o);
  for (PolicyKind p : AllPolicies()) {
    Simulation sim(o, jobs, p);
    sim.Run();
    for (size_t j = 0; j < jobs.size(); ++j) {
      std::vector<Time> path(jobs[j].stages.size(), 0);
      Time critical = 0;
      for (size_t s = 0; s < jobs[j].stages.size(); ++s) {
        Time start = 0;
        for (int parent : jobs[j].stages[s].parents) {
          start = std::max(start, path[static_cast<size_t>(parent)]);
        }
        Time longest = 0;
        for (Time d : jobs[j].stages[s].durations) longest = std::max(longest, d);
        path[s] = start + longest;
        critical = std::max(critical, path[s]);
      }
      EXPECT_GE(sim.Finish()[j] - jobs[j].arrival, critical) << PolicyName(p) << " job " << j;
    }
  }
}

// §3.5: P(altruism) = 0 reduces Carbyne to DRF: the same figures to the
// digit, job by job.
TEST(CarbyneTrendTest, NoAltruismIsExactlyDrf) {
  ModelOptions o = Small();
  o.p_altruism = 0;
  for (double gap : {0.0, 20.0}) {
    o.interarrival_s = gap;
    const std::vector<PolicyResult> r = RunOrDie(o, {PolicyKind::kDrf, PolicyKind::kCarbyne});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].jct_ms, r[1].jct_ms);
    EXPECT_EQ(r[0].makespan_s, r[1].makespan_s);
    EXPECT_EQ(r[0].jain_mean, r[1].jain_mean);
    EXPECT_EQ(r[1].slowed_share, 0);
    EXPECT_EQ(r[1].plans, 0u);
    EXPECT_EQ(r[1].leftover_placements, 0u);
  }
}

// The paper's direction (§5.2, Figures 4 and 5), as far as this model
// reproduces it (README.md, "Beside the paper"): Carbyne beats DRF on mean
// JCT offline (measured 1.125x) and online (1.030x); its makespan is DRF's
// online and within 5% offline (measured 0.981x: the paper's 1.26x is not
// reproduced); Jain's index is within 0.05 of DRF's online (0.953 vs 0.958)
// and 0.15 offline (0.762 vs 0.871); no job is slowed by more than 1.5x
// (worst 1.13x) and at most 5% by more than 1.25x (none).
TEST(CarbyneTrendTest, BetterMeanJctThanDrfFairnessCloseFewJobsSlowed) {
  ModelOptions o = Small();
  for (double gap : {0.0, 20.0}) {
    o.interarrival_s = gap;
    const std::vector<PolicyResult> r = RunOrDie(o, {PolicyKind::kDrf, PolicyKind::kCarbyne});
    ASSERT_EQ(r.size(), 2u);
    const PolicyResult& drf = r[0];
    const PolicyResult& carbyne = r[1];
    EXPECT_LT(carbyne.mean_jct_s, drf.mean_jct_s) << gap;
    EXPECT_LT(carbyne.p50_jct_s, drf.p50_jct_s) << gap;
    if (gap == 0) {
      EXPECT_LT(carbyne.makespan_s, 1.05 * drf.makespan_s);
      EXPECT_GT(carbyne.jain_mean, drf.jain_mean - 0.15);
    } else {
      EXPECT_LE(carbyne.makespan_s, drf.makespan_s);
      EXPECT_GT(carbyne.jain_mean, drf.jain_mean - 0.05);
    }
    EXPECT_LT(carbyne.worst_slowdown, 1.5) << gap;
    EXPECT_LE(carbyne.badly_slowed_share, 0.05) << gap;
    EXPECT_GT(carbyne.slowed_share, 0) << gap;  // reported, not hidden
    EXPECT_GT(carbyne.plans, 0u);
    EXPECT_GT(carbyne.leftover_placements, 0u);
  }
}

// SRTF is the reference for mean JCT (the paper's SJF): it beats DRF there,
// offline, and so does Carbyne, which also runs DRF's fairness pass first.
TEST(CarbyneTrendTest, SrtfAndCarbyneBeatDrfOnMeanJctOffline) {
  const std::vector<PolicyResult> r = RunOrDie(Small());
  ASSERT_EQ(r.size(), 4u);
  EXPECT_LT(r[3].mean_jct_s, r[0].mean_jct_s);
  EXPECT_LT(r[1].mean_jct_s, r[0].mean_jct_s);
}

// Alibaba v2018 batch_task.csv rows (task_name, instance_num, job_name,
// task_type, status, start_time, end_time, plan_cpu, plan_mem): the DAG is
// in the task names (R3_1_2 waits for tasks 1 and 2). j_2's task asks for
// 2 machines' memory (plan_mem 100 of a 256 GB node shape) and is skipped.
constexpr char kV2018[] =
    "M1,4,j_1,1,Terminated,100,110,100,10\n"
    "M2,2,j_1,1,Terminated,101,105,400,20\n"
    "R3_1_2,1,j_1,2,Terminated,111,120,200,5\n"
    "M1,1,j_2,1,Terminated,102,160,100,100\n"
    "M1,3,j_3,1,Terminated,130,150,100,1\n"
    "J2_1,1,j_3,2,Terminated,150,151,100,1\n";

TEST(CarbyneTraceTest, AlibabaV2018DagsRunAsTheModelsJobs) {
  const std::string dir = ::testing::TempDir() + "/carbyne_trace";
  std::filesystem::create_directories(dir);
  replay::Alibaba2018Options file;
  file.batch_task = dir + "/batch_task.csv";
  std::ofstream(file.batch_task) << kV2018;
  ModelOptions o = Small();
  replay::ReadOptions read;
  read.node_memory_mb = 2 * o.machine.memory_mb;
  read.node_vcores = static_cast<int32_t>(o.machine.vcores);
  auto reader = replay::Alibaba2018Reader::Open(file, read);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  TraceImport import;
  Result<std::vector<JobSpec>> jobs = JobsFromTrace(**reader, o, 100, &import);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  EXPECT_EQ(import.jobs, 2);
  EXPECT_EQ(import.tasks, 11);
  EXPECT_EQ(import.skipped_too_large, 1);
  ASSERT_EQ(jobs->size(), 2u);
  const JobSpec& j1 = (*jobs)[0];
  EXPECT_EQ(j1.arrival, 0);
  ASSERT_EQ(j1.stages.size(), 3u);
  EXPECT_EQ(j1.stages[2].parents, (std::vector<int>{0, 1}));
  EXPECT_EQ(j1.stages[0].durations, (std::vector<Time>(4, 10'000)));
  EXPECT_EQ(j1.stages[1].demand.vcores, 4);
  EXPECT_EQ(j1.stages[1].demand.memory_mb, 52'429);  // 20% of 256 GB, rounded
  EXPECT_EQ((*jobs)[1].arrival, 30'000);
  EXPECT_EQ((*jobs)[1].stages[1].parents, (std::vector<int>{0}));

  // Every policy runs them; without altruism Carbyne is DRF there too.
  o.p_altruism = 0;
  auto r = RunPoliciesOn(o, *jobs, AllPolicies());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].jct_ms, (*r)[1].jct_ms);
  // Its critical path, M1 then R3_1_2, on an idle cluster.
  for (const PolicyResult& p : *r) EXPECT_EQ(p.jct_ms[0], 10'000 + 9'000);
  // Only the first job: max_jobs.
  reader = replay::Alibaba2018Reader::Open(file, read);
  ASSERT_TRUE(reader.ok());
  TraceImport one;
  jobs = JobsFromTrace(**reader, o, 1, &one);
  ASSERT_TRUE(jobs.ok());
  EXPECT_EQ(jobs->size(), 1u);
}

}  // namespace
}  // namespace spindle::bench::carbyne
