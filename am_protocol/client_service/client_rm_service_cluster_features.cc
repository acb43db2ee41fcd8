// ClientRmService: the queries of cluster features beyond applications and
// nodes. Node labels (ClientRMService over RMNodeLabelsManager, 3.3):
// getClusterNodeLabels, getNodeToLabels and getLabelsToNodes (all, or the
// labels asked for) answer the RM's label maps, whether
// yarn.node-labels.enabled is on or off (then they are empty). Node
// attributes are a feature Spindle does not have: NodeAttributesManagerImpl
// knows a host only once an attribute is mapped to it, so
// getClusterNodeAttributes, getAttributesToNodes and getNodesToAttributes
// answer empty, as Hadoop's RM does when none were mapped.
// (Reservations are refused in MakeRpcService.)
#include <set>
#include <string>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

namespace {
void SetNodeId(const rm::NodeId& node, y::NodeIdProto* proto) {
  proto->set_host(node.host);
  proto->set_port(node.port);
}
}  // namespace

Status ClientRmService::GetClusterNodeLabels(const Who&, const y::GetClusterNodeLabelsRequestProto&,
                                             y::GetClusterNodeLabelsResponseProto* response) {
  ASSIGN_OR_RETURN(std::vector<rm::ClusterNodeLabel> labels, core_.ClusterNodeLabels());
  // GetClusterNodeLabelsResponsePBImpl (2.8+) writes NodeLabelProto and the
  // names a 2.6/2.7 client reads (field 1).
  for (const auto& label : labels) {
    y::NodeLabelProto* proto = response->add_nodelabels();
    proto->set_name(label.name);
    proto->set_isexclusive(label.exclusive);
    response->add_deprecatednodelabels(label.name);
  }
  return Status::OK();
}

Status ClientRmService::GetNodeToLabels(const Who&, const y::GetNodesToLabelsRequestProto&,
                                        y::GetNodesToLabelsResponseProto* response) {
  ASSIGN_OR_RETURN(auto node_to_labels, core_.NodeToLabels());
  for (const auto& [node, labels] : node_to_labels) {
    y::NodeIdToLabelsProto* entry = response->add_nodetolabels();
    SetNodeId(node, entry->mutable_nodeid());
    for (const auto& label : labels) entry->add_nodelabels(label);
  }
  return Status::OK();
}

Status ClientRmService::GetLabelsToNodes(const Who&, const y::GetLabelsToNodesRequestProto& request,
                                         y::GetLabelsToNodesResponseProto* response) {
  const std::set<std::string> only(request.nodelabels().begin(), request.nodelabels().end());
  ASSIGN_OR_RETURN(auto labels_to_nodes, core_.LabelsToNodes(only));
  for (const auto& [label, nodes] : labels_to_nodes) {
    y::LabelsToNodeIdsProto* entry = response->add_labelstonodes();
    entry->set_nodelabels(label);
    for (const auto& node : nodes) SetNodeId(node, entry->add_nodeid());
  }
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
