// RecoveryConfig: which state store the RM keeps its master state in and how
// it recovers, from the Hadoop configuration:
//
//   yarn.resourcemanager.recovery.enabled       default false, as
//       yarn-default.xml of every line (2.6, 2.7, 3.3): without it the RM
//       neither reads nor writes a store.
//   yarn.resourcemanager.store.class            default: the embedded RocksDB
//       store (Spindle's; Hadoop's default is FileSystemRMStateStore). Accepted: "rocksdb"
//       or Hadoop's LeveldbRMStateStore (both the embedded RocksDB store), "memory" or
//       MemoryRMStateStore (process memory: nothing survives the process), "null" or
//       NullRMStateStore (nothing stored, nothing recovered), ZKRMStateStore (ZooKeeper in
//       Hadoop's znode layout, rm/recovery/zk/; its settings: zk/zk_store_config.h),
//       "filesystem" or FileSystemRMStateStore (a local directory in Hadoop's layout,
//       rm/recovery/fs/; its settings, and the refusal of non-local URIs:
//       fs/fs_store_config.h).
//   spindle.store.path                          the RocksDB directory; else
//       yarn.resourcemanager.leveldb-state-store.path, whose shipped default
//       is ${hadoop.tmp.dir}/yarn/system/rmstore, hadoop.tmp.dir defaulting to
//       /tmp/hadoop-${user.name} (rm/config/hadoop_line.h). Missing parent
//       directories are created (PrepareStoreDirectory), as Hadoop's
//       LeveldbRMStateStore does (mkdirs, the store itself 0700).
//   spindle.store.sync-writes                   default true: every write the
//       RM acts on is fsynced before it acts (off only for benchmarks).
//   yarn.resourcemanager.fail-fast             default ${yarn.fail-fast}
//       (default false), on the lines that have it (2.7, 3.3): what the RM
//       does when the store fails a write (rm/recovery/store_failure_guard.h).
//       On 2.6, which has no such key, the RM always exits, as 2.6's does.
//   yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms
//       default 10000: after a restart, new placements wait this long at most
//       for the nodes of the previous run to report back.
//
// Thread-safety: values and pure functions.
#pragma once

#include <memory>

#include "base/clock.h"
#include "base/result.h"
#include "persist/state_store.h"
#include "persist/state_store_options.h"
#include "rm/config/configuration.h"
#include "rm/recovery/fs/fs_rm_state_store.h"
#include "rm/recovery/store_failure_guard.h"
#include "rm/recovery/zk/zk_rm_state_store.h"

namespace spindle::rm {

enum class StoreKind { kNone, kMemory, kRocksDb, kZooKeeper, kFileSystem };

struct RecoveryConfig {
  bool recovery_enabled = false;
  StoreKind kind = StoreKind::kRocksDb;
  // For kRocksDb.
  persist::StateStoreOptions store;
  // For kZooKeeper.
  ZkStoreOptions zk;
  // For kFileSystem.
  FsStoreOptions fs;
  Duration scheduling_wait = std::chrono::milliseconds(10000);
  StoreFailureAction on_store_failure = StoreFailureAction::kRefuseWrites;

  // InvalidArgument naming the file, key and value at fault.
  static Result<RecoveryConfig> FromConfiguration(const Configuration& conf);
};

// Creates the RocksDB store's directory and its missing parents (parents
// with the umask's permissions, a new store directory 0700), so that a store
// can be opened or formatted where nothing exists yet. OK for other kinds.
// IoError naming the path and the reason.
Status PrepareStoreDirectory(const RecoveryConfig& config);

// Where the store is, for messages: "the state store at <dir>", "the
// ZooKeeper state store at <quorum>/<parent>/ZKRMStateRoot", ...
std::string StoreDescription(const RecoveryConfig& config);

// The store the configuration names, not yet open; nullptr for kNone.
std::unique_ptr<persist::StateStore> MakeStateStore(const RecoveryConfig& config);

}  // namespace spindle::rm
