// ResourceNormalizer: the one place a requested capability becomes what the
// scheduler places, as Hadoop's CapacityScheduler normalises a
// ResourceRequest (SchedulerUtils.normalizeRequest with the configured
// ResourceCalculator, the minimum allocation as the step; the same on the
// 2.6, 2.7 and 3.3 lines):
//  - DefaultResourceCalculator (Hadoop's default) looks at memory only:
//    max(requested, minimum) rounded up to a multiple of the step, capped at
//    the maximum; the result has 1 vcore (0 when memory is 0) and nothing of
//    any other type, as Resources.createResource(memory) makes it.
//  - DominantResourceCalculator does the same for every dimension (a step of
//    0 leaves that dimension unrounded).
// Every front end (the AM wire, the wind tunnel, the staging cell, benches)
// normalises through this, so a task has one shape everywhere.
//
// Validation (negative or above-maximum asks) is the caller's: Hadoop checks
// before it normalises (SchedulerUtils.validateResourceRequest).
//
// Thread-safety: a value; const methods may be called concurrently.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

enum class ResourceCalculator {
  kDefault,   // org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator
  kDominant,  // org.apache.hadoop.yarn.util.resource.DominantResourceCalculator
};

// The key in capacity-scheduler.xml, and Hadoop's default class.
inline constexpr char kResourceCalculatorKey[] = "yarn.scheduler.capacity.resource-calculator";
inline constexpr char kDefaultResourceCalculatorClass[] =
    "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";
inline constexpr char kDominantResourceCalculatorClass[] =
    "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";

// The calculator a class name names; InvalidArgument for any other class
// (Hadoop fails to start with a ClassNotFoundException there).
Result<ResourceCalculator> ParseResourceCalculator(std::string_view class_name);
std::string_view ResourceCalculatorClass(ResourceCalculator calculator);

class ResourceNormalizer {
 public:
  // Defaults: Hadoop's yarn-default minimum (1024 MB, 1 vcore) and maximum
  // (8192 MB, 4 vcores), DefaultResourceCalculator.
  ResourceNormalizer() = default;
  ResourceNormalizer(ResourceCalculator calculator, pool::Resource minimum, pool::Resource maximum);

  pool::Resource Normalize(const pool::Resource& requested) const;

  ResourceCalculator calculator() const { return calculator_; }
  const pool::Resource& minimum() const { return minimum_; }
  const pool::Resource& maximum() const { return maximum_; }

 private:
  ResourceCalculator calculator_ = ResourceCalculator::kDefault;
  pool::Resource minimum_ = pool::Resource::Of(1024, 1);
  pool::Resource maximum_ = pool::Resource::Of(8192, 4);
  // The step: the CapacityScheduler rounds to multiples of the minimum.
  pool::Resource step_ = pool::Resource::Of(1024, 1);
};

}  // namespace spindle::rm
