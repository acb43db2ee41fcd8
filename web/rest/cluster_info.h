// ClusterInfo (webapp/dao/ClusterInfo, root "clusterInfo"): GET
// /ws/v1/cluster and /ws/v1/cluster/info. Fields in 3.3's order: id,
// startedOn, state, haState, rmStateStoreName, resourceManagerVersion,
// resourceManagerBuildVersion, resourceManagerVersionBuiltOn, hadoopVersion,
// hadoopBuildVersion, hadoopVersionBuiltOn, haZooKeeperConnectionState
// (2.6/2.7 had all but rmStateStoreName and haZooKeeperConnectionState).
//
// Thread-safety: pure functions over the thread-safe core.
#pragma once

#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestDocument ClusterInfoDocument(const ClusterIdentity& identity);

// `deps.identity` with the core's HA state and its cluster timestamp (once
// it has one: a standby keeps the last activation's, as Hadoop's
// ResourceManager.clusterTimeStamp outlives its active services).
ClusterIdentity ClusterIdentityNow(const ClusterWebDeps& deps);

}  // namespace spindle::web::rest
