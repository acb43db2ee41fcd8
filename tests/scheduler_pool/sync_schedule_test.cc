#include "scheduler_pool/sync_schedule.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;

struct Shape {
  int n;
  int p;
};

class SyncScheduleShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(SyncScheduleShapes, ParSyncSlicesAreDisjointAndEachPartitionOncePerGap) {
  const auto [n, p] = GetParam();
  SyncSchedule s(SyncMode::kParSync, n, p, milliseconds(500));
  EXPECT_EQ(s.slot_length(), Duration(milliseconds(500)) / n);
  for (int64_t slot = 0; slot < 3 * n; ++slot) {
    // At one instant the N schedulers refresh disjoint slices covering P.
    std::vector<int> owner(static_cast<size_t>(p), -1);
    for (int i = 0; i < n; ++i) {
      const PartitionRange r = s.RangeFor(i, slot);
      EXPECT_GE(r.size(), 1);
      for (int q = r.first; q < r.end; ++q) {
        EXPECT_EQ(owner[static_cast<size_t>(q)], -1) << "slot " << slot << " partition " << q;
        owner[static_cast<size_t>(q)] = i;
      }
    }
    for (int q = 0; q < p; ++q) EXPECT_NE(owner[static_cast<size_t>(q)], -1);
  }
  // Over any N consecutive slots (one G), each scheduler refreshes every
  // partition exactly once.
  for (int64_t start = 0; start < n; ++start) {
    for (int i = 0; i < n; ++i) {
      std::vector<int> count(static_cast<size_t>(p), 0);
      for (int64_t slot = start; slot < start + n; ++slot) {
        const PartitionRange r = s.RangeFor(i, slot);
        for (int q = r.first; q < r.end; ++q) ++count[static_cast<size_t>(q)];
      }
      for (int q = 0; q < p; ++q) EXPECT_EQ(count[static_cast<size_t>(q)], 1) << i << "/" << q;
    }
  }
}

TEST_P(SyncScheduleShapes, SameSyncRefreshesTheSameSliceEverywhere) {
  const auto [n, p] = GetParam();
  SyncSchedule s(SyncMode::kSameSync, n, p, milliseconds(500));
  for (int64_t slot = 0; slot < 2 * n; ++slot) {
    const PartitionRange first = s.RangeFor(0, slot);
    for (int i = 1; i < n; ++i) {
      EXPECT_EQ(s.RangeFor(i, slot).first, first.first);
      EXPECT_EQ(s.RangeFor(i, slot).end, first.end);
    }
  }
  std::vector<int> count(static_cast<size_t>(p), 0);
  for (int64_t slot = 0; slot < n; ++slot) {
    const PartitionRange r = s.RangeFor(0, slot);
    for (int q = r.first; q < r.end; ++q) ++count[static_cast<size_t>(q)];
  }
  for (int q = 0; q < p; ++q) EXPECT_EQ(count[static_cast<size_t>(q)], 1);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SyncScheduleShapes,
                         ::testing::Values(Shape{1, 1}, Shape{4, 4}, Shape{4, 10}, Shape{3, 20},
                                           Shape{20, 20}, Shape{7, 64}));

TEST(SyncScheduleTest, StateSyncAndMonolithic) {
  SyncSchedule state(SyncMode::kStateSync, 5, 20, milliseconds(500));
  EXPECT_EQ(state.slot_length(), milliseconds(500));
  EXPECT_EQ(state.SlotAt(milliseconds(1499)), 2);
  EXPECT_EQ(state.RangeFor(3, 7).first, 0);
  EXPECT_EQ(state.RangeFor(3, 7).end, 20);
  SyncSchedule mono(SyncMode::kMonolithic, 1, 20, milliseconds(500));
  EXPECT_EQ(mono.slot_length().count(), 0);
  EXPECT_EQ(mono.SlotAt(milliseconds(12345)), 0);
}

// The schedulers follow the schedule in time: stepped on a manual clock,
// every scheduler refreshes every partition exactly once per G, and at each
// step the partitions refreshed by different schedulers are disjoint.
TEST(SyncScheduleTest, SchedulersRefreshEachPartitionOncePerGap) {
  constexpr int kN = 4;
  constexpr int kP = 10;
  PoolOptions o = testing::SmallOptions(SyncMode::kParSync, kN, kP);
  o.sync_gap = milliseconds(400);  // slot = 100 ms
  testing::ManualPool mp(o);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(mp.pool->AddNode(testing::Node(2)).ok());
  mp.pool->RunAllOnce(mp.clock.Now());  // initial full sync at t = 0
  auto counts = [&](int s) {
    std::vector<int64_t> c;
    for (int p = 0; p < kP; ++p) c.push_back(mp.pool->scheduler(s).partition_syncs(p));
    return c;
  };
  for (int s = 0; s < kN; ++s) {
    for (int64_t c : counts(s)) EXPECT_EQ(c, 1);
  }
  for (int gap = 1; gap <= 3; ++gap) {
    // Steps of 25 ms through one G.
    for (int step = 0; step < 16; ++step) {
      std::vector<std::vector<int64_t>> before;
      for (int s = 0; s < kN; ++s) before.push_back(counts(s));
      mp.Step(milliseconds(25));
      std::set<int> refreshed_now;
      for (int s = 0; s < kN; ++s) {
        const auto after = counts(s);
        for (int p = 0; p < kP; ++p) {
          if (after[static_cast<size_t>(p)] !=
              before[static_cast<size_t>(s)][static_cast<size_t>(p)]) {
            EXPECT_TRUE(refreshed_now.insert(p).second)
                << "partition " << p << " refreshed by two schedulers at once";
          }
        }
      }
    }
    for (int s = 0; s < kN; ++s) {
      for (int64_t c : counts(s)) EXPECT_EQ(c, 1 + gap) << "scheduler " << s;
    }
  }
}

TEST(SyncScheduleTest, ALateSchedulerCatchesUpOnTheSlotsItMissed) {
  PoolOptions o = testing::SmallOptions(SyncMode::kParSync, 4, 8);
  o.sync_gap = milliseconds(400);
  testing::ManualPool mp(o);
  mp.pool->RunOnce(0, mp.clock.Now());
  mp.clock.Advance(milliseconds(250));  // slots 1 and 2 missed
  const StepResult r = mp.pool->RunOnce(0, mp.clock.Now());
  EXPECT_EQ(r.partitions_synced, 4);  // two slices of two partitions
  EXPECT_EQ(r.next_sync, mp.pool->epoch() + milliseconds(300));
  mp.clock.Advance(milliseconds(2000));  // far behind: one round, not more
  EXPECT_EQ(mp.pool->RunOnce(0, mp.clock.Now()).partitions_synced, 8);
}

}  // namespace
}  // namespace spindle::pool
