#include "bench/windtunnel/workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "bench/windtunnel/cluster_model.h"
#include "bench/windtunnel/workload_reader.h"
#include "replay/trace/synthetic/preference_sampler.h"

namespace spindle::windtunnel {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

double Mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double Variance(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size());
}

std::vector<JobSpec> AllJobs(Workload* w) {
  std::vector<JobSpec> jobs;
  JobSpec j;
  while (w->Next(&j)) jobs.push_back(j);
  return jobs;
}

WorkloadOptions SmallWorkload() {
  WorkloadOptions o;
  o.base_rate = 1000;
  o.fractions = {0.5, 1.0, 0.25};
  o.phase_length = seconds(10);
  o.tasks_per_job = 10;
  o.preferred_nodes = 8;
  o.seed = 3;
  return o;
}

TEST(WorkloadTest, PhasesFollowTheFractionsOfTheBaseRate) {
  ClusterModel cluster(ClusterOptions{.nodes = 1000, .seed = 3});
  Workload w(SmallWorkload(), cluster.scores(), 10);
  ASSERT_EQ(w.phases().size(), 3u);
  EXPECT_DOUBLE_EQ(w.phases()[0].rate, 500);
  EXPECT_DOUBLE_EQ(w.phases()[1].rate, 1000);
  EXPECT_DOUBLE_EQ(w.phases()[2].rate, 250);
  EXPECT_EQ(w.phases()[1].start, seconds(10));
  EXPECT_EQ(w.end(), seconds(30));
  EXPECT_EQ(w.PhaseAt(seconds(0)), 0);
  EXPECT_EQ(w.PhaseAt(milliseconds(19'999)), 1);
  EXPECT_EQ(w.PhaseAt(seconds(30)), 3);
}

TEST(WorkloadTest, SubmitsEachPhasesRateInEvenlySpacedBatches) {
  ClusterModel cluster(ClusterOptions{.nodes = 1000, .seed = 3});
  Workload w(SmallWorkload(), cluster.scores(), 10);
  const std::vector<JobSpec> jobs = AllJobs(&w);
  // 5,000 + 10,000 + 2,500 tasks in jobs of 10.
  EXPECT_EQ(static_cast<int64_t>(jobs.size()), w.total_jobs());
  EXPECT_EQ(jobs.size(), 1750u);
  int64_t per_phase[3] = {0, 0, 0};
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    EXPECT_EQ(j.index, static_cast<int64_t>(i));
    EXPECT_EQ(j.tasks, 10);
    EXPECT_EQ(j.phase, w.PhaseAt(j.arrival));
    ASSERT_GE(j.phase, 0);
    ASSERT_LT(j.phase, 3);
    per_phase[j.phase] += j.tasks;
    if (i > 0) {
      EXPECT_GT(j.arrival, jobs[i - 1].arrival);
    }
  }
  EXPECT_EQ(per_phase[0], 5000);
  EXPECT_EQ(per_phase[1], 10'000);
  EXPECT_EQ(per_phase[2], 2500);
  // Within phase 1 (500 tasks/s), one job of 10 every 20 ms, first at 10 ms.
  EXPECT_EQ(jobs[0].arrival, milliseconds(10));
  EXPECT_EQ(jobs[1].arrival - jobs[0].arrival, milliseconds(20));
  // Phase 2 (1,000/s): every 10 ms.
  EXPECT_EQ(jobs[600].arrival - jobs[599].arrival, milliseconds(10));
  JobSpec extra;
  EXPECT_FALSE(w.Next(&extra));
  EXPECT_EQ(w.PeekArrival(), w.end());
}

TEST(WorkloadTest, JobsNameDistinctPreferredNodes) {
  ClusterModel cluster(ClusterOptions{.nodes = 1000, .seed = 3});
  Workload w(SmallWorkload(), cluster.scores(), 10);
  for (const JobSpec& j : AllJobs(&w)) {
    ASSERT_EQ(j.preferred.size(), 8u);
    std::set<int32_t> distinct(j.preferred.begin(), j.preferred.end());
    EXPECT_EQ(distinct.size(), 8u);
    for (int32_t n : j.preferred) {
      EXPECT_GE(n, 0);
      EXPECT_LT(n, 1000);
    }
  }
}

TEST(WorkloadTest, SameSeedSameJobsOtherSeedOtherPreferences) {
  ClusterModel cluster(ClusterOptions{.nodes = 1000, .seed = 3});
  Workload a(SmallWorkload(), cluster.scores(), 10);
  Workload b(SmallWorkload(), cluster.scores(), 10);
  WorkloadOptions other_seed = SmallWorkload();
  other_seed.seed = 4;
  Workload c(other_seed, cluster.scores(), 10);
  const auto ja = AllJobs(&a);
  const auto jb = AllJobs(&b);
  const auto jc = AllJobs(&c);
  ASSERT_EQ(ja.size(), jb.size());
  ASSERT_EQ(ja.size(), jc.size());
  bool differs = false;
  for (size_t i = 0; i < ja.size(); ++i) {
    EXPECT_EQ(ja[i].arrival, jb[i].arrival);
    EXPECT_EQ(ja[i].preferred, jb[i].preferred);
    EXPECT_EQ(ja[i].arrival, jc[i].arrival);  // arrivals do not depend on the seed
    differs |= ja[i].preferred != jc[i].preferred;
  }
  EXPECT_TRUE(differs);
}

TEST(WorkloadTest, FractionalRatesCarryOverPhases) {
  WorkloadOptions o;
  o.base_rate = 7;
  o.fractions = {1, 1, 1};
  o.phase_length = seconds(1);
  o.tasks_per_job = 10;
  o.preferred_nodes = 0;
  ClusterModel cluster(ClusterOptions{.nodes = 10, .seed = 1});
  Workload w(o, cluster.scores(), 10);
  const auto jobs = AllJobs(&w);
  // 21 tasks: jobs at cumulative 5 and 15 tasks, i.e. at 5/7 s and 15/7 s.
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].phase, 0);
  EXPECT_EQ(jobs[1].phase, 2);
  EXPECT_NEAR(std::chrono::duration<double>(jobs[1].arrival).count(), 15.0 / 7, 1e-6);
  EXPECT_TRUE(jobs[0].preferred.empty());
}

TEST(ClusterModelTest, ScoresAreNormalWithTheGivenMeanAndVarianceAndFixedBySeed) {
  ClusterOptions o;
  o.nodes = 100'000;
  o.score_mean = 10;
  o.score_variance = 2;
  o.seed = 7;
  ClusterModel a(o);
  ClusterModel b(o);
  EXPECT_EQ(a.scores(), b.scores());
  EXPECT_EQ(a.total_slots(), 200'000);
  EXPECT_NEAR(Mean(a.scores()), 10, 0.03);
  EXPECT_NEAR(Variance(a.scores()), 2, 0.05);
  EXPECT_GE(*std::min_element(a.scores().begin(), a.scores().end()), 0.1);
  // About 68% within one standard deviation.
  const double sd = std::sqrt(2.0);
  const auto within = std::count_if(a.scores().begin(), a.scores().end(),
                                    [&](double s) { return std::fabs(s - 10) < sd; });
  EXPECT_NEAR(static_cast<double>(within) / 100'000, 0.6827, 0.01);
  o.seed = 8;
  EXPECT_NE(ClusterModel(o).scores(), a.scores());
  const replay::TraceNode node = a.NodeOf(85);
  EXPECT_EQ(node.host, ClusterModel::Host(85));
  EXPECT_EQ(node.rack, "/rack2");
  EXPECT_EQ(pool::Resource::Of(node.memory_mb, node.vcores), ClusterModel::Slot() * 2);
  EXPECT_DOUBLE_EQ(a.ScoreAt(85), a.scores()[85]);
}

TEST(PreferenceSamplerTest, TiltLeansTowardsHighScoresByTheVariance) {
  ClusterModel cluster(ClusterOptions{.nodes = 100'000, .score_variance = 2, .seed = 5});
  Random rng(11);
  const auto mean_preferred = [&](double tilt) {
    PreferenceSampler sampler(cluster.scores(), 10, tilt);
    double sum = 0;
    const int draws = 20'000;
    for (int i = 0; i < draws; ++i)
      sum += cluster.scores()[static_cast<size_t>(sampler.DrawOne(&rng))];
    return sum / draws;
  };
  // Exponential tilting of Normal(10, V) by exp(tilt x): Normal(10 + tilt V, V).
  EXPECT_NEAR(mean_preferred(0), 10, 0.05);
  EXPECT_NEAR(mean_preferred(1), 12, 0.1);
  EXPECT_NEAR(mean_preferred(0.5), 11, 0.1);
}

// The workload as the engine reads it: one stage of one-slot tasks sharing
// the job's preferred hosts, at the job's exact arrival.
TEST(WorkloadReaderTest, JobsAreOneStageOfSlotTasksWithTheJobsPreferences) {
  ClusterModel cluster(ClusterOptions{.nodes = 1000, .seed = 3});
  WorkloadOptions o;
  o.base_rate = 3000;  // 1/30 s between jobs of 100: not a whole millisecond
  o.fractions = {1.0};
  o.phase_length = seconds(1);
  o.preferred_nodes = 7;
  Workload plain(o, cluster.scores(), 10);
  Workload read(o, cluster.scores(), 10);
  WorkloadReader reader(&read, milliseconds(2500), "q");
  JobSpec want;
  replay::TraceJob got;
  int64_t jobs = 0;
  while (plain.Next(&want)) {
    auto more = reader.Next(&got);
    ASSERT_TRUE(more.ok() && *more);
    ++jobs;
    EXPECT_EQ(got.arrival(), want.arrival);
    EXPECT_EQ(got.queue, "q");
    ASSERT_EQ(got.stages.size(), 1u);
    ASSERT_EQ(got.stages[0].tasks.size(), static_cast<size_t>(want.tasks));
    EXPECT_EQ(got.stages[0].tasks[0].duration_ms, 2500);
    EXPECT_EQ(got.stages[0].tasks[0].memory_mb, ClusterModel::Slot().memory_mb());
    EXPECT_TRUE(got.stages[0].tasks[0].preferred_nodes.empty());
    ASSERT_EQ(got.stages[0].preferred_nodes.size(), want.preferred.size());
    EXPECT_EQ(got.stages[0].preferred_nodes[0], ClusterModel::Host(want.preferred[0]));
  }
  auto more = reader.Next(&got);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
  EXPECT_EQ(reader.stats().jobs, jobs);
  EXPECT_DOUBLE_EQ(reader.Progress(), 1.0);
}

}  // namespace
}  // namespace spindle::windtunnel
