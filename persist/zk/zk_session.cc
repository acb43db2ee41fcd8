#include "persist/zk/zk_session.h"

#include <glog/logging.h>
#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <map>
#include <sstream>
#include <utility>

#include "persist/zk/zk_error.h"

namespace spindle::zk {

namespace {

// The pending watches of every session, by id. The C client carries a
// watch's id as its context and may mention a watch after its session gave
// up on it (it tells every watch of session events, for one), so a context
// is only ever looked up here, never dereferenced.
class WatchRegistry {
 public:
  static WatchRegistry& Get() {
    static WatchRegistry* const registry = new WatchRegistry();  // never destroyed
    return *registry;
  }

  uint64_t Add(const ZkSession* owner, WatchCallback callback) {
    MutexLock lock(&mu_);
    const uint64_t id = ++last_id_;
    watches_.emplace(id, Entry{owner, std::move(callback)});
    return id;
  }
  // The callback of `id` (removed: a watch fires once), or an empty one.
  WatchCallback Take(uint64_t id) {
    MutexLock lock(&mu_);
    auto it = watches_.find(id);
    if (it == watches_.end()) return nullptr;
    WatchCallback callback = std::move(it->second.callback);
    watches_.erase(it);
    return callback;
  }
  void Drop(uint64_t id) {
    MutexLock lock(&mu_);
    watches_.erase(id);
  }
  void DropAll(const ZkSession* owner) {
    MutexLock lock(&mu_);
    std::erase_if(watches_, [owner](const auto& entry) { return entry.second.owner == owner; });
  }

 private:
  struct Entry {
    const ZkSession* owner;
    WatchCallback callback;
  };
  Mutex mu_;
  uint64_t last_id_ GUARDED_BY(mu_) = 0;
  std::map<uint64_t, Entry> watches_ GUARDED_BY(mu_);
};

void* WatchContext(uint64_t id) { return reinterpret_cast<void*>(static_cast<uintptr_t>(id)); }
watcher_fn WatchFunction(uint64_t id, watcher_fn fn) { return id == 0 ? nullptr : fn; }

// True on the C client's completion thread while it runs one of our
// callbacks: a blocking call there would wait for that very thread.
thread_local bool in_zk_callback = false;

class CallbackScope {
 public:
  CallbackScope() { in_zk_callback = true; }
  ~CallbackScope() { in_zk_callback = false; }
};

// The C client's log lines (they carry their own level) go to VLOG(1): the
// session logs what matters (state changes) itself, and a server outage
// would otherwise print a line per reconnect attempt.
void LogFromClient(const char* message) { VLOG(1) << "zookeeper client: " << message; }

ZkStat FromC(const Stat& s) {
  ZkStat out;
  out.czxid = s.czxid;
  out.mzxid = s.mzxid;
  out.ctime_ms = s.ctime;
  out.mtime_ms = s.mtime;
  out.version = s.version;
  out.cversion = s.cversion;
  out.aversion = s.aversion;
  out.ephemeral_owner = s.ephemeralOwner;
  out.data_length = s.dataLength;
  out.num_children = s.numChildren;
  out.pzxid = s.pzxid;
  return out;
}

int CMode(CreateMode mode) {
  switch (mode) {
    case CreateMode::kPersistent:
      return ZOO_PERSISTENT;
    case CreateMode::kEphemeral:
      return ZOO_EPHEMERAL;
    case CreateMode::kPersistentSequential:
      return ZOO_PERSISTENT_SEQUENTIAL;
    case CreateMode::kEphemeralSequential:
      return ZOO_EPHEMERAL_SEQUENTIAL;
  }
  return ZOO_PERSISTENT;
}

// An ACL_vector pointing into `acl` (which must outlive it): the C API takes
// non-const char* it does not write through.
class CAcl {
 public:
  explicit CAcl(const std::vector<ZkAcl>& acl) {
    entries_.reserve(acl.size());
    for (const ZkAcl& a : acl) {
      entries_.push_back(
          ACL{a.perms, Id{const_cast<char*>(a.scheme.c_str()), const_cast<char*>(a.id.c_str())}});
    }
    vector_.count = static_cast<int32_t>(entries_.size());
    vector_.data = entries_.data();
  }
  CAcl(const CAcl&) = delete;
  CAcl& operator=(const CAcl&) = delete;
  const ACL_vector* get() const { return &vector_; }

 private:
  std::vector<ACL> entries_;
  ACL_vector vector_{};
};

std::vector<ZkAcl> FromC(const ACL_vector& acl) {
  std::vector<ZkAcl> out;
  for (int32_t i = 0; i < acl.count; ++i) {
    out.push_back(ZkAcl{acl.data[i].perms, acl.data[i].id.scheme ? acl.data[i].id.scheme : "",
                        acl.data[i].id.id ? acl.data[i].id.id : ""});
  }
  return out;
}

SessionState FromCState(int state) {
  if (state == ZOO_CONNECTED_STATE || state == ZOO_READONLY_STATE) return SessionState::kConnected;
  if (state == ZOO_EXPIRED_SESSION_STATE) return SessionState::kExpired;
  if (state == ZOO_AUTH_FAILED_STATE) return SessionState::kAuthFailed;
  return SessionState::kConnecting;
}

bool IsFinal(SessionState state) {
  return state == SessionState::kExpired || state == SessionState::kAuthFailed ||
         state == SessionState::kClosed;
}

const char* OpName(ZkOp::Kind kind) {
  switch (kind) {
    case ZkOp::Kind::kCheck:
      return "check";
    case ZkOp::Kind::kCreate:
      return "create";
    case ZkOp::Kind::kSetData:
      return "set";
    case ZkOp::Kind::kDelete:
      return "delete";
  }
  return "?";
}

// The outstanding requests of one pipelined read (GetMany, ChildrenMany).
// Completions run on the client's completion thread: they store their
// result and count down, nothing more.
class Pipeline {
 public:
  explicit Pipeline(size_t window) : window_(window == 0 ? 1 : window) {}
  void WaitForRoom() {
    MutexLock lock(&mu_);
    while (outstanding_ >= window_) changed_.Wait(&mu_);
    ++outstanding_;
  }
  // A request that was not sent after all.
  void Unsent() { Finished(); }
  void Finished() {
    {
      MutexLock lock(&mu_);
      --outstanding_;
    }
    changed_.SignalAll();
  }
  void WaitForAll() {
    MutexLock lock(&mu_);
    while (outstanding_ > 0) changed_.Wait(&mu_);
  }

 private:
  const size_t window_;
  Mutex mu_;
  CondVar changed_;
  size_t outstanding_ GUARDED_BY(mu_) = 0;
};

template <typename T>
struct PipelinedRequest {
  Pipeline* pipeline;
  Result<T>* out;
  const std::string* path;
};

// The shortest time between two routine resolutions of the connect
// string's host names (see Open).
constexpr std::chrono::milliseconds kServerResolutionInterval{1000};

// The longest sequential suffix ZooKeeper appends ("%010d").
constexpr size_t kSequenceSuffix = 16;

}  // namespace

ZkSession::ZkSession(ZkSessionOptions options) : options_(std::move(options)) {}

Result<std::unique_ptr<ZkSession>> ZkSession::Open(ZkSessionOptions options) {
  if (options.connect_string.empty()) {
    return Status::InvalidArgument("no ZooKeeper address (hadoop.zk.address) given");
  }
  if (options.session_timeout.count() <= 0) {
    return Status::InvalidArgument("ZooKeeper session timeout must be positive");
  }
  const std::chrono::milliseconds connect_timeout =
      options.connect_timeout.count() > 0 ? options.connect_timeout : options.session_timeout;
  std::unique_ptr<ZkSession> session(new ZkSession(std::move(options)));
  const ZkSessionOptions& opts = session->options_;

  clientid_t resume{};
  if (opts.resume) {
    resume.client_id = opts.resume->id;
    std::memcpy(resume.passwd, opts.resume->password.data(),
                std::min(sizeof(resume.passwd), opts.resume->password.size()));
  }
  session->handle_ =
      zookeeper_init2(opts.connect_string.c_str(), &ZkSession::OnSessionEvent,
                      static_cast<int>(opts.session_timeout.count()),
                      opts.resume ? &resume : nullptr, session.get(), 0, &LogFromClient);
  if (session->handle_ == nullptr) {
    return Status::InvalidArgument("cannot use ZooKeeper address '" + opts.connect_string +
                                   "': " + std::strerror(errno));
  }
  // By default the client resolves the connect string's host names again
  // each time its I/O thread polls, i.e. once per batch of requests or
  // answers: that getaddrinfo (file reads, a netlink dump) was a fifth of
  // the CPU of `spindle bench recovery --store zk` (bench/wire/README.md).
  // Once per interval still notices a DNS change; a lost connection
  // resolves again at once, as before.
  zoo_set_servers_resolution_delay(session->handle_,
                                   static_cast<int>(kServerResolutionInterval.count()));

  SessionState reached;
  {
    MutexLock lock(&session->mu_);
    const auto deadline = std::chrono::steady_clock::now() + connect_timeout;
    while (session->state_ == SessionState::kConnecting &&
           std::chrono::steady_clock::now() < deadline) {
      session->state_changed_.WaitFor(&session->mu_, deadline - std::chrono::steady_clock::now());
    }
    reached = session->state_;
  }
  if (reached != SessionState::kConnected) {
    session->Close();
    if (reached == SessionState::kExpired) {
      return ZkStatus(ZSESSIONEXPIRED, "resume ZooKeeper session at " + opts.connect_string);
    }
    return Status::Unavailable(
        "no ZooKeeper server of '" + opts.connect_string + "' accepted a session within " +
        std::to_string(connect_timeout.count()) + " ms (state " + SessionStateName(reached) + ")");
  }
  LOG(INFO) << session->LogPrefix() << "connected to " << opts.connect_string << ", timeout "
            << session->negotiated_timeout().count() << " ms";
  for (const ZkAuth& auth : opts.auths) {
    RETURN_NOT_OK(session->AddAuth(auth));
  }
  return session;
}

ZkSession::~ZkSession() { Close(); }

void ZkSession::Close() {
  if (handle_ == nullptr) return;
  CHECK(!in_zk_callback) << "ZkSession closed from its own callback";
  const std::string prefix = LogPrefix();
  // Joins the client's threads: no callback runs after this returns.
  const int rc = zookeeper_close(handle_);
  handle_ = nullptr;
  {
    MutexLock lock(&mu_);
    state_ = SessionState::kClosed;
  }
  WatchRegistry::Get().DropAll(this);
  state_changed_.SignalAll();
  VLOG(1) << prefix << "closed (" << zerror(rc) << ")";
}

SessionState ZkSession::state() const {
  MutexLock lock(&mu_);
  return state_;
}

ZkSessionId ZkSession::session_id() const {
  ZkSessionId out;
  if (handle_ == nullptr) return out;
  const clientid_t* id = zoo_client_id(handle_);
  out.id = id->client_id;
  out.password.assign(id->passwd, sizeof(id->passwd));
  return out;
}

std::chrono::milliseconds ZkSession::negotiated_timeout() const {
  return std::chrono::milliseconds(handle_ ? zoo_recv_timeout(handle_) : 0);
}

std::string ZkSession::LogPrefix() const {
  std::ostringstream out;
  out << "zk session 0x" << std::hex << session_id().id << ": ";
  return out.str();
}

void ZkSession::OnSessionEvent(_zhandle* /*zh*/, int type, int state, const char* /*path*/,
                               void* ctx) {
  if (type != ZOO_SESSION_EVENT) return;  // path events go to OnWatchEvent
  CallbackScope scope;
  auto* self = static_cast<ZkSession*>(ctx);
  const SessionState next = FromCState(state);
  {
    MutexLock lock(&self->mu_);
    if (IsFinal(self->state_) || self->state_ == next) return;
    self->state_ = next;
  }
  // The server will never fire the watches of a dead session.
  if (IsFinal(next)) WatchRegistry::Get().DropAll(self);
  self->state_changed_.SignalAll();
  if (next == SessionState::kConnected) {
    VLOG(1) << self->LogPrefix() << "connected";
  } else {
    LOG(WARNING) << self->LogPrefix() << "state " << SessionStateName(next);
  }
  if (self->options_.on_state_change) self->options_.on_state_change(next);
}

void ZkSession::OnWatchEvent(_zhandle* /*zh*/, int type, int /*state*/, const char* path,
                             void* ctx) {
  // The C client also tells every pending watch of session events; the
  // watch stays armed then, and the state callback covers them.
  if (type == ZOO_SESSION_EVENT || type == ZOO_NOTWATCHING_EVENT) return;
  CallbackScope scope;
  WatchCallback callback =
      WatchRegistry::Get().Take(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ctx)));
  if (!callback) return;
  WatchEvent event;
  event.path = path ? path : "";
  if (type == ZOO_CREATED_EVENT) {
    event.type = WatchEventType::kCreated;
  } else if (type == ZOO_DELETED_EVENT) {
    event.type = WatchEventType::kDeleted;
  } else if (type == ZOO_CHANGED_EVENT) {
    event.type = WatchEventType::kDataChanged;
  } else {
    event.type = WatchEventType::kChildrenChanged;
  }
  callback(event);
}

Status ZkSession::CheckCallable() const {
  if (in_zk_callback) {
    return Status::Internal("a blocking ZooKeeper call from a ZooKeeper callback would deadlock");
  }
  if (handle_ == nullptr) return Status::Aborted("the ZooKeeper session is closed");
  return Status::OK();
}

uint64_t ZkSession::AddWatch(WatchCallback watch) {
  if (!watch) return 0;
  return WatchRegistry::Get().Add(this, std::move(watch));
}

Status ZkSession::AddAuth(const ZkAuth& auth) {
  RETURN_NOT_OK(CheckCallable());
  auto done = std::make_unique<std::promise<int>>();
  std::future<int> result = done->get_future();
  const int rc = zoo_add_auth(
      handle_, auth.scheme.c_str(), auth.auth.data(), static_cast<int>(auth.auth.size()),
      [](int completion_rc, const void* data) {
        static_cast<std::promise<int>*>(const_cast<void*>(data))->set_value(completion_rc);
      },
      done.get());
  if (rc != ZOK) return ZkStatus(rc, "add " + auth.scheme + " authentication");
  return ZkStatus(result.get(), "add " + auth.scheme + " authentication");
}

Result<std::string> ZkSession::Create(const std::string& path, const std::string& data,
                                      const std::vector<ZkAcl>& acl, CreateMode mode) {
  RETURN_NOT_OK(CheckCallable());
  CAcl c_acl(acl);
  std::string created(path.size() + kSequenceSuffix + 1, '\0');
  const int rc =
      zoo_create(handle_, path.c_str(), data.data(), static_cast<int>(data.size()), c_acl.get(),
                 CMode(mode), created.data(), static_cast<int>(created.size()));
  RETURN_NOT_OK(ZkStatus(rc, "create " + path));
  created.resize(std::strlen(created.c_str()));
  return created;
}

Status ZkSession::Delete(const std::string& path, int32_t version) {
  RETURN_NOT_OK(CheckCallable());
  return ZkStatus(zoo_delete(handle_, path.c_str(), version), "delete " + path);
}

Result<std::optional<ZkStat>> ZkSession::Exists(const std::string& path, WatchCallback watch) {
  RETURN_NOT_OK(CheckCallable());
  const uint64_t watch_id = AddWatch(std::move(watch));
  Stat stat{};
  const int rc =
      zoo_wexists(handle_, path.c_str(), WatchFunction(watch_id, &ZkSession::OnWatchEvent),
                  WatchContext(watch_id), &stat);
  // An exists watch is set on a missing node too (it fires on creation).
  if (rc == ZNONODE) return std::optional<ZkStat>();
  if (rc != ZOK) {
    WatchRegistry::Get().Drop(watch_id);
    return ZkStatus(rc, "exists " + path);
  }
  return std::optional<ZkStat>(FromC(stat));
}

Result<ZkNode> ZkSession::Get(const std::string& path, WatchCallback watch) {
  RETURN_NOT_OK(CheckCallable());
  const uint64_t watch_id = AddWatch(std::move(watch));
  std::string buffer(16 * 1024, '\0');
  while (true) {
    int length = static_cast<int>(buffer.size());
    Stat stat{};
    // Asking again with the same watcher and ctx does not add a second
    // watch (the client keeps one per watcher and context).
    const int rc =
        zoo_wget(handle_, path.c_str(), WatchFunction(watch_id, &ZkSession::OnWatchEvent),
                 WatchContext(watch_id), buffer.data(), &length, &stat);
    if (rc != ZOK) {
      WatchRegistry::Get().Drop(watch_id);
      return ZkStatus(rc, "get " + path);
    }
    if (stat.dataLength > static_cast<int32_t>(buffer.size())) {
      buffer.assign(static_cast<size_t>(stat.dataLength), '\0');  // grew meanwhile
      continue;
    }
    buffer.resize(length < 0 ? 0 : static_cast<size_t>(length));  // -1: null data
    return ZkNode{std::move(buffer), FromC(stat), length < 0};
  }
}

Result<ZkStat> ZkSession::Set(const std::string& path, const std::string& data, int32_t version) {
  RETURN_NOT_OK(CheckCallable());
  Stat stat{};
  const int rc =
      zoo_set2(handle_, path.c_str(), data.data(), static_cast<int>(data.size()), version, &stat);
  RETURN_NOT_OK(ZkStatus(rc, "set " + path));
  return FromC(stat);
}

Result<std::vector<std::string>> ZkSession::Children(const std::string& path, WatchCallback watch) {
  RETURN_NOT_OK(CheckCallable());
  const uint64_t watch_id = AddWatch(std::move(watch));
  String_vector children{};
  Stat stat{};
  const int rc =
      zoo_wget_children2(handle_, path.c_str(), WatchFunction(watch_id, &ZkSession::OnWatchEvent),
                         WatchContext(watch_id), &children, &stat);
  if (rc != ZOK) {
    WatchRegistry::Get().Drop(watch_id);
    return ZkStatus(rc, "children of " + path);
  }
  std::vector<std::string> names(children.data, children.data + children.count);
  deallocate_String_vector(&children);
  return names;
}

std::vector<Result<ZkNode>> ZkSession::GetMany(const std::vector<std::string>& paths,
                                               size_t window) {
  std::vector<Result<ZkNode>> results(paths.size(), Status::Internal("not read"));
  if (Status callable = CheckCallable(); !callable.ok()) {
    std::fill(results.begin(), results.end(), callable);
    return results;
  }
  using Request = PipelinedRequest<ZkNode>;
  std::vector<Request> requests(paths.size());
  Pipeline pipeline(window);
  for (size_t i = 0; i < paths.size(); ++i) {
    requests[i] = Request{&pipeline, &results[i], &paths[i]};
    pipeline.WaitForRoom();
    const int rc = zoo_aget(
        handle_, paths[i].c_str(), 0,
        [](int completion_rc, const char* value, int value_len, const Stat* stat,
           const void* data) {
          const auto* request = static_cast<const Request*>(data);
          if (completion_rc == ZOK) {
            ZkNode node;
            if (value != nullptr && value_len > 0) node.data.assign(value, value_len);
            node.null_data = value_len < 0;
            if (stat != nullptr) node.stat = FromC(*stat);
            *request->out = std::move(node);
          } else {
            *request->out = ZkStatus(completion_rc, "get " + *request->path);
          }
          request->pipeline->Finished();
        },
        &requests[i]);
    if (rc != ZOK) {
      results[i] = ZkStatus(rc, "get " + paths[i]);
      pipeline.Unsent();
    }
  }
  pipeline.WaitForAll();
  return results;
}

std::vector<Result<std::vector<std::string>>> ZkSession::ChildrenMany(
    const std::vector<std::string>& paths, size_t window) {
  using Names = std::vector<std::string>;
  std::vector<Result<Names>> results(paths.size(), Status::Internal("not read"));
  if (Status callable = CheckCallable(); !callable.ok()) {
    std::fill(results.begin(), results.end(), callable);
    return results;
  }
  using Request = PipelinedRequest<Names>;
  std::vector<Request> requests(paths.size());
  Pipeline pipeline(window);
  for (size_t i = 0; i < paths.size(); ++i) {
    requests[i] = Request{&pipeline, &results[i], &paths[i]};
    pipeline.WaitForRoom();
    const int rc = zoo_aget_children(
        handle_, paths[i].c_str(), 0,
        [](int completion_rc, const String_vector* strings, const void* data) {
          const auto* request = static_cast<const Request*>(data);
          if (completion_rc == ZOK) {
            Names names;
            if (strings != nullptr) names.assign(strings->data, strings->data + strings->count);
            *request->out = std::move(names);
          } else {
            *request->out = ZkStatus(completion_rc, "children of " + *request->path);
          }
          request->pipeline->Finished();
        },
        &requests[i]);
    if (rc != ZOK) {
      results[i] = ZkStatus(rc, "children of " + paths[i]);
      pipeline.Unsent();
    }
  }
  pipeline.WaitForAll();
  return results;
}

Result<std::vector<ZkOpResult>> ZkSession::Multi(const std::vector<ZkOp>& ops) {
  RETURN_NOT_OK(CheckCallable());
  if (ops.empty()) return std::vector<ZkOpResult>();
  const size_t n = ops.size();
  std::vector<zoo_op_t> c_ops(n);
  std::vector<zoo_op_result_t> c_results(n);
  std::vector<std::unique_ptr<CAcl>> acls(n);
  std::vector<std::string> created(n);
  std::vector<Stat> stats(n);
  for (size_t i = 0; i < n; ++i) {
    const ZkOp& op = ops[i];
    switch (op.kind) {
      case ZkOp::Kind::kCheck:
        zoo_check_op_init(&c_ops[i], op.path.c_str(), op.version);
        break;
      case ZkOp::Kind::kCreate:
        acls[i] = std::make_unique<CAcl>(op.acl);
        created[i].assign(op.path.size() + kSequenceSuffix + 1, '\0');
        zoo_create_op_init(&c_ops[i], op.path.c_str(), op.null_data ? nullptr : op.data.data(),
                           op.null_data ? -1 : static_cast<int>(op.data.size()), acls[i]->get(),
                           CMode(op.mode), created[i].data(), static_cast<int>(created[i].size()));
        break;
      case ZkOp::Kind::kSetData:
        zoo_set_op_init(&c_ops[i], op.path.c_str(), op.null_data ? nullptr : op.data.data(),
                        op.null_data ? -1 : static_cast<int>(op.data.size()), op.version,
                        &stats[i]);
        break;
      case ZkOp::Kind::kDelete:
        zoo_delete_op_init(&c_ops[i], op.path.c_str(), op.version);
        break;
    }
  }
  const int rc = zoo_multi(handle_, static_cast<int>(n), c_ops.data(), c_results.data());
  if (rc != ZOK) {
    // Ops before the failing one answer ZOK, those after it
    // ZRUNTIMEINCONSISTENCY; a connection-level failure names no op.
    for (size_t i = 0; i < n; ++i) {
      if (c_results[i].err != ZOK && c_results[i].err != ZRUNTIMEINCONSISTENCY) {
        return ZkStatus(c_results[i].err, "multi op " + std::to_string(i + 1) + " of " +
                                              std::to_string(n) + ": " + OpName(ops[i].kind) + " " +
                                              ops[i].path);
      }
    }
    return ZkStatus(rc, "multi of " + std::to_string(n) + " ops");
  }
  std::vector<ZkOpResult> results(n);
  for (size_t i = 0; i < n; ++i) {
    if (ops[i].kind == ZkOp::Kind::kCreate) {
      results[i].created_path = created[i].c_str();
    } else if (ops[i].kind == ZkOp::Kind::kSetData) {
      results[i].stat = FromC(stats[i]);
    }
  }
  return results;
}

Status ZkSession::SetAcl(const std::string& path, const std::vector<ZkAcl>& acl, int32_t aversion) {
  RETURN_NOT_OK(CheckCallable());
  CAcl c_acl(acl);
  return ZkStatus(zoo_set_acl(handle_, path.c_str(), aversion, c_acl.get()), "setACL " + path);
}

Result<ZkAclList> ZkSession::GetAcl(const std::string& path) {
  RETURN_NOT_OK(CheckCallable());
  ACL_vector acl{};
  Stat stat{};
  const int rc = zoo_get_acl(handle_, path.c_str(), &acl, &stat);
  RETURN_NOT_OK(ZkStatus(rc, "getACL " + path));
  ZkAclList out{FromC(acl), FromC(stat)};
  deallocate_ACL_vector(&acl);
  return out;
}

}  // namespace spindle::zk
