#include "replay/trace/synthetic/distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

double MeanOf(const Distribution& d, int n, uint64_t seed, double* lo, double* hi) {
  Random rng(seed);
  double sum = 0;
  *lo = 1e300;
  *hi = -1e300;
  for (int i = 0; i < n; ++i) {
    const double x = d.Sample(&rng);
    sum += x;
    *lo = std::min(*lo, x);
    *hi = std::max(*hi, x);
  }
  return sum / n;
}

TEST(DistributionTest, SampleMeansAndRanges) {
  double lo = 0, hi = 0;
  EXPECT_EQ(MeanOf(Distribution::Fixed(7), 100, 1, &lo, &hi), 7);
  EXPECT_EQ(lo, 7);
  EXPECT_EQ(hi, 7);
  EXPECT_NEAR(MeanOf(Distribution::Uniform(10, 20), 100'000, 2, &lo, &hi), 15, 0.1);
  EXPECT_GE(lo, 10);
  EXPECT_LE(hi, 20);
  // Exponential(mean m): standard error m / sqrt(n) = 1000 / 316 ~ 3.2.
  EXPECT_NEAR(MeanOf(Distribution::Exponential(1000), 100'000, 3, &lo, &hi), 1000, 15);
  EXPECT_GT(lo, 0);
  EXPECT_NEAR(MeanOf(Distribution::Lognormal(500, 1), 200'000, 4, &lo, &hi), 500, 10);
  EXPECT_GT(lo, 0);
  EXPECT_NEAR(MeanOf(Distribution::Lognormal(500, 0), 10, 4, &lo, &hi), 500, 1e-9);
}

TEST(DistributionTest, LognormalMedianIsBelowTheMean) {
  Random rng(9);
  std::vector<double> xs;
  for (int i = 0; i < 50'001; ++i) xs.push_back(Distribution::Lognormal(100, 1).Sample(&rng));
  std::nth_element(xs.begin(), xs.begin() + 25'000, xs.end());
  // median = exp(mu) = mean x exp(-sigma^2 / 2) = 60.65.
  EXPECT_NEAR(xs[25'000], 100 * std::exp(-0.5), 2);
}

TEST(DistributionTest, SameSeedSameDraws) {
  Random a(5), b(5);
  const Distribution d = Distribution::Exponential(3);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(d.Sample(&a), d.Sample(&b));
}

TEST(DistributionTest, ValidateNamesTheOption) {
  EXPECT_TRUE(Distribution::Fixed(1).Validate("x").ok());
  const Status s = Distribution::Uniform(5, 2).Validate("PoissonOptions::tasks_per_job");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "PoissonOptions::tasks_per_job: uniform(5, 2): needs 0 < low <= high");
  EXPECT_FALSE(Distribution::Fixed(0).Validate("x").ok());
  EXPECT_FALSE(Distribution::Exponential(-1).Validate("x").ok());
  EXPECT_FALSE(Distribution::Lognormal(1, -1).Validate("x").ok());
  EXPECT_FALSE(Distribution::Lognormal(NAN, 1).Validate("x").ok());
}

}  // namespace
}  // namespace spindle::replay
