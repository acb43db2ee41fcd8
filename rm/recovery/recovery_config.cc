#include "rm/recovery/recovery_config.h"

#include <cstdlib>
#include <string_view>

#include "persist/memory_state_store.h"
#include "persist/rocksdb_state_store.h"

namespace spindle::rm {

namespace {

constexpr char kStoreClassKey[] = "yarn.resourcemanager.store.class";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string DefaultStorePath(const Configuration& conf) {
  std::string tmp = conf.GetTrimmed("hadoop.tmp.dir").value_or("");
  if (tmp.empty()) {
    const char* user = std::getenv("USER");
    tmp = std::string("/tmp/hadoop-") + (user != nullptr && *user != '\0' ? user : "yarn");
  }
  return tmp + "/yarn/system/rmstore";
}

}  // namespace

Result<RecoveryConfig> RecoveryConfig::FromConfiguration(const Configuration& conf) {
  RecoveryConfig config;
  ASSIGN_OR_RETURN(config.recovery_enabled,
                   conf.GetBool("yarn.resourcemanager.recovery.enabled", true));
  const std::string store_class = conf.GetTrimmed(kStoreClassKey).value_or("rocksdb");
  if (store_class == "rocksdb" || EndsWith(store_class, ".LeveldbRMStateStore")) {
    config.kind = StoreKind::kRocksDb;
  } else if (store_class == "memory" || EndsWith(store_class, ".MemoryRMStateStore")) {
    config.kind = StoreKind::kMemory;
  } else if (store_class == "null" || EndsWith(store_class, ".NullRMStateStore")) {
    config.kind = StoreKind::kNone;
  } else {
    return Status::InvalidArgument(
        conf.SourceOf(kStoreClassKey) + ": " + kStoreClassKey + " = '" + store_class +
        "' is not a state store Spindle has; use rocksdb (or LeveldbRMStateStore), memory "
        "(MemoryRMStateStore) or null (NullRMStateStore)");
  }
  config.store.path = conf.GetTrimmed("spindle.store.path")
                          .value_or(conf.GetTrimmed("yarn.resourcemanager.leveldb-state-store.path")
                                        .value_or(DefaultStorePath(conf)));
  ASSIGN_OR_RETURN(config.store.sync_writes, conf.GetBool("spindle.store.sync-writes", true));
  constexpr char kWaitKey[] = "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms";
  ASSIGN_OR_RETURN(int64_t wait_ms, conf.GetInt(kWaitKey, 10000));
  if (wait_ms < 0) {
    return Status::InvalidArgument(conf.SourceOf(kWaitKey) + ": " + kWaitKey + " = '" +
                                   std::to_string(wait_ms) + "' must not be negative");
  }
  config.scheduling_wait = std::chrono::milliseconds(wait_ms);
  if (config.kind == StoreKind::kRocksDb) {
    Status valid = config.store.Validate();
    if (!valid.ok()) return Status::InvalidArgument("state store: " + valid.message());
  }
  return config;
}

std::unique_ptr<persist::StateStore> MakeStateStore(const RecoveryConfig& config) {
  switch (config.kind) {
    case StoreKind::kNone:
      return nullptr;
    case StoreKind::kMemory:
      return std::make_unique<persist::MemoryStateStore>();
    case StoreKind::kRocksDb:
      return std::make_unique<persist::RocksDbStateStore>(config.store);
  }
  return nullptr;
}

}  // namespace spindle::rm
