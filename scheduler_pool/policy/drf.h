// Dominant Resource Fairness in closed form (Ghodsi et al., NSDI 2011; the
// inter-job level of Carbyne): weighted progressive filling over continuous
// demands. Each demand k grows its dominant share in proportion to its
// weight until its demand is met or a resource it uses runs out; then the
// others go on. Used to state fair shares (the policy's targets, Carbyne's
// A_k and leftover) and by tests on the textbook examples.
#pragma once

#include <vector>

#include "scheduler_pool/resources.h"

namespace spindle::pool {

struct DrfDemand {
  Resource demand;  // the total the queue (or job) could use now
  double weight = 1.0;
};

struct DrfShare {
  // Fraction of the demand granted, in [0, 1].
  double fraction = 0;
  // Dominant share of the grant over the capacity.
  double dominant_share = 0;
  // The grant, per dimension (fraction * demand).
  double Of(const Resource& demand, int index) const {
    return fraction * static_cast<double>(demand.Get(index));
  }
};

// One DrfShare per demand, in order. Dimensions with zero capacity are
// ignored; a demand for them is never granted.
std::vector<DrfShare> DrfFairShares(const Resource& capacity,
                                    const std::vector<DrfDemand>& demands);

}  // namespace spindle::pool
