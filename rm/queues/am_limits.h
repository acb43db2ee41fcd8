// AM limits of a CapacityScheduler leaf queue: how many applications may
// have their ApplicationMaster placed at once (Hadoop's "active" apps; the
// others wait as "pending" apps, ACCEPTED, with no AM container asked for).
// The rule differs by Hadoop line, and each is followed as its LeafQueue
// computes it:
//
//  2.6  (LeafQueue, CSQueueUtils.computeMaxActiveApplications): a COUNT of
//       active apps, fixed by the cluster size and the configuration:
//         max active          = max(1, ceil(cluster/minAllocation x am% x absMax))
//         max active per user = max(1, ceil(max(1, ceil(cluster/minAllocation
//                                 x am% x absCapacity)) x MULP/100 x ULF))
//       (cluster/minAllocation is Resources.ratio: memory only under the
//       DefaultResourceCalculator, the larger dimension under the Dominant one).
//  2.7  (getAMResourceLimit / getUserAMResourceLimit): RESOURCES, the AM
//       containers' sum:
//         queue limit = multiplyAndNormalizeUp(max(guaranteed, current limit), am%)
//         user limit  = multiplyAndNormalizeUp(guaranteed,
//                         am% x max(MULP/100, 1/active users) x ULF)
//       guaranteed = cluster x absCapacity normalised down to the minimum
//       allocation; the current limit is what the queue may use now, as the
//       parent queues hand it down (ParentQueue.getResourceLimitsOfChild:
//       min(parent limit - parent used + queue used, queue maximum)).
//  3.3  (calculateAndGetAMResourceLimitPerPartition,
//       getUserAMResourceLimitPerPartition): as 2.7 for the default partition,
//       with guaranteed = partition x absCapacity (not normalised) and the user
//       limit capped by the queue limit. "partition" is the default
//       partition's resources (the nodes without a label): the queue's
//       effective capacity, its maximum and the root's limit are all of it
//       (getEffectiveCapacity(""), getQueueMaxResource(""), the root's
//       ResourceLimits of getResourceByLabel("")); 2.6/2.7 take the whole
//       cluster whatever the labels.
// The activation loop that applies these is rm/apps/am_activation.h.
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "rm/config/hadoop_line.h"
#include "rm/queues/queue_tree.h"
#include "rm/scheduling/resource_normalizer.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

// What every leaf's limits depend on beside the leaf itself.
struct AmLimitContext {
  HadoopLine line = kDefaultHadoopLine;
  ResourceCalculator calculator = ResourceCalculator::kDefault;
  // yarn.scheduler.minimum-allocation-{mb,vcores}: the rounding step.
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // The cluster's resources (the usable nodes' totals).
  pool::Resource cluster;
  // 3.3: the default partition's resources when some nodes carry a label
  // (see above); unset, or another line: the cluster.
  std::optional<pool::Resource> default_partition;
};

// One leaf's part of the computation, as of one moment.
struct LeafAmInputs {
  double am_fraction = 0.1;      // maximum-am-resource-percent
  double absolute_capacity = 1;  // fractions of the cluster
  double absolute_maximum_capacity = 1;
  int32_t minimum_user_limit_percent = 100;
  double user_limit_factor = 1;
  // What the queue may use now (ParentQueue.getResourceLimitsOfChild).
  pool::Resource current_limit;
  // 3.3 user-settings.<user>.weight (CsQueue::user_weights).
  std::map<std::string, float> user_weights;
};

// The limits a leaf has now, with `active_users` users active in it
// (Hadoop's ActiveUsersManager count; at least 1 is assumed, as Hadoop does).
struct LeafAmLimits {
  // 2.6 only: counts of active apps. -1 on the other lines.
  int32_t max_active_apps = -1;
  int32_t max_active_apps_per_user = -1;
  // 2.7 and 3.3: the AM containers' sum, in the queue and per user.
  // (On 2.6 these are the resource equivalents for reports only: the count
  // x the minimum allocation.)
  pool::Resource queue_am_limit;
  pool::Resource user_am_limit;
};

// Whether the line limits AMs by count (2.6) or by resource (2.7, 3.3).
bool AmLimitIsCount(HadoopLine line);

LeafAmLimits ComputeLeafAmLimits(const AmLimitContext& context, const LeafAmInputs& leaf,
                                 int32_t active_users);

// `user`'s own AM limit: 3.3 LeafQueue.getUserAMResourceLimitPerPartition
// scales the user limit part by the user's weight,
// min(max(MULP / 100, 1 / activeUsers) x weight, 1), and caps the result by
// the queue's AM limit; without a weight (and on 2.x) it is
// limits.user_am_limit.
pool::Resource UserAmLimitOf(const AmLimitContext& context, const LeafAmInputs& leaf,
                             const LeafAmLimits& limits, int32_t active_users,
                             const std::string& user);

// The inputs of every leaf of `tree` (by QueueTree::PoolQueueName), given
// each leaf's current usage (`usage_of(leaf name)`, zero for an unknown one).
std::map<std::string, LeafAmInputs> LeafAmInputsOf(
    const QueueTree& tree, const AmLimitContext& context,
    const std::function<pool::Resource(const std::string&)>& usage_of);

// Whether `amount` is within `limit` as the line compares them:
// 2.7 Resources.lessThanOrEqual (the calculator's comparison: memory under
// the Default calculator, dominant shares of the cluster under the Dominant
// one); 3.3 ResourceCalculator.fitsIn (memory; every dimension).
bool AmFits(const AmLimitContext& context, const pool::Resource& amount,
            const pool::Resource& limit);

// Resource arithmetic of Hadoop's ResourceCalculators, as the AM limits use
// it. The Default calculator looks at memory only and answers with 1 vcore
// (0 for no memory), as Resources.createResource(memory).
pool::Resource MultiplyAndNormalizeUp(ResourceCalculator calculator, const pool::Resource& r,
                                      double by, const pool::Resource& step);
pool::Resource MultiplyAndNormalizeDown(ResourceCalculator calculator, const pool::Resource& r,
                                        double by, const pool::Resource& step);
pool::Resource RoundDown(ResourceCalculator calculator, const pool::Resource& r,
                         const pool::Resource& step);
// Resources.min / max under the calculator's comparison.
pool::Resource CalculatorMin(ResourceCalculator calculator, const pool::Resource& cluster,
                             const pool::Resource& a, const pool::Resource& b);
pool::Resource CalculatorMax(ResourceCalculator calculator, const pool::Resource& cluster,
                             const pool::Resource& a, const pool::Resource& b);

// Hadoop's Resource.toString of the line for memory and vcores:
// "<memory:2048, vCores:1>".
std::string HadoopResourceString(const pool::Resource& r);

}  // namespace spindle::rm
