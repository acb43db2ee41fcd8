// ActiveApplications: which applications of each leaf queue have
// outstanding resource requests ("active"), and so which users are active,
// as Hadoop's ActiveUsersManager (2.6 / 2.7) and UsersManager (3.3) keep
// them and report them to the queue's QueueMetrics (activateApp /
// deactivateApp -> ActiveApplications, incrActiveUsers / decrActiveUsers
// -> ActiveUsers).
//
// The moments are the callers' (ApplicationManager, fed by the attempt's
// ask table, AttemptAllocator): AppSchedulingInfo activates an app when an
// ANY request asks for containers (the AM request once the attempt is added
// to the scheduler, then the AM's own asks) and deactivates it when no ANY
// request asks for any (checkForDeactivation, after an allocation or an
// ask took the last to zero); LeafQueue.finishApplication deactivates it
// when the app leaves; a move deactivates it in the old queue and activates
// it in the new one. An attempt's end deactivates nothing: the same
// application id stays in the set until its next attempt's asks are served
// or the app leaves (AppSchedulingInfo.stop clears the requests only).
//
// The lines differ in one rule (release-2.6.0 / rel/release-2.7.7
// ActiveUsersManager.activateApplication against rel/release-3.3.0
// UsersManager.activateApplication): 3.3 ignores the activation while the
// user has no application LeafQueue activated under the AM limits
// (User.getActiveApplications() <= 0), and is not asked again until a
// request goes from none to some; 2.6 / 2.7 always take it.
//
// Thread contract: none; the ApplicationManager calls it under its mutex.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "rm/config/hadoop_line.h"
#include "rm/records/yarn_ids.h"

namespace spindle::rm {

// One leaf queue's figures.
struct QueueActivity {
  // QueueMetrics.activeApplications: apps with outstanding requests.
  int64_t active_apps = 0;
  // The users with one (QueueMetrics.activeUsers), each with its count.
  std::map<std::string, int64_t> users;
};

class ActiveApplications {
 public:
  // activateApplication. `user_activated_apps`: the user's applications
  // LeafQueue activated in `queue` under the AM limits (3.3's gate; ignored
  // on 2.6 / 2.7). Returns whether the app is active afterwards.
  bool Activate(HadoopLine line, const std::string& queue, const std::string& user,
                const ApplicationId& app, int32_t user_activated_apps);
  // deactivateApplication (idempotent).
  void Deactivate(const std::string& queue, const std::string& user, const ApplicationId& app);
  bool IsActive(const std::string& queue, const ApplicationId& app) const;
  // The users with an active application in `queue` (getNumActiveUsers
  // without 3.3's users whose apps are all pending; see am_activation.h).
  int32_t ActiveUsers(const std::string& queue) const;

  // Every queue with an active application, by queue name.
  std::map<std::string, QueueActivity> Report() const;

 private:
  // queue -> user -> the user's active applications.
  std::map<std::string, std::map<std::string, std::set<ApplicationId>>> queues_;
};

}  // namespace spindle::rm
