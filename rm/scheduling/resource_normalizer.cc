#include "rm/scheduling/resource_normalizer.h"

#include <algorithm>

namespace spindle::rm {

namespace {

// max(value, minimum) rounded up to a multiple of step (when step > 0),
// capped at maximum.
int64_t NormalizeOne(int64_t value, int64_t minimum, int64_t maximum, int64_t step) {
  int64_t v = std::max(value, minimum);
  if (step > 0) v = (v + step - 1) / step * step;
  return std::min(v, maximum);
}

}  // namespace

Result<ResourceCalculator> ParseResourceCalculator(std::string_view class_name) {
  if (class_name == kDefaultResourceCalculatorClass) return ResourceCalculator::kDefault;
  if (class_name == kDominantResourceCalculatorClass) return ResourceCalculator::kDominant;
  return Status::InvalidArgument(std::string(kResourceCalculatorKey) + " names class '" +
                                 std::string(class_name) + "', which is neither " +
                                 kDefaultResourceCalculatorClass + " nor " +
                                 kDominantResourceCalculatorClass);
}

std::string_view ResourceCalculatorClass(ResourceCalculator calculator) {
  return calculator == ResourceCalculator::kDominant ? kDominantResourceCalculatorClass
                                                     : kDefaultResourceCalculatorClass;
}

ResourceNormalizer::ResourceNormalizer(ResourceCalculator calculator, pool::Resource minimum,
                                       pool::Resource maximum)
    : calculator_(calculator), minimum_(minimum), maximum_(maximum), step_(minimum) {}

pool::Resource ResourceNormalizer::Normalize(const pool::Resource& requested) const {
  if (calculator_ == ResourceCalculator::kDefault) {
    const int64_t memory =
        NormalizeOne(requested.memory_mb(), minimum_.memory_mb(), maximum_.memory_mb(),
                     step_.memory_mb() > 0 ? step_.memory_mb() : minimum_.memory_mb());
    return pool::Resource::Of(memory, memory > 0 ? 1 : 0);
  }
  pool::Resource out;
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    out.Set(i, NormalizeOne(requested.Get(i), minimum_.Get(i), maximum_.Get(i), step_.Get(i)));
  }
  return out;
}

}  // namespace spindle::rm
