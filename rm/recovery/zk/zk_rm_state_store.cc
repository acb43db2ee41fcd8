#include "rm/recovery/zk/zk_rm_state_store.h"

#include <glog/logging.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <thread>
#include <utility>

#include "base/crypto.h"
#include "persist/zk/zk_error.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/zk/zk_tree_records.h"
#include "rm/security/master_key_manager.h"

namespace spindle::rm {

using persist::ClusterField;
using persist::StoreBatch;
using zk::ZkError;
using zk::ZkErrorOf;
using zk::ZkOp;
using namespace zkstore;  // NOLINT(google-build-using-namespace): the layout's names

namespace {

// How many operations one multi of Format() carries (a multi is one request,
// bounded by the server's jute.maxbuffer, 1 MB by default).
constexpr size_t kDeletesPerMulti = 500;

const Status& StatusOf(const Status& status) { return status; }
template <typename T>
const Status& StatusOf(const Result<T>& result) {
  return result.status();
}

bool WorthRetrying(const Status& status) {
  if (zk::IsRetriable(status)) return true;
  const ZkError e = ZkErrorOf(status);
  // A dead session is replaced on the next try; no server at all (Open()
  // failed) may come back.
  return e == ZkError::kSessionExpired || e == ZkError::kSessionMoved ||
         (e == ZkError::kOther && status.code() == Status::Code::kUnavailable);
}

std::string RandomLong() {
  const std::string bytes = SecureRandomBytes(8);
  int64_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof(value));
  return std::to_string(value);
}

size_t Depth(const std::string& path) { return std::count(path.begin(), path.end(), '/'); }

}  // namespace

ZkRmStateStore::ZkRmStateStore(ZkStoreOptions options)
    : options_(std::move(options)),
      layout_(options_.parent_path, options_.app_split_index, options_.token_split_index),
      fencing_credentials_(options_.fencing_user + ":" + RandomLong()) {}

ZkRmStateStore::~ZkRmStateStore() { (void)Close(); }

std::vector<zk::ZkAcl> ZkRmStateStore::RootNodeAcl() const {
  if (options_.root_node_acl.has_value()) return *options_.root_node_acl;
  std::vector<zk::ZkAcl> acl;
  constexpr int kCreateDelete = zk::kPermCreate | zk::kPermDelete;
  for (const zk::ZkAcl& entry : options_.acl) {
    acl.push_back(zk::ZkAcl{entry.perms & ~kCreateDelete, entry.scheme, entry.id});
  }
  acl.push_back(zk::ZkAcl{kCreateDelete, "digest", zk::DigestId(fencing_credentials_)});
  return acl;
}

Status ZkRmStateStore::EnsureSession() {
  if (session_ != nullptr) {
    const zk::SessionState state = session_->state();
    if (state != zk::SessionState::kExpired && state != zk::SessionState::kAuthFailed &&
        state != zk::SessionState::kClosed) {
      return Status::OK();
    }
    LOG(WARNING) << "ZooKeeper state store: session " << zk::SessionStateName(state)
                 << ", opening a new one";
    session_.reset();
  }
  zk::ZkSessionOptions session_options;
  session_options.connect_string = options_.connect_string;
  session_options.session_timeout = options_.session_timeout;
  session_options.connect_timeout = options_.connect_timeout;
  session_options.auths = options_.auths;
  // The identity the root's ACL grants CREATE|DELETE to (HA's default
  // fencing scheme).
  if (options_.ha_enabled && !options_.root_node_acl.has_value()) {
    session_options.auths.push_back(zk::ZkAuth{"digest", fencing_credentials_});
  }
  ASSIGN_OR_RETURN(session_, zk::ZkSession::Open(std::move(session_options)));
  return Status::OK();
}

template <typename Op>
auto ZkRmStateStore::WithRetries(Op op) -> decltype(op()) {
  mu_.AssertHeld();
  const int tries = std::max(1, options_.num_retries);
  for (int attempt = 1;; ++attempt) {
    Status connected = EnsureSession();
    if (connected.ok()) {
      auto result = op();
      if (StatusOf(result).ok() || !WorthRetrying(StatusOf(result)) || attempt >= tries) {
        return result;
      }
      LOG(INFO) << "ZooKeeper state store: " << StatusOf(result).ToString() << "; retry " << attempt
                << " of " << tries - 1;
    } else if (!WorthRetrying(connected) || attempt >= tries) {
      return connected;
    }
    std::this_thread::sleep_for(options_.retry_interval);
  }
}

Status ZkRmStateStore::MapFenced(const Status& status) const {
  if (options_.ha_enabled && ZkErrorOf(status) == ZkError::kNoAuth) {
    return StoreFencedStatus(status.message());
  }
  return status;
}

Status ZkRmStateStore::CreateStructure() {
  // The parent path, one level at a time (3.3's createRootDirRecursively),
  // then the root: plain creates with zk-acl and no data, as Hadoop's.
  std::vector<std::string> chain;
  for (std::string path = layout_.root(); path != "/"; path = ParentOf(path)) chain.push_back(path);
  std::reverse(chain.begin(), chain.end());
  auto create_all = [this](const std::vector<std::string>& paths) -> Status {
    for (const std::string& path : paths) {
      Status created = WithRetries([&]() -> Status {
        mu_.AssertHeld();
        auto done = session_->Multi({ZkOp::CreateWithoutData(path, options_.acl)});
        if (!done.ok() && ZkErrorOf(done.status()) == ZkError::kNodeExists) return Status::OK();
        return done.status();
      });
      if (!created.ok()) return MapFenced(created);
    }
    return Status::OK();
  };
  RETURN_NOT_OK(create_all(chain));
  if (options_.ha_enabled) {
    RETURN_NOT_OK(MapFenced(WithRetries([&] {
      mu_.AssertHeld();
      return session_->SetAcl(layout_.root(), RootNodeAcl());
    })));
  } else if (options_.hadoop3) {
    RETURN_NOT_OK(MapFenced(WithRetries([&] {
      mu_.AssertHeld();
      return session_->SetAcl(layout_.root(), options_.acl);
    })));
  }
  // A lock a dead writer left behind would block every write.
  Status unlocked = WithRetries([&] {
    mu_.AssertHeld();
    return session_->Delete(layout_.fencing_lock());
  });
  if (!unlocked.ok() && ZkErrorOf(unlocked) != ZkError::kNoNode) return MapFenced(unlocked);
  return create_all(layout_.StructuralNodes(options_.hadoop3));
}

Status ZkRmStateStore::CheckVersion() {
  auto node = WithRetries([&] {
    mu_.AssertHeld();
    return session_->Get(layout_.version_node());
  });
  std::vector<ZkOp> ops;
  if (node.ok()) {
    ASSIGN_OR_RETURN(StoreVersion loaded, DecodeVersion(node->data));
    if (loaded == options_.version) return Status::OK();
    RETURN_NOT_OK(CheckVersionCompatible(loaded, options_.version));
    ops.push_back(ZkOp::SetData(layout_.version_node(), EncodeVersion(options_.version)));
  } else if (ZkErrorOf(node.status()) == ZkError::kNoNode) {
    ops.push_back(
        ZkOp::Create(layout_.version_node(), EncodeVersion(options_.version), options_.acl));
  } else {
    return node.status();
  }
  Status stored = CommitFenced(ops);
  if (stored.ok()) index_.insert(layout_.version_node());
  return stored;
}

Status ZkRmStateStore::CommitFenced(const std::vector<ZkOp>& ops) {
  std::vector<ZkOp> fenced;
  fenced.reserve(ops.size() + 2);
  fenced.push_back(ZkOp::Create(layout_.fencing_lock(), "", options_.acl));
  fenced.insert(fenced.end(), ops.begin(), ops.end());
  fenced.push_back(ZkOp::Delete(layout_.fencing_lock()));
  return MapFenced(session_->Multi(fenced).status());
}

Status ZkRmStateStore::Open() {
  MutexLock lock(&mu_);
  if (open_) return Status::OK();
  RETURN_NOT_OK(EnsureSession());
  Status ready = CreateStructure();
  if (ready.ok()) ready = Reindex();
  if (ready.ok()) ready = CheckVersion();
  if (!ready.ok()) {
    session_.reset();
    index_.clear();
    return ready;
  }
  open_ = true;
  fenced_ = false;
  index_stale_ = false;
  LOG(INFO) << "ZooKeeper state store open at " << options_.connect_string << layout_.root()
            << (options_.ha_enabled ? " (root taken over for fencing)" : "");
  return Status::OK();
}

Status ZkRmStateStore::Close() {
  MutexLock lock(&mu_);
  open_ = false;
  index_.clear();
  session_.reset();  // ends the session
  return Status::OK();
}

Status ZkRmStateStore::Reindex() {
  const auto started = std::chrono::steady_clock::now();
  return WithRetries([&]() -> Status {
    mu_.AssertHeld();
    ASSIGN_OR_RETURN(std::vector<std::string> paths,
                     ListTree(session_.get(), {layout_.root(), layout_.spindle_root()},
                              [this](const std::string& path) { return IsLeaf(layout_, path); }));
    index_ = std::set<std::string>(paths.begin(), paths.end());
    LOG(INFO) << "ZooKeeper store: listed " << index_.size() << " znodes in "
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - started)
                     .count()
              << " ms";
    return Status::OK();
  });
}

Result<persist::LoadedState> ZkRmStateStore::Load() {
  MutexLock lock(&mu_);
  if (!open_) return Status::Unavailable("the ZooKeeper state store is not open");
  if (index_stale_) {
    RETURN_NOT_OK(Reindex());
    index_stale_ = false;
  }
  return WithRetries([&]() -> Result<persist::LoadedState> {
    mu_.AssertHeld();
    return ReadRecords(session_.get(), layout_, index_);
  });
}

Status ZkRmStateStore::Apply(const StoreBatch& batch) {
  RETURN_NOT_OK(batch.Validate());
  if (batch.empty()) return Status::OK();
  MutexLock lock(&mu_);
  if (!open_) return Status::Unavailable("the ZooKeeper state store is not open");
  if (fenced_) return StoreFencedStatus("fenced by an earlier write");
  bool replan = false;
  Status applied = WithRetries([&]() -> Status {
    mu_.AssertHeld();
    // A multi whose answer was lost may have been applied: plan again from
    // what the server holds.
    if (replan) RETURN_NOT_OK(Reindex());
    replan = true;
    ASSIGN_OR_RETURN(TreePlan plan, PlanBatch(layout_, options_.acl, index_, batch));
    Status committed = CommitFenced(plan.ops);
    if (committed.ok()) plan.ApplyTo(&index_);
    return committed;
  });
  if (!applied.ok()) index_stale_ = true;
  if (IsStoreFenced(applied)) {
    fenced_ = true;
    LOG(ERROR) << "ZooKeeper state store fenced: " << applied.message();
  }
  return applied;
}

Status ZkRmStateStore::CheckNotFenced() {
  MutexLock lock(&mu_);
  if (!open_) return Status::Unavailable("the ZooKeeper state store is not open");
  return WithRetries([&] {
    mu_.AssertHeld();
    return CommitFenced({});
  });
}

Status ZkRmStateStore::DeleteTrees() {
  return WithRetries([&]() -> Status {
    mu_.AssertHeld();
    ASSIGN_OR_RETURN(std::vector<std::string> paths,
                     ListTree(session_.get(), {layout_.root(), layout_.spindle_root()},
                              [](const std::string&) { return false; }));
    // Deepest first: a node goes after its children.
    std::stable_sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
      return Depth(a) > Depth(b);
    });
    for (size_t begin = 0; begin < paths.size(); begin += kDeletesPerMulti) {
      std::vector<ZkOp> ops;
      for (size_t i = begin; i < std::min(paths.size(), begin + kDeletesPerMulti); ++i) {
        ops.push_back(ZkOp::Delete(paths[i]));
      }
      RETURN_NOT_OK(session_->Multi(ops).status());
    }
    return Status::OK();
  });
}

Status ZkRmStateStore::Format() {
  MutexLock lock(&mu_);
  const bool was_open = open_;
  RETURN_NOT_OK(EnsureSession());
  if (!was_open && options_.ha_enabled) {
    // As a Java RM's -format-state-store: start (take the root over), then
    // delete.
    Status taken = WithRetries([&] {
      mu_.AssertHeld();
      return session_->SetAcl(layout_.root(), RootNodeAcl());
    });
    if (!taken.ok() && ZkErrorOf(taken) != ZkError::kNoNode) return MapFenced(taken);
  }
  Status deleted = MapFenced(DeleteTrees());
  index_.clear();
  if (!deleted.ok() || !was_open) {
    if (!was_open) session_.reset();
    return deleted;
  }
  Status ready = CreateStructure();
  if (ready.ok()) ready = Reindex();
  if (ready.ok()) ready = CheckVersion();
  return ready;
}

}  // namespace spindle::rm
