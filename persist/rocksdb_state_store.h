// RocksDbStateStore: the embedded, durable StateStore (the default store of
// the RM). One RocksDB database in StateStoreOptions::path, one column family
// per record kind; the layout is in persist/keys.h.
//
// Open() checks the format version key before writing anything: a store with
// another version, an unknown column family, or records but a missing or
// garbled version key is refused with a Status naming the path and versions,
// and nothing on disk changes (the check runs on a read-only open). An absent
// or empty directory is initialised. Corruption that RocksDB detects is
// returned as Status::Corruption naming the path; no exception crosses this
// class.
//
// Thread-safety: all methods are thread-safe. Load() and Apply() run their
// RocksDB I/O without holding the store's mutex, so concurrent synced writes
// share an fsync (RocksDB's group commit); they pin the open database through
// an in-flight count that Close() and Format() wait on before freeing it.
// Every call may block on disk: callers should not hold their own locks
// across it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/mutex.h"
#include "persist/state_store.h"
#include "persist/state_store_options.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
class Snapshot;
}  // namespace rocksdb

namespace spindle::persist {

class RocksDbStateStore final : public StateStore {
 public:
  explicit RocksDbStateStore(StateStoreOptions options);
  ~RocksDbStateStore() override;
  RocksDbStateStore(const RocksDbStateStore&) = delete;
  RocksDbStateStore& operator=(const RocksDbStateStore&) = delete;

  Status Open() override;
  Status Close() override;
  Result<LoadedState> Load() override;
  Status Apply(const StoreBatch& batch) override;
  // Deletes the database files in `path` (whatever their format) and
  // initialises an empty store there; the store is open afterwards only if
  // it was before.
  Status Format() override;

  const StateStoreOptions& options() const { return options_; }

 private:
  // Indexes into handles_.
  enum Family : size_t {
    kDefault = 0,
    kApplications,
    kAttempts,
    kMasterKeys,
    kCluster,
    kNodes,
    kNumFamilies
  };

  // `create`: initialise an absent or empty path (Format() always does).
  Status OpenLocked(bool create) REQUIRES(mu_);
  // Waits for in-flight calls, then frees the database.
  void CloseLocked() REQUIRES(mu_);
  // Checks the existing database at the path read-only. Returns true if it
  // holds no version key and no records (a store whose creation was cut
  // short), i.e. it must be initialised.
  Result<bool> CheckExistingLocked() REQUIRES(mu_);

  // The open database, pinned for one Load() or Apply() call: valid until
  // the matching Unpin().
  struct Pinned {
    rocksdb::DB* db = nullptr;
    std::array<rocksdb::ColumnFamilyHandle*, kNumFamilies> handles{};
  };
  // Unavailable if the store is not open or is closing.
  Result<Pinned> Pin() EXCLUDES(mu_);
  void Unpin() EXCLUDES(mu_);
  Result<LoadedState> LoadFrom(const Pinned& pinned, const rocksdb::Snapshot* snapshot) const;
  Status ApplyTo(const Pinned& pinned, const StoreBatch& batch) const;

  const StateStoreOptions options_;
  Mutex mu_;
  CondVar idle_;  // signalled when in_flight_ drops to zero
  std::unique_ptr<rocksdb::DB> db_ GUARDED_BY(mu_);
  std::vector<rocksdb::ColumnFamilyHandle*> handles_ GUARDED_BY(mu_);
  int64_t in_flight_ GUARDED_BY(mu_) = 0;
  bool closing_ GUARDED_BY(mu_) = false;  // new calls are refused meanwhile
};

}  // namespace spindle::persist
