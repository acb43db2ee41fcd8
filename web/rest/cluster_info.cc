#include "web/rest/cluster_info.h"

#include <utility>

namespace spindle::web::rest {

ClusterIdentity ClusterIdentityNow(const ClusterWebDeps& deps) {
  ClusterIdentity identity = deps.identity;
  if (const int64_t timestamp = deps.core->ClusterTimestamp(); timestamp != 0) {
    identity.cluster_timestamp = timestamp;
  }
  identity.ha_state = rm::HaStateName(deps.core->ha_state());
  return identity;
}

RestDocument ClusterInfoDocument(const ClusterIdentity& identity) {
  RestNode info;
  // Spindle is the RM and speaks for the Hadoop release it emulates: the
  // Hadoop version fields carry the same strings as the RM's.
  info.Int("id", identity.cluster_timestamp)
      .Int("startedOn", identity.cluster_timestamp)
      .Str("state", identity.state)
      .Str("haState", identity.ha_state)
      .Str("rmStateStoreName", identity.state_store_name)
      .Str("resourceManagerVersion", identity.version)
      .Str("resourceManagerBuildVersion", identity.build_version)
      .Str("resourceManagerVersionBuiltOn", identity.built_on)
      .Str("hadoopVersion", identity.version)
      .Str("hadoopBuildVersion", identity.build_version)
      .Str("hadoopVersionBuiltOn", identity.built_on)
      .Str("haZooKeeperConnectionState", identity.ha_zookeeper_connection_state);
  return RestDocument("clusterInfo", std::move(info));
}

}  // namespace spindle::web::rest
