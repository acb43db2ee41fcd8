#include "rm/apps/active_applications.h"

namespace spindle::rm {

bool ActiveApplications::Activate(HadoopLine line, const std::string& queue,
                                  const std::string& user, const ApplicationId& app,
                                  int32_t user_activated_apps) {
  // UsersManager.activateApplication (3.3): a user none of whose apps the
  // AM limits let go does not count, so its held AMs dilute nobody's limit.
  if (line == HadoopLine::k3_3 && user_activated_apps <= 0) return IsActive(queue, app);
  queues_[queue][user].insert(app);
  return true;
}

void ActiveApplications::Deactivate(const std::string& queue, const std::string& user,
                                    const ApplicationId& app) {
  auto q = queues_.find(queue);
  if (q == queues_.end()) return;
  auto u = q->second.find(user);
  if (u == q->second.end()) return;
  u->second.erase(app);
  if (u->second.empty()) q->second.erase(u);
  if (q->second.empty()) queues_.erase(q);
}

bool ActiveApplications::IsActive(const std::string& queue, const ApplicationId& app) const {
  auto q = queues_.find(queue);
  if (q == queues_.end()) return false;
  for (const auto& [user, apps] : q->second) {
    if (apps.count(app) != 0) return true;
  }
  return false;
}

int32_t ActiveApplications::ActiveUsers(const std::string& queue) const {
  auto q = queues_.find(queue);
  return q == queues_.end() ? 0 : static_cast<int32_t>(q->second.size());
}

std::map<std::string, QueueActivity> ActiveApplications::Report() const {
  std::map<std::string, QueueActivity> out;
  for (const auto& [queue, users] : queues_) {
    QueueActivity& activity = out[queue];
    for (const auto& [user, apps] : users) {
      activity.users[user] = static_cast<int64_t>(apps.size());
      activity.active_apps += static_cast<int64_t>(apps.size());
    }
  }
  return out;
}

}  // namespace spindle::rm
