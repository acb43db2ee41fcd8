// NodeInfo (root "node") and NodesInfo (root "nodes", items "node"): GET
// /ws/v1/cluster/nodes and /nodes/{nodeid}, 3.3's fields in order: rack,
// state, id, nodeHostName, nodeHTTPAddress ("" for inactive nodes, as
// Hadoop), lastHealthUpdate, version, healthReport, numContainers,
// usedMemoryMB, availMemoryMB, usedVirtualCores, availableVirtualCores,
// numRunningOpportContainers, usedMemoryOpportGB, usedVirtualCoresOpport,
// numQueuedContainers (0: no opportunistic containers), nodeLabels (the
// node's label, when it has one),
// allocationTags ({}), resourceUtilization (zeros: the RM does not keep
// NM utilization), usedResource, availableResource, totalResource,
// nodeAttributesInfo ({}). 2.6/2.7 end at availableVirtualCores (2.7 adds
// nodeLabels).
//
// Thread-safety: pure functions of their inputs.
#pragma once

#include <cstdint>

#include "rm/nodes/node_registry.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

// Whether Hadoop keeps `state` among its inactive nodes.
bool IsInactiveNode(rm::NodeState state);

// `num_containers`: the live containers the RM placed there.
RestNode NodeInfoNode(const rm::NodeReport& node, int32_t num_containers);

}  // namespace spindle::web::rest
