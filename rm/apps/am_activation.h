// AmActivation: which attempts of each leaf queue are "active" (their AM
// container may be placed) and which are "pending" (they wait, ACCEPTED,
// with no AM container asked for), as the CapacityScheduler's LeafQueue
// keeps pendingApplications and activeApplications and moves apps between
// them in activateApplications(). The limits come from
// rm/queues/am_limits.h and follow the configured Hadoop line:
//
//  - 2.6: a count. Pending attempts are taken in application-id order; the
//    loop stops at the first one once the queue is at its maximum of active
//    apps, and skips one whose user is at the per-user maximum.
//  - 2.7: AM resources. In application-id order, an attempt is activated if
//    the queue's AM usage plus its AM resource is within the queue's AM
//    limit and its user's AM usage plus its AM resource is within the user
//    AM limit; otherwise it is skipped (later, smaller AMs may still go).
//    The first AM of a queue with no active app is always activated
//    ("skipping enforcement to allow at least one application to start").
//  - 3.3: as 2.7, the pending order being recovered attempts first, then
//    higher application priority, then application id
//    (FifoOrderingPolicyForPendingApps); the first-AM exception also holds
//    while the queue's AM usage is zero; an attempt added while the cluster
//    has no resources is not activated until something else triggers the
//    loop; a waiting attempt carries the reason and the numbers Hadoop puts
//    in its AM launch diagnostics.
// The loop runs when an attempt is added, when one leaves (its AM
// finished, the app was killed, failed or moved), and when the limits
// change (the cluster grew or shrank, refreshQueues). A queue without
// limits (SetLeafInputs never named it) activates everything at once.
//
// Active users (the user AM limit's max(MULP / 100, 1 / active users)):
// whoever knows the asks supplies Hadoop's count with SetActiveUsersCount,
// the users with an application that has outstanding requests
// (ActiveApplications: 2.7 ActiveUsersManager.getNumActiveUsers; 3.3
// UsersManager's activeUsers, which leaves out a user none of whose apps
// LeafQueue activated). 3.3's getNumActiveUsers adds the users whose apps
// are all pending here (activeUsersWithOnlyPendingApps); Hadoop counts
// those when it next computes user limits (UsersManager.reComputeUserLimits,
// run by the scheduling and headroom that follow any change), never inside
// activateApplications, so a pass sees them as the queue's previous pass
// left them (the count is taken at the end of each pass). 2.6 has no user
// AM limit (its per-user maximum of active apps ignores active users).
// Without a supplier, the users with an attempt in the queue, pending or
// active, count (what the two counts come to when every app asks).
//
// 3.3 computes the user AM limit once per pass (activateApplications'
// userAmPartitionLimit, by partition), with the weight of the user of the
// first attempt that reaches the user check; the diagnostics of a waiting
// attempt show its own user's limit (getPendingAppDiagnosticMessage).
//
// Thread contract: none; the ApplicationManager calls it under its mutex.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rm/queues/am_limits.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

// One attempt of an application in a leaf queue.
struct AmApplicant {
  ApplicationAttemptId attempt;
  std::string user;
  // The AM container's resource (normalised); an unmanaged AM's is the
  // scheduler's minimum allocation (2.7/3.3 FiCaSchedulerApp).
  pool::Resource am_resource;
  int32_t priority = 0;
  // Re-added by a restarted RM (3.3 orders these first).
  bool recovering = false;
};

// Why a pending attempt was not activated the last time the loop saw it.
enum class AmWaitReason {
  kQueueAmLimit,     // Queue's AM resource limit exceeded.
  kUserAmLimit,      // User's AM resource limit exceeded.
  kClusterEmpty,     // 3.3: added while the cluster had no resources.
  kQueueActiveApps,  // 2.6: the queue has its maximum of active apps.
  kUserActiveApps,   // 2.6: the user has the per-user maximum of active apps.
};

struct AmWait {
  ApplicationAttemptId attempt;
  AmWaitReason reason;
  // The numbers as the loop saw them (3.3's diagnostics show them).
  pool::Resource am_resource;
  pool::Resource queue_am_limit;
  pool::Resource user_am_limit;
  pool::Resource queue_am_used;
};

// The outcome of one pass of the loop over a queue.
struct AmActivationPass {
  std::vector<ApplicationAttemptId> activated;  // in activation order
  std::vector<AmWait> waiting;                  // every attempt still pending
};

struct UserAmReport {
  int32_t active_apps = 0;
  int32_t pending_apps = 0;
  pool::Resource am_used;
  pool::Resource am_limit;
};

// A leaf queue's numbers for reports (getQueueInfo, REST's
// numActiveApplications, numPendingApplications, amResourceLimit,
// usedAMResource, userAMResourceLimit, and per user).
struct QueueAmReport {
  bool limited = false;  // false: the queue has no AM limits (all active)
  int32_t active_apps = 0;
  int32_t pending_apps = 0;
  pool::Resource am_used;
  LeafAmLimits limits;
  std::map<std::string, UserAmReport> users;
};

// Hadoop 3.3's AM launch diagnostics of a waiting attempt
// (SchedulerApplicationAttempt.updateAMContainerDiagnostics(INACTIVATED, ...)
// with FiCaSchedulerApp.getPendingAppDiagnosticMessage), stamped with
// `wall_ms` in UTC as "EEE MMM dd HH:mm:ss Z yyyy".
std::string PendingAmDiagnostics(const AmWait& wait, int64_t wall_ms);

class AmActivation {
 public:
  explicit AmActivation(AmLimitContext context = {}) : context_(context) {}

  const AmLimitContext& context() const { return context_; }
  // The line, calculator, minimum allocation and cluster resources.
  void SetContext(const AmLimitContext& context) { context_ = context; }
  // Replaces every leaf's inputs (names as in AmApplicant's queue). A queue
  // not named has no limits.
  void SetLeafInputs(std::map<std::string, LeafAmInputs> inputs) { inputs_ = std::move(inputs); }
  // The active users of a queue; unset: the users with an attempt in it.
  // (See above: the users with outstanding requests in `queue`.)
  using ActiveUsersCount = std::function<int32_t(const std::string& queue)>;
  void SetActiveUsersCount(ActiveUsersCount count) { active_users_count_ = std::move(count); }

  // addApplicationAttempt: `applicant` joins `queue` as pending, then the
  // loop runs over the queue (3.3: not while the cluster is empty; the
  // attempt then waits with kClusterEmpty). An attempt already known is
  // removed first.
  AmActivationPass Add(const std::string& queue, const AmApplicant& applicant);
  // A recovered attempt whose AM container was already running: active
  // whatever the limits, its AM resource counted.
  void AddActive(const std::string& queue, const AmApplicant& applicant);
  // removeApplicationAttempt: forgets the attempt (pending or active) and
  // returns its queue if it was known. The caller runs Activate(queue).
  std::optional<std::string> Remove(const ApplicationAttemptId& attempt);
  // updateApplicationPriority: a pending attempt's place in 3.3's order.
  void UpdatePriority(const ApplicationAttemptId& attempt, int32_t priority);
  // One pass of the loop over `queue`.
  AmActivationPass Activate(const std::string& queue);
  // Every queue with attempts (after the limits changed).
  std::vector<std::string> Queues() const;

  bool IsActive(const ApplicationAttemptId& attempt) const;
  bool IsPending(const ApplicationAttemptId& attempt) const;
  // `user`'s active attempts in `queue` (LeafQueue's User.
  // getActiveApplications()).
  int32_t ActiveAppsOf(const std::string& queue, const std::string& user) const;
  QueueAmReport Report(const std::string& queue) const;

 private:
  struct QueueState {
    std::vector<AmApplicant> pending;
    std::map<ApplicationAttemptId, AmApplicant> active;
    pool::Resource am_used;
    std::map<std::string, UserAmReport> users;
    // 3.3: users with pending attempts and no active one, as the end of the
    // previous pass counted them (activeUsersWithOnlyPendingApps).
    int32_t pending_only_users = 0;
  };
  int32_t ActiveUsers(const std::string& queue, const QueueState& q) const;
  LeafAmLimits LimitsOf(const std::string& queue, const QueueState& q) const;
  // `user`'s AM limit (3.3 weighs it by the user's weight).
  pool::Resource UserAmLimitFor(const std::string& queue, const QueueState& q,
                                const LeafAmLimits& limits, const std::string& user) const;
  void SortPending(QueueState& q) const;
  void MakeActive(QueueState& q, const AmApplicant& applicant);
  void DropUserIfIdle(QueueState& q, const std::string& user);
  static void CountPendingOnlyUsers(QueueState& q);

  AmLimitContext context_;
  std::map<std::string, LeafAmInputs> inputs_;
  ActiveUsersCount active_users_count_;
  std::map<std::string, QueueState> queues_;
  std::map<ApplicationAttemptId, std::string> queue_of_;
};

}  // namespace spindle::rm
