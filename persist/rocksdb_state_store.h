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
// Thread-safety: all methods are thread-safe. One mutex serialises the calls;
// it is held across RocksDB reads and writes so that Close() and Format()
// never free the database under a concurrent call. The RM has one writer of
// the store, so serialising costs little (and a synced write is one fsync of
// the log either way).
#pragma once

#include <memory>
#include <vector>

#include "base/mutex.h"
#include "persist/state_store.h"
#include "persist/state_store_options.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
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
  void CloseLocked() REQUIRES(mu_);
  // Checks the existing database at the path read-only. Returns true if it
  // holds no version key and no records (a store whose creation was cut
  // short), i.e. it must be initialised.
  Result<bool> CheckExistingLocked() REQUIRES(mu_);

  const StateStoreOptions options_;
  Mutex mu_;
  std::unique_ptr<rocksdb::DB> db_ GUARDED_BY(mu_);
  std::vector<rocksdb::ColumnFamilyHandle*> handles_ GUARDED_BY(mu_);
};

}  // namespace spindle::persist
