#include "rm/recovery/node_labels_record.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "yarn_server_resourcemanager_service_protos.pb.h"

namespace spindle::rm {

namespace y = hadoop::yarn;
namespace pio = google::protobuf::io;

std::string EncodeNodeLabels(const NodeLabelsState& state) {
  y::AddToClusterNodeLabelsRequestProto labels;
  for (const auto& label : state.labels) {
    y::NodeLabelProto* proto = labels.add_nodelabels();
    proto->set_name(label.name);
    proto->set_isexclusive(label.exclusive);
  }
  y::ReplaceLabelsOnNodeRequestProto nodes;
  for (const auto& [node, names] : state.node_labels) {
    y::NodeIdToLabelsProto* entry = nodes.add_nodetolabels();
    entry->mutable_nodeid()->set_host(node.host);
    entry->mutable_nodeid()->set_port(node.port);
    for (const auto& name : names) entry->add_nodelabels(name);
  }
  std::string out;
  {
    pio::StringOutputStream stream(&out);
    pio::CodedOutputStream coded(&stream);
    for (const google::protobuf::MessageLite* message :
         {static_cast<const google::protobuf::MessageLite*>(&labels),
          static_cast<const google::protobuf::MessageLite*>(&nodes)}) {
      coded.WriteVarint32(static_cast<uint32_t>(message->ByteSizeLong()));
      message->SerializeWithCachedSizes(&coded);
    }
  }
  return out;
}

Result<NodeLabelsState> DecodeNodeLabels(const std::string& bytes) {
  pio::CodedInputStream coded(reinterpret_cast<const uint8_t*>(bytes.data()),
                              static_cast<int>(bytes.size()));
  auto read = [&coded](google::protobuf::MessageLite* message) {
    uint32_t size = 0;
    if (!coded.ReadVarint32(&size)) return false;
    auto limit = coded.PushLimit(static_cast<int>(size));
    bool ok = message->ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
    coded.PopLimit(limit);
    return ok;
  };
  y::AddToClusterNodeLabelsRequestProto labels;
  y::ReplaceLabelsOnNodeRequestProto nodes;
  if (!read(&labels) || !read(&nodes) ||
      coded.CurrentPosition() != static_cast<int>(bytes.size())) {
    return Status::Corruption(
        "node labels: not an AddToClusterNodeLabels and ReplaceLabelsOnNode "
        "record");
  }
  NodeLabelsState state;
  for (const auto& label : labels.nodelabels()) {
    state.labels.push_back({label.name(), label.isexclusive()});
  }
  for (const auto& entry : nodes.nodetolabels()) {
    NodeId node{entry.nodeid().host(), entry.nodeid().port()};
    auto& names = state.node_labels[node];
    for (const auto& name : entry.nodelabels()) names.insert(name);
  }
  return state;
}

void PutNodeLabels(const NodeLabelsState& state, persist::StoreBatch* batch) {
  batch->PutMasterKey(kNodeLabelsFamily, 0, EncodeNodeLabels(state));
}

}  // namespace spindle::rm
