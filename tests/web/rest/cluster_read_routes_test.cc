// The /ws/v1/cluster read endpoints against a real RM core (ClusterFixture):
// whole documents against golden files, filters, errors, ACLs.
#include "web/rest/cluster_read_routes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/web/rest/cluster_fixture.h"
#include "tests/web/rest/golden.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest::testing {
namespace {

constexpr char kApp1[] = "application_1700000000000_0001";  // alice RUNNING
constexpr char kApp2[] = "application_1700000000000_0002";  // alice FINISHED
constexpr char kApp3[] = "application_1700000000000_0003";  // carol KILLED
constexpr char kApp4[] = "application_1700000000000_0004";  // bob ACCEPTED

using ClusterReadTest = ClusterFixture;

// The app ids of an apps answer, in order.
std::vector<std::string> AppIds(const HttpResponse& response) {
  std::vector<std::string> ids;
  const std::string key = "\"id\":\"application_";
  for (size_t at = response.body.find(key); at != std::string::npos;
       at = response.body.find(key, at + 1)) {
    const size_t begin = at + 6;
    ids.push_back(response.body.substr(begin, response.body.find('"', begin) - begin));
  }
  return ids;
}

void ExpectError(const HttpResponse& response, int status, const std::string& exception,
                 const std::string& java_class, const std::string& message) {
  EXPECT_EQ(response.status, status) << response.body;
  EXPECT_EQ(response.content_type, "application/json; charset=utf-8");
  std::string escaped;
  for (char c : message) {
    if (c == '/') escaped += '\\';
    escaped += c;
  }
  EXPECT_EQ(response.body, "{\"RemoteException\":{\"exception\":\"" + exception +
                               "\",\"message\":\"" + escaped + "\",\"javaClassName\":\"" +
                               java_class + "\"}}");
}

// Hadoop's webapp exceptions built from a message report it wrapped (see
// RestError::BadRequest).
void ExpectBadRequest(const HttpResponse& response, const std::string& message) {
  ExpectError(response, 400, "BadRequestException",
              "org.apache.hadoop.yarn.webapp.BadRequestException",
              "java.lang.Exception: " + message);
}

// ---- whole documents ---------------------------------------------------------

TEST_F(ClusterReadTest, ClusterInfoGolden) {
  const HttpResponse response = Get("/ws/v1/cluster/info");
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "application/json; charset=utf-8");
  ExpectGolden("cluster_info.json", response.body);
  // /ws/v1/cluster is the same resource (trailing slash too).
  EXPECT_EQ(Get("/ws/v1/cluster").body, response.body);
  EXPECT_EQ(Get("/ws/v1/cluster/").body, response.body);
  ExpectGolden("cluster_info.xml", Get("/ws/v1/cluster/info", "application/xml").body);
}

TEST_F(ClusterReadTest, MetricsGolden) {
  ExpectGolden("cluster_metrics.json", Get("/ws/v1/cluster/metrics").body);
}

TEST_F(ClusterReadTest, SchedulerGolden) {
  ExpectGolden("scheduler.json", Get("/ws/v1/cluster/scheduler").body);
  ExpectGolden("scheduler.xml", Get("/ws/v1/cluster/scheduler", "application/xml").body);
}

TEST_F(ClusterReadTest, AppsGolden) { ExpectGolden("apps.json", Get("/ws/v1/cluster/apps").body); }

TEST_F(ClusterReadTest, OneAppGolden) {
  ExpectGolden("app_running.json", Get(std::string("/ws/v1/cluster/apps/") + kApp1).body);
  ExpectGolden("app_running.xml",
               Get(std::string("/ws/v1/cluster/apps/") + kApp1, "application/xml").body);
  ExpectGolden("app_accepted.json", Get(std::string("/ws/v1/cluster/apps/") + kApp4).body);
}

TEST_F(ClusterReadTest, AppAttemptsAndStateGolden) {
  ExpectGolden("appattempts.json",
               Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "/appattempts").body);
  EXPECT_EQ(Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "/state").body,
            R"({"state":"RUNNING"})");
  EXPECT_EQ(Get(std::string("/ws/v1/cluster/apps/") + kApp3 + "/state").body,
            R"({"state":"KILLED"})");
  EXPECT_EQ(Get(std::string("/ws/v1/cluster/apps/") + kApp4 + "/state", "application/xml").body,
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
            R"(<appstate><state>ACCEPTED</state></appstate>)");
}

TEST_F(ClusterReadTest, NodesGolden) {
  ExpectGolden("nodes.json", Get("/ws/v1/cluster/nodes").body);
  ExpectGolden("node_shutdown.xml",
               Get("/ws/v1/cluster/nodes/host2:45454", "application/xml").body);
}

TEST_F(ClusterReadTest, AppStatisticsGolden) {
  ExpectGolden("appstatistics.json", Get("/ws/v1/cluster/appstatistics").body);
  EXPECT_EQ(Get("/ws/v1/cluster/appstatistics?states=accepted,RUNNING&applicationTypes=Spark").body,
            R"({"appStatInfo":{"statItem":[{"state":"ACCEPTED","type":"spark","count":1},)"
            R"({"state":"RUNNING","type":"spark","count":0}]}})");
}

TEST_F(ClusterReadTest, UserInfoNamesTheCaller) {
  const HttpResponse response = Get("/ws/v1/cluster/userinfo?user.name=alice");
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.body.find(R"("requestedUser":"alice")"), std::string::npos);
  EXPECT_NE(Get("/ws/v1/cluster/userinfo").body.find(R"("requestedUser":"dr.who")"),
            std::string::npos);
}

// ---- what the REST answers agree on with the RPC reports ---------------------

TEST_F(ClusterReadTest, AppAgreesWithTheApplicationReport) {
  y::GetApplicationReportRequestProto request;
  client_service::ToProto(running_, request.mutable_application_id());
  y::GetApplicationReportResponseProto response;
  ASSERT_TRUE(rm_.service().GetApplicationReport(Who("alice"), request, &response).ok());
  const y::ApplicationReportProto& report = response.application_report();
  const std::string body = Get(std::string("/ws/v1/cluster/apps/") + kApp1).body;
  auto has = [&](const std::string& field) { return body.find(field) != std::string::npos; };
  std::string url;
  for (char c : report.trackingurl()) {
    if (c == '/') url += '\\';
    url += c;
  }
  EXPECT_TRUE(has("\"trackingUrl\":\"" + url + "\""));
  EXPECT_TRUE(has("\"progress\":" + JavaFloatString(report.progress() * 100)));
  EXPECT_TRUE(has("\"startedTime\":" + std::to_string(report.starttime())));
  EXPECT_TRUE(has("\"launchTime\":" + std::to_string(report.launchtime())));
  EXPECT_TRUE(
      has("\"amRPCAddress\":\"" + report.host() + ":" + std::to_string(report.rpc_port()) + "\""));
  EXPECT_TRUE(has("\"allocatedMB\":" +
                  std::to_string(report.app_resource_usage().used_resources().memory())));
  EXPECT_TRUE(
      has("\"memorySeconds\":" + std::to_string(report.app_resource_usage().memory_seconds())));
}

// ---- /apps query parameters --------------------------------------------------

TEST_F(ClusterReadTest, AppsFilters) {
  using V = std::vector<std::string>;
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?states=running,accepted")), (V{kApp1, kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?states=RUNNING&states=KILLED")), (V{kApp1, kApp3}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?state=FINISHED")), (V{kApp2}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?finalStatus=KILLED")), (V{kApp3}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?user=alice")), (V{kApp1, kApp2}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?queue=batch")), (V{kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?queue=root.eng")), (V{kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?limit=2")), (V{kApp1, kApp2}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?startedTimeBegin=1700000001000")), (V{kApp3, kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?startedTimeEnd=1700000001000")), (V{kApp1, kApp2}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?finishedTimeBegin=1")), (V{kApp2, kApp3}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?finishedTimeEnd=1700000004000")), (V{kApp1, kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?applicationTypes=spark,MAPREDUCE")), (V{kApp1, kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?applicationTags=ETL")), (V{kApp4}));
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?name=job-3")), (V{kApp3}));
  EXPECT_EQ(Get("/ws/v1/cluster/apps?states=NEW").body, R"({"apps":{}})");
  EXPECT_EQ(Get("/ws/v1/cluster/apps?states=NEW", "application/xml").body,
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><apps/>)");
}

TEST_F(ClusterReadTest, DeSelectsDropFields) {
  const std::string all = Get(std::string("/ws/v1/cluster/apps/") + kApp1).body;
  EXPECT_NE(all.find("\"timeouts\""), std::string::npos);
  EXPECT_NE(all.find("\"amNodeLabelExpression\""), std::string::npos);
  const std::string some =
      Get("/ws/v1/cluster/apps?deSelects=timeouts,amNodeLabelExpression&deSelects=resourceRequests")
          .body;
  EXPECT_EQ(some.find("\"timeouts\""), std::string::npos);
  EXPECT_EQ(some.find("\"amNodeLabelExpression\""), std::string::npos);
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps?deSelects=resourceInfo")).size(), 4u);
}

TEST_F(ClusterReadTest, NodesFilter) {
  const HttpResponse running = Get("/ws/v1/cluster/nodes?states=running");
  EXPECT_NE(running.body.find("host1:45454"), std::string::npos);
  EXPECT_EQ(running.body.find("host2:45454"), std::string::npos);
  const HttpResponse both = Get("/ws/v1/cluster/nodes?states=RUNNING,shutdown");
  EXPECT_NE(both.body.find("host2:45454"), std::string::npos);
  EXPECT_EQ(Get("/ws/v1/cluster/nodes?states=LOST").body, R"({"nodes":{}})");
  EXPECT_EQ(Get("/ws/v1/cluster/nodes/host1:45454").status, 200);
}

// ResourceUtilizationInfo (Hadoop 3.3): the node's last heartbeat's figures.
TEST_F(ClusterReadTest, NodeResourceUtilizationComesFromHeartbeats) {
  rm::NodeHeartbeat heartbeat;
  heartbeat.id = rm::NodeId{"host1", 45454};
  heartbeat.node_utilization = rm::ResourceUtilization{3000, 3500, 1.5f};
  heartbeat.containers_utilization = rm::ResourceUtilization{1200, 2600, 0.5f};
  ASSERT_EQ(rm_.nodes().Heartbeat(heartbeat).action, rm::NodeAction::kNormal);
  const std::string body = Get("/ws/v1/cluster/nodes/host1:45454").body;
  EXPECT_NE(body.find(R"("resourceUtilization":{"nodePhysicalMemoryMB":3000,)"
                      R"("nodeVirtualMemoryMB":3500,"nodeCPUUsage":1.5,)"
                      R"("aggregatedContainersPhysicalMemoryMB":1200,)"
                      R"("aggregatedContainersVirtualMemoryMB":2600,"containersCPUUsage":0.5})"),
            std::string::npos)
      << body;
}

// `yarn top`'s HTTP authentication handshake: OPTIONS on /ws/v1/cluster/info,
// then again with ?user.name= (PseudoAuthenticator); each must answer 200.
TEST_F(ClusterReadTest, TheAuthenticationHandshakeOfYarnTopSucceeds) {
  for (const char* target : {"/ws/v1/cluster/info", "/ws/v1/cluster/info?user.name=alice"}) {
    HttpRequest request;
    request.method = HttpMethod::kOptions;
    request.path = "/ws/v1/cluster/info";
    if (std::string(target).find('?') != std::string::npos) {
      request.query = {{"user.name", "alice"}};
    }
    const HttpResponse response = router_.Dispatch(request);
    EXPECT_EQ(response.status, 200) << target;
  }
}

// ---- errors ------------------------------------------------------------------

TEST_F(ClusterReadTest, BadAppsParametersAreBadRequests) {
  ExpectBadRequest(Get("/ws/v1/cluster/apps?states=RUNNING,bogus"),
                   "Invalid application-state bogus specified. It should be one of [NEW, "
                   "NEW_SAVING, SUBMITTED, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED]");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?state=INVALID_test"),
                   "Invalid application-state INVALID_test specified. It should be one of [NEW, "
                   "NEW_SAVING, SUBMITTED, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED]");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?limit=0"), "limit value must be greater then 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?limit=-3"), "limit value must be greater then 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?limit=ten"), "limit value must be a number!");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?startedTimeBegin=x"),
                   "startedTimeBegin value must be a number!");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?startedTimeEnd=1e3"),
                   "startedTimeEnd value must be a number!");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?finishedTimeBegin=99999999999999999999"),
                   "finishedTimeBegin value must be a number!");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?finishedTimeEnd=abc"),
                   "finishedTimeEnd value must be a number!");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?startedTimeBegin=-1"),
                   "startedTimeBegin must be greater than 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?startedTimeEnd=-1"),
                   "startedTimeEnd must be greater than 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?startedTimeBegin=10&startedTimeEnd=5"),
                   "startedTimeEnd must be greater than startTimeBegin");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?finishedTimeBegin=-5"),
                   "finishTimeBegin must be greater than 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?finishedTimeEnd=-5"),
                   "finishTimeEnd must be greater than 0");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?finishedTimeBegin=10&finishedTimeEnd=5"),
                   "finishTimeEnd must be greater than finishTimeBegin");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?queue=nosuch"), "Unknown queue: nosuch");
  ExpectBadRequest(Get("/ws/v1/cluster/apps?deSelects=bogus"),
                   "Invalid deSelects string bogus specified. It should be one of "
                   "[RESOURCE_REQUESTS, TIMEOUTS, APP_NODE_LABEL_EXPRESSION, "
                   "AM_NODE_LABEL_EXPRESSION, RESOURCE_INFO]");
  ExpectError(Get("/ws/v1/cluster/apps?finalStatus=succeeded"), 400, "IllegalArgumentException",
              "java.lang.IllegalArgumentException",
              "No enum constant org.apache.hadoop.yarn.api.records.FinalApplicationStatus."
              "succeeded");
}

TEST_F(ClusterReadTest, UnknownAndMalformedApps) {
  for (const std::string suffix : {"", "/appattempts", "/state"}) {
    ExpectError(Get("/ws/v1/cluster/apps/application_1700000000000_0099" + suffix), 404,
                "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
                "java.lang.Exception: app with id: application_1700000000000_0099 not found");
    ExpectError(
        Get("/ws/v1/cluster/apps/application_invalid_12" + suffix), 400, "BadRequestException",
        "org.apache.hadoop.yarn.webapp.BadRequestException",
        "java.lang.IllegalArgumentException: Invalid ApplicationId: application_invalid_12");
    ExpectError(Get("/ws/v1/cluster/apps/app_1700000000000_0001" + suffix), 400,
                "BadRequestException", "org.apache.hadoop.yarn.webapp.BadRequestException",
                "java.lang.IllegalArgumentException: Invalid ApplicationId prefix: "
                "app_1700000000000_0001. The valid ApplicationId should start with prefix "
                "application");
  }
}

TEST_F(ClusterReadTest, UnknownAndMalformedNodes) {
  ExpectError(Get("/ws/v1/cluster/nodes/host9:1"), 404, "NotFoundException",
              "org.apache.hadoop.yarn.webapp.NotFoundException",
              "java.lang.Exception: nodeId, host9:1, is not found");
  ExpectError(Get("/ws/v1/cluster/nodes/host9"), 400, "IllegalArgumentException",
              "java.lang.IllegalArgumentException", "Invalid NodeId [host9]. Expected host:port");
  ExpectError(Get("/ws/v1/cluster/nodes/host9:port"), 400, "IllegalArgumentException",
              "java.lang.IllegalArgumentException", "Invalid port: port");
  ExpectError(Get("/ws/v1/cluster/nodes?states=RUNNING,bogus"), 400, "IllegalArgumentException",
              "java.lang.IllegalArgumentException",
              "No enum constant org.apache.hadoop.yarn.api.records.NodeState.BOGUS");
}

TEST_F(ClusterReadTest, AppStatisticsTakesOneType) {
  ExpectBadRequest(Get("/ws/v1/cluster/appstatistics?applicationTypes=a,b"),
                   "# of applicationTypes = 2, we temporarily support at most one "
                   "applicationType");
  ExpectBadRequest(Get("/ws/v1/cluster/appstatistics?states=nope"),
                   "Invalid application-state nope specified. It should be one of [NEW, "
                   "NEW_SAVING, SUBMITTED, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED]");
}

TEST_F(ClusterReadTest, NegotiationAndMethods) {
  const HttpResponse refused = Get("/ws/v1/cluster/metrics", "text/plain");
  EXPECT_EQ(refused.status, 406);
  const HttpResponse xml_error =
      Get("/ws/v1/cluster/apps/application_1700000000000_0099", "application/xml");
  EXPECT_EQ(xml_error.status, 404);
  EXPECT_EQ(xml_error.body,
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><RemoteException>)"
            R"(<exception>NotFoundException</exception>)"
            R"(<message>java.lang.Exception: app with id: application_1700000000000_0099 not )"
            R"(found</message>)"
            R"(<javaClassName>org.apache.hadoop.yarn.webapp.NotFoundException</javaClassName>)"
            R"(</RemoteException>)");
  HttpRequest put;
  put.method = HttpMethod::kPost;
  put.path = "/ws/v1/cluster/metrics";
  EXPECT_EQ(router_.Dispatch(put).status, 405);
}

// ---- ACLs --------------------------------------------------------------------

class ClusterAclTest : public ClusterFixture {
 protected:
  ClusterAclTest() : ClusterFixture(/*acl_enabled=*/true) {}
};

TEST_F(ClusterAclTest, OthersSeeTheRestrictedApp) {
  // dr.who (the static user) may not view alice's app: Hadoop's restricted AppInfo.
  ExpectGolden("app_running_restricted.json",
               Get(std::string("/ws/v1/cluster/apps/") + kApp1).body);
  const std::string bob = Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "?user.name=bob").body;
  EXPECT_EQ(bob, Get(std::string("/ws/v1/cluster/apps/") + kApp1).body);
  // The owner and an admin see everything.
  const std::string owner =
      Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "?user.name=alice").body;
  EXPECT_NE(owner.find("\"amRPCAddress\""), std::string::npos);
  EXPECT_NE(owner.find("\"startedTime\":1700000000000"), std::string::npos);
  EXPECT_EQ(owner, Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "?user.name=admin").body);
  // Attempts hide the AM container without access.
  const std::string attempts =
      Get(std::string("/ws/v1/cluster/apps/") + kApp1 + "/appattempts").body;
  EXPECT_NE(attempts.find(R"("containerId":"")"), std::string::npos);
  EXPECT_NE(attempts.find(R"("exportPorts":"")"), std::string::npos);
  // Listing shows every app (restricted where needed), as Hadoop does.
  EXPECT_EQ(AppIds(Get("/ws/v1/cluster/apps")).size(), 4u);
}

}  // namespace
}  // namespace spindle::web::rest::testing
