#include "rm/zk/zk_connection_settings.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace spindle::rm {

std::string ZkKeyFor(const Configuration& conf, HadoopLine line, const std::string& old_key,
                     const std::string& new_key) {
  if (line == HadoopLine::k3_3 && (conf.IsSet(new_key) || !conf.IsSet(old_key))) return new_key;
  return old_key;
}

Result<ZkConnectionSettings> ReadZkConnectionSettings(const Configuration& conf, HadoopLine line) {
  ZkConnectionSettings out;
  out.address_key = ZkKeyFor(conf, line, "yarn.resourcemanager.zk-address", "hadoop.zk.address");
  out.connect_string = conf.GetTrimmed(out.address_key).value_or("");

  const std::string timeout_key =
      ZkKeyFor(conf, line, "yarn.resourcemanager.zk-timeout-ms", "hadoop.zk.timeout-ms");
  ASSIGN_OR_RETURN(const int64_t timeout_ms, conf.GetInt(timeout_key, 10000));
  if (timeout_ms <= 0 || timeout_ms > INT32_MAX) {
    return Status::InvalidArgument(conf.SourceOf(timeout_key) + ": " + timeout_key + " = '" +
                                   std::to_string(timeout_ms) + "' must be a positive int");
  }
  out.session_timeout = std::chrono::milliseconds(timeout_ms);

  const auto context = [&conf](const std::string& key) {
    return conf.SourceOf(key) + ": " + key + ": ";
  };
  const std::string acl_key = ZkKeyFor(conf, line, "yarn.resourcemanager.zk-acl", "hadoop.zk.acl");
  auto acl_text = zk::ResolveConfIndirection(conf.Get(acl_key, "world:anyone:rwcda"));
  if (!acl_text.ok()) return acl_text.status().WithContext(context(acl_key));
  auto acl = zk::ParseZkAcls(*acl_text);
  if (!acl.ok()) return acl.status().WithContext(context(acl_key));
  out.acl = std::move(acl).value();

  const std::string auth_key =
      ZkKeyFor(conf, line, "yarn.resourcemanager.zk-auth", "hadoop.zk.auth");
  if (std::optional<std::string> auth_value = conf.GetTrimmed(auth_key); auth_value.has_value()) {
    auto auth_text = zk::ResolveConfIndirection(*auth_value);
    if (!auth_text.ok()) return auth_text.status().WithContext(context(auth_key));
    auto auths = zk::ParseZkAuths(*auth_text);
    if (!auths.ok()) return auths.status().WithContext(context(auth_key));
    out.auths = std::move(auths).value();
  }
  return out;
}

}  // namespace spindle::rm
