#include "rm/ha/elector_zk_settings.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "rm/zk/zk_connection_settings.h"

namespace spindle::rm {

namespace {

constexpr char kRmElectorRetries[] =
    "yarn.resourcemanager.ha.failover-controller.active-standby-elector.zk.retries";
constexpr char kElectorRetries[] = "ha.failover-controller.active-standby-elector.zk.op.retries";

}  // namespace

Result<ElectorZkSettings> ReadElectorZkSettings(const Configuration& conf, HadoopLine line) {
  ASSIGN_OR_RETURN(ZkConnectionSettings connection, ReadZkConnectionSettings(conf, line));
  if (connection.connect_string.empty()) {
    // EmbeddedElectorService's (2.6) / ActiveStandbyElectorBasedElectorService's
    // (3.3) YarnRuntimeException.
    return Status::InvalidArgument("Embedded automatic failover is enabled, but " +
                                   std::string(line == HadoopLine::k3_3
                                                   ? "hadoop.zk.address"
                                                   : "yarn.resourcemanager.zk-address") +
                                   " is not set");
  }
  ElectorZkSettings out;
  out.connect_string = std::move(connection.connect_string);
  out.session_timeout = connection.session_timeout;
  out.acl = std::move(connection.acl);
  out.auths = std::move(connection.auths);

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
