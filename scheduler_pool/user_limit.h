// User limits: how much of a queue one user may hold, as the Hadoop
// CapacityScheduler computes it from a leaf queue's
// minimum-user-limit-percent (MULP) and user-limit-factor (ULF). Pure
// functions over plain values; QueueLedger applies them when schedulers
// reserve a queue's quota, so the limit holds across every scheduler of the
// pool (see queue_ledger.h).
//
// Both lines, as read from their sources:
//  - Hadoop 2.6 / 2.7, LeafQueue.computeUserLimit:
//      queueCapacity   = max(capacity, required)
//      currentCapacity = queueUsed < queueCapacity ? queueCapacity
//                                                  : queueUsed + required
//      limit = roundUp(min(max(ceil(currentCapacity / activeUsers),
//                              ceil(floor(currentCapacity * MULP) / 100)),
//                          floor(queueCapacity * ULF)), minimumAllocation)
//    with `required` the capability being placed and `capacity` the queue's
//    absolute capacity of the cluster normalised up to the minimum
//    allocation (multiplyAndNormalizeUp).
//  - Hadoop 3.3, UsersManager.computeUserLimit (active users):
//      required        = minimumAllocation (whatever is being placed)
//      queueCapacity   = max(capacity, required)
//      consumed        = normaliseUp(cluster * sum over the queue's users of
//                        ratio(userUsed, cluster))
//      currentCapacity = consumed < queueCapacity ? queueCapacity
//                                                 : consumed + required
//      limit = roundUp(min(max(ceil((activeUsersUsed + required) / activeUsers),
//                              ceil(floor(currentCapacity * MULP) / 100)),
//                          floor(queueCapacity * ULF)), minimumAllocation)
//    with `capacity` the queue's effective minimum resource (cluster x
//    absolute capacity, truncated). The fair part divides what the active
//    users hold (plus one minimum allocation), not the queue's capacity: a
//    user's limit grows one step at a time as the others' usage grows, where
//    2.x hands each active user capacity / activeUsers at once.
//    "activeUsers" is the sum of the active users' weights
//    (activeUsersTimesWeights, a float; <queue-path>.user-settings.<user>.
//    weight, 1 for users not named), and each user's own limit is the
//    queue's times its weight, rounded down to the minimum allocation
//    (getComputedResourceLimitForActiveUsers: multiplyAndNormalizeDown).
// In both, a user may be given a container while its usage is not greater
// than the limit (LeafQueue.canAssignToUser: a '>' check, so the last
// container may overshoot the limit by less than one container).
//
// Who is an "active user" differs. 2.6 / 2.7 ActiveUsersManager counts a user
// as soon as one of its applications has an outstanding request, and an
// application held back by the AM limit has one: its AM request. 3.3
// UsersManager.activateApplication ignores a user until LeafQueue has
// activated one of its applications (User.getActiveApplications() > 0), so
// users whose applications all wait on the AM limit do not dilute the
// others' limits (they do count in getNumActiveUsers, the user AM limit's
// divisor). In the pool an application enters its scheduler with asks only
// once it is activated; the RM reports held ones (QueueLedger::SetAppHeld)
// and UserCountsHeldApps says whether they count.
//
// Comparisons follow the queue's resource calculator: memory only
// (DefaultResourceCalculator) or dominant shares of the cluster
// (DominantResourceCalculator).
//
// Thread-safety: values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler_pool/ids.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

// yarn.scheduler.capacity.resource-calculator.
enum class LimitCalculator : uint8_t {
  kMemory,    // DefaultResourceCalculator: memory decides
  kDominant,  // DominantResourceCalculator: dominant share of the cluster decides
};

// Which CapacityScheduler line's formulas apply: the limit is 2.x's (2.6 and
// 2.7 agree) or 3.3's (see above); the headroom differs between all three
// (see UserHeadroom).
enum class UserLimitRules : uint8_t { kHadoop2_6, kHadoop2_7, kHadoop3_3 };

// Hadoop 3.3 <queue-path>.user-settings.<user>.weight.
struct UserWeight {
  std::string user;  // the user's name (QueueTree::ToQueueSpecs)
  UserId id;         // `user` interned (SchedulerPool::SetQueues fills it)
  double weight = 1;
};

// A leaf queue's user-limit parameters, as QueueTree::ToQueueSpecs fills them.
struct UserLimitSpec {
  // False: users are not limited (queues built in code, benches).
  bool enabled = false;
  // <queue>.minimum-user-limit-percent, within (0, 100]. Default: 100.
  int32_t minimum_user_limit_percent = 100;
  // <queue>.user-limit-factor. Default: 1.
  double user_limit_factor = 1;
  // The queue's capacity as the line computes it (see above).
  Resource capacity;
  // yarn.scheduler.minimum-allocation-{mb,vcores}: the rounding step.
  Resource minimum_allocation = Resource::Of(1024, 1);
  // The cluster (the denominator of ratios and dominant shares).
  Resource cluster;
  LimitCalculator calculator = LimitCalculator::kMemory;
  UserLimitRules rules = UserLimitRules::kHadoop3_3;
  // Hadoop 3.3: users whose weight is not 1 (the queue's own and its
  // ancestors'). Ignored by the 2.x rules.
  std::vector<UserWeight> user_weights;

  // The weight of `user` (1 unless listed; always 1 under 2.x rules).
  double WeightOf(UserId user) const;
};

// Whether a user whose applications all wait on the AM limit is an active
// user for the user limit: yes in 2.6 / 2.7, no in 3.3 (see above).
inline bool UserCountsHeldApps(UserLimitRules rules) { return rules != UserLimitRules::kHadoop3_3; }

// The queue's state a limit is computed from.
struct UserLimitInput {
  // Everything the queue's users hold (committed and reserved).
  Resource queue_used;
  // Hadoop 2.x: the capability of the container being placed.
  Resource required;
  // Active users (2.x). None gives a fair part of zero (Hadoop's
  // divideAndCeil by 0), leaving the minimum-user-limit-percent part.
  int64_t active_users = 1;
  // Hadoop 3.3: the active users' summed weights (activeUsersTimesWeights),
  // the fair part's divisor; zero behaves as active_users = 0 does.
  double active_weight = 1;
  // Hadoop 3.3: what the active users hold.
  Resource active_users_used;
  // Hadoop 3.3: the sum over the queue's users of ratio(used, cluster).
  double usage_ratio = 0;
};

// The capacity a leaf's user limit starts from, for a queue holding
// `absolute_capacity` of `cluster`: 2.6 / 2.7 normalise it up to the
// minimum allocation (multiplyAndNormalizeUp); 3.3 takes the queue's
// effective minimum resource, truncated per dimension.
Resource UserLimitCapacity(UserLimitRules rules, LimitCalculator calculator,
                           const Resource& cluster, double absolute_capacity,
                           const Resource& minimum_allocation);

// The user limit of a queue (the same for each of its users).
Resource ComputeUserLimit(const UserLimitSpec& spec, const UserLimitInput& input);

// One user's limit from the queue's: 3.3 multiplies it by the user's weight
// and rounds down to the minimum allocation (multiplyAndNormalizeDown);
// 2.x has no weights and returns `queue_limit`.
Resource UserSpecificLimit(const UserLimitSpec& spec, const Resource& queue_limit, double weight);

// LeafQueue.canAssignToUser: true unless `user_used` is greater than
// `limit` under the spec's calculator.
bool MayAssignToUser(const UserLimitSpec& spec, const Resource& user_used, const Resource& limit);

// ResourceCalculator.ratio(used, cluster): memory ratio, or the dominant share.
double UsageRatio(const UserLimitSpec& spec, const Resource& used);

struct HeadroomInput {
  Resource limit;      // ComputeUserLimit's
  Resource user_used;  // the user's usage in the queue
  // The queue's current limit (its maximum) and usage.
  Resource queue_limit;
  Resource queue_used;
  // The cluster's unallocated resources (3.3 only).
  Resource cluster_free;
};

// LeafQueue.getHeadroom, what an application master hears it may still get:
//  - 2.6: Resources.min(limit - userUsed, queueLimit - queueUsed), the
//    smaller of the two whole (by the calculator);
//  - 2.7: their componentwise minimum, rounded down to the minimum
//    allocation;
//  - 3.3: as 2.7, then the smaller (by the calculator) of that and the
//    cluster's free resources;
// negative memory read as 0 (CapacityHeadroomProvider). Under the memory
// calculator a rounded value carries 1 vcore when its memory is positive, 0
// otherwise (Resources.createResource(memory)).
Resource UserHeadroom(const UserLimitSpec& spec, const HeadroomInput& input);

}  // namespace spindle::pool
