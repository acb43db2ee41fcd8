#include "rm/ha/elector_zk_settings.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace spindle::rm {

namespace {

constexpr char kRmZkAddress[] = "yarn.resourcemanager.zk-address";
constexpr char kZkAddress[] = "hadoop.zk.address";
constexpr char kRmZkTimeout[] = "yarn.resourcemanager.zk-timeout-ms";
constexpr char kZkTimeout[] = "hadoop.zk.timeout-ms";
constexpr char kRmZkAcl[] = "yarn.resourcemanager.zk-acl";
constexpr char kZkAcl[] = "hadoop.zk.acl";
constexpr char kRmZkAuth[] = "yarn.resourcemanager.zk-auth";
constexpr char kZkAuth[] = "hadoop.zk.auth";
constexpr char kRmElectorRetries[] =
    "yarn.resourcemanager.ha.failover-controller.active-standby-elector.zk.retries";
constexpr char kElectorRetries[] = "ha.failover-controller.active-standby-elector.zk.op.retries";

// The key that holds the value: on 3.3 the hadoop.zk.* name first, then the
// deprecated yarn.resourcemanager.zk-* one (Configuration's deprecation makes
// them one setting); 2.6/2.7 know only the RM's own key.
std::string KeyFor(const Configuration& conf, HadoopLine line, const char* rm_key,
                   const char* common_key) {
  if (line == HadoopLine::k3_3 && conf.GetTrimmed(common_key).has_value()) return common_key;
  return rm_key;
}

}  // namespace

Result<ElectorZkSettings> ReadElectorZkSettings(const Configuration& conf, HadoopLine line) {
  ElectorZkSettings out;
  const std::string address_key = KeyFor(conf, line, kRmZkAddress, kZkAddress);
  std::optional<std::string> address = conf.GetTrimmed(address_key);
  if (!address.has_value()) {
    // EmbeddedElectorService's (2.6) / ActiveStandbyElectorBasedElectorService's
    // (3.3) YarnRuntimeException.
    return Status::InvalidArgument(std::string("Embedded automatic failover is enabled, but ") +
                                   (line == HadoopLine::k3_3 ? kZkAddress : kRmZkAddress) +
                                   " is not set");
  }
  out.connect_string = *address;

  const std::string timeout_key = KeyFor(conf, line, kRmZkTimeout, kZkTimeout);
  ASSIGN_OR_RETURN(const int64_t timeout_ms, conf.GetInt(timeout_key, 10000));
  if (timeout_ms <= 0 || timeout_ms > INT32_MAX) {
    return Status::InvalidArgument(conf.SourceOf(timeout_key) + ": " + timeout_key + " = " +
                                   std::to_string(timeout_ms) + " is not a positive int");
  }
  out.session_timeout = std::chrono::milliseconds(timeout_ms);

  const std::string acl_key = KeyFor(conf, line, kRmZkAcl, kZkAcl);
  ASSIGN_OR_RETURN(const std::string acl_text,
                   zk::ResolveConfIndirection(conf.Get(acl_key, "world:anyone:rwcda")));
  auto acl = zk::ParseZkAcls(acl_text);
  if (!acl.ok()) return acl.status().WithContext(conf.SourceOf(acl_key) + ": " + acl_key);
  out.acl = std::move(*acl);

  const std::string auth_key = KeyFor(conf, line, kRmZkAuth, kZkAuth);
  if (std::optional<std::string> auth_value = conf.GetTrimmed(auth_key); auth_value.has_value()) {
    ASSIGN_OR_RETURN(const std::string auth_text, zk::ResolveConfIndirection(*auth_value));
    auto auths = zk::ParseZkAuths(auth_text);
    if (!auths.ok()) return auths.status().WithContext(conf.SourceOf(auth_key) + ": " + auth_key);
    out.auths = std::move(*auths);
  }

  ASSIGN_OR_RETURN(const int64_t common_retries, conf.GetInt(kElectorRetries, 3));
  int64_t retries = common_retries;
  if (line == HadoopLine::k3_3) {
    ASSIGN_OR_RETURN(retries, conf.GetInt(kRmElectorRetries, common_retries));
  }
  // Hadoop's loops make at least one attempt whatever the count says.
  out.max_retries = static_cast<int>(std::clamp<int64_t>(retries, 1, 1000));
  return out;
}

}  // namespace spindle::rm
