// The leaf queue's application orderings (scheduler_pool/policy/app_ordering.h)
// with the cases of Hadoop 3.3.0's TestFifoOrderingPolicy and
// TestFairOrderingPolicy, and the 2.x application id order.
#include "scheduler_pool/policy/app_ordering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace spindle::pool {
namespace {

constexpr int64_t kGb = 1024;

OrderedApp Used(int64_t used_mb, int64_t pending_mb = 0) {
  OrderedApp a;
  a.used_memory_mb = used_mb;
  a.pending_memory_mb = pending_mb;
  return a;
}

int Fifo(const OrderedApp& a, const OrderedApp& b) {
  return CompareApps(QueueOrdering::kFifo, false, a, b);
}
int Fair(const OrderedApp& a, const OrderedApp& b, bool size_based = false) {
  return CompareApps(QueueOrdering::kFair, size_based, a, b);
}

// Sorts `apps` by `ordering` and returns their input orders.
std::vector<uint64_t> Order(QueueOrdering ordering, std::vector<OrderedApp> apps) {
  std::stable_sort(apps.begin(), apps.end(), [&](const OrderedApp& a, const OrderedApp& b) {
    return CompareApps(ordering, false, a, b) < 0;
  });
  std::vector<uint64_t> out;
  for (const OrderedApp& a : apps) out.push_back(a.input_order);
  return out;
}

// TestFifoOrderingPolicy#testFifoOrderingPolicy: by serial (input order).
TEST(AppOrderingTest, FifoComparesInputOrder) {
  OrderedApp r1, r2;
  EXPECT_EQ(Fifo(r1, r2), 0);
  r1.input_order = 1;
  EXPECT_EQ(Fifo(r1, r2), 1);
  r2.input_order = 2;
  EXPECT_EQ(Fifo(r1, r2), -1);
}

// Not Hadoop's (its application ids never tie): a scheduler whose apps
// share one input order (QuotaDrfPolicy, for callers that set no pool order)
// breaks the tie by the order they reached it, under every ordering, and
// the whole 64 bits of both count (they were once packed into one word).
TEST(AppOrderingTest, TiesOfInputOrderAndStartFallToArrival) {
  OrderedApp a = Used(kGb), b = Used(kGb);
  a.input_order = b.input_order = uint64_t{1} << 40;
  a.start = b.start = int64_t{1} << 40;
  a.arrival = (uint64_t{1} << 33) + 1;
  b.arrival = uint64_t{1} << 33;
  for (QueueOrdering o :
       {QueueOrdering::kApplicationId, QueueOrdering::kFifo, QueueOrdering::kFair}) {
    EXPECT_EQ(CompareApps(o, false, a, b), 1) << static_cast<int>(o);
    EXPECT_EQ(CompareApps(o, false, b, a), -1) << static_cast<int>(o);
  }
  // The input order decides before the arrival does.
  a.input_order = (uint64_t{1} << 40) - 1;
  EXPECT_EQ(Fifo(a, b), -1);
  a.start = (int64_t{1} << 40) - 1;
  EXPECT_EQ(Fair(a, b), -1);
}

// TestFifoOrderingPolicy#testIterators: assignment oldest to youngest.
TEST(AppOrderingTest, FifoAssignsOldestFirst) {
  OrderedApp a, b, c;
  a.input_order = 3;
  b.input_order = 2;
  c.input_order = 1;
  EXPECT_EQ(Order(QueueOrdering::kFifo, {a, b, c}), (std::vector<uint64_t>{1, 2, 3}));
}

// TestFifoOrderingPolicy#testFifoOrderingPolicyAlongWithPriorty: priority 1
// comes before priority 0, whatever the input order.
TEST(AppOrderingTest, FifoComparesPriorityFirst) {
  OrderedApp r1, r2;
  r1.priority = 1;
  r1.input_order = 9;
  r2.priority = 0;
  r2.input_order = 1;
  EXPECT_EQ(Fifo(r1, r2), -1);
  EXPECT_EQ(Fifo(r2, r1), 1);
}

// 2.6 / 2.7: CapacityScheduler.applicationComparator, application id alone.
TEST(AppOrderingTest, Hadoop2OrdersByApplicationIdAlone) {
  OrderedApp early, urgent;
  early.input_order = 1;
  urgent.input_order = 2;
  urgent.priority = 10;
  EXPECT_LT(CompareApps(QueueOrdering::kApplicationId, false, early, urgent), 0);
  EXPECT_EQ(Order(QueueOrdering::kApplicationId, {urgent, early}), (std::vector<uint64_t>{1, 2}));
}

// TestFairOrderingPolicy#testSimpleComparison.
TEST(AppOrderingTest, FairComparesMemoryUsed) {
  OrderedApp r1, r2;
  EXPECT_EQ(Fair(r1, r2), 0);
  r1.used_memory_mb = 1;
  EXPECT_GT(Fair(r1, r2), 0);
}

// TestFairOrderingPolicy#testIterators: least to greatest consumption.
TEST(AppOrderingTest, FairAssignsLeastUsedFirst) {
  OrderedApp a = Used(3), b = Used(2), c = Used(1);
  a.input_order = 1;
  b.input_order = 2;
  c.input_order = 3;
  EXPECT_EQ(Order(QueueOrdering::kFair, {a, b, c}), (std::vector<uint64_t>{3, 2, 1}));
  b.used_memory_mb = 6;
  EXPECT_EQ(Order(QueueOrdering::kFair, {a, b, c}), (std::vector<uint64_t>{3, 1, 2}));
}

// 3.3's FairOrderingPolicy has no PriorityComparator.
TEST(AppOrderingTest, FairIgnoresPriority) {
  OrderedApp low = Used(0), high = Used(kGb);
  high.priority = 10;
  EXPECT_LT(Fair(low, high), 0);
}

// TestFairOrderingPolicy#testSizeBasedWeight.
TEST(AppOrderingTest, FairSizeBasedWeight) {
  OrderedApp r1, r2;
  EXPECT_EQ(Fair(r1, r2, true), 0);
  r1 = Used(4 * kGb, 4 * kGb);
  r2 = Used(4 * kGb, 4 * kGb);
  EXPECT_EQ(Fair(r1, r2, true), 0);
  // More demand and consumption, but not enough more demand to overcome
  // the additional consumption.
  r2 = Used(5 * kGb, 5 * kGb);
  EXPECT_LT(Fair(r1, r2, true), 0);
  // High demand, enough to reverse it.
  r2.pending_memory_mb = 100 * kGb;
  EXPECT_GT(Fair(r1, r2, true), 0);
  // Without the weight, memory used alone decides.
  EXPECT_LT(Fair(r1, r2, false), 0);
}

// TestFairOrderingPolicy#testOrderingUsingUsedAndPendingResources.
TEST(AppOrderingTest, FairSizeBasedWeightUsesUsedPlusPending) {
  EXPECT_LT(Fair(Used(4 * kGb, 4 * kGb), Used(8 * kGb, 8 * kGb), true), 0);
}

// TestFairOrderingPolicy#testOrderingUsingAppSubmitTime.
TEST(AppOrderingTest, FairTiesGoToTheEarlierStart) {
  OrderedApp r1, r2;
  EXPECT_EQ(Fair(r1, r2, true), 0);
  r1.start = 5;
  r2.start = 10;
  EXPECT_LT(Fair(r1, r2, true), 0);
  r1.start = 10;
  r2.start = 5;
  EXPECT_GT(Fair(r1, r2, true), 0);
}

// TestFairOrderingPolicy#testOrderingUsingAppDemand.
TEST(AppOrderingTest, FairPutsAppsWithoutDemandLast) {
  OrderedApp r1 = Used(0), r2 = Used(0);
  EXPECT_EQ(Fair(r1, r2), 0);
  r2.pending_memory_mb = 8 * kGb;
  EXPECT_GT(Fair(r1, r2), 0);
  r1.pending_memory_mb = 4 * kGb;
  r2.pending_memory_mb = 12 * kGb;
  EXPECT_EQ(Fair(r1, r2), 0);
}

// How many containers in a row an app gets before another comes first,
// checked against the comparator container by container.
TEST(AppOrderingTest, FairRunMatchesTheComparatorStepByStep) {
  for (const bool size_based : {false, true}) {
    for (const int64_t unit : {int64_t{512}, int64_t{1024}, int64_t{3072}}) {
      OrderedApp a = Used(2 * kGb, 40 * kGb);
      a.input_order = 2;
      a.start = 2;
      OrderedApp b = Used(7 * kGb, 3 * kGb);
      b.input_order = 1;
      b.start = 1;
      int64_t expected = 0;
      OrderedApp x = a;
      while (CompareApps(QueueOrdering::kFair, size_based, x, b) < 0) {
        ++expected;
        x.used_memory_mb += unit;
        x.pending_memory_mb -= unit;
      }
      EXPECT_EQ(FairRun(size_based, a, b, unit), expected)
          << "size_based " << size_based << " unit " << unit;
      EXPECT_GE(expected, 1);
    }
  }
  // Equal usage: the earlier start keeps the tie, the later does not.
  OrderedApp early = Used(kGb), late = Used(kGb);
  early.start = 1;
  late.start = 2;
  EXPECT_EQ(FairRun(false, early, late, kGb), 1);
  EXPECT_EQ(FairRun(false, late, early, kGb), 0);
}

}  // namespace
}  // namespace spindle::pool
