// Sparrow's model (bench/sparrow): the mechanism (event order, queues, the
// late-binding round trip, the omniscient book) on hand-made jobs, then the
// paper's trends on its §7.1 setting. All on the virtual clock with fixed
// seeds: the same inputs give the same figures on any machine.
#include <glog/logging.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/sparrow/cluster.h"
#include "bench/sparrow/event_loop.h"
#include "bench/sparrow/experiment.h"
#include "bench/sparrow/omniscient.h"
#include "bench/sparrow/policy.h"
#include "bench/sparrow/probe_sampler.h"
#include "bench/sparrow/text_report.h"
#include "bench/sparrow/workload.h"

namespace spindle::bench::sparrow {
namespace {

using std::chrono::milliseconds;

TEST(SparrowEventLoopTest, RunsInTimeOrderThenInScheduleOrder) {
  EventLoop loop;
  std::string order;
  loop.At(milliseconds(5), [&] { order += "b"; });
  loop.At(milliseconds(1), [&] {
    order += "a";
    loop.After(milliseconds(4), [&] { order += "d"; });  // same time as b, scheduled later
  });
  loop.At(milliseconds(5), [&] { order += "c"; });
  EXPECT_EQ(loop.Run(), 4u);
  EXPECT_EQ(order, "abcd");
  EXPECT_EQ(loop.Now(), milliseconds(5));
}

TEST(SparrowProbeTest, CountsAndDistinctNodes) {
  EXPECT_EQ(ProbeCount(2.0, 10), 20);
  EXPECT_EQ(ProbeCount(1.5, 3), 5);
  EXPECT_EQ(ProbeCount(1.0, 7), 7);
  Random rng(3);
  ProbeSampler sampler;
  for (int count : {1, 20, 60, 100, 150}) {
    std::vector<int> s = sampler.FromAll(count, 100, rng);
    EXPECT_EQ(static_cast<int>(s.size()), std::min(count, 100));
    std::sort(s.begin(), s.end());
    EXPECT_EQ(std::adjacent_find(s.begin(), s.end()), s.end());
    EXPECT_GE(s.front(), 0);
    EXPECT_LT(s.back(), 100);
  }
  const std::vector<int> set = {7, 9, 11};
  std::vector<int> s = ProbeSampler::FromSet(2, set, rng);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NE(s[0], s[1]);
  for (int n : s) EXPECT_NE(std::find(set.begin(), set.end(), n), set.end());
  EXPECT_EQ(ProbeSampler::FromSet(5, set, rng).size(), 3u);
}

ModelOptions Tiny() {
  ModelOptions o;
  o.nodes = 2;
  o.slots_per_node = 1;
  o.tasks_per_job = 1;
  o.rtt = milliseconds(2);
  o.jobs = 1;
  o.edge_share = 0;
  return o;
}

JobSpec OneJob(Duration arrival, const std::vector<Duration>& durations) {
  JobSpec job;
  job.arrival = arrival;
  for (Duration d : durations) job.tasks.push_back(TaskSpec{d, {}});
  return job;
}

// One 1-task job, d = 2 on two idle nodes: both reservations reach a free
// slot and ask; the first answer carries the task, the second is a no-op.
// The task starts after the reservation's flight (rtt/2) and one getTask()
// round trip (rtt).
TEST(SparrowLateBindingTest, FirstAskerGetsTheTaskTheOtherANoOp) {
  const ModelOptions o = Tiny();
  const std::vector<JobSpec> jobs = {OneJob(milliseconds(10), {milliseconds(100)})};
  auto policy = MakePolicy(PolicyKind::kBatchLateBinding);
  Cluster cluster(o, jobs, *policy);
  std::vector<Duration> starts;
  cluster.SetStartObserverForTest([&](int, int, int) { starts.push_back(cluster.Now()); });
  cluster.Run();
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0], milliseconds(10 + 1 + 2));
  EXPECT_EQ(cluster.Records()[0].finish, milliseconds(113));
  EXPECT_EQ(cluster.GetTaskRequests(), 2u);
  EXPECT_EQ(cluster.NoOps(), 1u);
  EXPECT_EQ(cluster.HeldSlotTime(), milliseconds(4));
}

// A reservation behind a running task waits for the slot, so the second
// job's task goes to whichever probed node frees first, not where the queue
// was shortest when probed.
TEST(SparrowLateBindingTest, TaskBindsToTheSlotThatFreesFirst) {
  ModelOptions o = Tiny();
  o.jobs = 3;
  // Job 0 and 1 occupy both nodes (100 ms and 300 ms); job 2 then probes both.
  const std::vector<JobSpec> jobs = {OneJob(milliseconds(0), {milliseconds(300)}),
                                     OneJob(milliseconds(0), {milliseconds(100)}),
                                     OneJob(milliseconds(20), {milliseconds(50)})};
  auto policy = MakePolicy(PolicyKind::kBatchLateBinding);
  Cluster cluster(o, jobs, *policy);
  cluster.Run();
  // Both nodes queue [job 0, job 1] at 1 ms and ask job 0's scheduler: the
  // first answer (3 ms) starts job 0's 300 ms task on one node, the other
  // gets a no-op, asks job 1 and starts its 100 ms task at 5 ms. Job 2's
  // reservations queue behind; the node freeing at 105 ms asks and wins:
  // job 2 runs from 107 ms to 157 ms, not behind the 300 ms task.
  EXPECT_EQ(cluster.Records()[0].finish, milliseconds(303));
  EXPECT_EQ(cluster.Records()[1].finish, milliseconds(105));
  EXPECT_EQ(cluster.Records()[2].finish, milliseconds(157));
  // Every reservation asked once (2 per job); no-ops: job 0's loser, job
  // 1's reservation behind the 300 ms task, job 2's loser.
  EXPECT_EQ(cluster.GetTaskRequests(), 6u);
  EXPECT_EQ(cluster.NoOps(), 3u);
}

TEST(SparrowConstraintTest, EveryPolicyRunsConstrainedTasksOnPreferredNodes) {
  ModelOptions o;
  o.nodes = 20;
  o.jobs = 300;
  o.load = 0.7;
  o.constrained_share = 1.0;
  o.preferred_nodes = 3;
  o.durations = DurationKind::kExponential;
  ASSERT_TRUE(o.Validate().ok());
  const std::vector<JobSpec> jobs = GenerateWorkload(o);
  for (PolicyKind kind : AllPolicies()) {
    SCOPED_TRACE(PolicyName(kind));
    auto policy = MakePolicy(kind);
    Cluster cluster(o, jobs, *policy);
    int started = 0;
    cluster.SetStartObserverForTest([&](int node, int job, int task) {
      const auto& pref = jobs[static_cast<size_t>(job)].tasks[static_cast<size_t>(task)].preferred;
      EXPECT_NE(std::find(pref.begin(), pref.end(), node), pref.end());
      ++started;
    });
    cluster.Run();
    EXPECT_EQ(started, o.jobs * o.tasks_per_job);
  }
}

// The omniscient book and the nodes' FIFO queues agree: every task starts
// exactly when the book planned, with and without constraints.
TEST(SparrowOmniscientTest, NodesStartTasksWhenTheBookSays) {
  for (double constrained : {0.0, 0.5}) {
    ModelOptions o;
    o.nodes = 10;
    o.slots_per_node = 2;
    o.jobs = 500;
    o.load = 0.9;
    o.durations = DurationKind::kPareto;
    o.constrained_share = constrained;
    const std::vector<JobSpec> jobs = GenerateWorkload(o);
    Omniscient policy;
    Cluster cluster(o, jobs, policy);
    int checked = 0;
    cluster.SetStartObserverForTest([&](int, int job, int task) {
      EXPECT_EQ(cluster.Now(), policy.PlannedStartForTest(job, task)) << job << "/" << task;
      ++checked;
    });
    cluster.Run();
    EXPECT_EQ(checked, o.jobs * o.tasks_per_job);
  }
}

TEST(SparrowExperimentTest, SameSeedSameFiguresOtherSeedOtherFigures) {
  ModelOptions o;
  o.jobs = 1'000;
  auto a = RunPolicies(o, AllPolicies());
  auto b = RunPolicies(o, AllPolicies());
  o.seed = 2;
  auto c = RunPolicies(o, AllPolicies());
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(FormatTable(*a), FormatTable(*b));
  EXPECT_NE(FormatTable(*a), FormatTable(*c));
}

TEST(SparrowExperimentTest, InvalidOptionsAreRefused) {
  ModelOptions o;
  o.load = 1.0;
  EXPECT_FALSE(RunPolicies(o, AllPolicies()).ok());
  o = ModelOptions();
  o.probe_ratio = 0.5;
  EXPECT_FALSE(RunPolicies(o, AllPolicies()).ok());
  o = ModelOptions();
  o.preferred_nodes = o.nodes + 1;
  EXPECT_FALSE(RunPolicies(o, AllPolicies()).ok());
}

// The paper's §7.1 setting (Figure 9): 100 nodes x 4 slots, 10-task jobs
// of 100 ms constant tasks, d = 2, a 1 ms round trip; `jobs` jobs (the
// headline uses the bench's 20,000), the first and last 10% left out.
// Margins and the figures they guard: README.md.
ModelOptions Figure9(double load, int jobs) {
  ModelOptions o;
  o.load = load;
  o.jobs = jobs;
  return o;
}

std::vector<PolicyResult> RunOrDie(const ModelOptions& o,
                                   const std::vector<PolicyKind>& policies = AllPolicies()) {
  auto r = RunPolicies(o, policies);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {};
  // The table, for whoever reads the test log.
  std::printf("%s%s", FormatSetting(o).c_str(), FormatTable(*r).c_str());
  return *r;
}

const PolicyResult& Get(const std::vector<PolicyResult>& r, PolicyKind kind) {
  const PolicyResult* found = Find(r, kind);
  CHECK(found != nullptr) << PolicyName(kind);
  return *found;
}

// Sparrow's headline (issue 21): with d = 2 and late binding, at 80% load,
// job response time within ~12% of the omniscient scheduler's (measured:
// 8.3%); random placement's p95 several times worse (measured: 3.7x
// omniscient's, 2.9x Sparrow's); and each refinement helps: random <
// per-task < batch < batch + late binding.
TEST(SparrowTrendTest, HeadlineAtEightyPercentLoad) {
  const std::vector<PolicyResult> r = RunOrDie(Figure9(0.8, 20'000));
  ASSERT_EQ(r.size(), AllPolicies().size());
  const PolicyResult& omni = Get(r, PolicyKind::kOmniscient);
  const PolicyResult& late = Get(r, PolicyKind::kBatchLateBinding);
  const PolicyResult& batch = Get(r, PolicyKind::kBatchSampling);
  const PolicyResult& per_task = Get(r, PolicyKind::kPerTaskSampling);
  const PolicyResult& random = Get(r, PolicyKind::kRandom);
  EXPECT_LE(late.mean_ms, 1.12 * omni.mean_ms);
  EXPECT_GE(random.p95_ms, 3.0 * omni.p95_ms);
  EXPECT_GE(random.p95_ms, 2.5 * late.p95_ms);
  EXPECT_LT(late.mean_ms, batch.mean_ms);
  EXPECT_LT(late.p95_ms, batch.p95_ms);
  EXPECT_LT(batch.mean_ms, per_task.mean_ms);
  EXPECT_LT(per_task.mean_ms, random.mean_ms);
  // Late binding: every reservation asks once, and m of the d*m asks of a
  // job get a task (the rest are no-ops).
  EXPECT_EQ(late.get_tasks, 20'000u * 20u);
  EXPECT_EQ(late.no_ops, 20'000u * 10u);
}

// §7.1: "with d = 2, median response time is within 2.5 ms of optimal at up
// to 70% utilization".
TEST(SparrowTrendTest, MedianWithinTwoAndAHalfMillisecondsUpToSeventyPercent) {
  for (double load : {0.5, 0.7}) {
    const std::vector<PolicyResult> r =
        RunOrDie(Figure9(load, 10'000), {PolicyKind::kBatchLateBinding, PolicyKind::kOmniscient});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_LE(Get(r, PolicyKind::kBatchLateBinding).p50_ms,
              Get(r, PolicyKind::kOmniscient).p50_ms + 2.5)
        << load;
  }
}

// §5.2: at high load batch sampling beats per-task sampling, in the mean and
// at the 95th percentile, with and without late binding.
TEST(SparrowTrendTest, BatchBeatsPerTaskSamplingAtHighLoad) {
  const std::vector<PolicyResult> r = RunOrDie(
      Figure9(0.9, 10'000),
      {PolicyKind::kPerTaskSampling, PolicyKind::kBatchSampling, PolicyKind::kBatchLateBinding});
  ASSERT_EQ(r.size(), 3u);
  const PolicyResult& per_task = Get(r, PolicyKind::kPerTaskSampling);
  for (PolicyKind kind : {PolicyKind::kBatchSampling, PolicyKind::kBatchLateBinding}) {
    SCOPED_TRACE(PolicyName(kind));
    EXPECT_LT(Get(r, kind).mean_ms, per_task.mean_ms);
    EXPECT_LT(Get(r, kind).p95_ms, per_task.p95_ms);
  }
}

}  // namespace
}  // namespace spindle::bench::sparrow
