// StateStore: the ResourceManager's durable master state (applications,
// attempts, security master keys, cluster counters, node exclusions), as in
// Hadoop's RMStateStore. Records are opaque bytes keyed by ids the store does
// not interpret: persist knows nothing of YARN or protobuf.
//
// Atomicity: every mutating call is one atomic update. A StoreBatch applies
// whole or not at all, also across a crash: after a restart Load() sees either
// every operation of a batch or none of them. The single-record conveniences
// (PutApplication, ...) are one-operation batches; RemoveApplication removes
// an application and all its attempts in one batch.
//
// Durability: when the implementation is durable and its options ask for
// synced writes (RocksDbStateStore with sync_writes, the default), a mutating
// call returns OK only after the update is on stable storage, so the RM may
// acknowledge a client once the call returns.
//
// Thread-safety: all methods are thread-safe. Concurrent mutations are
// applied in some serial order; none is lost.
//
// Lifecycle: Open() before anything else except Format(); calls on a store
// that is not open (or is being closed or formatted) return Unavailable.
// Close() (also run by the destructor) waits for calls in progress, then
// releases the store; Open() may follow again.
//
// Errors: InvalidArgument for a bad batch (nothing applied), Unavailable as
// above, Corruption when stored data fails its checks, IoError for disk
// trouble; store-specific refusals at Open() are listed by each store.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/status.h"

namespace spindle::persist {

// Small integer records about the cluster as a whole. Each is absent from
// LoadedState until first set.
enum class ClusterField : int {
  kClusterTimestamp = 1,  // RM start time that prefixes application ids
  kAppIdCounter = 2,      // last application sequence number handed out
  kEpoch = 3,             // bumped at every RM start (container id epoch)
  kQueueConfigVersion = 4,
  kDelegationTokenSequence = 5,  // RMDelegationTokenSecretManager's counter
};
// Stable, human-readable name (also the on-disk key); "" for unknown values.
const char* ClusterFieldName(ClusterField field);

// An ordered list of mutations applied atomically by StateStore::Apply().
// Later operations win over earlier ones on the same key.
//
// Ids must be non-empty; application ids and master key families must not
// contain '\0' (it separates key parts on disk). Apply() rejects a batch that
// breaks this with InvalidArgument and applies nothing.
//
// Thread-safety: a value; not safe for concurrent mutation.
class StoreBatch {
 public:
  enum class Kind : int { kApplication, kAttempt, kMasterKey, kCluster, kNode };
  enum class OpType : int { kPut, kDelete, kRemoveApplication };
  struct Op {
    Kind kind;
    OpType type;
    std::string id;      // app id, family or node id
    std::string sub_id;  // attempt id (kAttempt only)
    int64_t number = 0;  // master key id (kMasterKey) or value (kCluster)
    std::string value;   // record bytes (puts of byte records)
    ClusterField field = ClusterField::kClusterTimestamp;  // kCluster only
  };

  void PutApplication(std::string_view app_id, std::string_view bytes);
  // Removes the application and every attempt stored under it.
  void RemoveApplication(std::string_view app_id);
  void PutAttempt(std::string_view app_id, std::string_view attempt_id, std::string_view bytes);
  void DeleteAttempt(std::string_view app_id, std::string_view attempt_id);
  void PutMasterKey(std::string_view family, int64_t key_id, std::string_view bytes);
  void DeleteMasterKey(std::string_view family, int64_t key_id);
  void SetClusterValue(ClusterField field, int64_t value);
  void PutNode(std::string_view node_id, std::string_view bytes);
  void DeleteNode(std::string_view node_id);

  // OK, or InvalidArgument naming the first bad operation.
  Status Validate() const;

  const std::vector<Op>& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  size_t size() const { return ops_.size(); }
  void Clear() { ops_.clear(); }

  // A batch that need not be synced: it survives a crash of the process
  // (it is in the write-ahead log when Apply() returns) but may be lost with
  // the machine. For records whose loss costs only work done again, written
  // too often to sync each. Default: synced (as the store's options say).
  void set_sync(bool sync) { sync_ = sync; }
  bool sync() const { return sync_; }

 private:
  std::vector<Op> ops_;
  bool sync_ = true;
};

// Everything a store holds, as returned by Load().
struct LoadedState {
  std::map<std::string, std::string> applications;  // app id -> bytes
  // app id -> attempt id -> bytes. An entry may exist for an app id that has
  // no application record (the store does not enforce the relation).
  std::map<std::string, std::map<std::string, std::string>> attempts;
  // (family, key id) -> bytes
  std::map<std::pair<std::string, int64_t>, std::string> master_keys;
  std::map<ClusterField, int64_t> cluster;
  std::map<std::string, std::string> nodes;  // node id -> bytes

  size_t RecordCount() const;
  bool operator==(const LoadedState&) const = default;
};

class StateStore {
 public:
  virtual ~StateStore() = default;

  // Opens (or, if allowed and absent, initialises) the store. OK on a store
  // that is already open. Refuses, leaving the data untouched, a store that
  // is corrupt or from another format version (see the implementation).
  virtual Status Open() = 0;
  // Releases the store. OK if it was not open.
  virtual Status Close() = 0;
  // Reads every record, as of one point in time.
  virtual Result<LoadedState> Load() = 0;
  // Applies `batch` atomically (see the file comment). An empty batch is OK.
  virtual Status Apply(const StoreBatch& batch) = 0;
  // Deletes every record, as `yarn resourcemanager -format-state-store`.
  // Works on an open store (which stays open and empty) and on one that is
  // not open, including one that Open() refused; then the next Open() starts
  // from an empty store.
  virtual Status Format() = 0;

  // One-operation batches; see StoreBatch for the arguments.
  Status PutApplication(std::string_view app_id, std::string_view bytes);
  Status RemoveApplication(std::string_view app_id);
  Status PutAttempt(std::string_view app_id, std::string_view attempt_id, std::string_view bytes);
  Status DeleteAttempt(std::string_view app_id, std::string_view attempt_id);
  Status PutMasterKey(std::string_view family, int64_t key_id, std::string_view bytes);
  Status DeleteMasterKey(std::string_view family, int64_t key_id);
  Status SetClusterValue(ClusterField field, int64_t value);
  Status PutNode(std::string_view node_id, std::string_view bytes);
  Status DeleteNode(std::string_view node_id);
};

}  // namespace spindle::persist
