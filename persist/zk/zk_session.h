// ZkSession: one ZooKeeper session over ZooKeeper's multi-threaded C client
// (libzookeeper_mt), with Spindle's Status/Result errors (persist/zk/zk_error.h
// maps ZooKeeper's codes and names the KeeperException a Java peer would see).
// It is what the ZooKeeper state store (ZKRMStateStore's layout) and the
// leader elector (ActiveStandbyElector's) are built on.
//
// Lifetime: Open() connects (waiting up to connect_timeout for a server to
// accept the session) and adds the configured authentications; the
// destructor (or Close()) ends the session, so the server deletes its
// ephemeral nodes at once. A session whose state becomes kExpired or
// kAuthFailed is dead for good: every call then fails with a
// SessionExpiredException status, and the owner opens a new session (as
// Hadoop's elector and store do). While kConnecting (connection lost, the
// client reconnecting to any server of the connect string) calls fail with
// ConnectionLossException statuses; the session survives if a server is
// reached before the session timeout.
//
// Watches are one-shot, as in ZooKeeper: a callback passed to Exists, Get or
// Children runs at most once, for the first change of that node (or its
// children). Session-state changes go to options.on_state_change instead. A
// watch pending when the session expires or closes never runs.
//
// Thread contract: every method may be called from any thread concurrently
// (the C client queues requests; answers come back in order), except Close()
// and the destructor, which must not race with other calls. The blocking
// calls wait for the server's answer (bounded by the session timeout: the
// client drops a connection that stays silent that long). Callbacks (watches
// and on_state_change) run on the C client's single completion thread, one at
// a time; they must not call the blocking methods of any ZkSession (the
// thread would wait on itself), which instead return Internal at once from a
// callback. Hand work to another thread from a callback.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "persist/zk/zk_acl.h"
#include "persist/zk/zk_types.h"

struct _zhandle;

namespace spindle::zk {

// A session's identity (the C client's clientid_t): enough to resume it from
// another connection.
struct ZkSessionId {
  int64_t id = 0;
  std::string password;  // 16 bytes
};

using WatchCallback = std::function<void(const WatchEvent&)>;

struct ZkSessionOptions {
  // "host:port[,host:port...][/chroot]". Required. Hadoop's hadoop.zk.address
  // (3.x) or yarn.resourcemanager.zk-address (2.x).
  std::string connect_string;
  // Asked of the server, which bounds it by its min/maxSessionTimeout.
  // Default: 10 s, Hadoop's yarn.resourcemanager.zk-timeout-ms default.
  std::chrono::milliseconds session_timeout{10000};
  // How long Open() waits for the first connection. Default: 0, meaning the
  // session timeout.
  std::chrono::milliseconds connect_timeout{0};
  // Added (zoo_add_auth) before Open() returns, in order (Hadoop's
  // yarn.resourcemanager.zk-auth / hadoop.zk.auth). Default: none.
  std::vector<ZkAuth> auths;
  // Told of each state change, on the completion thread (see the thread
  // contract). Default: none.
  std::function<void(SessionState)> on_state_change;
  // Resume this session instead of starting a new one. Default: none.
  std::optional<ZkSessionId> resume;
};

// A znode's ACL and the Stat it came with (aversion for SetAcl).
struct ZkAclList {
  std::vector<ZkAcl> acl;
  ZkStat stat;
};

class ZkSession {
 public:
  // InvalidArgument for an empty or malformed connect string; Unavailable if
  // no server accepted the session within connect_timeout (ZooKeeper
  // statuses for a failed AddAuth).
  static Result<std::unique_ptr<ZkSession>> Open(ZkSessionOptions options);

  ~ZkSession();
  ZkSession(const ZkSession&) = delete;
  ZkSession& operator=(const ZkSession&) = delete;

  // Ends the session (the server drops its ephemerals). Idempotent. Not from
  // a callback.
  void Close();

  SessionState state() const;
  // Valid once connected (Open() returned it).
  ZkSessionId session_id() const;
  // The timeout the server granted.
  std::chrono::milliseconds negotiated_timeout() const;

  // Proves an identity for ACLs ("digest", "user:password").
  Status AddAuth(const ZkAuth& auth);

  // Creates `path` (its parent must exist). Returns the created path, which
  // for sequential modes carries the server's counter. NodeExists if it
  // exists; NoNode if the parent does not; NoAuth without CREATE on the
  // parent; InvalidACL for an empty or unusable ACL.
  Result<std::string> Create(const std::string& path, const std::string& data,
                             const std::vector<ZkAcl>& acl,
                             CreateMode mode = CreateMode::kPersistent);
  // Deletes `path` if its version is `version` (kAnyVersion: any). NoNode,
  // BadVersion, NotEmpty (children), NoAuth (no DELETE on the parent).
  Status Delete(const std::string& path, int32_t version = kAnyVersion);
  // The Stat of `path`, or nullopt if it does not exist. `watch` (optional)
  // fires when the node is created, deleted or its data changes.
  Result<std::optional<ZkStat>> Exists(const std::string& path, WatchCallback watch = nullptr);
  // Data and Stat of `path`. NoNode; NoAuth without READ. `watch` fires on
  // deletion or a data change.
  Result<ZkNode> Get(const std::string& path, WatchCallback watch = nullptr);
  // Replaces the data if the version is `version` (kAnyVersion: any);
  // returns the new Stat. NoNode, BadVersion, NoAuth.
  Result<ZkStat> Set(const std::string& path, const std::string& data,
                     int32_t version = kAnyVersion);
  // The children's names (not paths), in the server's order. NoNode.
  // `watch` fires when a child is added or removed, or the node deleted.
  Result<std::vector<std::string>> Children(const std::string& path, WatchCallback watch = nullptr);
  // Reads of many nodes, pipelined: the requests go out without waiting for
  // answers (at most `window` outstanding), so N reads cost about one round
  // trip plus the server's work instead of N round trips. One result per
  // path, in order, each as Get / Children would return it (a node whose
  // data is null reads as empty). No watches.
  std::vector<Result<ZkNode>> GetMany(const std::vector<std::string>& paths, size_t window = 4000);
  std::vector<Result<std::vector<std::string>>> ChildrenMany(const std::vector<std::string>& paths,
                                                             size_t window = 4000);
  // Applies all of `ops` atomically, or none: on failure the Status is the
  // first failing op's error, its message naming the op ("op 2 of 3: delete
  // /a"). One result per op on success.
  Result<std::vector<ZkOpResult>> Multi(const std::vector<ZkOp>& ops);
  // Replaces the ACL if its version is `aversion` (kAnyVersion: any). NoNode,
  // BadVersion, NoAuth (ADMIN needed), InvalidACL.
  Status SetAcl(const std::string& path, const std::vector<ZkAcl>& acl,
                int32_t aversion = kAnyVersion);
  Result<ZkAclList> GetAcl(const std::string& path);

 private:
  explicit ZkSession(ZkSessionOptions options);
  static void OnSessionEvent(_zhandle* zh, int type, int state, const char* path, void* ctx);
  static void OnWatchEvent(_zhandle* zh, int type, int state, const char* path, void* ctx);
  // Internal if on the completion thread; Aborted once closed.
  Status CheckCallable() const;
  // Registers `watch` (see zk_session.cc's WatchRegistry) and returns the
  // id the C client carries as the watch's context; 0 for no watch.
  uint64_t AddWatch(WatchCallback watch);
  std::string LogPrefix() const;

  const ZkSessionOptions options_;
  // Set by Open(), reset by Close(); calls racing Close() are excluded by
  // the contract, so reads need no lock.
  _zhandle* handle_ = nullptr;

  mutable Mutex mu_;
  CondVar state_changed_;
  SessionState state_ GUARDED_BY(mu_) = SessionState::kConnecting;
};

}  // namespace spindle::zk
