#include "scheduler_pool/metrics.h"

#include <gtest/gtest.h>

#include "base/clock.h"
#include "base/random.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {
namespace {

using std::chrono::microseconds;

TEST(LatencyHistogramTest, PercentilesWithinBucketError) {
  LatencyHistogram h;
  for (int i = 1; i <= 1000; ++i) h.Record(microseconds(i));
  EXPECT_EQ(h.count(), 1000);
  EXPECT_NEAR(h.Percentile(0.50).count(), 500'000, 500'000 * 0.07);
  EXPECT_NEAR(h.Percentile(0.90).count(), 900'000, 900'000 * 0.07);
  EXPECT_NEAR(h.Percentile(0.99).count(), 990'000, 990'000 * 0.07);
  EXPECT_EQ(h.max(), microseconds(1000));
  EXPECT_NEAR(static_cast<double>(h.mean().count()), 500'500, 1);
  LatencyHistogram other;
  for (int i = 0; i < 1000; ++i) other.Record(microseconds(5000));
  h.Merge(other);
  EXPECT_EQ(h.count(), 2000);
  EXPECT_NEAR(h.Percentile(0.9).count(), 5'000'000, 5'000'000 * 0.07);
  EXPECT_EQ(LatencyHistogram().Percentile(0.5).count(), 0);
}

TEST(LatencyHistogramTest, BucketsTileTheRange) {
  for (int b = 0; b + 1 < LatencyHistogram::kBuckets; ++b) {
    EXPECT_EQ(LatencyHistogram::BucketHigh(b), LatencyHistogram::BucketLow(b + 1)) << b;
    EXPECT_EQ(LatencyHistogram::BucketOf(LatencyHistogram::BucketLow(b)), b);
  }
}

TEST(MetricsSeriesTest, MergesReportsBySecondAndKeepsTheLastOnes) {
  MetricsSeries series(3);
  LatencyHistogram h;
  h.Record(microseconds(10));
  for (int64_t s : {0, 1, 1, 2, 3, 4}) {
    SecondReport r;
    r.second = s;
    r.placements = 10;
    r.backlog = 5;
    r.delay = &h;
    series.Add(r);
  }
  const auto points = series.Points();
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].second, 2);
  EXPECT_EQ(points[2].second, 4);
  SecondReport late;
  late.second = 0;  // older than what is kept: dropped
  series.Add(late);
  EXPECT_EQ(series.Points().front().second, 2);
}

TEST(ResourceTest, ArithmeticAndShares) {
  const Resource a = Resource::Of(4096, 4).With(2, 1);
  const Resource unit = Resource::Of(1024, 1);
  EXPECT_EQ(a - unit, Resource::Of(3072, 3).With(2, 1));
  EXPECT_EQ(unit * 3, Resource::Of(3072, 3));
  EXPECT_TRUE(unit.FitsIn(a));
  EXPECT_FALSE(a.FitsIn(unit));
  EXPECT_EQ(a.Multiples(unit), 4);
  EXPECT_EQ(Resource::Of(4096, 2).Multiples(unit), 2);
  EXPECT_TRUE(Resource::Unlimited().FitsWithin(a, unit));
  EXPECT_DOUBLE_EQ(Resource::Of(1024, 3).DominantShare(Resource::Of(18 * 1024, 9)), 1.0 / 3);
  EXPECT_TRUE(Resource::Of(-1, 0).AnyNegative());
  EXPECT_EQ(unit.ToString(), "<memory:1024, vCores:1>");
  auto types = ResourceTypes::Create({"yarn.io/gpu"});
  ASSERT_TRUE(types.ok());
  EXPECT_EQ(*types->IndexOf("yarn.io/gpu"), 2);
  EXPECT_EQ(types->Format(a), "memory-mb=4096,vcores=4,yarn.io/gpu=1");
  EXPECT_FALSE(ResourceTypes::Create({"x", "x"}).ok());
}

TEST(BaseAdditionsTest, ManualClockAndRandom) {
  ManualClock clock;
  const TimePoint t0 = clock.Now();
  clock.Advance(microseconds(5));
  EXPECT_EQ(clock.Now() - t0, microseconds(5));
  clock.Set(t0);  // never goes back
  EXPECT_EQ(clock.Now() - t0, microseconds(5));
  Random a(7), b(7);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.Next(), b.Next());
  int64_t sum = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t u = a.Uniform(10);
    EXPECT_LT(u, 10u);
    sum += static_cast<int64_t>(u);
  }
  EXPECT_NEAR(sum / 10000.0, 4.5, 0.15);
}

}  // namespace
}  // namespace spindle::pool
