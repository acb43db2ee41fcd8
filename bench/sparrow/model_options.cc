#include "bench/sparrow/model_options.h"

#include <cmath>

namespace spindle::bench::sparrow {

const char* DurationKindName(DurationKind kind) {
  switch (kind) {
    case DurationKind::kConstant:
      return "constant";
    case DurationKind::kExponential:
      return "exponential";
    case DurationKind::kPareto:
      return "pareto";
  }
  return "?";
}

Result<DurationKind> ParseDurationKind(const std::string& text) {
  for (DurationKind k :
       {DurationKind::kConstant, DurationKind::kExponential, DurationKind::kPareto}) {
    if (text == DurationKindName(k)) return k;
  }
  return Status::InvalidArgument("task durations '" + text +
                                 "': expected constant, exponential or pareto");
}

Status ModelOptions::Validate() const {
  if (nodes < 1) return Status::InvalidArgument("nodes must be >= 1");
  if (slots_per_node < 1) return Status::InvalidArgument("slots per node must be >= 1");
  if (tasks_per_job < 1) return Status::InvalidArgument("tasks per job must be >= 1");
  if (!(load > 0 && load < 1)) return Status::InvalidArgument("load must be in (0, 1)");
  if (mean_task <= Duration::zero()) return Status::InvalidArgument("mean task must be > 0");
  if (!(probe_ratio >= 1) || !std::isfinite(probe_ratio)) {
    return Status::InvalidArgument("probe ratio d must be >= 1");
  }
  if (rtt < Duration::zero()) return Status::InvalidArgument("rtt must be >= 0");
  if (jobs < 1) return Status::InvalidArgument("jobs must be >= 1");
  if (!(edge_share >= 0 && edge_share < 0.5)) {
    return Status::InvalidArgument("edge share must be in [0, 0.5)");
  }
  if (!(constrained_share >= 0 && constrained_share <= 1)) {
    return Status::InvalidArgument("constrained share must be in [0, 1]");
  }
  if (preferred_nodes < 1 || preferred_nodes > nodes) {
    return Status::InvalidArgument("preferred nodes must be in [1, nodes]");
  }
  return Status::OK();
}

double ModelOptions::JobRate() const {
  const double mean_s = std::chrono::duration<double>(mean_task).count();
  return load * nodes * slots_per_node / (tasks_per_job * mean_s);
}

}  // namespace spindle::bench::sparrow
