// The label expressions of an AM's allocate asks, through AttemptAllocator:
// Hadoop 3.3 DefaultAMSProcessor.allocate (an ANY row without an expression
// takes the app's, then the queue's default), SchedulerUtils
// .normalizeAndValidateRequest's refusals, and LocalityAppPlacementAllocator
// (the ANY row's expression places the whole key). Cases after
// TestSchedulerUtils.testValidateResourceRequestWithErrorLabelsPermission
// and TestNodeLabelContainerAllocation.testContainerAllocationWithSingleUserLimits
// (containers of a labelled ask land only on that label's nodes).
#include <gtest/gtest.h>

#include "rm/yarn_exceptions.h"
#include "tests/rm/core/attempt_allocator_fixture.h"

namespace spindle::rm {
namespace {

using pool::Resource;
using test_support::Ask;

class AskPartitionsTest : public test_support::AttemptAllocatorFixture {
 protected:
  // h3 carries the exclusive label x; the cluster also knows y (on no node).
  void SetUpLabels() {
    LabelHost("h3", "x");
    ASSERT_TRUE(node_labels_->AddClusterLabels({{"y", true}}).ok());
  }
  void BuildWith(const std::map<std::string, std::string>& queue_keys) {
    for (const auto& [key, value] : queue_keys) queue_conf_.Set(key, value);
    Build(HadoopLine::k3_3);
    SetUpLabels();
  }
  // A registered attempt of an app whose context names `app_expression`.
  ApplicationAttemptId RegisteredAppWith(std::optional<std::string> app_expression) {
    Submission s = DemoSubmission(apps_.get(), "default");
    s.app_label_expression = std::move(app_expression);
    EXPECT_TRUE(apps_->Submit(s).ok());
    Place();
    launcher_.CompleteAll(Status::OK());
    const ApplicationAttemptId attempt{s.id, 1};
    EXPECT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
    return attempt;
  }
  static ResourceRequest Labelled(const std::string& name, int32_t count,
                                  std::optional<std::string> expression) {
    ResourceRequest r = Ask(name, count);
    r.node_label_expression = std::move(expression);
    return r;
  }
  static std::string OnlyHost(const std::vector<AllocatedContainer>& containers) {
    std::set<std::string> hosts;
    for (const auto& c : containers) hosts.insert(c.node.host);
    return hosts.size() == 1 ? *hosts.begin() : "several";
  }
};

TEST_F(AskPartitionsTest, AnAnyRowsExpressionPlacesItsKeyInThatPartition) {
  BuildWith({});
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  auto got = AskAndTake(attempt, {Labelled("*", 3, "x")});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(OnlyHost(got), "h3");
  // Unlabelled asks never use the exclusive partition: h1 and h2 hold 16.
  got = AskAndTake(attempt, {Ask("*", 20, true, Resource::Of(1024, 1), 2)});
  EXPECT_EQ(got.size(), 15u) << "16 slots on h1 and h2, less the AM's";
  for (const auto& c : got) EXPECT_NE(c.node.host, "h3");
}

TEST_F(AskPartitionsTest, HostAndRackRowsFollowTheirAnyRow) {
  BuildWith({});
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  // A host row of the default partition under an ANY row of x: the key goes
  // to x, so h1 is out of reach and the container lands on h3.
  auto got = AskAndTake(attempt, {Ask("h1", 1), Ask("/r1", 1), Labelled("*", 1, "x")});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].node.host, "h3");
}

TEST_F(AskPartitionsTest, TheAppsExpressionThenTheQueuesDefaultFillAnAnyRow) {
  BuildWith({{"yarn.scheduler.capacity.root.default.default-node-label-expression", "x"}});
  // The queue's default applies when neither the row nor the app names one.
  const ApplicationAttemptId by_queue = RegisteredAppWith(std::nullopt);
  EXPECT_EQ(OnlyHost(AskAndTake(by_queue, {Ask("*", 2)})), "h3");
  // The app's expression, even empty, comes before the queue's default.
  const ApplicationAttemptId by_app = RegisteredAppWith(std::string(""));
  auto got = AskAndTake(by_app, {Ask("*", 2)});
  ASSERT_EQ(got.size(), 2u);
  for (const auto& c : got) EXPECT_NE(c.node.host, "h3");
  // The row's own expression comes first.
  EXPECT_EQ(OnlyHost(AskAndTake(by_app, {Labelled("*", 1, "x")})), "h3");
}

TEST_F(AskPartitionsTest, ANewAnyExpressionMovesTheKey) {
  BuildWith({});
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  // h3's 8 slots taken by x asks; the ninth waits in x.
  EXPECT_EQ(AskAndTake(attempt, {Labelled("*", 9, "x")}).size(), 8u);
  // The same key sent again for the default partition is placed there.
  auto got = AskAndTake(attempt, {Labelled("*", 1, "")});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].node.host, "h3");
}

TEST_F(AskPartitionsTest, RefusalsCarryHadoopsTextsAndApplyNothing) {
  BuildWith({{"yarn.scheduler.capacity.root.default.accessible-node-labels", "x"}});
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  auto refused = [&](std::vector<ResourceRequest> asks) {
    AllocateRequest request;
    request.asks = std::move(asks);
    return ErrorOf(attempt, request);
  };
  Status host_row = refused({Ask("*", 1), Labelled("h1", 1, "x")});
  EXPECT_EQ(host_row.java_class(), yarn::kInvalidLabelResourceRequest);
  EXPECT_EQ(host_row.message(),
            "Invalid resource request, queue=default specified node label expression in a "
            "resource request has resource name = h1");
  EXPECT_EQ(refused({Labelled("*", 1, "y")}).message(),
            "Invalid resource request, queue=default doesn't have permission to access all "
            "labels in resource request. labelExpression of resource request=y. Queue labels=x");
  EXPECT_EQ(refused({Labelled("*", 1, "x&&y")}).message(),
            "Invalid resource request, queue=default specified more than one node label in a "
            "node label expression, node label expression = x&&y");
  // A blank expression on a host row is no label (allowed).
  EXPECT_NE(CallWith(attempt, {Labelled("h1", 1, " ")}), nullptr);
  // Nothing of a refused call was asked for.
  Place();
  EXPECT_TRUE(Call(attempt)->allocated.empty());
}

TEST_F(AskPartitionsTest, TheFirstBadRowDecidesTheError) {
  BuildWith({});
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  // Row by row, as SchedulerUtils does: the label error of the first row
  // wins over the capability error of the second.
  AllocateRequest request;
  request.asks = {Labelled("*", 1, "w"), Ask("*", 1, true, Resource::Of(1 << 20, 1), 3)};
  Status error = ErrorOf(attempt, request);
  EXPECT_EQ(error.message(), "Invalid label resource request, cluster do not contain , label= w");
  std::swap(request.asks[0], request.asks[1]);
  EXPECT_EQ(ErrorOf(attempt, request).java_class(), yarn::kInvalidResourceRequest);
}

TEST_F(AskPartitionsTest, DisabledLabelsRefuseAnExpression) {
  label_options_.enabled = false;
  Build(HadoopLine::k3_3);
  const ApplicationAttemptId attempt = RegisteredAppWith(std::nullopt);
  AllocateRequest request;
  request.asks = {Labelled("*", 1, "x")};
  EXPECT_EQ(ErrorOf(attempt, request).message(),
            "Invalid resource request, node label not enabled but request contains label "
            "expression");
  EXPECT_EQ(AskAndTake(attempt, {Labelled("*", 1, "")}).size(), 1u);
}

}  // namespace
}  // namespace spindle::rm
