// NodeLabels against Hadoop 3.3's TestCommonNodeLabelsManager and
// TestRMNodeLabelsManager (test names cited per case).
#include "rm/nodes/node_labels.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

using Labels = std::set<std::string>;
using NodeMap = std::map<NodeId, Labels>;

NodeId Host(const std::string& host) { return NodeId{host, 0}; }
NodeId Nm(const std::string& host, int32_t port) { return NodeId{host, port}; }

class NodeLabelsTest : public ::testing::Test {
 protected:
  NodeLabels labels_{NodeLabelsOptions{.enabled = true}};

  void Add(std::vector<std::string> names) {
    std::vector<ClusterNodeLabel> list;
    for (auto& name : names) list.push_back({name, true});
    ASSERT_TRUE(labels_.AddClusterLabels(list).ok());
  }
};

// testNodeLabelsDisabled: every change is refused with the one message.
TEST(NodeLabelsDisabledTest, RefusesEveryChange) {
  NodeLabels labels(NodeLabelsOptions{.enabled = false});
  auto added = labels.AddClusterLabels({{"x", true}});
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.status().message(), kNodeLabelsNotEnabled);
  EXPECT_EQ(added.status().java_class(), "java.io.IOException");
  EXPECT_EQ(labels.RemoveClusterLabels({"x"}, {}).message(), kNodeLabelsNotEnabled);
  EXPECT_EQ(labels.ReplaceLabelsOnNodes({{Host("n1"), {"x"}}}).message(), kNodeLabelsNotEnabled);
  EXPECT_TRUE(labels.ClusterLabels().empty());
}

// testAddRemovelabel / testTrimLabelsWhenAddRemoveNodeLabels.
TEST_F(NodeLabelsTest, AddsTrimmedAndRemovesLabels) {
  Add({" p1", "p2"});
  auto again = labels_.AddClusterLabels({{"p1", true}});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);  // already there: nothing to store
  EXPECT_EQ(labels_.ClusterLabels(), (std::vector<ClusterNodeLabel>{{"p1", true}, {"p2", true}}));
  ASSERT_TRUE(labels_.RemoveClusterLabels({"p1 "}, {}).ok());
  EXPECT_EQ(labels_.ClusterLabels(), (std::vector<ClusterNodeLabel>{{"p2", true}}));
  Status missing = labels_.RemoveClusterLabels({"p9"}, {});
  EXPECT_EQ(missing.message(),
            "Node label=p9 to be removed doesn't existed in cluster node labels collection.");
  EXPECT_EQ(labels_.RemoveClusterLabels({" "}, {}).message(),
            "Label to be removed is null or empty");
}

// testAddlabelWithExclusivity: kept as added; changing it is refused.
TEST_F(NodeLabelsTest, ExclusivityIsKeptAndCannotChange) {
  ASSERT_TRUE(labels_.AddClusterLabels({{"a", false}, {"b", true}}).ok());
  EXPECT_FALSE(labels_.Find("a")->exclusive);
  EXPECT_TRUE(labels_.Find("b")->exclusive);
  auto changed = labels_.AddClusterLabels({{"a", true}});
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().message(),
            "Exclusivity cannot be modified for an existing label with : <a:exclusivity=true>");
}

// testAddInvalidlabel.
TEST_F(NodeLabelsTest, RefusesInvalidNames) {
  for (const std::string& bad :
       std::vector<std::string>{"-?", "?", "a b", "_x", std::string(256, 'a')}) {
    auto added = labels_.AddClusterLabels({{bad, true}});
    EXPECT_FALSE(added.ok()) << bad;
  }
  EXPECT_EQ(labels_.AddClusterLabels({{"", true}}).status().message(),
            "label added is empty or exceeds 255 character(s)");
  EXPECT_EQ(labels_.AddClusterLabels({{"a?", true}}).status().message(),
            "label name should only contains {0-9, a-z, A-Z, -, _} and should not started with "
            "{-,_}, now it is= a?");
  // Nothing of a refused batch is added.
  EXPECT_FALSE(labels_.AddClusterLabels({{"ok", true}, {"bad?", true}}).ok());
  EXPECT_TRUE(labels_.ClusterLabels().empty());
}

// testAddReplaceRemoveLabelsOnNodes (replace part) and
// testNoMoreThanOneLabelExistedInOneHost.
TEST_F(NodeLabelsTest, ReplacesLabelsOnNodes) {
  EXPECT_EQ(labels_.ReplaceLabelsOnNodes({{Host("node"), {"label"}}}).message(),
            "Not all labels being replaced contained by known label collections, please check, "
            "new labels=[label]");
  Add({"p1", "p2", "p3"});
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1"}}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p2"}}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n2"), {"p3"}}}).ok());
  EXPECT_EQ(labels_.NodeToLabels({}), (NodeMap{{Host("n1"), {"p2"}}, {Host("n2"), {"p3"}}}));
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n3"), {"p3"}}, {Host("n1"), {"p1"}}}).ok());
  EXPECT_EQ(labels_.NodeToLabels({}),
            (NodeMap{{Host("n1"), {"p1"}}, {Host("n2"), {"p3"}}, {Host("n3"), {"p3"}}}));
  EXPECT_EQ(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1", "p2"}}}).message(),
            "2 labels specified on host=n1, please note that we do not support specifying "
            "multiple labels on a single host for now.");
  // An empty set clears the host's label.
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {}}}).ok());
  EXPECT_EQ(labels_.PartitionOf(Nm("n1", 8041)), "");
  EXPECT_EQ(labels_.PartitionOf(Nm("n2", 8041)), "p3");
}

// testReplaceLabelsOnHostsShouldUpdateNodesBelongTo.
TEST_F(NodeLabelsTest, HostLabelsOverrideTheirNodes) {
  Add({"p1", "p2", "p3"});
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1"}}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Nm("n1", 1), {"p2"}}, {Nm("n1", 2), {"p2"}}}).ok());
  EXPECT_EQ(labels_.NodeToLabels({}),
            (NodeMap{{Host("n1"), {"p1"}}, {Nm("n1", 1), {"p2"}}, {Nm("n1", 2), {"p2"}}}));
  EXPECT_EQ(labels_.PartitionOf(Nm("n1", 1)), "p2");
  EXPECT_EQ(labels_.PartitionOf(Nm("n1", 3)), "p1");
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1"}}}).ok());
  EXPECT_EQ(labels_.NodeToLabels({}),
            (NodeMap{{Host("n1"), {"p1"}}, {Nm("n1", 1), {"p1"}}, {Nm("n1", 2), {"p1"}}}));
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Nm("n1", 1), {"p2"}}}).ok());
  EXPECT_EQ(labels_.PartitionOf(Nm("n1", 1)), "p2");
}

// testRemovelabelWithNodes.
TEST_F(NodeLabelsTest, RemovingALabelTakesItOffItsNodes) {
  Add({"p1", "p2", "p3"});
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1"}}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n2"), {"p2"}}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n3"), {"p3"}}}).ok());
  ASSERT_TRUE(labels_.RemoveClusterLabels({"p1"}, {}).ok());
  EXPECT_EQ(labels_.NodeToLabels({}), (NodeMap{{Host("n2"), {"p2"}}, {Host("n3"), {"p3"}}}));
  ASSERT_TRUE(labels_.RemoveClusterLabels({"p2", "p3"}, {}).ok());
  EXPECT_TRUE(labels_.NodeToLabels({}).empty());
  EXPECT_TRUE(labels_.ClusterLabels().empty());
}

// TestRMNodeLabelsManager.testRemoveLabelsFromNode's queue rule
// (checkRemoveFromClusterNodeLabelsOfQueue).
TEST_F(NodeLabelsTest, ALabelAQueueMayUseIsNotRemoved) {
  Add({"x"});
  Status refused = labels_.RemoveClusterLabels({"x"}, {{"root.a", {"x"}}, {"root.b", {"*"}}});
  EXPECT_EQ(refused.message(),
            "Cannot remove label=x, because queue=root.a is using this label. Please remove "
            "label on queue before remove the label");
  EXPECT_TRUE(labels_.RemoveClusterLabels({"x"}, {{"root.b", {"*"}}}).ok());
}

// testLabelsToNodes / testLabelsToNodesForSelectedLabels: running nodes
// follow their host's label; unknown labels are skipped.
TEST_F(NodeLabelsTest, LabelsToNodesCountsRunningNodes) {
  Add({"p1", "p2", "p3"});
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("n1"), {"p1"}}, {Nm("n2", 5), {"p2"}}}).ok());
  const std::vector<NodeId> running = {Nm("n1", 1), Nm("n1", 2), Nm("n3", 1)};
  EXPECT_EQ(labels_.LabelsToNodes(running, {}),
            (std::map<std::string, std::set<NodeId>>{{"p1", {Host("n1"), Nm("n1", 1), Nm("n1", 2)}},
                                                     {"p2", {Nm("n2", 5)}}}));
  EXPECT_EQ(labels_.LabelsToNodes(running, {"p2", "p3", "nope"}),
            (std::map<std::string, std::set<NodeId>>{{"p2", {Nm("n2", 5)}}}));
}

TEST_F(NodeLabelsTest, SnapshotRestoresTheSameMaps) {
  ASSERT_TRUE(labels_.AddClusterLabels({{"x", false}, {"y", true}}).ok());
  ASSERT_TRUE(labels_.ReplaceLabelsOnNodes({{Host("h1"), {"x"}}, {Nm("h2", 7), {"y"}}}).ok());
  NodeLabels restored(NodeLabelsOptions{.enabled = true});
  restored.Restore(labels_.Snapshot());
  EXPECT_EQ(restored.Snapshot(), labels_.Snapshot());
  EXPECT_EQ(restored.PartitionOf(Nm("h1", 9)), "x");
  EXPECT_EQ(restored.PartitionOf(Nm("h2", 7)), "y");
  EXPECT_FALSE(restored.Find("x")->exclusive);
}

}  // namespace
}  // namespace spindle::rm
