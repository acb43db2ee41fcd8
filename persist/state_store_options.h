// StateStoreOptions: how RocksDbStateStore opens and tunes its store. Checked
// once by Validate() when the store opens.
//
// Size: deleting records (e.g. RemoveApplication of finished applications)
// writes tombstones; the store stays bounded because (a) memtables flush at
// write_buffer_bytes and the WAL is capped at max_wal_bytes, and (b) every
// table file in which some window of deletion_compaction_window consecutive
// entries holds at least deletion_compaction_trigger deletions is marked for
// compaction (RocksDB's CompactOnDeletionCollector), so tombstones and the
// records they cover are dropped by background compaction instead of waiting
// for enough new data to push them down the levels. Level sizes follow the
// data (level_compaction_dynamic_level_bytes), so a small store stays small.
//
// Thread-safety: a value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace spindle::persist {

struct StateStoreOptions {
  // Directory holding the store. Required; created if missing (with
  // create_if_missing). Must not be shared with anything else.
  std::string path;

  // A mutating call returns only after its update is synced to disk (fsync
  // of the write-ahead log, then of the acknowledged mark that lets a restart
  // tell whether the log lost any of it; persist/acknowledged_mark.h), so an
  // acknowledged submission survives a crash of the machine, not just of the
  // process. Off only for tests and benches (then nothing is acknowledged
  // and a damaged log tail is dropped as RocksDB recovers it).
  // Default: true.
  bool sync_writes = true;

  // An absent or empty `path` is initialised as a new store; when false,
  // Open() of such a path returns NotFound.
  // Default: true.
  bool create_if_missing = true;

  // Memtable size of each record kind before it is flushed to a table file.
  // Default: 8 MiB.
  size_t write_buffer_bytes = size_t{8} << 20;

  // Total write-ahead log size that forces a flush of the record kinds
  // holding the oldest log alive (a rarely written kind would otherwise keep
  // old logs forever). Default: 64 MiB.
  uint64_t max_wal_bytes = uint64_t{64} << 20;

  // Deletion-triggered compaction (see the file comment): window length in
  // entries, and deletions within it that mark the file. The trigger must be
  // at most the window. Defaults: 1000 and 200.
  size_t deletion_compaction_window = 1000;
  size_t deletion_compaction_trigger = 200;

  // InvalidArgument naming the first bad field.
  Status Validate() const;
};

}  // namespace spindle::persist
