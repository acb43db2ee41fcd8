#include "rm/nodes/node_registry.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

using namespace std::chrono_literals;

class NodeRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override { Build({}); }
  void Build(NodeRegistryOptions options) {
    registry_.reset();
    pool::PoolOptions pool_options;
    pool_options.mode = pool::SyncMode::kMonolithic;
    pool_options.num_schedulers = 1;
    pool_options.num_partitions = 1;
    pool_ = std::move(pool::SchedulerPool::Create(pool_options, &clock_)).value();
    options.expiry = 10s;
    registry_ = std::make_unique<NodeRegistry>(options, pool_.get(), &clock_);
  }
  NodeRegistration Node(const std::string& host, int64_t mb = 8192) {
    return NodeRegistration{NodeId{host, 45454}, 8042, pool::Resource::Of(mb, 8), "2.6.0",
                            "/default-rack"};
  }
  NodeHeartbeat Beat(const std::string& host, int32_t response_id) {
    NodeHeartbeat h;
    h.id = NodeId{host, 45454};
    h.response_id = response_id;
    return h;
  }

  ManualClock clock_;
  std::unique_ptr<pool::SchedulerPool> pool_;
  std::unique_ptr<NodeRegistry> registry_;
};

TEST_F(NodeRegistryTest, RegisterPutsTheNodeIntoThePool) {
  EXPECT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  auto report = registry_->Get(NodeId{"h1", 45454});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->state, NodeState::kRunning);
  EXPECT_EQ(report->info.http_address, "h1:8042");
  EXPECT_EQ(pool_->cell().GetNode(report->pool_node)->total, pool::Resource::Of(8192, 8));
  auto info = registry_->Find(report->pool_node);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->id.ToString(), "h1:45454");
  EXPECT_EQ(registry_->Counts().active, 1);
  EXPECT_EQ(registry_->NumUsableNodes(), 1);
  EXPECT_EQ(registry_->PoolNodesOnHost("h1"), std::vector<pool::NodeId>{report->pool_node});
  EXPECT_TRUE(registry_->PoolNodesOnHost("h").empty());
}

TEST_F(NodeRegistryTest, TooSmallOrExcludedNodesAreToldToShutDown) {
  auto small = registry_->Register(Node("tiny", 512));
  EXPECT_EQ(small.action, NodeAction::kShutdown);
  EXPECT_NE(small.diagnostics.find("doesn't satisfy minimum allocations"), std::string::npos);
  NodeRegistryOptions options;
  options.exclude_hosts = {"bad"};
  options.include_hosts = {"good", "bad"};
  Build(options);
  EXPECT_EQ(registry_->Register(Node("bad")).action, NodeAction::kShutdown);
  EXPECT_EQ(registry_->Register(Node("other")).action, NodeAction::kShutdown);
  EXPECT_EQ(registry_->Register(Node("good")).action, NodeAction::kNormal);
}

TEST_F(NodeRegistryTest, ResponseIdProtocol) {
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  auto first = registry_->Heartbeat(Beat("h1", 0));
  EXPECT_EQ(first.action, NodeAction::kNormal);
  EXPECT_EQ(first.response_id, 1);
  EXPECT_FALSE(first.duplicate);
  // The NM lost our answer and repeats its heartbeat: same answer again.
  auto repeat = registry_->Heartbeat(Beat("h1", 0));
  EXPECT_TRUE(repeat.duplicate);
  EXPECT_EQ(repeat.response_id, 1);
  EXPECT_EQ(registry_->Heartbeat(Beat("h1", 1)).response_id, 2);
  auto behind = registry_->Heartbeat(Beat("h1", 7));
  EXPECT_EQ(behind.action, NodeAction::kResync);
  EXPECT_EQ(registry_->Heartbeat(Beat("unknown", 0)).action, NodeAction::kResync);
  // Re-registration restarts the ids.
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  EXPECT_EQ(registry_->Heartbeat(Beat("h1", 0)).response_id, 1);
  EXPECT_EQ(registry_->Counts().active, 1) << "a reconnect is not a second node";
}

TEST_F(NodeRegistryTest, UnhealthyNodesTakeNoNewWork) {
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  NodeHeartbeat sick = Beat("h1", 0);
  sick.healthy = false;
  sick.health_report = "disk full";
  registry_->Heartbeat(sick);
  auto report = registry_->Get(NodeId{"h1", 45454});
  EXPECT_EQ(report->state, NodeState::kUnhealthy);
  EXPECT_EQ(report->health_report, "disk full");
  EXPECT_EQ(pool_->cell().GetNode(report->pool_node)->status, pool::NodeStatus::kDecommissioning);
  EXPECT_EQ(registry_->Counts().unhealthy, 1);
  NodeHeartbeat well = Beat("h1", 1);
  registry_->Heartbeat(well);
  EXPECT_EQ(registry_->Get(NodeId{"h1", 45454})->state, NodeState::kRunning);
}

TEST_F(NodeRegistryTest, SilentNodesAreLost) {
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);
  clock_.Advance(6s);
  registry_->Heartbeat(Beat("h2", 0));
  clock_.Advance(6s);
  auto lost = registry_->ExpireSilentNodes();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].host, "h1");
  EXPECT_EQ(registry_->Get(lost[0])->state, NodeState::kLost);
  EXPECT_EQ(registry_->Counts().lost, 1);
  EXPECT_EQ(registry_->Heartbeat(Beat("h1", 0)).action, NodeAction::kResync);
  EXPECT_TRUE(registry_->ExpireSilentNodes().empty()) << "lost once";
  // It comes back by registering again.
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  EXPECT_EQ(registry_->Get(lost[0])->state, NodeState::kRunning);
}

TEST_F(NodeRegistryTest, EveryNodeSilentPastTheExpiryIsLostWhateverEarlierChecksSkipped) {
  // ExpireSilentNodes walks the nodes only when the oldest heartbeat it
  // knows of may have expired; heartbeats, reconnects and registrations
  // between checks must not hide a node that went silent.
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);  // t0
  clock_.Advance(6s);
  EXPECT_TRUE(registry_->ExpireSilentNodes().empty());
  registry_->Heartbeat(Beat("h1", 0));                                     // t6
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);  // t6
  clock_.Advance(6s);                                                      // t12
  EXPECT_TRUE(registry_->ExpireSilentNodes().empty()) << "h1 was heard at t6";
  registry_->Heartbeat(Beat("h2", 0));  // t12
  clock_.Advance(5s);                   // t17: h1 silent for 11 s, h2 for 5 s
  auto lost = registry_->ExpireSilentNodes();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].host, "h1");
  // h1 registers again at t17; h2 is last heard at t12.
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  clock_.Advance(6s);  // t23: h2 silent for 11 s
  lost = registry_->ExpireSilentNodes();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].host, "h2");
  clock_.Advance(5s);  // t28: h1 silent for 11 s
  lost = registry_->ExpireSilentNodes();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].host, "h1");
  clock_.Advance(60s);
  EXPECT_TRUE(registry_->ExpireSilentNodes().empty()) << "no live node left";
}

TEST_F(NodeRegistryTest, PoolNodesOnHostAreTheUsableNodeManagersOfTheHostInPortOrder) {
  NodeRegistration second = Node("h1");
  second.id.port = 45455;
  NodeRegistration first = Node("h1");
  first.id.port = 1;
  ASSERT_EQ(registry_->Register(second).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h10")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(first).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);  // port 45454
  auto pool_node = [&](int32_t port) { return registry_->Get(NodeId{"h1", port})->pool_node; };
  EXPECT_EQ(registry_->PoolNodesOnHost("h1"),
            (std::vector<pool::NodeId>{pool_node(1), pool_node(45454), pool_node(45455)}));
  EXPECT_TRUE(registry_->PoolNodesOnHost("h").empty());
  EXPECT_TRUE(registry_->PoolNodesOnHost("nope").empty());
  // Appended after what the vector holds (an ask's rows, host after host).
  std::vector<pool::NodeId> rows = {pool_node(45455)};
  registry_->AddPoolNodesOnHost("h1", &rows);
  registry_->AddPoolNodesOnHost("nope", &rows);
  EXPECT_EQ(rows, (std::vector<pool::NodeId>{pool_node(45455), pool_node(1), pool_node(45454),
                                             pool_node(45455)}));
  // A node that left is not usable; back, it is found under its new pool node.
  ASSERT_TRUE(registry_->Unregister(NodeId{"h1", 45454}).ok());
  EXPECT_EQ(registry_->PoolNodesOnHost("h1"),
            (std::vector<pool::NodeId>{pool_node(1), pool_node(45455)}));
  const pool::NodeId old = pool_node(45454);
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  EXPECT_NE(pool_node(45454), old);
  EXPECT_EQ(registry_->PoolNodesOnHost("h1"),
            (std::vector<pool::NodeId>{pool_node(1), pool_node(45454), pool_node(45455)}));
  EXPECT_FALSE(registry_->Find(old).has_value());
  EXPECT_EQ(registry_->Find(pool_node(45454))->id.port, 45454);
}

TEST_F(NodeRegistryTest, UnregisterAndDecommission) {
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);
  ASSERT_TRUE(registry_->Unregister(NodeId{"h1", 45454}).ok());
  EXPECT_EQ(registry_->Get(NodeId{"h1", 45454})->state, NodeState::kShutdown);
  EXPECT_FALSE(registry_->Unregister(NodeId{"nope", 1}).ok());
  auto gone = registry_->RefreshHostLists({}, {"h2"});
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(registry_->Get(NodeId{"h2", 45454})->state, NodeState::kDecommissioned);
  EXPECT_EQ(registry_->Heartbeat(Beat("h2", 0)).action, NodeAction::kShutdown);
  EXPECT_EQ(registry_->NumUsableNodes(), 0);
}

TEST_F(NodeRegistryTest, TheUsableCountFollowsEveryStateChange) {
  // NumUsableNodes is a counter kept as states change; after each step it
  // must equal a count over Nodes().
  auto counted = [&] {
    int32_t n = 0;
    for (const NodeReport& r : registry_->Nodes()) {
      n += r.state == NodeState::kRunning || r.state == NodeState::kDecommissioning ? 1 : 0;
    }
    return n;
  };
  auto expect = [&](int32_t n) {
    EXPECT_EQ(registry_->NumUsableNodes(), n);
    EXPECT_EQ(counted(), n);
  };
  expect(0);
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h3")).action, NodeAction::kNormal);
  expect(3);
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);  // reconnect
  expect(3);
  NodeHeartbeat sick = Beat("h2", 0);
  sick.healthy = false;
  registry_->Heartbeat(sick);
  expect(2);
  registry_->Heartbeat(Beat("h2", 1));  // healthy again
  expect(3);
  ASSERT_TRUE(registry_->Unregister(NodeId{"h3", 45454}).ok());
  expect(2);
  ASSERT_EQ(registry_->Register(Node("h3")).action, NodeAction::kNormal);  // back
  expect(3);
  clock_.Advance(6s);
  registry_->Heartbeat(Beat("h1", 0));
  registry_->Heartbeat(Beat("h2", 2));
  clock_.Advance(6s);
  ASSERT_EQ(registry_->ExpireSilentNodes().size(), 1u);  // h3
  expect(2);
  ASSERT_EQ(registry_->RefreshHostLists({}, {"h2"}).size(), 1u);
  expect(1);
}

TEST_F(NodeRegistryTest, FindAllAnswersAsFindDoesInOrder) {
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);
  const pool::NodeId n1 = registry_->Get(NodeId{"h1", 45454})->pool_node;
  const pool::NodeId n2 = registry_->Get(NodeId{"h2", 45454})->pool_node;
  ASSERT_TRUE(registry_->Unregister(NodeId{"h2", 45454}).ok());
  auto found = registry_->FindAll({n2, n1, n1, pool::NodeId()});
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].has_value(), registry_->Find(n2).has_value());
  ASSERT_TRUE(found[1].has_value());
  EXPECT_EQ(found[1]->id.host, "h1");
  EXPECT_EQ(found[2]->http_address, "h1:8042");
  EXPECT_FALSE(found[3].has_value());
}

TEST_F(NodeRegistryTest, TheTopologyTableGivesTheRack) {
  NodeRegistryOptions options;
  options.racks = {{"h1", "/rack1"}};
  Build(options);
  ASSERT_EQ(registry_->Register(Node("h1")).action, NodeAction::kNormal);
  ASSERT_EQ(registry_->Register(Node("h2")).action, NodeAction::kNormal);
  EXPECT_EQ(registry_->Get(NodeId{"h1", 45454})->info.rack, "/rack1");
  // Not in the table: the default rack.
  EXPECT_EQ(registry_->Get(NodeId{"h2", 45454})->info.rack, "/default-rack");
  // The pool knows the rack, so asks naming it resolve.
  EXPECT_TRUE(pool_->FindRack("/rack1").ok());
}

}  // namespace
}  // namespace spindle::rm
