#include "rm/recovery/recovery_config.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "persist/memory_state_store.h"
#include "persist/rocksdb_state_store.h"
#include "rm/config/hadoop_line.h"
#include "rm/recovery/fs/fs_store_config.h"
#include "rm/recovery/zk/zk_store_config.h"

namespace spindle::rm {

namespace {

constexpr char kStoreClassKey[] = "yarn.resourcemanager.store.class";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

Result<RecoveryConfig> RecoveryConfig::FromConfiguration(const Configuration& conf) {
  RecoveryConfig config;
  ASSIGN_OR_RETURN(config.recovery_enabled,
                   conf.GetBool("yarn.resourcemanager.recovery.enabled", false));
  const std::string store_class = conf.GetTrimmed(kStoreClassKey).value_or("rocksdb");
  if (store_class == "rocksdb" || EndsWith(store_class, ".LeveldbRMStateStore")) {
    config.kind = StoreKind::kRocksDb;
  } else if (store_class == "memory" || EndsWith(store_class, ".MemoryRMStateStore")) {
    config.kind = StoreKind::kMemory;
  } else if (store_class == "null" || EndsWith(store_class, ".NullRMStateStore")) {
    config.kind = StoreKind::kNone;
  } else if (store_class == "zookeeper" || EndsWith(store_class, ".ZKRMStateStore")) {
    config.kind = StoreKind::kZooKeeper;
  } else if (store_class == "filesystem" || EndsWith(store_class, ".FileSystemRMStateStore")) {
    config.kind = StoreKind::kFileSystem;
  } else {
    return Status::InvalidArgument(
        conf.SourceOf(kStoreClassKey) + ": " + kStoreClassKey + " = '" + store_class +
        "' is not a state store Spindle has; use rocksdb (or LeveldbRMStateStore), memory "
        "(MemoryRMStateStore), null (NullRMStateStore), "
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore or "
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
  }
  // The leveldb key always has a value: the line's shipped default.
  config.store.path =
      conf.GetTrimmed("spindle.store.path")
          .value_or(conf.GetTrimmed("yarn.resourcemanager.leveldb-state-store.path").value_or(""));
  ASSIGN_OR_RETURN(config.store.sync_writes, conf.GetBool("spindle.store.sync-writes", true));
  constexpr char kWaitKey[] = "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms";
  ASSIGN_OR_RETURN(int64_t wait_ms, conf.GetInt(kWaitKey, 10000));
  if (wait_ms < 0) {
    return Status::InvalidArgument(conf.SourceOf(kWaitKey) + ": " + kWaitKey + " = '" +
                                   std::to_string(wait_ms) + "' must not be negative");
  }
  config.scheduling_wait = std::chrono::milliseconds(wait_ms);
  ASSIGN_OR_RETURN(const HadoopLine line, HadoopLineOf(conf));
  if (line != HadoopLine::k2_6) {
    ASSIGN_OR_RETURN(const bool yarn_fail_fast, conf.GetBool("yarn.fail-fast", false));
    ASSIGN_OR_RETURN(const bool fail_fast,
                     conf.GetBool("yarn.resourcemanager.fail-fast", yarn_fail_fast));
    config.on_store_failure =
        fail_fast ? StoreFailureAction::kExit : StoreFailureAction::kRefuseWrites;
  } else {
    config.on_store_failure = StoreFailureAction::kExit;
  }
  if (config.kind == StoreKind::kZooKeeper) {
    // Without recovery the RM never builds the store (as Hadoop), so only a
    // recovering RM refuses bad ZooKeeper settings; `--format-state-store`
    // then reports them when it connects.
    auto zk = ZkStoreOptionsFromConfiguration(conf);
    if (zk.ok()) {
      config.zk = std::move(zk).value();
    } else if (config.recovery_enabled) {
      return zk.status();
    }
  }
  if (config.kind == StoreKind::kFileSystem) {
    // As for ZooKeeper: only a recovering RM builds the store.
    auto fs = FsStoreOptionsFromConfiguration(conf);
    if (fs.ok()) {
      config.fs = std::move(fs).value();
    } else if (config.recovery_enabled) {
      return fs.status();
    }
  }
  if (config.kind == StoreKind::kRocksDb) {
    Status valid = config.store.Validate();
    if (!valid.ok()) return Status::InvalidArgument("state store: " + valid.message());
  }
  return config;
}

Status PrepareStoreDirectory(const RecoveryConfig& config) {
  if (config.kind != StoreKind::kRocksDb) return Status::OK();
  namespace fs = std::filesystem;
  const fs::path path(config.store.path);
  std::error_code ec;
  if (fs::exists(path, ec)) return Status::OK();
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      return Status::IoError("cannot create the parent directories of the state store " +
                             config.store.path + ": " + ec.message());
    }
  }
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::IoError("cannot create the state store directory " + config.store.path + ": " +
                           std::strerror(errno));
  }
  return Status::OK();
}

std::string StoreDescription(const RecoveryConfig& config) {
  switch (config.kind) {
    case StoreKind::kRocksDb:
      return "the state store at " + config.store.path;
    case StoreKind::kZooKeeper:
      return "the ZooKeeper state store at " + config.zk.connect_string +
             zkstore::ZkStoreLayout(config.zk.parent_path, 0, 0).root();
    case StoreKind::kFileSystem:
      return "the FileSystem state store at " + fsstore::FsStoreLayout(config.fs.directory).root();
    case StoreKind::kMemory:
    case StoreKind::kNone:
      break;
  }
  return "the state store";
}

std::unique_ptr<persist::StateStore> MakeStateStore(const RecoveryConfig& config) {
  switch (config.kind) {
    case StoreKind::kNone:
      return nullptr;
    case StoreKind::kMemory:
      return std::make_unique<persist::MemoryStateStore>();
    case StoreKind::kRocksDb:
      return std::make_unique<persist::RocksDbStateStore>(config.store);
    case StoreKind::kZooKeeper:
      return std::make_unique<ZkRmStateStore>(config.zk);
    case StoreKind::kFileSystem:
      return std::make_unique<FsRmStateStore>(config.fs);
  }
  return nullptr;
}

}  // namespace spindle::rm
