// Values the ZooKeeper client hands out and takes: a znode's Stat, create
// modes, watch events, session states, and the operations of a multi.
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "persist/zk/zk_acl.h"

namespace spindle::zk {

// Any version (the -1 of ZooKeeper's API): an unconditional set or delete.
inline constexpr int32_t kAnyVersion = -1;

// org.apache.zookeeper.data.Stat.
struct ZkStat {
  int64_t czxid = 0;
  int64_t mzxid = 0;
  int64_t ctime_ms = 0;
  int64_t mtime_ms = 0;
  int32_t version = 0;          // of the data
  int32_t cversion = 0;         // of the children
  int32_t aversion = 0;         // of the ACL
  int64_t ephemeral_owner = 0;  // the owning session, 0 for a persistent node
  int32_t data_length = 0;
  int32_t num_children = 0;
  int64_t pzxid = 0;
};

enum class CreateMode {
  kPersistent,
  kEphemeral,
  kPersistentSequential,  // the server appends a 10-digit counter to the name
  kEphemeralSequential,
};

struct ZkNode {
  std::string data;
  ZkStat stat;
  // The node holds null rather than `data` (empty then): what Java readers
  // see as getData() == null, Hadoop's structural nodes for instance.
  bool null_data = false;
};

// What fired a watch (Watcher.Event.EventType).
enum class WatchEventType { kCreated, kDeleted, kDataChanged, kChildrenChanged };

struct WatchEvent {
  WatchEventType type;
  std::string path;
};

// The session's state, as the client's watcher reports it.
enum class SessionState {
  kConnecting,  // not (or no longer) connected; the client is reconnecting
  kConnected,
  kExpired,     // final: the server dropped the session (ephemerals are gone)
  kAuthFailed,  // final
  kClosed,      // final: Close() was called
};

const char* SessionStateName(SessionState state);

// One operation of a multi (ZooKeeper's Op): the multi applies all of them or
// none.
struct ZkOp {
  enum class Kind { kCheck, kCreate, kSetData, kDelete };

  static ZkOp Check(std::string path, int32_t version);
  static ZkOp Create(std::string path, std::string data, std::vector<ZkAcl> acl,
                     CreateMode mode = CreateMode::kPersistent);
  static ZkOp SetData(std::string path, std::string data, int32_t version = kAnyVersion);
  static ZkOp Delete(std::string path, int32_t version = kAnyVersion);
  // A create or set whose data is null rather than empty: Java readers see
  // null (getData returns null) for such a node, as for the nodes Hadoop
  // creates without data, and byte[0] for an empty one.
  static ZkOp CreateWithoutData(std::string path, std::vector<ZkAcl> acl,
                                CreateMode mode = CreateMode::kPersistent);
  static ZkOp SetNoData(std::string path, int32_t version = kAnyVersion);

  Kind kind;
  std::string path;
  std::string data;
  std::vector<ZkAcl> acl;
  CreateMode mode = CreateMode::kPersistent;
  int32_t version = kAnyVersion;
  bool null_data = false;  // kCreate, kSetData: null instead of `data`
};

// What each op of a committed multi produced.
struct ZkOpResult {
  std::string created_path;    // kCreate: the actual name (sequential nodes)
  std::optional<ZkStat> stat;  // kSetData: the node's new Stat
};

}  // namespace spindle::zk
