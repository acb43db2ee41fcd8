#include "scheduler_pool/policy/app_ordering.h"

#include <cmath>
#include <limits>

namespace spindle::pool {

namespace {

int Sign(double x) { return x < 0 ? -1 : (x > 0 ? 1 : 0); }

template <typename T>
int Three(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// FifoComparator.
int CompareInputOrder(const OrderedApp& a, const OrderedApp& b) {
  const int r = Three(a.input_order, b.input_order);
  return r != 0 ? r : Three(a.arrival, b.arrival);
}

// The start-time step of FairComparator.
int CompareStart(const OrderedApp& a, const OrderedApp& b) {
  const int r = Three(a.start, b.start);
  return r != 0 ? r : Three(a.arrival, b.arrival);
}

// PriorityComparator: Priority.compareTo is other - this, so the higher
// application priority sorts first.
int ComparePriority(const OrderedApp& a, const OrderedApp& b) {
  return Three(b.priority, a.priority);
}

// FairComparator.compareDemand: an app with no demand goes after one with
// some; two with demand are equal.
int CompareDemand(const OrderedApp& a, const OrderedApp& b) {
  const int64_t da = a.used_memory_mb + a.pending_memory_mb;
  const int64_t db = b.used_memory_mb + b.pending_memory_mb;
  if (da == 0 && db > 0) return 1;
  if (db == 0 && da > 0) return -1;
  return 0;
}

int CompareFair(bool size_based_weight, const OrderedApp& a, const OrderedApp& b) {
  int r = Sign(FairMagnitude(a, size_based_weight) - FairMagnitude(b, size_based_weight));
  if (r == 0) r = CompareStart(a, b);
  if (r == 0) r = CompareDemand(a, b);
  if (r == 0) r = CompareInputOrder(a, b);
  return r;
}

}  // namespace

double FairMagnitude(const OrderedApp& app, bool size_based_weight) {
  double magnitude = static_cast<double>(app.used_memory_mb);
  if (size_based_weight) {
    const double demand = static_cast<double>(app.used_memory_mb + app.pending_memory_mb);
    // log1p(0) is 0: Java divides by zero to NaN (used 0) or Infinity; NaN
    // compares as neither smaller nor greater (signum(NaN) cast to int is 0).
    magnitude /= std::log1p(demand) / std::log(2.0);
  }
  return magnitude;
}

int CompareApps(QueueOrdering ordering, bool size_based_weight, const OrderedApp& a,
                const OrderedApp& b) {
  switch (ordering) {
    case QueueOrdering::kApplicationId:
      return CompareInputOrder(a, b);
    case QueueOrdering::kFifo: {
      const int r = ComparePriority(a, b);
      return r != 0 ? r : CompareInputOrder(a, b);
    }
    case QueueOrdering::kFair:
      return CompareFair(size_based_weight, a, b);
  }
  return 0;
}

int64_t FairRun(bool size_based_weight, const OrderedApp& a, const OrderedApp& b,
                int64_t unit_memory_mb) {
  if (CompareFair(size_based_weight, a, b) >= 0) return 0;
  if (unit_memory_mb <= 0) return std::numeric_limits<int64_t>::max();
  // k containers keep `a` first while it still compares before `b`; the
  // magnitude grows linearly, so a first guess from the gap, then exact
  // checks around it (ties fall to start time and input order).
  const double gap = FairMagnitude(b, size_based_weight) - FairMagnitude(a, size_based_weight);
  OrderedApp step = a;
  step.used_memory_mb += unit_memory_mb;
  step.pending_memory_mb -= unit_memory_mb;
  const double per = FairMagnitude(step, size_based_weight) - FairMagnitude(a, size_based_weight);
  if (!(per > 0) || std::isinf(gap)) return std::numeric_limits<int64_t>::max();
  int64_t k = static_cast<int64_t>(std::floor(gap / per));
  k = std::max<int64_t>(k - 1, 0);
  // The largest k with a after k containers still first, plus one.
  const auto first_after = [&](int64_t n) {
    OrderedApp x = a;
    x.used_memory_mb += n * unit_memory_mb;
    x.pending_memory_mb -= n * unit_memory_mb;
    return CompareFair(size_based_weight, x, b) < 0;
  };
  while (k > 0 && !first_after(k)) --k;
  while (first_after(k + 1)) ++k;
  return k + 1;
}

}  // namespace spindle::pool
