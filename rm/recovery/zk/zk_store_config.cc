#include "rm/recovery/zk/zk_store_config.h"

#include <glog/logging.h>

#include "rm/config/hadoop_line.h"
#include "rm/zk/zk_connection_settings.h"

namespace spindle::rm {

namespace {

Result<int64_t> PositiveInt(const Configuration& conf, const std::string& key, int64_t fallback) {
  ASSIGN_OR_RETURN(int64_t value, conf.GetInt(key, fallback));
  if (value <= 0) {
    return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" +
                                   std::to_string(value) + "' must be positive");
  }
  return value;
}

Result<int> SplitIndex(const Configuration& conf, const std::string& key) {
  ASSIGN_OR_RETURN(int64_t value, conf.GetInt(key, 0));
  if (value < 0 || value > zkstore::kMaxSplitIndex) {
    LOG(INFO) << "Invalid value " << value << " for config " << key
              << " specified. Resetting it to 0";
    return 0;
  }
  return static_cast<int>(value);
}

}  // namespace

Result<ZkStoreOptions> ZkStoreOptionsFromConfiguration(const Configuration& conf) {
  ASSIGN_OR_RETURN(const HadoopLine line, HadoopLineOf(conf));
  const bool hadoop3 = line == HadoopLine::k3_3;
  ZkStoreOptions options;
  options.hadoop3 = hadoop3;
  options.version = hadoop3 ? zkstore::StoreVersion{1, 5} : zkstore::StoreVersion{1, 2};

  ASSIGN_OR_RETURN(ZkConnectionSettings connection, ReadZkConnectionSettings(conf, line));
  options.connect_string = std::move(connection.connect_string);
  if (options.connect_string.empty()) {
    return Status::InvalidArgument(
        "yarn.resourcemanager.store.class names ZKRMStateStore, but " + connection.address_key +
        " (the ZooKeeper quorum, host:port[,host:port...]) is not configured" +
        (hadoop3 ? " (nor yarn.resourcemanager.zk-address)" : ""));
  }
  options.session_timeout = connection.session_timeout;
  options.acl = std::move(connection.acl);
  options.auths = std::move(connection.auths);
  const int64_t timeout_ms = options.session_timeout.count();
  const std::string retries_key =
      ZkKeyFor(conf, line, "yarn.resourcemanager.zk-num-retries", "hadoop.zk.num-retries");
  ASSIGN_OR_RETURN(const int64_t retries, PositiveInt(conf, retries_key, 1000));
  options.num_retries = static_cast<int>(std::min<int64_t>(retries, INT32_MAX));
  const std::string interval_key = ZkKeyFor(conf, line, "yarn.resourcemanager.zk-retry-interval-ms",
                                            "hadoop.zk.retry-interval-ms");
  ASSIGN_OR_RETURN(const int64_t interval_ms, conf.GetInt(interval_key, 1000));
  options.retry_interval = std::chrono::milliseconds(std::max<int64_t>(0, interval_ms));

  ASSIGN_OR_RETURN(options.ha_enabled, conf.GetBool("yarn.resourcemanager.ha.enabled", false));
  if (!hadoop3 && options.ha_enabled) {
    options.retry_interval = std::chrono::milliseconds(timeout_ms / options.num_retries);
  }

  auto with_source = [&conf](const std::string& key) {
    return [&conf, key](const Status& s) {
      return s.WithContext(conf.SourceOf(key) + ": " + key + ": ");
    };
  };
  options.parent_path =
      conf.GetTrimmed("yarn.resourcemanager.zk-state-store.parent-path").value_or("/rmstore");
  if (options.parent_path.empty() || options.parent_path[0] != '/') {
    return Status::InvalidArgument(
        conf.SourceOf("yarn.resourcemanager.zk-state-store.parent-path") +
        ": yarn.resourcemanager.zk-state-store.parent-path = '" + options.parent_path +
        "' is not an absolute znode path");
  }

  constexpr char kRootAclKey[] = "yarn.resourcemanager.zk-state-store.root-node.acl";
  if (auto root_acl = conf.GetTrimmed(kRootAclKey)) {
    auto text = zk::ResolveConfIndirection(*root_acl);
    if (!text.ok()) return with_source(kRootAclKey)(text.status());
    auto acl = zk::ParseZkAcls(*text);
    if (!acl.ok()) return with_source(kRootAclKey)(acl.status());
    options.root_node_acl = std::move(acl).value();
  }
  std::optional<std::string> rm_address;
  if (auto ha_id = conf.GetTrimmed("yarn.resourcemanager.ha.id")) {
    rm_address = conf.GetTrimmed("yarn.resourcemanager.address." + *ha_id);
  }
  if (!rm_address) rm_address = conf.GetTrimmed("yarn.resourcemanager.address");
  options.fencing_user = rm_address.value_or("0.0.0.0:8032");

  if (hadoop3) {
    ASSIGN_OR_RETURN(options.app_split_index,
                     SplitIndex(conf, "yarn.resourcemanager.zk-appid-node.split-index"));
    ASSIGN_OR_RETURN(options.token_split_index,
                     SplitIndex(conf, "yarn.resourcemanager.zk-delegation-token-node.split-index"));
  }
  return options;
}

}  // namespace spindle::rm
