// ClientRmService: the queries of cluster features Spindle does not have
// (node labels, node attributes), answered as Hadoop 3.3's RM answers them
// when none exist. Node labels: RMNodeLabelsManager's maps hold only nodes
// and labels that were added (yarn rmadmin -addToClusterNodeLabels), so
// getNodeToLabels and getLabelsToNodes (all, or the labels asked for) are
// empty; no exception, whether yarn.node-labels.enabled is on or off.
// Node attributes: NodeAttributesManagerImpl knows a host only once an
// attribute is mapped to it, so getClusterNodeAttributes,
// getAttributesToNodes and getNodesToAttributes are empty too.
// (Reservations are refused in MakeRpcService.)
#include "am_protocol/client_service/client_rm_service.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

Status ClientRmService::GetNodeToLabels(const Who&, const y::GetNodesToLabelsRequestProto&,
                                        y::GetNodesToLabelsResponseProto*) {
  return Status::OK();
}

Status ClientRmService::GetLabelsToNodes(const Who&, const y::GetLabelsToNodesRequestProto&,
                                         y::GetLabelsToNodesResponseProto*) {
  return Status::OK();
}

Status ClientRmService::GetClusterNodeAttributes(const Who&,
                                                 const y::GetClusterNodeAttributesRequestProto&,
                                                 y::GetClusterNodeAttributesResponseProto*) {
  return Status::OK();
}

Status ClientRmService::GetAttributesToNodes(const Who&, const y::GetAttributesToNodesRequestProto&,
                                             y::GetAttributesToNodesResponseProto*) {
  return Status::OK();
}

Status ClientRmService::GetNodesToAttributes(const Who&, const y::GetNodesToAttributesRequestProto&,
                                             y::GetNodesToAttributesResponseProto*) {
  return Status::OK();
}

}  // namespace spindle::client_service
