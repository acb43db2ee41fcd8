// ResourceMath: the Resources/ResourceCalculator arithmetic the preemption
// policy is written in, with Hadoop's rounding, so that the policy's figures
// match the Java RM's to the unit. Two calculators, as the CapacityScheduler's
// yarn.scheduler.capacity.resource-calculator chooses:
//   kMemory   DefaultResourceCalculator: compares, divides and tests only
//             memory; multiplyAndNormalizeUp rounds memory half up to the
//             step and gives 1 vcore to a positive amount (createResource).
//   kDominant DominantResourceCalculator over memory and vcores: compares
//             dominant shares of the cluster (then the other share), divides
//             dominant shares, rounds every type up to the step.
// Resources.multiply truncates each type (multiplyAndRound DOWN).
//
// Thread-safety: a value; const methods only.
#pragma once

#include <cstdint>

#include "scheduler_pool/resources.h"

namespace spindle::rm::preemption {

enum class Calculator : uint8_t { kMemory, kDominant };

class ResourceMath {
 public:
  ResourceMath(Calculator calculator, const pool::Resource& cluster)
      : calculator_(calculator), cluster_(cluster) {}

  Calculator calculator() const { return calculator_; }
  const pool::Resource& cluster() const { return cluster_; }

  // ResourceCalculator.compare: <0, 0, >0.
  int Compare(const pool::Resource& a, const pool::Resource& b) const;
  bool Less(const pool::Resource& a, const pool::Resource& b) const { return Compare(a, b) < 0; }
  bool Greater(const pool::Resource& a, const pool::Resource& b) const { return Compare(a, b) > 0; }
  bool LessOrEqual(const pool::Resource& a, const pool::Resource& b) const {
    return Compare(a, b) <= 0;
  }
  bool GreaterOrEqual(const pool::Resource& a, const pool::Resource& b) const {
    return Compare(a, b) >= 0;
  }
  bool Positive(const pool::Resource& a) const { return Greater(a, pool::Resource()); }
  // Resources.min / max: the whole of the smaller (larger) by Compare.
  pool::Resource Min(const pool::Resource& a, const pool::Resource& b) const {
    return Compare(a, b) <= 0 ? a : b;
  }
  pool::Resource Max(const pool::Resource& a, const pool::Resource& b) const {
    return Compare(a, b) >= 0 ? a : b;
  }
  // ResourceCalculator.divide (a float, as Hadoop's).
  float Divide(const pool::Resource& numerator, const pool::Resource& denominator) const;
  // ResourceCalculator.fitsIn.
  bool FitsIn(const pool::Resource& smaller, const pool::Resource& bigger) const;
  bool AnyMajorAboveZero(const pool::Resource& a) const;
  bool AnyMajorZeroOrNegative(const pool::Resource& a) const;
  // ResourceCalculator.multiplyAndNormalizeUp with a per-type factor
  // (`by_memory`, `by_vcores`) and a step of 1 (what the policy passes).
  pool::Resource MultiplyAndNormalizeUp(const pool::Resource& r, double by_memory,
                                        double by_vcores) const;

  // Resources.multiply: each type times `by`, truncated.
  static pool::Resource Multiply(const pool::Resource& r, double by);
  // Resources.componentwiseMin / componentwiseMax over memory and vcores.
  static pool::Resource ComponentwiseMin(const pool::Resource& a, const pool::Resource& b) {
    return a.Min(b);
  }
  static pool::Resource ComponentwiseMax(const pool::Resource& a, const pool::Resource& b) {
    return a.Max(b);
  }

 private:
  // A type's share of the cluster (0 for an empty cluster type).
  double Share(const pool::Resource& r, int index) const;

  Calculator calculator_;
  pool::Resource cluster_;
};

}  // namespace spindle::rm::preemption
