// AppInfo (root "app"), AppsInfo (root "apps", items "app"), AppState (root
// "appstate") and AppAttemptsInfo (root "appAttempts", items "appAttempt"),
// as Hadoop 3.3's RMWebServices writes them.
//
// AppInfo fields in 3.3's order: id, user, name, queue, state
// (YarnApplicationState), finalStatus, progress (percent), trackingUI
// (UNASSIGNED until the app runs and has a tracking URL, then
// ApplicationMaster, History once finished), trackingUrl (absent while
// UNASSIGNED), diagnostics, clusterId, applicationType, applicationTags,
// priority, startedTime, launchTime, finishedTime, elapsedTime,
// amContainerLogs, amHostHttpAddress, amRPCAddress, masterNodeId,
// allocatedMB, allocatedVCores, reservedMB, reservedVCores,
// runningContainers (-1 each when the scheduler does not hold the attempt,
// Hadoop's dummy usage report), memorySeconds, vcoreSeconds,
// queueUsagePercentage, clusterUsagePercentage, resourceSecondsMap,
// preempted* (the app's preemption figures), preemptedResourceSecondsMap,
// resourceRequests (never listed: the pool does not expose pending asks),
// logAggregationStatus, unmanagedApplication, appNodeLabelExpression,
// amNodeLabelExpression, resourceInfo (not written), timeouts (LIFETIME
// UNLIMITED). 2.6/2.7 stop at preemptedResourceVCores...numAMContainerPreempted
// and have no launchTime, masterNodeId, *SecondsMap, resourceRequests,
// logAggregationStatus (2.7 has it), node label expressions or timeouts.
//
// Access (yarn.acl.enable): a caller without VIEW access sees the first
// block (id .. priority, as Hadoop's AppInfo: including progress and
// diagnostics), the resource-seconds, preemption figures, unmanaged flag,
// label expressions and timeouts; times are 0 and the AM / usage fields
// are left out (0 for the numbers), as Hadoop does.
//
// Maps (resourceSecondsMap) are written as Jersey 1 writes a JAXB map:
// repeated "entry" keys holding {"key","value"} with the value as a string.
//
// Thread-safety: reads thread-safe dependencies.
#pragma once

#include <string>

#include "rm/apps/rm_app.h"
#include "web/rest/cluster_web_deps.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

// The deSelects query parameter (DeSelectFields): fields to leave out.
struct DeSelects {
  bool resource_requests = false;
  bool timeouts = false;
  bool app_node_label_expression = false;
  bool am_node_label_expression = false;
  bool resource_info = false;
};

// The YarnApplicationState names, in enum order (NEW .. KILLED).
const std::vector<std::string>& YarnAppStateNames();

// One app as AppInfo. `has_access`: the caller may view it.
RestNode AppInfoNode(const ClusterWebDeps& deps, const rm::RmApp& app, bool has_access,
                     const DeSelects& deselects);

// The app's attempts as AppAttemptsInfo.
RestDocument AppAttemptsDocument(const rm::RmApp& app, bool has_access);

// AppState: {"state":<RMAppState>} in JSON (root unwrapped, see app_info.cc),
// <appstate><state>..</state></appstate> in XML: the RM's internal state
// (so FINAL_SAVING, FINISHING and KILLING show), as RMWebServices.getAppState
// and updateAppState answer.
RestDocument AppStateDocument(const rm::RmApp& app);

}  // namespace spindle::web::rest
