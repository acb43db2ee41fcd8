#include "replay/fidelity/fidelity_result.h"

#include <cstdlib>

namespace spindle::replay {

bool Matches(const FidelityObservation& o, int64_t container_mb) {
  if (!o.observed.has_value()) return false;
  const int64_t tolerance = IsMemoryMetric(o.check.metric) ? container_mb : 0;
  return std::llabs(*o.observed - o.check.expected) <= tolerance;
}

bool AllMatch(const FidelityRun& run, int64_t container_mb) {
  if (!run.problems.empty()) return false;
  for (const FidelityObservation& o : run.observations) {
    if (!Matches(o, container_mb)) return false;
  }
  return true;
}

}  // namespace spindle::replay
