#include "rm/apps/am_activation.h"

#include <time.h>

#include <algorithm>
#include <tuple>

namespace spindle::rm {

namespace {

// CSAMContainerLaunchDiagnosticsConstants (3.3).
const char* WaitText(AmWaitReason reason) {
  switch (reason) {
    case AmWaitReason::kQueueAmLimit:
      return "Queue's AM resource limit exceeded. ";
    case AmWaitReason::kUserAmLimit:
      return "User's AM resource limit exceeded. ";
    case AmWaitReason::kClusterEmpty:
      return "Skipping AM assignment as cluster resource is empty. ";
    case AmWaitReason::kQueueActiveApps:
    case AmWaitReason::kUserActiveApps:
      break;
  }
  return "";
}

}  // namespace

std::string PendingAmDiagnostics(const AmWait& wait, int64_t wall_ms) {
  const time_t seconds = static_cast<time_t>(wall_ms / 1000);
  struct tm utc {};
  gmtime_r(&seconds, &utc);
  char stamp[64];
  strftime(stamp, sizeof(stamp), "%a %b %d %H:%M:%S +0000 %Y", &utc);
  // AMState.INACTIVATED, the reason, then the pending app's details.
  return std::string("[") + stamp + "] " +
         "Application is added to the scheduler and is not yet activated. " +
         WaitText(wait.reason) + " Details : AM Partition = <DEFAULT_PARTITION>; " +
         "AM Resource Request = " + HadoopResourceString(wait.am_resource) + "; " +
         "Queue Resource Limit for AM = " + HadoopResourceString(wait.queue_am_limit) + "; " +
         "User AM Resource Limit of the queue = " + HadoopResourceString(wait.user_am_limit) +
         "; " + "Queue AM Resource Usage = " + HadoopResourceString(wait.queue_am_used) + "; ";
}

int32_t AmActivation::ActiveUsers(const std::string& queue, const QueueState& q) const {
  if (!active_users_count_) return static_cast<int32_t>(q.users.size());
  const int32_t asking = active_users_count_(queue);
  // UsersManager.getNumActiveUsers (3.3): activeUsers +
  // activeUsersWithOnlyPendingApps.
  return context_.line == HadoopLine::k3_3 ? asking + q.pending_only_users : asking;
}

LeafAmLimits AmActivation::LimitsOf(const std::string& queue, const QueueState& q) const {
  auto it = inputs_.find(queue);
  if (it == inputs_.end()) return {};
  return ComputeLeafAmLimits(context_, it->second, ActiveUsers(queue, q));
}

pool::Resource AmActivation::UserAmLimitFor(const std::string& queue, const QueueState& q,
                                            const LeafAmLimits& limits,
                                            const std::string& user) const {
  auto it = inputs_.find(queue);
  if (it == inputs_.end()) return limits.user_am_limit;
  return UserAmLimitOf(context_, it->second, limits, ActiveUsers(queue, q), user);
}

void AmActivation::SortPending(QueueState& q) const {
  if (context_.line == HadoopLine::k3_3) {
    // FifoOrderingPolicyForPendingApps: RecoveryComparator,
    // PriorityComparator (higher first), FifoComparator.
    std::stable_sort(
        q.pending.begin(), q.pending.end(), [](const AmApplicant& a, const AmApplicant& b) {
          return std::make_tuple(!a.recovering, -static_cast<int64_t>(a.priority), a.attempt) <
                 std::make_tuple(!b.recovering, -static_cast<int64_t>(b.priority), b.attempt);
        });
    return;
  }
  // CapacityScheduler.applicationComparator: application id.
  std::stable_sort(
      q.pending.begin(), q.pending.end(),
      [](const AmApplicant& a, const AmApplicant& b) { return a.attempt < b.attempt; });
}

void AmActivation::MakeActive(QueueState& q, const AmApplicant& applicant) {
  q.active[applicant.attempt] = applicant;
  q.am_used += applicant.am_resource;
  UserAmReport& user = q.users[applicant.user];
  ++user.active_apps;
  user.am_used += applicant.am_resource;
}

void AmActivation::DropUserIfIdle(QueueState& q, const std::string& user) {
  auto it = q.users.find(user);
  if (it != q.users.end() && it->second.active_apps == 0 && it->second.pending_apps == 0) {
    q.users.erase(it);
  }
}

AmActivationPass AmActivation::Add(const std::string& queue, const AmApplicant& applicant) {
  // Leaving another queue frees room there: that queue's pass is the
  // caller's, as after Remove.
  Remove(applicant.attempt);
  QueueState& q = queues_[queue];
  q.pending.push_back(applicant);
  ++q.users[applicant.user].pending_apps;
  queue_of_[applicant.attempt] = queue;
  if (context_.line == HadoopLine::k3_3 && inputs_.count(queue) != 0 && context_.cluster.IsZero()) {
    // LeafQueue.addApplicationAttempt (3.3): no activation while the
    // cluster has no resources (CLUSTER_RESOURCE_EMPTY).
    AmActivationPass pass;
    const LeafAmLimits limits = LimitsOf(queue, q);
    for (const AmApplicant& waiting : q.pending) {
      pass.waiting.push_back({waiting.attempt, AmWaitReason::kClusterEmpty, waiting.am_resource,
                              limits.queue_am_limit, limits.user_am_limit, q.am_used});
    }
    return pass;
  }
  return Activate(queue);
}

void AmActivation::AddActive(const std::string& queue, const AmApplicant& applicant) {
  Remove(applicant.attempt);
  QueueState& q = queues_[queue];
  MakeActive(q, applicant);
  queue_of_[applicant.attempt] = queue;
}

std::optional<std::string> AmActivation::Remove(const ApplicationAttemptId& attempt) {
  auto where = queue_of_.find(attempt);
  if (where == queue_of_.end()) return std::nullopt;
  const std::string queue = where->second;
  queue_of_.erase(where);
  QueueState& q = queues_[queue];
  if (auto it = q.active.find(attempt); it != q.active.end()) {
    const AmApplicant applicant = it->second;
    q.active.erase(it);
    q.am_used -= applicant.am_resource;
    UserAmReport& user = q.users[applicant.user];
    --user.active_apps;
    user.am_used -= applicant.am_resource;
    DropUserIfIdle(q, applicant.user);
  } else {
    auto it2 = std::find_if(q.pending.begin(), q.pending.end(),
                            [&attempt](const AmApplicant& a) { return a.attempt == attempt; });
    if (it2 != q.pending.end()) {
      const std::string user = it2->user;
      q.pending.erase(it2);
      --q.users[user].pending_apps;
      DropUserIfIdle(q, user);
    }
  }
  if (q.pending.empty() && q.active.empty()) queues_.erase(queue);
  return queue;
}

void AmActivation::UpdatePriority(const ApplicationAttemptId& attempt, int32_t priority) {
  auto where = queue_of_.find(attempt);
  if (where == queue_of_.end()) return;
  QueueState& q = queues_[where->second];
  for (AmApplicant& a : q.pending) {
    if (a.attempt == attempt) a.priority = priority;
  }
  if (auto it = q.active.find(attempt); it != q.active.end()) it->second.priority = priority;
}

AmActivationPass AmActivation::Activate(const std::string& queue) {
  AmActivationPass pass;
  auto found = queues_.find(queue);
  if (found == queues_.end()) return pass;
  QueueState& q = found->second;
  SortPending(q);
  if (inputs_.count(queue) == 0) {
    for (const AmApplicant& a : q.pending) {
      --q.users[a.user].pending_apps;
      MakeActive(q, a);
      pass.activated.push_back(a.attempt);
    }
    q.pending.clear();
    CountPendingOnlyUsers(q);
    return pass;
  }
  // Computed once per pass, as activateApplications does.
  const LeafAmLimits limits = LimitsOf(queue, q);
  // 3.3: the user AM limit of the first attempt that reaches the user check
  // holds for the rest of the pass (userAmPartitionLimit); 2.7: one limit.
  std::optional<pool::Resource> pass_user_limit;
  auto checked_user_limit = [&](const std::string& user) {
    if (!pass_user_limit.has_value()) pass_user_limit = UserAmLimitFor(queue, q, limits, user);
    return *pass_user_limit;
  };
  const bool count_rule = AmLimitIsCount(context_.line);
  std::vector<AmApplicant> still_pending;
  bool queue_full = false;
  for (const AmApplicant& a : q.pending) {
    UserAmReport& user = q.users[a.user];
    std::optional<AmWaitReason> wait;
    if (queue_full) {
      wait = AmWaitReason::kQueueActiveApps;
    } else if (count_rule) {
      if (static_cast<int32_t>(q.active.size()) >= limits.max_active_apps) {
        // 2.6 stops at the first app once the queue is full.
        queue_full = true;
        wait = AmWaitReason::kQueueActiveApps;
      } else if (user.active_apps >= limits.max_active_apps_per_user) {
        wait = AmWaitReason::kUserActiveApps;
      }
    } else {
      // Always let one AM start, however low the limit (2.7: no active app;
      // 3.3: or no AM resource in use).
      const bool first = q.active.empty() || (context_.line == HadoopLine::k3_3 &&
                                              AmFits(context_, q.am_used, pool::Resource()));
      if (!AmFits(context_, q.am_used + a.am_resource, limits.queue_am_limit) && !first) {
        wait = AmWaitReason::kQueueAmLimit;
      } else if (!AmFits(context_, user.am_used + a.am_resource, checked_user_limit(a.user)) &&
                 !first) {
        wait = AmWaitReason::kUserAmLimit;
      }
    }
    if (wait.has_value()) {
      still_pending.push_back(a);
      pass.waiting.push_back({a.attempt, *wait, a.am_resource, limits.queue_am_limit,
                              UserAmLimitFor(queue, q, limits, a.user), q.am_used});
      continue;
    }
    --user.pending_apps;
    MakeActive(q, a);
    pass.activated.push_back(a.attempt);
  }
  q.pending = std::move(still_pending);
  CountPendingOnlyUsers(q);
  return pass;
}

void AmActivation::CountPendingOnlyUsers(QueueState& q) {
  // UsersManager.computeNumActiveUsersWithOnlyPendingApps.
  q.pending_only_users = 0;
  for (const auto& [name, user] : q.users) {
    if (user.pending_apps > 0 && user.active_apps <= 0) ++q.pending_only_users;
  }
}

std::vector<std::string> AmActivation::Queues() const {
  std::vector<std::string> out;
  for (const auto& [name, q] : queues_) out.push_back(name);
  return out;
}

bool AmActivation::IsActive(const ApplicationAttemptId& attempt) const {
  auto where = queue_of_.find(attempt);
  if (where == queue_of_.end()) return false;
  auto q = queues_.find(where->second);
  return q != queues_.end() && q->second.active.count(attempt) != 0;
}

int32_t AmActivation::ActiveAppsOf(const std::string& queue, const std::string& user) const {
  auto q = queues_.find(queue);
  if (q == queues_.end()) return 0;
  auto u = q->second.users.find(user);
  return u == q->second.users.end() ? 0 : u->second.active_apps;
}

bool AmActivation::IsPending(const ApplicationAttemptId& attempt) const {
  return queue_of_.count(attempt) != 0 && !IsActive(attempt);
}

QueueAmReport AmActivation::Report(const std::string& queue) const {
  QueueAmReport report;
  report.limited = inputs_.count(queue) != 0;
  auto found = queues_.find(queue);
  static const QueueState kEmpty;
  const QueueState& q = found == queues_.end() ? kEmpty : found->second;
  report.limits = LimitsOf(queue, q);
  report.active_apps = static_cast<int32_t>(q.active.size());
  report.pending_apps = static_cast<int32_t>(q.pending.size());
  report.am_used = q.am_used;
  report.users = q.users;
  // Each user's own limit (3.3 weighs it by the user's weight).
  for (auto& [name, user] : report.users) {
    user.am_limit = report.limited ? UserAmLimitFor(queue, q, report.limits, name)
                                   : report.limits.user_am_limit;
  }
  return report;
}

}  // namespace spindle::rm
