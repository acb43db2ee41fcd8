#include "rm/core/core_settings.h"

#include <fstream>
#include <map>
#include <sstream>

#include "rm/nodes/topology_table.h"
#include "rm/scheduling/resource_normalizer.h"
#include "rm/security/security_config.h"

namespace spindle::rm {

namespace {

Result<Duration> Millis(const Configuration& conf, const std::string& key, int64_t fallback) {
  ASSIGN_OR_RETURN(int64_t ms, conf.GetInt(key, fallback));
  if (ms <= 0) {
    return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" + std::to_string(ms) +
                                   "' must be positive");
  }
  return Duration(std::chrono::milliseconds(ms));
}

Status ReadAllocationLimits(const Configuration& conf, CoreSettings* s) {
  ASSIGN_OR_RETURN(int64_t min_mb, conf.GetInt("yarn.scheduler.minimum-allocation-mb", 1024));
  ASSIGN_OR_RETURN(int64_t min_vcores, conf.GetInt("yarn.scheduler.minimum-allocation-vcores", 1));
  ASSIGN_OR_RETURN(int64_t max_mb, conf.GetInt("yarn.scheduler.maximum-allocation-mb", 8192));
  // The line's yarn-default.xml decides (32 on 2.x, 4 on 3.x): rm/config/hadoop_line.
  ASSIGN_OR_RETURN(int64_t max_vcores, conf.GetInt("yarn.scheduler.maximum-allocation-vcores", 4));
  if (min_mb <= 0 || min_vcores <= 0 || max_mb < min_mb || max_vcores < min_vcores) {
    return Status::InvalidArgument(
        conf.SourceOf("yarn.scheduler.maximum-allocation-mb") +
        ": Invalid resource scheduler memory/vcores allocation configuration: minimum " +
        std::to_string(min_mb) + " MB/" + std::to_string(min_vcores) + " vcores, maximum " +
        std::to_string(max_mb) + " MB/" + std::to_string(max_vcores) + " vcores");
  }
  s->nodes.min_allocation = pool::Resource::Of(min_mb, min_vcores);
  s->apps.min_allocation = s->nodes.min_allocation;
  s->apps.max_allocation = pool::Resource::Of(max_mb, max_vcores);
  return Status::OK();
}

Status ReadApplicationOptions(const Configuration& conf, CoreSettings* s) {
  ApplicationManagerOptions& apps = s->apps;
  ASSIGN_OR_RETURN(int64_t max_attempts, conf.GetInt("yarn.resourcemanager.am.max-attempts", 2));
  if (max_attempts <= 0) {
    return Status::InvalidArgument(conf.SourceOf("yarn.resourcemanager.am.max-attempts") +
                                   ": yarn.resourcemanager.am.max-attempts = '" +
                                   std::to_string(max_attempts) + "' must be positive");
  }
  apps.max_attempts = static_cast<int32_t>(max_attempts);
  const HadoopLineTraits& hadoop = s->hadoop();
  apps.single_attempt_never_retried = hadoop.single_attempt_never_retried;
  if (hadoop.am_node_blacklisting) {
    ASSIGN_OR_RETURN(
        apps.am_blacklisting_enabled,
        conf.GetBool("yarn.resourcemanager.am-scheduling.node-blacklisting-enabled", false));
    ASSIGN_OR_RETURN(
        const double threshold,
        conf.GetDouble("yarn.resourcemanager.am-scheduling.node-blacklisting-disable-threshold",
                       0.2));
    // RMAppImpl: a threshold outside [0, 1] falls back to the default.
    apps.am_blacklist_disable_threshold = threshold < 0 || threshold > 1 ? 0.2 : threshold;
  }
  if (s->line == HadoopLine::k2_6) {
    s->node_labels.enabled = true;  // 2.6 CommonNodeLabelsManager: no switch
  } else {
    ASSIGN_OR_RETURN(s->node_labels.enabled, conf.GetBool("yarn.node-labels.enabled", false));
  }
  ASSIGN_OR_RETURN(apps.am_expiry,
                   Millis(conf, "yarn.am.liveness-monitor.expiry-interval-ms", 600000));
  // capacity-scheduler.xml; an unknown class fails the start, as in Hadoop.
  ASSIGN_OR_RETURN(
      apps.resource_calculator,
      ParseResourceCalculator(
          conf.GetTrimmed(kResourceCalculatorKey).value_or(kDefaultResourceCalculatorClass)));
  // 10000 on 2.x, 1000 on 3.x (the line's yarn-default.xml).
  ASSIGN_OR_RETURN(int64_t max_completed,
                   conf.GetInt("yarn.resourcemanager.max-completed-applications", 1000));
  apps.max_completed_apps = static_cast<int32_t>(max_completed);
  return Status::OK();
}

}  // namespace

Result<std::set<std::string>> ReadHostsFile(const Configuration& conf, const std::string& key) {
  std::set<std::string> hosts;
  auto path = conf.GetTrimmed(key);
  if (!path.has_value()) return hosts;
  std::ifstream in(*path);
  if (!in) {
    return Status::IoError(conf.SourceOf(key) + ": " + key + " = '" + *path +
                           "': cannot read the hosts file");
  }
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string host;
    while (words >> host) hosts.insert(host);
  }
  return hosts;
}

Result<CoreSettings> CoreSettings::FromConfiguration(const Configuration& conf) {
  CoreSettings s;
  ASSIGN_OR_RETURN(s.line, HadoopLineOf(conf));
  ASSIGN_OR_RETURN(s.recovery, RecoveryConfig::FromConfiguration(conf));

  std::map<std::string, std::string> pool_keys;
  for (const auto& key : conf.KeysWithPrefix("spindle.scheduler.")) {
    pool_keys[key] = conf.Get(key, "");
  }
  ASSIGN_OR_RETURN(s.pool, pool::PoolOptions::FromMap(pool_keys));

  RETURN_NOT_OK(ReadAllocationLimits(conf, &s));
  ASSIGN_OR_RETURN(s.nodes.expiry,
                   Millis(conf, "yarn.nm.liveness-monitor.expiry-interval-ms", 600000));
  ASSIGN_OR_RETURN(s.nodes.include_hosts,
                   ReadHostsFile(conf, "yarn.resourcemanager.nodes.include-path"));
  ASSIGN_OR_RETURN(s.nodes.exclude_hosts,
                   ReadHostsFile(conf, "yarn.resourcemanager.nodes.exclude-path"));
  ASSIGN_OR_RETURN(s.nodes.racks, TopologyTableFromConfiguration(conf));
  RETURN_NOT_OK(ReadApplicationOptions(conf, &s));

  ASSIGN_OR_RETURN(s.amrm_keys, KeyRollingOptionsFromConfiguration(conf, KeyFamily::kAmrmTokens));
  ASSIGN_OR_RETURN(s.nm_keys, KeyRollingOptionsFromConfiguration(conf, KeyFamily::kNmTokens));
  // The rm_identifier is the activation's start time, set then.
  ASSIGN_OR_RETURN(s.container_tokens, ContainerTokenOptionsFromConfiguration(conf, 0));
  ASSIGN_OR_RETURN(s.delegation_tokens, RmDelegationTokenOptionsFromConfiguration(conf));

  ASSIGN_OR_RETURN(s.preemption, preemption::PreemptionOptions::FromConfiguration(conf));
  s.preemption.calculator = s.apps.resource_calculator == ResourceCalculator::kDominant
                                ? preemption::Calculator::kDominant
                                : preemption::Calculator::kMemory;

  ASSIGN_OR_RETURN(s.heartbeat_interval_ms,
                   conf.GetInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1000));
  ASSIGN_OR_RETURN(s.groups, OsGroupMappingOptions::FromConfiguration(conf));
  s.admin_acl = conf.Get("yarn.admin.acl", "*");
  ASSIGN_OR_RETURN(s.acl_enabled, conf.GetBool("yarn.acl.enable", false));
  ASSIGN_OR_RETURN(s.ha, HaConfig::FromConfiguration(conf));
  return s;
}

}  // namespace spindle::rm
