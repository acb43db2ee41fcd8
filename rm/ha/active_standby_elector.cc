#include "rm/ha/active_standby_elector.h"

#include <glog/logging.h>

#include <algorithm>
#include <sstream>
#include <type_traits>

#include "base/crypto.h"
#include "persist/zk/zk_error.h"

namespace spindle::rm {

namespace {

// KeeperException.Code's name as Hadoop's messages print it.
std::string CodeName(const Status& status) {
  switch (zk::ZkErrorOf(status)) {
    case zk::ZkError::kNoNode:
      return "NONODE";
    case zk::ZkError::kNodeExists:
      return "NODEEXISTS";
    case zk::ZkError::kNoAuth:
      return "NOAUTH";
    case zk::ZkError::kConnectionLoss:
      return "CONNECTIONLOSS";
    case zk::ZkError::kOperationTimeout:
      return "OPERATIONTIMEOUT";
    case zk::ZkError::kSessionExpired:
      return "SESSIONEXPIRED";
    case zk::ZkError::kAuthFailed:
      return "AUTHFAILED";
    default:
      return status.ToString();
  }
}

bool IsSessionGone(const Status& status) {
  // A closed handle (our own reset) counts as a lost session.
  return zk::ZkErrorOf(status) == zk::ZkError::kSessionExpired ||
         status.code() == Status::Code::kAborted;
}

}  // namespace

const char* ElectorStateName(ActiveStandbyElector::State state) {
  switch (state) {
    case ActiveStandbyElector::State::kInit:
      return "INIT";
    case ActiveStandbyElector::State::kActive:
      return "ACTIVE";
    case ActiveStandbyElector::State::kStandby:
      return "STANDBY";
    case ActiveStandbyElector::State::kNeutral:
      return "NEUTRAL";
  }
  return "?";
}

ActiveStandbyElector::ActiveStandbyElector(ActiveStandbyElectorOptions options,
                                           ElectorCallbacks* callbacks)
    : options_(std::move(options)),
      callbacks_(callbacks),
      lock_path_(options_.parent_znode + "/" + kLockName),
      breadcrumb_path_(options_.parent_znode + "/" + kBreadCrumbName) {}

Result<std::unique_ptr<ActiveStandbyElector>> ActiveStandbyElector::Create(
    ActiveStandbyElectorOptions options, ElectorCallbacks* callbacks) {
  if (callbacks == nullptr || options.connect_string.empty() || options.parent_znode.size() < 2 ||
      options.parent_znode.front() != '/' || options.parent_znode.back() == '/' ||
      options.session_timeout.count() <= 0) {
    // Hadoop's HadoopIllegalArgumentException("Invalid argument").
    return Status::InvalidArgument(
        "Invalid argument: the elector needs callbacks, a ZooKeeper "
        "address, a session timeout and an absolute parent znode "
        "(got '" +
        options.parent_znode + "')");
  }
  options.max_retries = std::max(1, options.max_retries);
  std::unique_ptr<ActiveStandbyElector> elector(
      new ActiveStandbyElector(std::move(options), callbacks));
  {
    MutexLock lock(&elector->mu_);
    if (!elector->ReEstablishSession()) {
      return Status::Unavailable("cannot open a ZooKeeper session at " +
                                 elector->options_.connect_string + " for the elector");
    }
  }
  elector->thread_ = std::thread([e = elector.get()] { e->Run(); });
  return elector;
}

ActiveStandbyElector::~ActiveStandbyElector() {
  {
    MutexLock lock(&mu_);
    shutting_down_ = true;
    wake_.SignalAll();
  }
  {
    MutexLock lock(&queue_mu_);
    stop_thread_ = true;
    queue_cv_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
  MutexLock lock(&mu_);
  Reset();
}

// ---- The elector's thread ----

void ActiveStandbyElector::Post(Event event) {
  MutexLock lock(&queue_mu_);
  queue_.push_back(event);
  queue_cv_.Signal();
}

void ActiveStandbyElector::Run() {
  while (true) {
    Event event;
    {
      MutexLock lock(&queue_mu_);
      while (queue_.empty() && !stop_thread_) queue_cv_.Wait(&queue_mu_);
      if (stop_thread_) return;
      event = queue_.front();
      queue_.pop_front();
    }
    MutexLock lock(&mu_);
    if (shutting_down_) return;
    Handle(event);
  }
}

void ActiveStandbyElector::Handle(const Event& event) {
  if (event.kind == Event::Kind::kJoin) {
    if (event.generation == join_generation_ && want_to_be_in_election_) JoinElectionInternal();
    return;
  }
  // Hadoop's isStaleClient: what an earlier session reports is dropped.
  if (event.generation != session_generation_ || session_ == nullptr) return;
  switch (event.kind) {
    case Event::Kind::kConnected: {
      LOG(INFO) << "elector: session connected";
      const bool was_disconnected = disconnected_;
      disconnected_ = false;
      if (was_disconnected && want_to_be_in_election_) MonitorActiveStatus();
      return;
    }
    case Event::Kind::kDisconnected:
      LOG(INFO) << "elector: session disconnected, entering neutral mode";
      disconnected_ = true;
      EnterNeutralMode();
      return;
    case Event::Kind::kExpired:
      LOG(INFO) << "elector: session expired, entering neutral mode and rejoining";
      EnterNeutralMode();
      ReJoinElection(std::chrono::milliseconds(0));
      return;
    case Event::Kind::kAuthFailed:
      FatalError("Unexpected Zookeeper watch event state: AuthFailed");
      return;
    case Event::Kind::kLockChanged:
      lock_watch_armed_ = false;
      if (event.watch_type == zk::WatchEventType::kDeleted) {
        if (state_ == State::kActive) EnterNeutralMode();
        JoinElectionInternal();
      } else {
        MonitorActiveStatus();
      }
      return;
    case Event::Kind::kJoin:
      return;
  }
}

// ---- Public ----

void ActiveStandbyElector::JoinElection(const std::string& data) {
  MutexLock lock(&mu_);
  if (want_to_be_in_election_) {
    LOG(INFO) << "elector: already in election, not re-connecting";
    return;
  }
  app_data_ = data;
  want_to_be_in_election_ = true;
  Post(Event{Event::Kind::kJoin, ++join_generation_});
}

void ActiveStandbyElector::QuitElection(bool need_fence) {
  MutexLock lock(&mu_);
  LOG(INFO) << "elector: yielding from election";
  if (!need_fence && state_ == State::kActive) TryDeleteOwnBreadCrumb();
  Reset();
  want_to_be_in_election_ = false;
  ++join_generation_;
  wake_.SignalAll();
}

ActiveStandbyElector::State ActiveStandbyElector::state() const {
  MutexLock lock(&mu_);
  return state_;
}

bool ActiveStandbyElector::in_election() const {
  MutexLock lock(&mu_);
  return want_to_be_in_election_;
}

int64_t ActiveStandbyElector::session_id_for_test() const {
  MutexLock lock(&mu_);
  return session_ == nullptr ? 0 : session_->session_id().id;
}

Status ActiveStandbyElector::ExpireSessionForTest() {
  zk::ZkSessionOptions other;
  {
    MutexLock lock(&mu_);
    if (session_ == nullptr) return Status::InvalidArgument("no session");
    other.connect_string = options_.connect_string;
    other.session_timeout = options_.session_timeout;
    other.resume = session_->session_id();
  }
  const int64_t victim = other.resume->id;
  zk::ZkSessionOptions witness_options = other;
  witness_options.resume.reset();
  ASSIGN_OR_RETURN(std::unique_ptr<zk::ZkSession> witness,
                   zk::ZkSession::Open(std::move(witness_options)));
  // Our own connection may win the session back between the twin's connect
  // and its close (the close then sends nothing): repeat until the server
  // has ended the session, i.e. the lock is no longer the victim's.
  for (int attempt = 0; attempt < 20; ++attempt) {
    auto twin = zk::ZkSession::Open(other);
    if (twin.ok()) (*twin)->Close();  // closes the shared session on the server
    ASSIGN_OR_RETURN(std::optional<zk::ZkStat> lock, witness->Exists(lock_path_));
    if (!lock.has_value() || lock->ephemeral_owner != victim) return Status::OK();
  }
  return Status::Aborted("the server kept the session through 20 closes");
}

Status ActiveStandbyElector::EnsureParentZNode() {
  MutexLock lock(&mu_);
  if (want_to_be_in_election_) {
    return Status::InvalidArgument("ensureParentZNode() may not be called while in the election");
  }
  if (session_ == nullptr) RETURN_NOT_OK(CreateConnection());
  std::string prefix;
  std::stringstream parts(options_.parent_znode.substr(1));
  for (std::string part; std::getline(parts, part, '/');) {
    prefix += "/" + part;
    auto created = WithRetries<std::string>([&] {
      mu_.AssertHeld();
      return session_->Create(prefix, "", options_.acl, zk::CreateMode::kPersistent);
    });
    if (created.ok()) continue;
    if (zk::ZkErrorOf(created.status()) != zk::ZkError::kNodeExists) {
      return Status::IoError("Couldn't create " + prefix + ": " + created.status().ToString());
    }
    // Hadoop's setAclsWithRetries: the configured ACL on an existing node.
    auto acl_set = WithRetries<bool>([&]() -> Result<bool> {
      mu_.AssertHeld();
      ASSIGN_OR_RETURN(zk::ZkAclList current, session_->GetAcl(prefix));
      const bool same =
          current.acl.size() == options_.acl.size() &&
          std::all_of(current.acl.begin(), current.acl.end(), [this](const zk::ZkAcl& a) {
            return std::find(options_.acl.begin(), options_.acl.end(), a) != options_.acl.end();
          });
      if (same) return false;
      RETURN_NOT_OK(session_->SetAcl(prefix, options_.acl, current.stat.aversion));
      return true;
    });
    if (!acl_set.ok()) {
      return Status::IoError("Couldn't set ACLs on parent ZNode: " + prefix + ": " +
                             acl_set.status().ToString());
    }
  }
  LOG(INFO) << "elector: successfully created " << options_.parent_znode << " in ZK";
  return Status::OK();
}

Result<std::string> ActiveStandbyElector::GetActiveData() {
  MutexLock lock(&mu_);
  if (session_ == nullptr) RETURN_NOT_OK(CreateConnection());
  auto node = WithRetries<zk::ZkNode>([&] {
    mu_.AssertHeld();
    return session_->Get(lock_path_);
  });
  if (!node.ok()) {
    if (zk::ZkErrorOf(node.status()) == zk::ZkError::kNoNode) {
      return Status::NotFound("no active holds " + lock_path_);
    }
    return node.status();
  }
  return std::move(node->data);
}

// ---- The election (Hadoop's private methods) ----

template <typename T, typename Call>
Result<T> ActiveStandbyElector::WithRetries(Call call) {
  int attempt = 0;
  while (true) {
    Result<T> result = call();
    // BadVersion is retried too for the ACL update, as Hadoop passes it as
    // the extra retry code there; elsewhere a BadVersion is final anyway.
    const bool retriable =
        zk::IsRetriable(result.status()) ||
        (std::is_same_v<T, bool> && zk::ZkErrorOf(result.status()) == zk::ZkError::kBadVersion);
    if (result.ok() || !retriable || ++attempt >= options_.max_retries) return result;
  }
}

void ActiveStandbyElector::JoinElectionInternal() {
  if (!app_data_.has_value()) {
    LOG(ERROR) << "elector: trying to join election without any app data";
    return;
  }
  if (session_ == nullptr) {
    const uint64_t join = join_generation_;
    if (!ReEstablishSession()) {
      if (join != join_generation_ || shutting_down_) return;  // quit meanwhile
      FatalError("Failed to reEstablish connection with ZooKeeper");
      return;
    }
  }
  create_retry_count_ = 0;
  want_to_be_in_election_ = true;
  CreateLock();
}

void ActiveStandbyElector::CreateLock() {
  while (true) {
    auto created =
        session_->Create(lock_path_, *app_data_, options_.acl, zk::CreateMode::kEphemeral);
    if (created.ok()) {
      if (BecomeActive()) {
        MonitorActiveStatus();
      } else {
        ReJoinElection(options_.sleep_after_failure);
      }
      return;
    }
    const Status& error = created.status();
    if (zk::ZkErrorOf(error) == zk::ZkError::kNodeExists) {
      // On a retry the node may be ours, created by the try whose answer
      // was lost: the monitor tells.
      if (create_retry_count_ == 0) BecomeStandby();
      MonitorActiveStatus();
      return;
    }
    if (RetryAfter(error, &create_retry_count_,
                   "Received create error from Zookeeper. code:" + CodeName(error) + " for path " +
                       lock_path_,
                   "create", "lock acquisition")) {
      continue;
    }
    return;
  }
}

void ActiveStandbyElector::MonitorActiveStatus() {
  int stat_retry_count = 0;
  while (true) {
    zk::WatchCallback watch;
    if (!lock_watch_armed_) {
      const uint64_t generation = session_generation_;
      watch = [this, generation](const zk::WatchEvent& event) {
        Post(Event{Event::Kind::kLockChanged, generation, event.type});
      };
    }
    const bool arming = static_cast<bool>(watch);
    auto stat = session_->Exists(lock_path_, std::move(watch));
    if (stat.ok()) {
      if (arming) lock_watch_armed_ = true;
      if (!stat->has_value()) {
        EnterNeutralMode();
        JoinElectionInternal();
      } else if ((*stat)->ephemeral_owner == session_->session_id().id) {
        if (!BecomeActive()) ReJoinElection(options_.sleep_after_failure);
      } else {
        BecomeStandby();
      }
      return;
    }
    const Status& error = stat.status();
    if (RetryAfter(error, &stat_retry_count,
                   "Received stat error from Zookeeper. code:" + CodeName(error), "monitoring",
                   "lock monitoring")) {
      continue;
    }
    return;
  }
}

bool ActiveStandbyElector::RetryAfter(const Status& error, int* retry_count, std::string message,
                                      const char* operation, const char* what) {
  if (zk::IsRetriable(error)) {
    if (*retry_count < options_.max_retries) {
      ++*retry_count;
      return true;
    }
    message += std::string(". Not retrying further znode ") + operation + " connection errors.";
  } else if (IsSessionGone(error)) {
    // The session's expiry event rejoins.
    LOG(WARNING) << "elector: " << what << " failed because session was lost";
    return false;
  }
  FatalError(message);
  return false;
}

bool ActiveStandbyElector::BecomeActive() {
  if (state_ == State::kActive) return true;
  auto old = FenceOldActive();
  Status became = old.ok() ? WriteBreadCrumb(*old) : old.status();
  if (became.ok()) became = callbacks_->BecomeActive();
  if (!became.ok()) {
    LOG(WARNING) << "elector: exception handling the winning of election: " << became.ToString();
    return false;
  }
  state_ = State::kActive;
  return true;
}

Result<std::optional<zk::ZkStat>> ActiveStandbyElector::FenceOldActive() {
  LOG(INFO) << "elector: checking for any old active which needs to be fenced...";
  auto node = WithRetries<zk::ZkNode>([&] {
    mu_.AssertHeld();
    return session_->Get(breadcrumb_path_);
  });
  if (!node.ok()) {
    if (zk::ZkErrorOf(node.status()) == zk::ZkError::kNoNode) {
      LOG(INFO) << "elector: no old node to fence";
      return std::optional<zk::ZkStat>();
    }
    return node.status();
  }
  LOG(INFO) << "elector: old node exists: " << HexEncode(node->data);
  if (node->data == *app_data_) {
    LOG(INFO) << "elector: but old node has our own data, so don't need to fence it";
  } else {
    callbacks_->FenceOldActive(node->data);
  }
  return std::optional<zk::ZkStat>(node->stat);
}

Status ActiveStandbyElector::WriteBreadCrumb(const std::optional<zk::ZkStat>& old) {
  LOG(INFO) << "elector: writing znode " << breadcrumb_path_
            << " to indicate that the local node is the most recent active...";
  if (!old.has_value()) {
    return WithRetries<std::string>([&] {
             mu_.AssertHeld();
             return session_->Create(breadcrumb_path_, *app_data_, options_.acl,
                                     zk::CreateMode::kPersistent);
           })
        .status();
  }
  return WithRetries<zk::ZkStat>([&] {
           mu_.AssertHeld();
           return session_->Set(breadcrumb_path_, *app_data_, old->version);
         })
      .status();
}

void ActiveStandbyElector::TryDeleteOwnBreadCrumb() {
  LOG(INFO) << "elector: deleting bread-crumb of active node...";
  Status deleted = [&]() -> Status {
    mu_.AssertHeld();
    if (session_ == nullptr) return Status::Aborted("no session");
    ASSIGN_OR_RETURN(zk::ZkNode node, session_->Get(breadcrumb_path_));
    if (node.data != *app_data_) {
      return Status::InvalidArgument(
          "We thought we were active, but in fact the active znode had the wrong data: " +
          HexEncode(node.data));
    }
    return WithRetries<bool>([&]() -> Result<bool> {
             mu_.AssertHeld();
             RETURN_NOT_OK(session_->Delete(breadcrumb_path_, node.stat.version));
             return true;
           })
        .status();
  }();
  if (!deleted.ok()) {
    LOG(WARNING) << "elector: unable to delete our own bread-crumb of being active at "
                 << breadcrumb_path_ << ": " << deleted.ToString()
                 << ". Expecting to be fenced by the next active.";
  }
}

void ActiveStandbyElector::BecomeStandby() {
  if (state_ == State::kStandby) return;
  state_ = State::kStandby;
  callbacks_->BecomeStandby();
}

void ActiveStandbyElector::EnterNeutralMode() {
  if (state_ == State::kNeutral) return;
  state_ = State::kNeutral;
  callbacks_->EnterNeutralMode();
}

void ActiveStandbyElector::ReJoinElection(std::chrono::milliseconds sleep) {
  LOG(INFO) << "elector: trying to re-establish ZK session";
  TerminateConnection();
  const uint64_t join = join_generation_;
  if (!SleepFor(sleep) || join != join_generation_) return;
  if (app_data_.has_value()) {
    JoinElectionInternal();
  } else {
    LOG(INFO) << "elector: not joining election since service has not yet been reported as "
                 "healthy";
  }
}

bool ActiveStandbyElector::ReEstablishSession() {
  for (int attempt = 0; attempt < options_.max_retries; ++attempt) {
    Status connected = CreateConnection();
    if (connected.ok()) return true;
    LOG(WARNING) << "elector: " << connected.ToString();
    if (!SleepFor(options_.sleep_between_connects)) return false;
  }
  return false;
}

Status ActiveStandbyElector::CreateConnection() {
  if (session_ != nullptr) TerminateConnection();
  const uint64_t generation = ++session_generation_;
  zk::ZkSessionOptions options;
  options.connect_string = options_.connect_string;
  options.session_timeout = options_.session_timeout;
  options.auths = options_.auths;
  options.on_state_change = [this, generation](zk::SessionState state) {
    switch (state) {
      case zk::SessionState::kConnected:
        Post(Event{Event::Kind::kConnected, generation});
        break;
      case zk::SessionState::kConnecting:
        Post(Event{Event::Kind::kDisconnected, generation});
        break;
      case zk::SessionState::kExpired:
        Post(Event{Event::Kind::kExpired, generation});
        break;
      case zk::SessionState::kAuthFailed:
        Post(Event{Event::Kind::kAuthFailed, generation});
        break;
      case zk::SessionState::kClosed:
        break;
    }
  };
  ASSIGN_OR_RETURN(session_, zk::ZkSession::Open(std::move(options)));
  disconnected_ = false;
  lock_watch_armed_ = false;
  return Status::OK();
}

void ActiveStandbyElector::TerminateConnection() {
  if (session_ == nullptr) return;
  session_->Close();
  session_.reset();
  ++session_generation_;
  disconnected_ = false;
  lock_watch_armed_ = false;
  want_to_be_in_election_ = false;
}

void ActiveStandbyElector::Reset() {
  state_ = State::kInit;
  TerminateConnection();
}

void ActiveStandbyElector::FatalError(const std::string& message) {
  LOG(ERROR) << "elector: " << message;
  Reset();
  callbacks_->NotifyFatalError(message);
}

bool ActiveStandbyElector::SleepFor(std::chrono::milliseconds duration) {
  const uint64_t join = join_generation_;
  const auto deadline = std::chrono::steady_clock::now() + duration;
  while (!shutting_down_ && join == join_generation_) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    wake_.WaitFor(&mu_, deadline - now);
  }
  return !shutting_down_ && join == join_generation_;
}

}  // namespace spindle::rm
