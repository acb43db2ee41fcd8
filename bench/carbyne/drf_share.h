// DrfShares: the closed form of DRF (§3.3 uses one for its inter-job
// scheduler): progressive filling of `capacity` among jobs with the given
// demands. Every job's dominant share grows at the same rate; a job stops
// at its demand; all stop when a resource runs out. The result is each
// job's fair allocation A_k, the input of the intra-job scheduler.
//
// Thread-safety: a pure function.
#pragma once

#include <vector>

#include "bench/carbyne/resources.h"

namespace spindle::bench::carbyne {

// One allocation per demand, in the same order. A zero demand gets zero.
// Capacity components must be > 0.
std::vector<Allocation> DrfShares(const std::vector<Resources>& demands, const Resources& capacity);

}  // namespace spindle::bench::carbyne
