// ActiveStandbyElector: leader election on ZooKeeper as Hadoop's
// org.apache.hadoop.ha.ActiveStandbyElector does it (hadoop-common, read in
// 2.6.0 and 3.3.0; the state machine is the same, 3.3 adds the
// duplicate-monitor guard this class gets from one armed watch), so that a
// Spindle RM and a Java RM of the same cluster can share one election:
//
//   <parent>/ActiveStandbyElectorLock  ephemeral, holds the app data of the
//                                      winner (for an RM: ActiveRMInfoProto)
//   <parent>/ActiveBreadCrumb          persistent, the app data of the last
//                                      active; left behind by a crash
//
// Joining creates the lock. Created: the winner reads the breadcrumb, asks
// the app to fence the old active if the breadcrumb names someone else,
// writes its own data there (create, or set with the version read), then
// calls BecomeActive; a failure there closes the session, sleeps
// sleep_after_failure (Hadoop's 1 s) and joins again. NodeExists: the loser
// calls BecomeStandby (first try only) and watches the lock (exists);
// deletion of the lock joins again; a lock found owned by our own session
// means we won. Connection loss: EnterNeutralMode, and the lock checked again
// on reconnection; session expiry: EnterNeutralMode, a new session, join
// again. ZooKeeper errors other than connection loss (after max_retries) are
// fatal: the elector resets and calls NotifyFatalError. Quitting without
// fencing deletes our breadcrumb (if it still holds our data) so the next
// active fences no one; quitting with need_fence leaves it.
//
// Thread contract: the elector runs on its own thread; every callback runs
// there, one at a time, with the elector's lock held (as Java's synchronized
// methods): a callback must not call back into the elector (hand such work to
// another thread). The public methods may be called from any thread; they
// wait for a callback in progress to return.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "persist/zk/zk_session.h"

namespace spindle::rm {

// What the elector tells its owner (Hadoop's ActiveStandbyElectorCallback).
class ElectorCallbacks {
 public:
  virtual ~ElectorCallbacks() = default;
  // This instance won: become active. An error makes the elector give the
  // lock up and join again after sleep_after_failure.
  virtual Status BecomeActive() = 0;
  // Another instance holds the lock.
  virtual void BecomeStandby() = 0;
  // The connection to ZooKeeper is lost: whether this instance still holds
  // the lock is unknown until it reconnects or the session expires.
  virtual void EnterNeutralMode() = 0;
  // The elector gave up (it left the election); `message` says why.
  virtual void NotifyFatalError(const std::string& message) = 0;
  // Before becoming active: the breadcrumb holds `old_active_data`, another
  // instance's data, which may still act as active.
  virtual void FenceOldActive(const std::string& old_active_data) = 0;
};

struct ActiveStandbyElectorOptions {
  // Connect string, timeout, auths (ZkSessionOptions' fields). Required.
  std::string connect_string;
  std::chrono::milliseconds session_timeout{10000};
  std::vector<zk::ZkAuth> auths;
  // The ACL of every znode the elector creates (Hadoop's zk-acl). Default:
  // world:anyone:rwcda.
  std::vector<zk::ZkAcl> acl = {zk::WorldAnyone()};
  // The election's znode, e.g. /yarn-leader-election/<cluster-id>. Required.
  std::string parent_znode;
  // Attempts of a ZooKeeper call that lost its connection, and of opening a
  // session (Hadoop's maxRetryNum). Default: 3.
  int max_retries = 3;
  // Hadoop's SLEEP_AFTER_FAILURE_TO_BECOME_ACTIVE. Default: 1 s.
  std::chrono::milliseconds sleep_after_failure{1000};
  // Between failed attempts to open a session (Hadoop: 5 s).
  std::chrono::milliseconds sleep_between_connects{5000};
};

class ActiveStandbyElector {
 public:
  static constexpr char kLockName[] = "ActiveStandbyElectorLock";
  static constexpr char kBreadCrumbName[] = "ActiveBreadCrumb";

  enum class State { kInit, kActive, kStandby, kNeutral };

  // Checks the options and starts the elector's thread; opens a session
  // (Hadoop's constructor with failFast false: max_retries attempts), whose
  // failure is Unavailable. `callbacks` must outlive the elector.
  static Result<std::unique_ptr<ActiveStandbyElector>> Create(ActiveStandbyElectorOptions options,
                                                              ElectorCallbacks* callbacks);
  // Quits (without fencing) and stops the thread.
  ~ActiveStandbyElector();
  ActiveStandbyElector(const ActiveStandbyElector&) = delete;
  ActiveStandbyElector& operator=(const ActiveStandbyElector&) = delete;

  // Creates every missing znode of the parent path (persistent, with the
  // ACL; an existing one gets the ACL if it differs). Not while in the
  // election (FailedPrecondition-like InvalidArgument).
  Status EnsureParentZNode() EXCLUDES(mu_);
  // The lock's data: who is active now. NotFound if no one holds the lock
  // (Hadoop's ActiveNotFoundException).
  Result<std::string> GetActiveData() EXCLUDES(mu_);

  // Joins with `data` (copied) as this instance's lock and breadcrumb
  // contents; nothing if already in the election. The election runs on the
  // elector's thread: the outcome comes as a callback.
  void JoinElection(const std::string& data) EXCLUDES(mu_);
  // Leaves the election: deletes our breadcrumb first when active and not
  // `need_fence`, then closes the session (ZooKeeper drops the lock).
  void QuitElection(bool need_fence) EXCLUDES(mu_);

  State state() const EXCLUDES(mu_);
  bool in_election() const EXCLUDES(mu_);
  // The current session's id (0 without one), for tests and logs.
  int64_t session_id_for_test() const EXCLUDES(mu_);
  // Ends the session as a network partition would end it for the server:
  // the session is resumed on a second connection, which is then closed, so
  // ZooKeeper expires it (its ephemeral lock goes) while this elector learns
  // it only when it reconnects. For an elector holding the lock (the
  // lock's going proves the session ended).
  Status ExpireSessionForTest() EXCLUDES(mu_);

 private:
  struct Event {
    enum class Kind { kJoin, kConnected, kDisconnected, kExpired, kAuthFailed, kLockChanged };
    Kind kind;
    // The session (kConnected.. kLockChanged) or join (kJoin) it belongs to.
    uint64_t generation = 0;
    zk::WatchEventType watch_type = zk::WatchEventType::kDataChanged;
  };

  ActiveStandbyElector(ActiveStandbyElectorOptions options, ElectorCallbacks* callbacks);
  void Run();
  void Post(Event event) EXCLUDES(queue_mu_);
  void Handle(const Event& event) REQUIRES(mu_);

  // Hadoop's private methods of the same names.
  void JoinElectionInternal() REQUIRES(mu_);
  void CreateLock() REQUIRES(mu_);
  void MonitorActiveStatus() REQUIRES(mu_);
  bool BecomeActive() REQUIRES(mu_);
  Result<std::optional<zk::ZkStat>> FenceOldActive() REQUIRES(mu_);
  Status WriteBreadCrumb(const std::optional<zk::ZkStat>& old) REQUIRES(mu_);
  void TryDeleteOwnBreadCrumb() REQUIRES(mu_);
  void BecomeStandby() REQUIRES(mu_);
  void EnterNeutralMode() REQUIRES(mu_);
  void ReJoinElection(std::chrono::milliseconds sleep) REQUIRES(mu_);
  bool ReEstablishSession() REQUIRES(mu_);
  Status CreateConnection() REQUIRES(mu_);
  void TerminateConnection() REQUIRES(mu_);
  void Reset() REQUIRES(mu_);
  void FatalError(const std::string& message) REQUIRES(mu_);
  // The tail of Hadoop's processResult for a failed create or exists: true
  // to try again (connection loss, fewer than max_retries tries counted in
  // `retry_count`); else false, after a fatal error (`message`, told that
  // retries ran out if they did) or, for a lost session, nothing (its expiry
  // event rejoins).
  bool RetryAfter(const Status& error, int* retry_count, std::string message, const char* operation,
                  const char* what) REQUIRES(mu_);
  // Waits up to `duration` (mu_ released meanwhile); false if a quit or
  // the destructor came in between (the join it slept for is over).
  bool SleepFor(std::chrono::milliseconds duration) REQUIRES(mu_);
  // Runs `call` up to max_retries times while it fails with connection loss
  // (Hadoop's zkDoWithRetries).
  template <typename T, typename Call>
  Result<T> WithRetries(Call call) REQUIRES(mu_);

  const ActiveStandbyElectorOptions options_;
  ElectorCallbacks* const callbacks_;
  const std::string lock_path_;
  const std::string breadcrumb_path_;

  mutable Mutex mu_;
  CondVar wake_;  // a quit or shutdown ends a SleepFor
  std::unique_ptr<zk::ZkSession> session_ GUARDED_BY(mu_);
  uint64_t session_generation_ GUARDED_BY(mu_) = 0;
  // Hadoop's zkConnectionState: DISCONNECTED after a connection loss until
  // the session reconnects.
  bool disconnected_ GUARDED_BY(mu_) = false;
  State state_ GUARDED_BY(mu_) = State::kInit;
  bool want_to_be_in_election_ GUARDED_BY(mu_) = false;
  std::optional<std::string> app_data_ GUARDED_BY(mu_);
  // Bumped by each JoinElection and QuitElection: a queued join of an
  // earlier round is dropped.
  uint64_t join_generation_ GUARDED_BY(mu_) = 0;
  int create_retry_count_ GUARDED_BY(mu_) = 0;
  // An exists watch on the lock is set in this session: no second one (the
  // C client would fire each, and a second join would read our own lock as
  // another's).
  bool lock_watch_armed_ GUARDED_BY(mu_) = false;
  bool shutting_down_ GUARDED_BY(mu_) = false;

  Mutex queue_mu_;  // never held across a ZooKeeper call: the completion thread takes it
  CondVar queue_cv_;
  std::deque<Event> queue_ GUARDED_BY(queue_mu_);
  bool stop_thread_ GUARDED_BY(queue_mu_) = false;
  std::thread thread_;
};

const char* ElectorStateName(ActiveStandbyElector::State state);

}  // namespace spindle::rm
