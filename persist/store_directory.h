// StoreDirectory: what a RocksDB state store's directory holds, read before
// RocksDB is given the directory, so that a store to be refused is refused
// before anything in it changes (RocksDB, asked to open a directory without
// CURRENT, would create a new, empty database there and purge the old
// files).
//
// Thread-safety: values and pure functions of the disk.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::persist {

struct StoreDirectory {
  bool exists = false;
  bool has_current = false;
  // Files that only a store that has held data has: MANIFEST-*, *.sst,
  // *.log (write-ahead logs) and the acknowledged mark. Sorted.
  std::vector<std::string> data_files;
  std::vector<std::string> wal_files;  // *.log, sorted
  uint64_t wal_bytes = 0;
  uint64_t manifest_bytes = 0;
};

// InvalidArgument if `path` is not a directory; IoError if it cannot be
// listed.
Result<StoreDirectory> InspectStoreDirectory(const std::string& path);

// What an operator can do about a store Spindle refuses because it lost
// acknowledged data: the two ways out, as one sentence; `untouched` when the
// refusal came before anything in the directory changed.
std::string DamagedStoreRemedy(bool untouched = true);

}  // namespace spindle::persist
