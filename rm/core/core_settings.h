// CoreSettings: everything the RM core reads from the Hadoop configuration,
// parsed and checked once when the ResourceManager is created (an always-on
// service, as Hadoop's ResourceManager.serviceInit reads yarn-site.xml before
// any active service exists). The active services are then built from these
// values on each transition to active, with what the state store recovered
// (cluster timestamp, epoch, master keys) filled in there.
//
// Thread-safety: values and pure functions.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "base/result.h"
#include "rm/apps/app_manager.h"
#include "rm/config/configuration.h"
#include "rm/config/ha_config.h"
#include "rm/config/hadoop_line.h"
#include "rm/nodes/node_labels.h"
#include "rm/nodes/node_registry.h"
#include "rm/preemption/preemption_options.h"
#include "rm/queues/os_group_mapping.h"
#include "rm/recovery/recovery_config.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "scheduler_pool/pool_options.h"

namespace spindle::rm {

struct CoreSettings {
  // spindle.compat.hadoop-version (rm/config/hadoop_line.h).
  HadoopLine line = kDefaultHadoopLine;
  RecoveryConfig recovery;
  // spindle.scheduler.* (scheduler_pool/pool_options.h).
  pool::PoolOptions pool;
  // yarn.nm.liveness-monitor.expiry-interval-ms, the minimum allocation, the
  // include/exclude host lists and the topology table.
  NodeRegistryOptions nodes;
  // yarn.resourcemanager.am.max-attempts, AM blacklisting, AM expiry,
  // minimum/maximum allocation, max-completed-applications. The cluster
  // timestamp and epoch are the store's, set on each activation.
  ApplicationManagerOptions apps;
  // Master-key rolling of the three token families and the RM delegation
  // token intervals (rm/security/security_config.h); recovered keys and the
  // rm_identifier are set on each activation.
  KeyRollingOptions amrm_keys;
  KeyRollingOptions nm_keys;
  ContainerTokenSecretManager::Options container_tokens;
  RmDelegationTokenOptions delegation_tokens;
  // yarn.resourcemanager.scheduler.monitor.* and
  // yarn.resourcemanager.monitor.capacity.preemption.* (rm/preemption); its
  // calculator follows apps.resource_calculator.
  preemption::PreemptionOptions preemption;
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms. Default: 1000.
  int64_t heartbeat_interval_ms = 1000;
  // hadoop.security.groups.cache.secs and the static overrides.
  OsGroupMappingOptions groups;
  // yarn.admin.acl. Default: "*".
  std::string admin_acl = "*";
  // yarn.acl.enable. Default: false.
  bool acl_enabled = false;
  // yarn.node-labels.enabled (2.7+; default false). Hadoop 2.6 has no such
  // key: its labels are always enabled.
  NodeLabelsOptions node_labels;
  // yarn.resourcemanager.ha.* (rm/config/ha_config.h): off by default.
  HaConfig ha;

  const HadoopLineTraits& hadoop() const { return TraitsOf(line); }

  // Errors name the file, key and value at fault (InvalidArgument), or the
  // hosts file that cannot be read (IoError).
  static Result<CoreSettings> FromConfiguration(const Configuration& conf);
};

// yarn.resourcemanager.nodes.include-path / exclude-path (`key`): host names
// separated by white space; '#' starts a comment. Empty without the key;
// IoError naming the file if it cannot be read.
Result<std::set<std::string>> ReadHostsFile(const Configuration& conf, const std::string& key);

}  // namespace spindle::rm
