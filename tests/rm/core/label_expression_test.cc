// ResolveRequestLabel against Hadoop 3.3's SchedulerUtils label checks
// (TestSchedulerUtils.testValidateResourceRequestWithErrorLabelsPermission,
// testNormalizeNodeLabelExpression).
#include "rm/core/label_expression.h"

#include <gtest/gtest.h>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {
namespace {

class LabelExpressionTest : public ::testing::Test {
 protected:
  LabelExpressionTest() {
    EXPECT_TRUE(labels_.AddClusterLabels({{"x", true}, {"y", true}, {"z", true}}).ok());
    queue_.name = "a";
    queue_.accessible_node_labels = {"x", "y"};
  }
  Result<std::string> Resolve(std::optional<std::string> expression, std::string name = "*") {
    return ResolveRequestLabel({std::move(name), std::move(expression)}, queue_, labels_);
  }
  NodeLabels labels_{NodeLabelsOptions{.enabled = true}};
  CsQueue queue_;
};

TEST_F(LabelExpressionTest, AccessibleLabelsPass) {
  EXPECT_EQ(*Resolve("x"), "x");
  EXPECT_EQ(*Resolve(" y "), "y");
  EXPECT_EQ(*Resolve(""), "");
  EXPECT_EQ(*Resolve(std::nullopt), "");
  EXPECT_EQ(*Resolve("", "host1"), "");
}

TEST_F(LabelExpressionTest, TheQueueDefaultFillsAnAnyRequestWithout) {
  queue_.default_node_label_expression = "x";
  EXPECT_EQ(*Resolve(std::nullopt), "x");
  EXPECT_EQ(*Resolve(""), "") << "an explicit empty expression is the default partition";
  EXPECT_EQ(*Resolve(std::nullopt, "host1"), "");
}

TEST_F(LabelExpressionTest, RefusalsCarryHadoopsTexts) {
  auto denied = Resolve("z");
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().java_class(), yarn::kInvalidLabelResourceRequest);
  EXPECT_EQ(denied.status().message(),
            "Invalid resource request, queue=a doesn't have permission to access all labels in "
            "resource request. labelExpression of resource request=z. Queue labels=x,y");
  EXPECT_EQ(Resolve("x&&y").status().message(),
            "Invalid resource request, queue=a specified more than one node label in a node "
            "label expression, node label expression = x&&y");
  EXPECT_EQ(Resolve("x", "rack1").status().message(),
            "Invalid resource request, queue=a specified node label expression in a resource "
            "request has resource name = rack1");
  queue_.accessible_node_labels = {"*"};
  EXPECT_EQ(*Resolve("z"), "z");
  EXPECT_EQ(Resolve("w").status().message(),
            "Invalid label resource request, cluster do not contain , label= w");
}

TEST_F(LabelExpressionTest, DisabledLabelsRefuseAnyExpression) {
  NodeLabels off(NodeLabelsOptions{.enabled = false});
  auto refused = ResolveRequestLabel({"*", "x"}, queue_, off);
  EXPECT_EQ(refused.status().message(),
            "Invalid resource request, node label not enabled but request contains label "
            "expression");
  EXPECT_EQ(*ResolveRequestLabel({"*", std::nullopt}, queue_, off), "");
}

// normalizeAndValidateRequest with isRecovery: the queue's default fills an
// ANY request without an expression, and nothing is refused (labels off, a
// label the queue may not use, one the cluster lacks).
TEST_F(LabelExpressionTest, ARecoveredRequestIsNormalisedNotChecked) {
  queue_.default_node_label_expression = "x";
  EXPECT_EQ(RecoveredRequestLabel({"*", std::nullopt}, &queue_), "x");
  EXPECT_EQ(RecoveredRequestLabel({"*", " z "}, &queue_), "z");
  EXPECT_EQ(RecoveredRequestLabel({"*", "w"}, &queue_), "w");
  EXPECT_EQ(RecoveredRequestLabel({"*", ""}, &queue_), "");
  EXPECT_EQ(RecoveredRequestLabel({"*", std::nullopt}, nullptr), "");
}

}  // namespace
}  // namespace spindle::rm
