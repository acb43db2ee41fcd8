// ClusterInfo (webapp/dao/ClusterInfo, root "clusterInfo"): GET
// /ws/v1/cluster and /ws/v1/cluster/info. Fields in 3.3's order: id,
// startedOn, state, haState, rmStateStoreName, resourceManagerVersion,
// resourceManagerBuildVersion, resourceManagerVersionBuiltOn, hadoopVersion,
// hadoopBuildVersion, hadoopVersionBuiltOn, haZooKeeperConnectionState
// (2.6/2.7 had all but rmStateStoreName and haZooKeeperConnectionState).
//
// Thread-safety: pure function.
#pragma once

#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestDocument ClusterInfoDocument(const ClusterIdentity& identity);

}  // namespace spindle::web::rest
