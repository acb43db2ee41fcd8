// The read endpoints of the RM REST API, as Hadoop 3.3's RMWebServices
// serves them (GET; JSON by default, XML on Accept: application/xml):
//
//   /ws/v1/cluster, /ws/v1/cluster/info        clusterInfo
//   /ws/v1/cluster/metrics                     clusterMetrics
//   /ws/v1/cluster/scheduler                   scheduler (capacityScheduler)
//   /ws/v1/cluster/apps                        apps; query parameters state
//       (deprecated), states, finalStatus, user, queue, limit,
//       startedTimeBegin/End, finishedTimeBegin/End, applicationTypes,
//       applicationTags, name, deSelects. Filtering is ClientRmService's
//       getApplications, fed the request Hadoop's ApplicationsRequestBuilder
//       builds; bad values are 400 BadRequestException with Hadoop's
//       messages (an invalid finalStatus: IllegalArgumentException).
//   /ws/v1/cluster/apps/{appid}                app (400 for a malformed id,
//       404 NotFoundException "app with id: <id> not found")
//   /ws/v1/cluster/apps/{appid}/appattempts    appAttempts
//   /ws/v1/cluster/apps/{appid}/state          appstate
//   /ws/v1/cluster/nodes                       nodes; query states (comma
//       list of NodeState; an unknown one is IllegalArgumentException 400)
//   /ws/v1/cluster/nodes/{nodeid}              node (400 for a malformed
//       id, 404 "nodeId, <id>, is not found")
//   /ws/v1/cluster/appstatistics               appStatInfo
//   /ws/v1/cluster/userinfo                    clusterUserInfo
//
// The caller is web_caller.h's (user.name, else hadoop.http.staticuser.user);
// with yarn.acl.enable, apps it may not view are shown with Hadoop's
// restricted AppInfo (app_info.h).
//
// Thread-safety: the handlers are const over thread-safe dependencies and
// may run on many threads; bad input never throws (errors are answers).
#pragma once

#include <string>

#include "web/http/http_message.h"
#include "web/http/router.h"
#include "web/rest/cluster_web_deps.h"
#include "web/rest/web_caller.h"

namespace spindle::web::rest {

// Registers the GET routes above on `router`. The deps' pointees must
// outlive the router.
void AddClusterReadRoutes(Router* router, const WebCallerOptions& callers,
                          const ClusterWebDeps& deps);

}  // namespace spindle::web::rest
