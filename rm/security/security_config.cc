#include "rm/security/security_config.h"

#include <string>

namespace spindle::rm {

namespace {

constexpr int64_t kDefaultRollingIntervalSecs = 86400;
constexpr int64_t kDefaultLivenessExpiryMs = 600000;
constexpr int64_t kDefaultContainerAllocationExpiryMs = 600000;
// Bounds that keep every derived Duration (in nanoseconds) far from overflow.
constexpr int64_t kMaxSecs = int64_t{100} * 365 * 24 * 3600;
constexpr int64_t kMaxMs = kMaxSecs * 1000;

Result<int64_t> GetPositive(const Configuration& conf, const std::string& key, int64_t fallback,
                            int64_t max) {
  ASSIGN_OR_RETURN(const int64_t value, conf.GetInt(key, fallback));
  if (value <= 0 || value > max) {
    return Status::InvalidArgument(key + " must be in 1.." + std::to_string(max) + ", got " +
                                   std::to_string(value));
  }
  return value;
}

}  // namespace

Result<KeyRollingOptions> KeyRollingOptionsFromConfiguration(const Configuration& conf,
                                                             KeyFamily family) {
  const std::string rolling_key = std::string("yarn.resourcemanager.") + KeyFamilyName(family) +
                                  ".master-key-rolling-interval-secs";
  const std::string expiry_key = family == KeyFamily::kAmrmTokens
                                     ? "yarn.am.liveness-monitor.expiry-interval-ms"
                                     : "yarn.nm.liveness-monitor.expiry-interval-ms";
  ASSIGN_OR_RETURN(const int64_t rolling_secs,
                   GetPositive(conf, rolling_key, kDefaultRollingIntervalSecs, kMaxSecs));
  ASSIGN_OR_RETURN(const int64_t expiry_ms,
                   GetPositive(conf, expiry_key, kDefaultLivenessExpiryMs, kMaxMs));
  KeyRollingOptions options;
  options.family = family;
  options.rolling_interval = std::chrono::seconds(rolling_secs);
  // Java: (long) (expiry * 1.5), in ms.
  options.activation_delay =
      std::chrono::milliseconds(static_cast<int64_t>(static_cast<double>(expiry_ms) * 1.5));
  if (!options.Validate().ok()) {
    return Status::InvalidArgument(rolling_key + " (" + std::to_string(rolling_secs) +
                                   ") should be more than 3 X " + expiry_key + " (" +
                                   std::to_string(expiry_ms) + ")");
  }
  return options;
}

Result<ContainerTokenSecretManager::Options> ContainerTokenOptionsFromConfiguration(
    const Configuration& conf, int64_t rm_identifier) {
  ContainerTokenSecretManager::Options options;
  ASSIGN_OR_RETURN(options.keys,
                   KeyRollingOptionsFromConfiguration(conf, KeyFamily::kContainerTokens));
  // Java reads it with getInt.
  ASSIGN_OR_RETURN(
      options.token_expiry_ms,
      GetPositive(conf, "yarn.resourcemanager.rm.container-allocation.expiry-interval-ms",
                  kDefaultContainerAllocationExpiryMs, INT32_MAX));
  options.rm_identifier = rm_identifier;
  return options;
}

Result<RmDelegationTokenOptions> RmDelegationTokenOptionsFromConfiguration(
    const Configuration& conf) {
  constexpr int64_t kDayMs = int64_t{24} * 3600 * 1000;
  RmDelegationTokenOptions options;
  ASSIGN_OR_RETURN(
      const int64_t key_update_ms,
      GetPositive(conf, "yarn.resourcemanager.delegation.key.update-interval", kDayMs, kMaxMs));
  ASSIGN_OR_RETURN(
      const int64_t renew_ms,
      GetPositive(conf, "yarn.resourcemanager.delegation.token.renew-interval", kDayMs, kMaxMs));
  ASSIGN_OR_RETURN(
      const int64_t max_lifetime_ms,
      GetPositive(conf, "yarn.resourcemanager.delegation.token.max-lifetime", 7 * kDayMs, kMaxMs));
  options.key_update_interval = std::chrono::milliseconds(key_update_ms);
  options.renew_interval = std::chrono::milliseconds(renew_ms);
  options.max_lifetime = std::chrono::milliseconds(max_lifetime_ms);
  return options;
}

}  // namespace spindle::rm
