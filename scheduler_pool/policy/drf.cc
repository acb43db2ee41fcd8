#include "scheduler_pool/policy/drf.h"

#include <algorithm>

namespace spindle::pool {

std::vector<DrfShare> DrfFairShares(const Resource& capacity,
                                    const std::vector<DrfDemand>& demands) {
  const size_t n = demands.size();
  std::vector<DrfShare> out(n);
  std::vector<bool> active(n, false);
  std::vector<double> dom(n, 0);  // dominant share of the full demand
  for (size_t k = 0; k < n; ++k) {
    bool feasible = demands[k].weight > 0;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      if (demands[k].demand.Get(i) > 0 && capacity.Get(i) <= 0) feasible = false;
    }
    dom[k] = demands[k].demand.DominantShare(capacity);
    active[k] = feasible && dom[k] > 0;
  }
  // used[i]: capacity fraction of dimension i granted to frozen demands.
  double used[kMaxResourceTypes] = {};
  const auto fraction_at = [&](size_t k, double x) {
    return std::min(1.0, demands[k].weight * x / dom[k]);
  };
  // Load of dimension i if every active demand is at level x.
  const auto load = [&](int i, double x) {
    double l = used[i];
    for (size_t k = 0; k < n; ++k) {
      if (!active[k]) continue;
      l += fraction_at(k, x) * static_cast<double>(demands[k].demand.Get(i)) /
           static_cast<double>(capacity.Get(i));
    }
    return l;
  };
  constexpr double kEps = 1e-12;
  while (std::any_of(active.begin(), active.end(), [](bool a) { return a; })) {
    // The level at which every active demand is met.
    double hi = 0;
    for (size_t k = 0; k < n; ++k) {
      if (active[k]) hi = std::max(hi, dom[k] / demands[k].weight);
    }
    const auto feasible = [&](double x) {
      for (int i = 0; i < kMaxResourceTypes; ++i) {
        if (capacity.Get(i) > 0 && load(i, x) > 1.0 + 1e-12) return false;
      }
      return true;
    };
    double x = hi;
    if (!feasible(hi)) {
      double lo = 0;
      for (int iter = 0; iter < 200; ++iter) {
        const double mid = (lo + hi) / 2;
        (feasible(mid) ? lo : hi) = mid;
      }
      x = lo;
    }
    // Freeze demands that are met or that use a saturated dimension.
    bool saturated[kMaxResourceTypes] = {};
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      saturated[i] = capacity.Get(i) > 0 && load(i, x) >= 1.0 - 1e-9;
    }
    bool froze = false;
    for (size_t k = 0; k < n; ++k) {
      if (!active[k]) continue;
      const double f = fraction_at(k, x);
      bool freeze = f >= 1.0 - kEps;
      for (int i = 0; i < kMaxResourceTypes; ++i) {
        if (saturated[i] && demands[k].demand.Get(i) > 0) freeze = true;
      }
      if (!freeze) continue;
      out[k].fraction = f;
      out[k].dominant_share = f * dom[k];
      for (int i = 0; i < kMaxResourceTypes; ++i) {
        if (capacity.Get(i) > 0) {
          used[i] += f * static_cast<double>(demands[k].demand.Get(i)) /
                     static_cast<double>(capacity.Get(i));
        }
      }
      active[k] = false;
      froze = true;
    }
    if (!froze) break;  // numerical safety: cannot happen in exact arithmetic
  }
  return out;
}

}  // namespace spindle::pool
