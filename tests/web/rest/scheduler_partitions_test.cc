// GET /ws/v1/cluster/scheduler per partition (web/rest/partition_info.h):
// the queues of the capture a Java RM 3.3.6 answered with a labelled queue
// (root x 100; a 50%, may access x with 100% of it, its asks in x by
// default; b 50%, no labels), a 4 GB node in the default partition and one
// in x, an application in each queue. Golden JSON and XML for 3.3; 2.6
// answers none of it.
#include <gtest/gtest.h>

#include <string>

#include "tests/web/rest/cluster_fixture.h"
#include "tests/web/rest/golden.h"
#include "web/http/router.h"
#include "web/rest/cluster_read_routes.h"

namespace spindle::web::rest::testing {
namespace {

HarnessOptions LabelledOptions() {
  HarnessOptions options;
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "a,b") + CsProperty("root.a.capacity", "50") +
      CsProperty("root.b.capacity", "50") + CsProperty("root.a.maximum-capacity", "100") +
      CsProperty("root.b.maximum-capacity", "100") +
      CsProperty("root.accessible-node-labels.x.capacity", "100") +
      CsProperty("root.a.accessible-node-labels", "x") +
      CsProperty("root.a.accessible-node-labels.x.capacity", "100") +
      CsProperty("root.a.accessible-node-labels.x.maximum-capacity", "100") +
      CsProperty("root.a.default-node-label-expression", "x") +
      CsProperty("root.b.accessible-node-labels", "") +
      CsProperty("maximum-am-resource-percent", "0.5");
  return options;
}

class SchedulerPartitionsTest : public ::testing::Test {
 protected:
  SchedulerPartitionsTest() : rm_(LabelledOptions()) {
    rm_.AddNode("host1", 45454, pool::Resource::Of(4096, 4));
    rm_.AddNode("host2", 45454, pool::Resource::Of(4096, 4));
    pool::NodeUpdate update;
    update.set_label = true;
    update.label = rm_.pool().InternLabel("x");
    for (pool::NodeId node : rm_.nodes().PoolNodesOnHost("host2")) {
      EXPECT_TRUE(rm_.pool().UpdateNode(node, update).ok());
    }
    rm_.ApplyQueues();
    SubmitTo(rm_, "alice", "a", "MAPREDUCE", {});
    SubmitTo(rm_, "bob", "b", "MAPREDUCE", {});
    rm_.LaunchAll();
  }

  HttpResponse GetScheduler(rm::HadoopLine line, const std::string& accept = "") {
    Router router;
    ClusterWebDeps deps;
    deps.client = &rm_.service();
    deps.core = &rm_.core();
    deps.scheduler.line = line;
    deps.scheduler.minimum_allocation = pool::Resource::Of(1024, 1);
    deps.scheduler.maximum_allocation = pool::Resource::Of(8192, 4);
    WebCallerOptions callers;
    callers.static_user = "dr.who";
    AddClusterReadRoutes(&router, callers, deps);
    HttpRequest request;
    request.method = HttpMethod::kGet;
    request.path = "/ws/v1/cluster/scheduler";
    if (!accept.empty()) request.headers.emplace_back("Accept", accept);
    return router.Dispatch(request);
  }

  RmHarness rm_;
};

TEST_F(SchedulerPartitionsTest, Hadoop33AnswersEachQueuePerPartition) {
  const HttpResponse json = GetScheduler(rm::HadoopLine::k3_3);
  ASSERT_EQ(json.status, 200) << json.body;
  ExpectGolden("scheduler_partitions.json", json.body);
  ExpectGolden("scheduler_partitions.xml",
               GetScheduler(rm::HadoopLine::k3_3, "application/xml").body);
  // The shapes the Java RM 3.3.6 answered: root's capacities, each queue's
  // capacities (default partition first, then x) and resources.
  EXPECT_NE(json.body.find("\"queueCapacitiesByPartition\":[{\"partitionName\":\"\""),
            std::string::npos);
  EXPECT_NE(json.body.find("{\"partitionName\":\"x\""), std::string::npos);
  EXPECT_NE(json.body.find("\"resourceUsagesByPartition\":[{\"partitionName\":\"\""),
            std::string::npos);
}

TEST_F(SchedulerPartitionsTest, Hadoop26AnswersNoPartitions) {
  for (rm::HadoopLine line : {rm::HadoopLine::k2_6, rm::HadoopLine::k2_7}) {
    const HttpResponse json = GetScheduler(line);
    ASSERT_EQ(json.status, 200) << json.body;
    EXPECT_EQ(json.body.find("capacities"), std::string::npos) << json.body;
    EXPECT_EQ(json.body.find("ByPartition"), std::string::npos) << json.body;
  }
}

}  // namespace
}  // namespace spindle::web::rest::testing
