#include "replay/report/replay_recorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace spindle::replay {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

RecorderOptions TwoQueues() {
  RecorderOptions o;
  o.capacity_memory_mb = 1000;
  o.capacity_vcores = 10;
  o.queues = {{"a", 0.5}, {"b", 0.5}};
  o.fairness_window = seconds(10);
  return o;
}

TEST(ReplayRecorderTest, DelaysJctUtilisationAndSeries) {
  ReplayRecorder rec(TwoQueues());
  rec.OnJobSubmitted(0, "job_1", "a", 2, seconds(0));
  rec.OnTasksAsked(0, 2, seconds(0));
  rec.OnTaskPlaced(0, seconds(0), milliseconds(100), 0, 500, 5, true, true);
  rec.OnTaskPlaced(0, seconds(0), milliseconds(300), 0, 500, 5, true, false);
  rec.OnTaskEnded(0, seconds(2), 500, 5);
  rec.OnTaskEnded(0, seconds(4), 500, 5);
  rec.OnJobFinished(0, seconds(4));
  rec.OnConflicts(seconds(1), 3);
  const ReplayModeResult r = rec.Finish(seconds(10));
  EXPECT_EQ(r.jobs_submitted, 1);
  EXPECT_EQ(r.jobs_finished, 1);
  EXPECT_EQ(r.tasks_asked, 2);
  EXPECT_EQ(r.tasks_placed, 2);
  EXPECT_EQ(r.tasks_ended, 2);
  EXPECT_DOUBLE_EQ(r.delay_ms.p50, 200);
  EXPECT_DOUBLE_EQ(r.delay_ms.max, 300);
  EXPECT_DOUBLE_EQ(r.quality, 0.5);
  EXPECT_EQ(r.conflicts, 3);
  EXPECT_DOUBLE_EQ(r.jct_s.mean, 4);
  EXPECT_DOUBLE_EQ(r.makespan_s, 4);
  // 500 MB over 1.9 s + 500 MB over 3.7 s = 2800 MB s of 10000.
  EXPECT_NEAR(r.utilisation_memory, 0.28, 1e-9);
  ASSERT_EQ(r.series.size(), 10u);
  EXPECT_EQ(r.series[0].placed, 2);
  EXPECT_EQ(r.series[0].backlog, 0);
  EXPECT_EQ(r.series[1].running, 2);
  EXPECT_EQ(r.series[2].running, 1);
  EXPECT_NEAR(r.series[1].utilisation_memory, 1.0, 1e-9);
  EXPECT_NEAR(r.series[0].utilisation_memory, (0.9 * 500 + 0.7 * 500) / 1000, 1e-9);
  EXPECT_EQ(r.series[1].conflicts, 3);
}

TEST(ReplayRecorderTest, JainIndexOverQueuesWithDemand) {
  ReplayRecorder rec(TwoQueues());
  // Window 0: only queue a has demand -> no index. Window 1: a holds 400 MB,
  // b 100 MB over the whole window: x = (0.8, 0.2): J = 1 / (2 * 0.68).
  rec.OnJobSubmitted(0, "j0", "a", 1, seconds(0));
  rec.OnTasksAsked(0, 1, seconds(0));
  rec.OnTaskPlaced(0, seconds(0), seconds(0), 0, 400, 1, false, false);
  rec.OnJobSubmitted(1, "j1", "b", 1, seconds(10));
  rec.OnTasksAsked(1, 1, seconds(10));
  rec.OnTaskPlaced(1, seconds(10), seconds(10), 0, 100, 1, false, false);
  const ReplayModeResult r = rec.Finish(seconds(20));
  ASSERT_EQ(r.windows.size(), 2u);
  EXPECT_DOUBLE_EQ(r.windows[0].jain, -1);
  EXPECT_NEAR(r.windows[0].share[0], 0.4, 1e-9);
  EXPECT_NEAR(r.windows[1].jain, 1.0 / (2 * 0.68), 1e-9);
  EXPECT_NEAR(r.jain_mean, 1.0 / (2 * 0.68), 1e-9);
  EXPECT_EQ(r.quality, -1) << "no task had a preference";
  EXPECT_EQ(r.jobs_finished, 0);
  EXPECT_EQ(r.series.back().backlog, 0);
  EXPECT_EQ(r.series.back().running, 2);
}

TEST(ReplayRecorderTest, RejectedJobsAndUnknownQueues) {
  ReplayRecorder rec(TwoQueues());
  rec.OnJobSubmitted(0, "j0", "nope", 1, seconds(0));
  rec.OnJobRejected(0, "unknown queue nope", seconds(0));
  const ReplayModeResult r = rec.Finish(seconds(1));
  EXPECT_EQ(r.jobs_rejected, 1);
  ASSERT_EQ(r.rejections.size(), 1u);
  EXPECT_EQ(r.rejections[0], "j0: unknown queue nope");
  ASSERT_EQ(r.queues.size(), 3u);
  EXPECT_EQ(r.queues[2], "nope");
}

TEST(ReplayRecorderTest, EventOrderDoesNotChangeTheFigures) {
  // A driver may report a placement committed at the end of a step before
  // a release earlier in time.
  const auto run = [](bool reversed) {
    ReplayRecorder rec(TwoQueues());
    rec.OnJobSubmitted(0, "j", "a", 2, seconds(0));
    rec.OnTasksAsked(0, 2, seconds(0));
    std::vector<std::function<void()>> events = {
        [&] { rec.OnTaskPlaced(0, seconds(0), milliseconds(500), 0, 300, 1, false, false); },
        [&] { rec.OnTaskEnded(0, milliseconds(2500), 300, 1); },
        [&] { rec.OnTaskPlaced(0, seconds(0), milliseconds(7250), 0, 600, 2, false, false); },
        [&] { rec.OnTaskEnded(0, milliseconds(12100), 600, 2); }};
    if (reversed) std::reverse(events.begin(), events.end());
    for (auto& e : events) e();
    return rec.Finish(seconds(15));
  };
  const ReplayModeResult a = run(false);
  const ReplayModeResult b = run(true);
  EXPECT_NEAR(a.utilisation_memory, (300 * 2.0 + 600 * 4.85) / (1000 * 15), 1e-9);
  EXPECT_NEAR(a.utilisation_memory, b.utilisation_memory, 1e-9);
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    EXPECT_NEAR(a.series[i].utilisation_memory, b.series[i].utilisation_memory, 1e-9) << i;
  }
  EXPECT_NEAR(a.series[7].utilisation_memory, 0.6 * 0.75, 1e-9);
  ASSERT_EQ(a.windows.size(), 2u);
  EXPECT_NEAR(a.windows[0].share[0], (300 * 2.0 + 600 * 2.75) / (1000 * 10), 1e-9);
  EXPECT_NEAR(a.windows[1].share[0], 600 * 2.1 / (1000 * 5), 1e-9)
      << "the last window ends with the run";
  EXPECT_NEAR(a.windows[1].share[0], b.windows[1].share[0], 1e-9);
}

TEST(SampleSummaryTest, PercentilesAndCdf) {
  std::vector<double> v;
  for (int i = 1000; i >= 1; --i) v.push_back(i);
  const SampleSummary d = Summarize(&v);
  EXPECT_EQ(d.count, 1000);
  EXPECT_NEAR(d.p50, 500.5, 1e-9);
  EXPECT_DOUBLE_EQ(d.max, 1000);
  ASSERT_FALSE(d.cdf.empty());
  EXPECT_LE(d.cdf.size(), 201u);
  EXPECT_DOUBLE_EQ(d.cdf.back().second, 1.0);
  for (size_t i = 1; i < d.cdf.size(); ++i) EXPECT_GE(d.cdf[i].first, d.cdf[i - 1].first);
}

}  // namespace
}  // namespace spindle::replay
