// RocksDbStateStore: the embedded, durable StateStore (the default store of
// the RM). One RocksDB database in StateStoreOptions::path, one column family
// per record kind; the layout is in persist/keys.h.
//
// Open() never starts on less than the store acknowledged, and refuses a
// store before anything in its directory changes:
//  - a directory holding a store's files (MANIFEST, tables, logs, the
//    acknowledged mark) but no CURRENT is refused (RocksDB would create an
//    empty database over it and purge the old files);
//  - a store in use by another process is refused as such;
//  - a store whose filesystem lacks the room opening it takes is refused
//    (IoError) instead of failing half-way;
//  - the store is then recovered read-only (its write-ahead log replayed in
//    memory, up to the first damaged record; closed logs checked against the
//    sizes the MANIFEST recorded) and the sequence reached is compared with
//    the acknowledged mark (persist/acknowledged_mark.h): below it, writes
//    that were acknowledged are missing or damaged, and the store is refused
//    with a Corruption naming the damaged log and what is wrong;
//  - another format version, an unknown column family, or records with a
//    missing or garbled version key are refused as before.
// Every refusal names the path, and those for lost data the two ways out
// (restore the directory from a copy, or `spindle rm --format-state-store`).
// Only then is the database opened for writing; a damaged tail beyond the
// mark was never acknowledged and is dropped. An absent or empty directory is
// initialised. RocksDB's informational log goes to the RM's log
// (persist/rocksdb_info_log.h), never to a file in the directory.
//
// Acknowledged: a synced Apply() returns OK once its batch is synced in the
// write-ahead log (WriteOptions::sync) and the mark covers it (a second
// fsync, shared by concurrent writers). Unsynced batches (StoreBatch::
// set_sync(false)) are never acknowledged.
//
// Write failures (ENOSPC, EIO, a read-only filesystem): the failing Apply()
// returns IoError and RocksDB refuses further writes; the store asks RocksDB
// to resume at most every 5 s on the next write, so writes succeed again once
// the cause is gone (RocksDB also resumes by itself after ENOSPC). Nothing
// aborts the process.
//
// Thread-safety: all methods are thread-safe. Load() and Apply() run their
// RocksDB I/O without holding the store's mutex, so concurrent synced writes
// share an fsync (RocksDB's group commit); they pin the open database through
// an in-flight count that Close() and Format() wait on before freeing it.
// Every call may block on disk: callers should not hold their own locks
// across it.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "persist/acknowledged_mark.h"
#include "persist/state_store.h"
#include "persist/state_store_options.h"
#include "persist/store_directory.h"

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
  Result<bool> CheckExistingLocked(const StoreDirectory& dir) REQUIRES(mu_);
  // Corruption if `recovered` (the sequence a replay reached) is below the
  // acknowledged mark, naming what is damaged; `families` as listed.
  Status CheckAcknowledgedLocked(const StoreDirectory& dir, uint64_t recovered,
                                 const std::vector<std::string>& families) REQUIRES(mu_);
  // IoError when the filesystem lacks the room opening the store takes.
  Status CheckFreeSpace(const StoreDirectory& dir) const;

  // The open database, pinned for one Load() or Apply() call: valid until
  // the matching Unpin().
  struct Pinned {
    rocksdb::DB* db = nullptr;
    std::array<rocksdb::ColumnFamilyHandle*, kNumFamilies> handles{};
    AcknowledgedMark* mark = nullptr;
  };
  // Unavailable if the store is not open or is closing.
  Result<Pinned> Pin() EXCLUDES(mu_);
  void Unpin() EXCLUDES(mu_);
  Result<LoadedState> LoadFrom(const Pinned& pinned, const rocksdb::Snapshot* snapshot) const;
  Status ApplyTo(const Pinned& pinned, const StoreBatch& batch) const;
  // After a failed write, asks RocksDB to resume writing (it stops after a
  // write error), at most once per kResumeInterval: the periodic re-check of
  // a store that ran out of space or hit an I/O error.
  void MaybeResume(const Pinned& pinned) EXCLUDES(mu_);
  void NoteWriteResult(const Status& status) EXCLUDES(mu_);

  const StateStoreOptions options_;
  Mutex mu_;
  CondVar idle_;  // signalled when in_flight_ drops to zero
  std::unique_ptr<rocksdb::DB> db_ GUARDED_BY(mu_);
  std::vector<rocksdb::ColumnFamilyHandle*> handles_ GUARDED_BY(mu_);
  // Advanced past every synced write before Apply() returns.
  std::unique_ptr<AcknowledgedMark> mark_ GUARDED_BY(mu_);
  int64_t in_flight_ GUARDED_BY(mu_) = 0;
  bool closing_ GUARDED_BY(mu_) = false;  // new calls are refused meanwhile
  // Set while writes fail; when RocksDB was last asked to resume.
  bool write_failing_ GUARDED_BY(mu_) = false;
  std::chrono::steady_clock::time_point last_resume_ GUARDED_BY(mu_);
};

}  // namespace spindle::persist
