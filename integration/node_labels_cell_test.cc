// Node labels end to end over the wire: a `spindle rm` daemon on ports
// picked at run time with yarn.node-labels.enabled; Spindle's own IPC client
// as `yarn rmadmin` (2.6 and 3.3 request shapes), as two NodeManagers (one
// on host "labelled", put in the non-exclusive partition "x") and as
// `yarn cluster --list-node-labels` / `yarn node -list`; REST's
// get-node-labels and nodes' nodeLabels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cmd/rm_daemon.h"
#include "integration/cell_support.h"
#include "tests/support/http_get.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace y = hadoop::yarn;
using ::testing::HasSubstr;

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
constexpr char kAdmin[] =
    "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB";

class NodeLabelsCellTest : public ::testing::Test {
 protected:
  void Start(bool labels_enabled) {
    rm::Configuration conf;
    for (const char* key : cell::kRmAddressKeys) {
      conf.Set(key, "127.0.0.1:0");
    }
    conf.Set("yarn.scheduler.capacity.root.queues", "default");
    conf.Set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.Set("yarn.admin.acl", "admin");
    conf.Set("yarn.node-labels.enabled", labels_enabled ? "true" : "false");
    auto daemon = RmDaemon::Create(std::move(conf));
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(daemon).value();
    ASSERT_TRUE(daemon_->Start().ok());
  }
  void TearDown() override {
    if (daemon_) daemon_->Stop();
  }

  ipc::ConnectionSpec Admin() {
    return {"127.0.0.1", daemon_->admin_port(), kAdmin, "admin", std::nullopt};
  }
  ipc::ConnectionSpec Client() {
    return {"127.0.0.1", daemon_->client_port(), kClient, "alice", std::nullopt};
  }

  void RegisterNode(const std::string& host, int32_t port) {
    y::RegisterNodeManagerRequestProto request;
    request.mutable_node_id()->set_host(host);
    request.mutable_node_id()->set_port(port);
    request.set_http_port(8042);
    request.mutable_resource()->set_memory(8192);
    request.mutable_resource()->set_virtual_cores(8);
    request.set_nm_version("3.3.6");
    y::RegisterNodeManagerResponseProto response;
    ASSERT_TRUE(
        client_
            .Call({"127.0.0.1", daemon_->resource_tracker_port(), kTracker, "yarn", std::nullopt},
                  "registerNodeManager", request, &response)
            .ok());
    ASSERT_EQ(response.nodeaction(), y::NORMAL);
  }

  std::unique_ptr<RmDaemon> daemon_;
  ipc::RpcClient client_;
};

TEST_F(NodeLabelsCellTest, DisabledLabelsAreRefusedWithHadoopsMessage) {
  Start(/*labels_enabled=*/false);
  y::AddToClusterNodeLabelsRequestProto add;
  add.add_deprecatednodelabels("x");
  y::AddToClusterNodeLabelsResponseProto added;
  Status s = client_.Call(Admin(), "addToClusterNodeLabels", add, &added);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("Node-label-based scheduling is disabled. Please check "
                                     "yarn.node-labels.enabled"));
  // The queries answer, empty.
  y::GetClusterNodeLabelsRequestProto request;
  y::GetClusterNodeLabelsResponseProto response;
  ASSERT_TRUE(client_.Call(Client(), "getClusterNodeLabels", request, &response).ok());
  EXPECT_EQ(response.nodelabels_size(), 0);
}

TEST_F(NodeLabelsCellTest, AdminLabelsReachClientsAndRest) {
  Start(/*labels_enabled=*/true);
  // A 2.6/2.7 rmadmin sends names; a 3.3 one NodeLabelProto.
  y::AddToClusterNodeLabelsRequestProto old_shape;
  old_shape.add_deprecatednodelabels("y");
  y::AddToClusterNodeLabelsResponseProto added;
  ASSERT_TRUE(client_.Call(Admin(), "addToClusterNodeLabels", old_shape, &added).ok());
  y::AddToClusterNodeLabelsRequestProto new_shape;
  auto* x = new_shape.add_nodelabels();
  x->set_name("x");
  x->set_isexclusive(false);
  ASSERT_TRUE(client_.Call(Admin(), "addToClusterNodeLabels", new_shape, &added).ok());
  // Not an admin: refused.
  ipc::ConnectionSpec alice = Admin();
  alice.user = "alice";
  EXPECT_FALSE(client_.Call(alice, "addToClusterNodeLabels", new_shape, &added).ok());

  RegisterNode("plain", 1);
  RegisterNode("labelled", 1);
  y::ReplaceLabelsOnNodeRequestProto replace;
  auto* entry = replace.add_nodetolabels();
  entry->mutable_nodeid()->set_host("labelled");
  entry->mutable_nodeid()->set_port(0);
  entry->add_nodelabels("x");
  y::ReplaceLabelsOnNodeResponseProto replaced;
  ASSERT_TRUE(client_.Call(Admin(), "replaceLabelsOnNodes", replace, &replaced).ok());
  // Two labels on one host: Hadoop's refusal.
  entry->add_nodelabels("y");
  Status two = client_.Call(Admin(), "replaceLabelsOnNodes", replace, &replaced);
  EXPECT_THAT(two.message(), HasSubstr("2 labels specified on host=labelled"));

  y::GetClusterNodeLabelsRequestProto labels_request;
  y::GetClusterNodeLabelsResponseProto labels;
  ASSERT_TRUE(client_.Call(Client(), "getClusterNodeLabels", labels_request, &labels).ok());
  ASSERT_EQ(labels.nodelabels_size(), 2);
  EXPECT_EQ(labels.nodelabels(0).name(), "x");
  EXPECT_FALSE(labels.nodelabels(0).isexclusive());
  EXPECT_EQ(labels.nodelabels(1).name(), "y");
  EXPECT_TRUE(labels.nodelabels(1).isexclusive());
  EXPECT_EQ(labels.deprecatednodelabels_size(), 2);

  y::GetLabelsToNodesRequestProto to_nodes_request;
  to_nodes_request.add_nodelabels("x");
  y::GetLabelsToNodesResponseProto to_nodes;
  ASSERT_TRUE(client_.Call(Client(), "getLabelsToNodes", to_nodes_request, &to_nodes).ok());
  ASSERT_EQ(to_nodes.labelstonodes_size(), 1);
  EXPECT_EQ(to_nodes.labelstonodes(0).nodelabels(), "x");
  std::set<std::string> nodes;
  for (const auto& id : to_nodes.labelstonodes(0).nodeid()) {
    nodes.insert(id.host() + ":" + std::to_string(id.port()));
  }
  EXPECT_EQ(nodes, (std::set<std::string>{"labelled:0", "labelled:1"}));

  y::GetNodesToLabelsRequestProto to_labels_request;
  y::GetNodesToLabelsResponseProto to_labels;
  ASSERT_TRUE(client_.Call(Client(), "getNodeToLabels", to_labels_request, &to_labels).ok());
  EXPECT_EQ(to_labels.nodetolabels_size(), 2);

  y::GetClusterNodesRequestProto nodes_request;
  y::GetClusterNodesResponseProto cluster_nodes;
  ASSERT_TRUE(client_.Call(Client(), "getClusterNodes", nodes_request, &cluster_nodes).ok());
  for (const auto& report : cluster_nodes.nodereports()) {
    if (report.nodeid().host() == "labelled") {
      ASSERT_EQ(report.node_labels_size(), 1);
      EXPECT_EQ(report.node_labels(0), "x");
    } else {
      EXPECT_EQ(report.node_labels_size(), 0);
    }
  }

  auto rest = testing::HttpGet("127.0.0.1", daemon_->web_port(), "/ws/v1/cluster/get-node-labels",
                               {{"Accept", "application/json"}});
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_EQ(rest->status, 200);
  EXPECT_THAT(rest->body, HasSubstr("\"nodeLabelsInfo\""));
  EXPECT_THAT(rest->body, HasSubstr("\"name\":\"x\",\"exclusivity\":false"));
  auto node = testing::HttpGet("127.0.0.1", daemon_->web_port(), "/ws/v1/cluster/nodes/labelled:1",
                               {{"Accept", "application/json"}});
  ASSERT_TRUE(node.ok());
  EXPECT_THAT(node->body, HasSubstr("\"nodeLabels\":[\"x\"]"));

  // The default queue may use any label ("*"), none by name: removable.
  y::RemoveFromClusterNodeLabelsRequestProto remove;
  remove.add_nodelabels("y");
  y::RemoveFromClusterNodeLabelsResponseProto removed;
  ASSERT_TRUE(client_.Call(Admin(), "removeFromClusterNodeLabels", remove, &removed).ok());
  remove.set_nodelabels(0, "nope");
  Status missing = client_.Call(Admin(), "removeFromClusterNodeLabels", remove, &removed);
  EXPECT_THAT(missing.message(), HasSubstr("Node label=nope to be removed doesn't existed"));
}

}  // namespace
}  // namespace spindle
