// The node-label record of the state store, and golden bytes of the
// node-label messages of ResourceManagerAdministrationProtocol and
// ApplicationClientProtocol (field numbers from Hadoop's .proto files:
// yarn_server_resourcemanager_service_protos.proto of 2.6.0 and 3.3.0,
// yarn_protos.proto / yarn_service_protos.proto of 3.3.0).
#include "rm/recovery/node_labels_record.h"

#include <gtest/gtest.h>

#include "yarn_server_resourcemanager_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle::rm {
namespace {

namespace y = hadoop::yarn;

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

// 2.6/2.7: AddToClusterNodeLabelsRequestProto { repeated string nodeLabels = 1 }.
TEST(NodeLabelProtosTest, AddRequestOfA26Client) {
  y::AddToClusterNodeLabelsRequestProto request;
  ASSERT_TRUE(request.ParseFromString(Bytes({0x0a, 0x01, 'x', 0x0a, 0x02, 'g', 'p'})));
  ASSERT_EQ(request.deprecatednodelabels_size(), 2);
  EXPECT_EQ(request.deprecatednodelabels(1), "gp");
  EXPECT_EQ(request.nodelabels_size(), 0);
}

// 2.8+: repeated NodeLabelProto nodeLabels = 2 { name = 1, isExclusive = 2 }.
TEST(NodeLabelProtosTest, AddRequestOfA33Client) {
  y::AddToClusterNodeLabelsRequestProto request;
  auto* label = request.add_nodelabels();
  label->set_name("x");
  label->set_isexclusive(false);
  EXPECT_EQ(request.SerializeAsString(), Bytes({0x12, 0x05, 0x0a, 0x01, 'x', 0x10, 0x00}));
  y::NodeLabelProto unset;
  EXPECT_TRUE(unset.isexclusive()) << "[default = true]";
}

// RemoveFromClusterNodeLabelsRequestProto { repeated string nodeLabels = 1 }.
TEST(NodeLabelProtosTest, RemoveRequest) {
  y::RemoveFromClusterNodeLabelsRequestProto request;
  request.add_nodelabels("x");
  EXPECT_EQ(request.SerializeAsString(), Bytes({0x0a, 0x01, 'x'}));
}

// ReplaceLabelsOnNodeRequestProto { repeated NodeIdToLabelsProto nodeToLabels
// = 1 { NodeIdProto nodeId = 1 { host = 1, port = 2 }, repeated string
// nodeLabels = 2 }, optional bool failOnUnknownNodes = 2 (2.8+) }.
TEST(NodeLabelProtosTest, ReplaceRequest) {
  y::ReplaceLabelsOnNodeRequestProto request;
  auto* entry = request.add_nodetolabels();
  entry->mutable_nodeid()->set_host("h");
  entry->mutable_nodeid()->set_port(1);
  entry->add_nodelabels("x");
  request.set_failonunknownnodes(true);
  EXPECT_EQ(request.SerializeAsString(), Bytes({0x0a, 0x0a, 0x0a, 0x05, 0x0a, 0x01, 'h', 0x10, 0x01,
                                                0x12, 0x01, 'x', 0x10, 0x01}));
}

// GetClusterNodeLabelsResponseProto { repeated string deprecatedNodeLabels
// = 1 (2.6/2.7: nodeLabels), repeated NodeLabelProto nodeLabels = 2 }.
TEST(NodeLabelProtosTest, ClusterLabelsResponse) {
  y::GetClusterNodeLabelsResponseProto response;
  response.add_deprecatednodelabels("x");
  auto* label = response.add_nodelabels();
  label->set_name("x");
  label->set_isexclusive(true);
  EXPECT_EQ(response.SerializeAsString(),
            Bytes({0x0a, 0x01, 'x', 0x12, 0x05, 0x0a, 0x01, 'x', 0x10, 0x01}));
}

// GetLabelsToNodesResponseProto { repeated LabelsToNodeIdsProto labelsToNodes
// = 1 { optional string nodeLabels = 1, repeated NodeIdProto nodeId = 2 } }.
TEST(NodeLabelProtosTest, LabelsToNodesResponse) {
  y::GetLabelsToNodesResponseProto response;
  auto* entry = response.add_labelstonodes();
  entry->set_nodelabels("x");
  entry->add_nodeid()->set_host("h");
  EXPECT_EQ(response.SerializeAsString(),
            Bytes({0x0a, 0x08, 0x0a, 0x01, 'x', 0x12, 0x03, 0x0a, 0x01, 'h'}));
}

TEST(NodeLabelsRecordTest, RoundTrips) {
  NodeLabelsState state;
  state.labels = {{"x", false}, {"y", true}};
  state.node_labels = {{NodeId{"h1", 0}, {"x"}}, {NodeId{"h2", 7}, {}}};
  auto decoded = DecodeNodeLabels(EncodeNodeLabels(state));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, state);
}

TEST(NodeLabelsRecordTest, IsTwoDelimitedMessages) {
  NodeLabelsState state;
  state.labels = {{"x", true}};
  // AddToClusterNodeLabelsRequestProto (7 bytes), then an empty
  // ReplaceLabelsOnNodeRequestProto.
  EXPECT_EQ(EncodeNodeLabels(state), Bytes({0x07, 0x12, 0x05, 0x0a, 0x01, 'x', 0x10, 0x01, 0x00}));
  EXPECT_FALSE(DecodeNodeLabels(Bytes({0x07, 0x12})).ok());
  EXPECT_FALSE(DecodeNodeLabels(EncodeNodeLabels(state) + "junk").ok());
}

}  // namespace
}  // namespace spindle::rm
