#include "replay/trace/synthetic/phased_arrivals.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(PhasedArrivalsTest, JobsPerPhaseFollowTheRates) {
  // R = 1000 tasks/s, 10 tasks a job, 10 s phases at 50% and 100%: 500 and
  // 1000 jobs.
  PhasedArrivals a(1000, {0.5, 1.0}, seconds(10), 10);
  ASSERT_EQ(a.phases().size(), 2u);
  EXPECT_EQ(a.phases()[1].rate, 1000);
  EXPECT_EQ(a.end(), seconds(20));
  EXPECT_EQ(a.total_jobs(), 1500);
  int per_phase[3] = {0, 0, 0};
  Duration last(0);
  for (int64_t k = 0; k < a.total_jobs(); ++k) {
    const Duration t = a.ArrivalOf(k);
    ASSERT_GE(t, last);
    last = t;
    ++per_phase[a.PhaseAt(t)];
  }
  EXPECT_EQ(per_phase[0], 500);
  EXPECT_EQ(per_phase[1], 1000);
  EXPECT_EQ(per_phase[2], 0);
  // Evenly spaced: job 0 at half a gap (5 tasks at 500/s = 10 ms).
  EXPECT_EQ(a.ArrivalOf(0), milliseconds(10));
  EXPECT_EQ(a.ArrivalOf(1), milliseconds(30));
  EXPECT_EQ(a.ArrivalOf(a.total_jobs()), a.end());
}

TEST(PhasedArrivalsTest, ZeroRatePhaseHasNoArrivals) {
  PhasedArrivals a(100, {1.0, 0.0, 1.0}, seconds(1), 1);
  EXPECT_EQ(a.total_jobs(), 200);
  for (int64_t k = 0; k < a.total_jobs(); ++k) ASSERT_NE(a.PhaseAt(a.ArrivalOf(k)), 1);
}

}  // namespace
}  // namespace spindle::replay
