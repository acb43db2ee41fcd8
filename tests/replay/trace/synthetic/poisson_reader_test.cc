#include "replay/trace/synthetic/poisson_reader.h"

#include <gtest/gtest.h>

#include <cmath>

#include "replay/trace/synthetic/uniform_cluster.h"
#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

TEST(PoissonReaderTest, RateSizesAndDurations) {
  PoissonOptions o;
  o.jobs_per_second = 20;
  o.jobs = 20'000;
  o.tasks_per_job = Distribution::Uniform(1, 9);
  o.task_duration_ms = Distribution::Exponential(4000);
  auto reader = PoissonReader::Open(o);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const auto jobs = testing_files::ReadAll(reader->get());
  ASSERT_EQ(jobs.size(), 20'000u);
  double tasks = 0, duration = 0, n = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) {
      ASSERT_LE(jobs[i - 1].arrival_ms, jobs[i].arrival_ms);
    }
    const auto& ts = jobs[i].stages[0].tasks;
    ASSERT_GE(ts.size(), 1u);
    ASSERT_LE(ts.size(), 9u);
    tasks += static_cast<double>(ts.size());
    for (const TraceTask& t : ts) {
      ASSERT_GE(t.duration_ms, 1);
      duration += static_cast<double>(t.duration_ms);
      ++n;
    }
  }
  // 20,000 jobs at 20/s: ~1000 s (sd of the sum: sqrt(20000)/20 ~ 7 s).
  EXPECT_NEAR(static_cast<double>(jobs.back().arrival_ms), 1'000'000, 30'000);
  EXPECT_NEAR(tasks / static_cast<double>(jobs.size()), 5, 0.1);
  EXPECT_NEAR(duration / n, 4000, 80);
  // Exponential gaps: their coefficient of variation is ~1.
  double sum = 0, sq = 0;
  for (size_t i = 1; i < jobs.size(); ++i) {
    const double g = static_cast<double>(jobs[i].arrival_ms - jobs[i - 1].arrival_ms);
    sum += g;
    sq += g * g;
  }
  const double m = sum / static_cast<double>(jobs.size() - 1);
  const double sd = std::sqrt(sq / static_cast<double>(jobs.size() - 1) - m * m);
  EXPECT_NEAR(sd / m, 1.0, 0.05);
}

TEST(PoissonReaderTest, DeterministicAndArrivalsIndependentOfDurations) {
  PoissonOptions o;
  o.jobs = 500;
  o.task_duration_ms = Distribution::Lognormal(1000, 1);
  auto a = PoissonReader::Open(o);
  auto b = PoissonReader::Open(o);
  PoissonOptions fixed = o;
  fixed.task_duration_ms = Distribution::Fixed(10);
  auto c = PoissonReader::Open(fixed);
  PoissonOptions seeded = o;
  seeded.seed = 99;
  auto d = PoissonReader::Open(seeded);
  const auto ja = testing_files::ReadAll(a->get()), jb = testing_files::ReadAll(b->get()),
             jc = testing_files::ReadAll(c->get()), jd = testing_files::ReadAll(d->get());
  ASSERT_EQ(ja.size(), 500u);
  int same_as_other_seed = 0;
  for (size_t i = 0; i < ja.size(); ++i) {
    ASSERT_EQ(ja[i].arrival_ms, jb[i].arrival_ms);
    ASSERT_EQ(ja[i].stages[0].tasks[0].duration_ms, jb[i].stages[0].tasks[0].duration_ms);
    ASSERT_EQ(ja[i].arrival_ms, jc[i].arrival_ms);
    ASSERT_EQ(jc[i].stages[0].tasks[0].duration_ms, 10);
    same_as_other_seed += ja[i].arrival_ms == jd[i].arrival_ms;
  }
  EXPECT_LT(same_as_other_seed, 50);
}

TEST(PoissonReaderTest, HorizonPreferencesAndValidation) {
  PoissonOptions o;
  o.jobs = 0;
  o.horizon_ms = 60'000;
  o.jobs_per_second = 10;
  o.preferred_nodes = 2;
  UniformClusterOptions c;
  c.nodes = 20;
  auto reader = PoissonReader::Open(o, *MakeUniformNodes(c));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const auto jobs = testing_files::ReadAll(reader->get());
  EXPECT_NEAR(static_cast<double>(jobs.size()), 600, 100);
  EXPECT_LT(jobs.back().arrival_ms, 60'000);
  EXPECT_EQ(jobs[0].stages[0].tasks[0].preferred_nodes.size(), 2u);
  EXPECT_EQ((*reader)->Progress(), 1.0);
  TraceJob after;
  EXPECT_FALSE(*(*reader)->Next(&after));  // and stays ended

  o.horizon_ms = 0;
  auto bad = PoissonReader::Open(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("jobs, horizon_ms"), std::string::npos);
  o = PoissonOptions();
  o.task_duration_ms = Distribution::Exponential(0);
  bad = PoissonReader::Open(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "PoissonOptions::task_duration_ms: exponential(mean 0): the mean must be > 0");
  o = PoissonOptions();
  o.jobs_per_second = 0;
  EXPECT_FALSE(PoissonReader::Open(o).ok());
  o = PoissonOptions();
  o.preferred_nodes = 1;
  EXPECT_FALSE(PoissonReader::Open(o).ok());  // no nodes

  // A sampled size beyond ReadOptions::max_tasks_per_job is an error, not an
  // allocation of that size.
  o = PoissonOptions();
  o.tasks_per_job = Distribution::Fixed(1e15);
  auto huge = PoissonReader::Open(o);
  ASSERT_TRUE(huge.ok());
  TraceJob job;
  const Result<bool> next = (*huge)->Next(&job);
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.status().message().find("job poisson_0 sampled"), std::string::npos)
      << next.status().message();
  EXPECT_NE(next.status().message().find("more than 1000000 tasks"), std::string::npos);
}

}  // namespace
}  // namespace spindle::replay
