// PoolReport: a snapshot of the scheduler pool for the UI's charts and the
// Prometheus samples (/ws/v1/spindle/pool, /metrics).
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "scheduler_pool/metrics.h"

namespace spindle::rm {

struct PoolReport {
  // Read after the series, so that a point closed between the two reads
  // shows in the counters too, never the other way round.
  pool::PoolMetrics metrics;
  // Oldest first, one point per second since the pool's epoch.
  std::vector<pool::SeriesPoint> series;
  // Now, on the RM's clock, since the pool's epoch.
  Duration since_epoch{};
  // pool::SyncModeName of the pool's mode.
  std::string mode;
};

}  // namespace spindle::rm
