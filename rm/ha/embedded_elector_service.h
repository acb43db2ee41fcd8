// EmbeddedElectorService: the RM's own leader elector, as Hadoop's
// ActiveStandbyElectorBasedElectorService (3.3) / EmbeddedElectorService
// (2.6, 2.7) runs an ActiveStandbyElector inside the ResourceManager:
//
//   election znode  <zk-base-path>/<cluster-id>, created if missing
//   data            ActiveRMInfoProto{clusterId, rmId} (lock and breadcrumb)
//   won             the RM transitions to active (a failure there makes the
//                   elector give the lock up and rejoin after 1 s)
//   lost            the RM transitions to standby (errors only logged)
//   neutral         3.3: a timer of zk-timeout-ms; if the session is not back
//                   by then the RM goes standby. 2.6/2.7: nothing.
//   fatal           handed to the RM as Hadoop's RMFatalEvent
//                   EMBEDDED_ELECTOR_FAILED (on_fatal, from the elector's
//                   thread: the RM must act on another thread)
//   fence old       nothing: the embedded elector does not fence (the state
//                   store's root ACL does), as Hadoop's logs say
//
// At creation the lock's current data is checked (isParentZnodeSafe): data
// that is not an ActiveRMInfoProto, or one of another cluster-id, is logged;
// 2.6/2.7 then stop the RM (their fatal event terminates it) -- Create fails
// with Hadoop's message; 3.3's fatal event sends a standby RM to standby and
// rejoins, i.e. it joins anyway.
//
// Thread contract: Create/Start/Stop/RejoinElection from the RM's lifecycle
// (any thread, never from a hook); the hooks run on the elector's or the
// disconnect timer's thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "base/mutex.h"
#include "base/result.h"
#include "rm/config/hadoop_line.h"
#include "rm/ha/active_standby_elector.h"
#include "rm/ha/elector_zk_settings.h"

namespace spindle::rm {

struct EmbeddedElectorOptions {
  std::string cluster_id;  // yarn.resourcemanager.cluster-id
  std::string rm_id;       // this RM's id
  std::string zk_base_path = "/yarn-leader-election";
  ElectorZkSettings zk;
  HadoopLine line = kDefaultHadoopLine;
  // ActiveStandbyElector's pauses (tests shorten them).
  std::chrono::milliseconds sleep_after_failure{1000};
  std::chrono::milliseconds sleep_between_connects{5000};
};

struct EmbeddedElectorHooks {
  // The RM's transitionToActive (request source REQUEST_BY_ZKFC).
  std::function<Status()> transition_to_active;
  // The RM's transitionToStandby.
  std::function<void()> transition_to_standby;
  // RMFatalEvent(EMBEDDED_ELECTOR_FAILED, message).
  std::function<void(const std::string& message)> on_fatal;
};

// ActiveRMInfoProto's bytes for `cluster_id` and `rm_id`.
std::string ActiveRmInfo(const std::string& cluster_id, const std::string& rm_id);

class EmbeddedElectorService final : private ElectorCallbacks {
 public:
  // serviceInit: connects, ensures the election znode, checks the lock's
  // data (see the file comment). Errors: Hadoop's messages.
  static Result<std::unique_ptr<EmbeddedElectorService>> Create(EmbeddedElectorOptions options,
                                                                EmbeddedElectorHooks hooks);
  ~EmbeddedElectorService() override;

  // serviceStart: joins the election.
  void Start();
  // serviceStop: quits without fencing (our breadcrumb deleted when active).
  void Stop();
  // quitElection(false) + joinElection, as after a fatal event or fencing.
  void RejoinElection();

  std::string election_znode() const { return election_znode_; }
  ActiveStandbyElector& elector() { return *elector_; }

 private:
  EmbeddedElectorService(EmbeddedElectorOptions options, EmbeddedElectorHooks hooks);
  // isParentZnodeSafe.
  bool ParentZnodeSafe();

  // ElectorCallbacks (the elector's thread).
  Status BecomeActive() override;
  void BecomeStandby() override;
  void EnterNeutralMode() override;
  void NotifyFatalError(const std::string& message) override;
  void FenceOldActive(const std::string& old_active_data) override;

  void CancelDisconnectTimer() EXCLUDES(timer_mu_);
  void RunDisconnectTimer() EXCLUDES(timer_mu_);

  const EmbeddedElectorOptions options_;
  const EmbeddedElectorHooks hooks_;
  const std::string election_znode_;
  const std::string local_active_node_info_;
  std::unique_ptr<ActiveStandbyElector> elector_;

  // 3.3's zkDisconnectTimer: armed by neutral mode, cancelled by a decision.
  Mutex timer_mu_;
  CondVar timer_cv_;
  std::optional<std::chrono::steady_clock::time_point> disconnect_deadline_ GUARDED_BY(timer_mu_);
  bool timer_stop_ GUARDED_BY(timer_mu_) = false;
  std::thread timer_thread_;
};

}  // namespace spindle::rm
