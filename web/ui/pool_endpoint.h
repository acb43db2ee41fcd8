// GET /ws/v1/spindle/pool[?seconds=N]: Spindle's scheduler pool for the UI's
// charts. With `seconds`, the series holds only the points of the last N
// seconds (the page takes the whole series once, then its tail); N is a
// whole number from 1 to 1000000, else 400 BadRequestException.
//
//   {"pool": {
//     "nowMs": <milliseconds since the pool's epoch, on the pool's clock>,
//     "mode": "parsync" | "samesync" | "statesync" | "monolithic",
//     "utilisation": <dominant share of the cell in use, 0..1>,
//     "capacity": {"memory": MB, "vCores": n}, "allocated": {...},
//     "overall": <scheduler>, "schedulers": [<scheduler>, ...],
//     "series": [<point>, ...]}}               (oldest first, one per second)
//
//   <scheduler>: id (-1 for overall), strategy (the active one), steps,
//   placements, conflicts, transactions, partitionSyncs, fullSyncs,
//   withPreference, preferred, quality (0..1), meanScore, backlog, busyMs,
//   meanStalenessMs, maxStalenessMs, delayCount, delayP50Ms, delayP90Ms,
//   delayP99Ms, delayMeanMs, delayMaxMs.
//   Counters are cumulative since the pool started (the browser computes
//   rates from the deltas); delay percentiles are over every placement.
//
//   <point>: second (since the pool's epoch; it covers [second, second+1)),
//   placements, conflicts, delayP50Ms, delayP90Ms, delayP99Ms, backlog,
//   meanStalenessMs, utilisation, quality.
//
// While the core is standby (no pool): 503 "the ResourceManager is standby".
//
// Thread-safety: stateless; the core's PoolStatus() is thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "rm/core/client_facade.h"
#include "scheduler_pool/metrics.h"
#include "web/http/http_message.h"

namespace spindle::web {

// The body above from a snapshot (tests build snapshots by hand).
std::string PoolJson(const pool::PoolMetrics& metrics, const std::vector<pool::SeriesPoint>& series,
                     Duration since_epoch, const std::string& mode);

// The handler: the core's pool now, as JSON.
HttpResponse ServePool(const HttpRequest& request, const rm::ClientFacade& core);

}  // namespace spindle::web
