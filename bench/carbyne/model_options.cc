#include "bench/carbyne/model_options.h"

#include <cmath>

namespace spindle::bench::carbyne {

Status ModelOptions::Validate() const {
  if (machines < 1) return Status::InvalidArgument("machines must be >= 1");
  if (machine.memory_mb < 1 || machine.vcores < 1) {
    return Status::InvalidArgument("machine memory and vcores must be >= 1");
  }
  if (jobs < 1) return Status::InvalidArgument("jobs must be >= 1");
  if (!(interarrival_s >= 0) || !std::isfinite(interarrival_s)) {
    return Status::InvalidArgument("interarrival must be >= 0 seconds");
  }
  if (max_stages < 2) return Status::InvalidArgument("max stages must be >= 2");
  if (max_tasks < 1) return Status::InvalidArgument("max tasks per stage must be >= 1");
  if (!(min_task_s > 0) || !(max_task_s >= min_task_s) || !std::isfinite(max_task_s)) {
    return Status::InvalidArgument("task durations need 0 < min <= max seconds");
  }
  if (max_task_memory_gb < 1 || int64_t{max_task_memory_gb} * 1024 > machine.memory_mb) {
    return Status::InvalidArgument("max task memory must be >= 1 GB and fit a machine");
  }
  if (machine.vcores < 4) {
    return Status::InvalidArgument("machines need >= 4 vcores (the largest task's)");
  }
  if (!(p_altruism >= 0 && p_altruism <= 1)) {
    return Status::InvalidArgument("P(altruism) must be in [0, 1]");
  }
  if (fairness_window_ms < 1) return Status::InvalidArgument("fairness window must be >= 1 ms");
  return Status::OK();
}

}  // namespace spindle::bench::carbyne
