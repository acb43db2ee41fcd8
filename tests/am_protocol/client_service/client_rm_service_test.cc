// ClientRmService over the wire: a real RpcServer and RpcClient on
// 127.0.0.1, a real ApplicationManager, NodeRegistry, SchedulerPool and
// queue tree; each test checks what a Hadoop client would see.
#include "am_protocol/client_service/client_rm_service.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "am_protocol/client_service/record_protos.h"
#include "rm/yarn_exceptions.h"
#include "tests/am_protocol/client_service/client_rm_service_fixture.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::client_service {
namespace {

using testing::CsProperty;
using ::testing::ElementsAre;
using testing::HarnessOptions;
using ::testing::HasSubstr;
using testing::RmHarness;
using ::testing::UnorderedElementsAre;
namespace y = hadoop::yarn;

TEST_F(ClientRmServiceTest, GetNewApplicationHandsOutIdsAndTheMaximum) {
  y::GetNewApplicationRequestProto request;
  y::GetNewApplicationResponseProto response;
  ASSERT_TRUE(rm_.Call("getNewApplication", request, &response).ok());
  EXPECT_EQ(response.application_id().id(), 1);
  EXPECT_EQ(response.application_id().cluster_timestamp(), 1700000000000);
  EXPECT_EQ(response.maximumcapability().memory(), 8192);
  EXPECT_EQ(response.maximumcapability().virtual_cores(), 4);
  EXPECT_EQ(NewId().id, 2);
}

TEST_F(ClientRmServiceTest, SubmittedAppReportsLikeHadoop) {
  rm_.clock().Advance(std::chrono::seconds(5));
  const rm::ApplicationId id = SubmitNew();
  auto r = Report(id);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(FromProto(r->applicationid()), id);
  EXPECT_EQ(r->user(), "alice");
  EXPECT_EQ(r->queue(), "default");
  EXPECT_EQ(r->name(), "demo");
  EXPECT_EQ(r->applicationtype(), "MAPREDUCE");
  EXPECT_EQ(r->yarn_application_state(), y::ACCEPTED);
  EXPECT_EQ(r->final_application_status(), y::APP_UNDEFINED);
  EXPECT_EQ(r->host(), "N/A");
  EXPECT_EQ(r->rpc_port(), -1);
  EXPECT_EQ(r->trackingurl(), "http://rm.example:8088/proxy/" + id.ToString() + "/");
  EXPECT_EQ(r->originaltrackingurl(), "N/A");
  EXPECT_TRUE(r->has_diagnostics());
  EXPECT_EQ(r->diagnostics(), "");
  EXPECT_EQ(r->starttime(), 1700000005000);
  EXPECT_EQ(r->submittime(), 1700000005000);
  EXPECT_EQ(r->launchtime(), 0);
  EXPECT_EQ(r->finishtime(), 0);
  EXPECT_EQ(r->currentapplicationattemptid().attemptid(), 1);
  EXPECT_FLOAT_EQ(r->progress(), 0);
  EXPECT_EQ(r->priority().priority(), 0);
  EXPECT_TRUE(r->has_unmanaged_application());
  EXPECT_FALSE(r->unmanaged_application());
  EXPECT_EQ(r->amnodelabelexpression(), "<DEFAULT_PARTITION>");
  // RMAppImpl.getAppNodeLabelExpression (3.3): an unset label reads
  // "<Not set>" (the Java RM 3.3.6 answered the same to `yarn application
  // -status`).
  EXPECT_EQ(r->appnodelabelexpression(), "<Not set>");
  EXPECT_EQ(r->log_aggregation_status(), y::LOG_DISABLED);
  ASSERT_EQ(r->apptimeouts_size(), 1);
  EXPECT_EQ(r->apptimeouts(0).application_timeout().expire_time(), "UNLIMITED");
  EXPECT_EQ(r->apptimeouts(0).application_timeout().remaining_time(), -1);
  EXPECT_FALSE(r->has_am_rm_token());
  EXPECT_FALSE(r->has_client_to_am_token());
  // With the scheduler, nothing placed yet.
  EXPECT_EQ(r->app_resource_usage().num_used_containers(), 0);

  rm_.Step();  // the AM container is placed (200 MB rounds up to 256)
  r = Report(id);
  EXPECT_EQ(r->app_resource_usage().num_used_containers(), 1);
  EXPECT_EQ(r->app_resource_usage().used_resources().memory(), 256);
  EXPECT_EQ(r->app_resource_usage().used_resources().virtual_cores(), 1);
  EXPECT_EQ(r->app_resource_usage().needed_resources().memory(), 256);
  EXPECT_EQ(r->app_resource_usage().application_resource_usage_map_size(), 2);
}

TEST_F(ClientRmServiceTest, RunningAndFinishedReports) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  ASSERT_TRUE(rm_.apps().AmHeartbeat({id, 1}, 0.5f).ok());
  auto r = Report(id);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->yarn_application_state(), y::RUNNING);
  EXPECT_EQ(r->host(), "am-host");
  EXPECT_EQ(r->rpc_port(), 4321);
  EXPECT_EQ(r->trackingurl(), "http://rm.example:8088/proxy/" + id.ToString() + "/");
  EXPECT_EQ(r->originaltrackingurl(), "http://am-host:9999/ui");
  EXPECT_FLOAT_EQ(r->progress(), 0.5f);
  EXPECT_GT(r->launchtime(), 0);

  rm_.clock().Advance(std::chrono::seconds(3));
  Finish(id);
  r = Report(id);
  EXPECT_EQ(r->yarn_application_state(), y::FINISHED);
  EXPECT_EQ(r->final_application_status(), y::APP_SUCCEEDED);
  EXPECT_FLOAT_EQ(r->progress(), 1.0f);
  EXPECT_EQ(r->finishtime(), 1700000003000);
  // The scheduler no longer holds the attempt: Hadoop's dummy usage.
  EXPECT_EQ(r->app_resource_usage().num_used_containers(), -1);
  EXPECT_EQ(r->app_resource_usage().used_resources().memory(), -1);
}

TEST_F(ClientRmServiceTest, AmResourceComesFromField17ElseField9) {
  const rm::ApplicationId a = NewId();
  auto context = Context(a);
  context.mutable_resource()->set_memory(4096);  // ignored: field 17 wins
  ASSERT_TRUE(Submit(context).ok());
  EXPECT_EQ(rm_.apps().GetApp(a)->submission.am_resource, pool::Resource::Of(256, 1));

  const rm::ApplicationId b = NewId();
  context = Context(b);
  context.clear_am_container_resource_request();
  context.mutable_resource()->set_memory(512);
  context.mutable_resource()->set_virtual_cores(2);
  ASSERT_TRUE(Submit(context).ok());
  // Field 9's memory; its 2 vcores become 1, as DefaultResourceCalculator
  // (Hadoop's default) normalises the AM's request.
  EXPECT_EQ(rm_.apps().GetApp(b)->submission.am_resource, pool::Resource::Of(512, 1));
}

TEST_F(ClientRmServiceTest, BadAmResourcesAreInvalidResourceRequests) {
  auto expect_invalid = [&](const y::ApplicationSubmissionContextProto& context,
                            const std::string& text) {
    Status s = Submit(context);
    EXPECT_EQ(s.java_class(), rm::yarn::kInvalidResourceRequest) << s.ToString();
    EXPECT_THAT(s.message(), HasSubstr(text));
  };
  auto none = Context(NewId());
  none.clear_am_container_resource_request();
  expect_invalid(none, "no resources requested");
  auto no_any = Context(NewId());
  no_any.mutable_am_container_resource_request(0)->set_resource_name("host1");
  expect_invalid(no_any, "no resource request specified with *");
  auto two = Context(NewId());
  *two.add_am_container_resource_request() = two.am_container_resource_request(0);
  expect_invalid(two, "only one resource request with *");
  auto huge = Context(NewId());
  huge.mutable_am_container_resource_request(0)->mutable_capability()->set_memory(100000);
  expect_invalid(huge, "maxMemory=8192");
  EXPECT_TRUE(rm_.apps().ListApps().empty());
  // Unmanaged AMs need no resource.
  auto unmanaged = Context(NewId());
  unmanaged.clear_am_container_resource_request();
  unmanaged.set_unmanaged_am(true);
  EXPECT_TRUE(Submit(unmanaged).ok());
}

TEST_F(ClientRmServiceTest, ResubmittingTheSameIdIsAnsweredWithSuccess) {
  const rm::ApplicationId id = SubmitNew();
  EXPECT_TRUE(Submit(Context(id)).ok());
  EXPECT_EQ(rm_.apps().ListApps().size(), 1u);
}

TEST_F(ClientRmServiceTest, SubmissionDefaultsAndLimits) {
  const rm::ApplicationId id = NewId();
  y::ApplicationSubmissionContextProto context = Context(id);
  context.clear_application_name();
  context.clear_queue();
  context.set_applicationtype("AVeryLongApplicationTypeName");
  context.add_applicationtags("t1");
  context.add_applicationtags("t2");
  context.add_applicationtags("t1");
  context.mutable_priority()->set_priority(7);
  context.set_maxappattempts(1);
  context.set_node_label_expression("");
  ASSERT_TRUE(Submit(context).ok());
  auto r = Report(id);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->name(), "N/A");
  EXPECT_EQ(r->queue(), "default");
  EXPECT_EQ(r->applicationtype(),
            "AVeryLongApplicatio"
            "n");
  EXPECT_EQ(r->applicationtype().size(), 20u);
  EXPECT_THAT(r->applicationtags(), ElementsAre("t1", "t2"));
  // Capped at yarn.cluster.max-application-priority (0).
  EXPECT_EQ(r->priority().priority(), 0);
  // A blank label is the default partition (RMAppImpl, 3.3).
  EXPECT_EQ(r->appnodelabelexpression(), "<DEFAULT_PARTITION>");
  EXPECT_EQ(rm_.apps().GetApp(id)->max_attempts, 1);
  EXPECT_EQ(rm_.apps().GetApp(id)->submission.context_bytes, context.SerializeAsString());
}

TEST_F(ClientRmServiceTest, QueuesByShortNameOrPath) {
  // alice may submit to batch (its own ACL), by short name or full path.
  const rm::ApplicationId a = SubmitNew("batch");
  EXPECT_EQ(Report(a)->queue(), "batch");
  const rm::ApplicationId b = SubmitNew("root.eng.batch");
  EXPECT_EQ(Report(b)->queue(), "batch");
}

HarnessOptions QueueTreeOptions() {
  HarnessOptions options = Options();
  options.queue_tree_to_manager = true;
  return options;
}

class ClientRmServiceQueueTreeTest : public ClientRmServiceTest {
 protected:
  ClientRmServiceQueueTreeTest() : ClientRmServiceTest(QueueTreeOptions()) {}
};

// A STOPPED queue: the submission is accepted, then the scheduler rejects
// the app (LeafQueue.validateSubmitApplication / submitApplication, every
// line), which ends FAILED with the exception's toString.
TEST_F(ClientRmServiceQueueTreeTest, AStoppedQueueFailsTheApp) {
  const rm::ApplicationId stopped = SubmitNew("ops");
  auto r = Report(stopped);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->yarn_application_state(), y::FAILED);
  EXPECT_EQ(r->diagnostics(),
            "org.apache.hadoop.security.AccessControlException: Queue root.ops is STOPPED. Cannot "
            "accept submission of application: " +
                stopped.ToString());
}

// Hadoop 3.3 checks the submit ACL only in RMAppManager, and only with
// yarn.acl.enable (off here): bob may submit to batch.
TEST_F(ClientRmServiceTest, WithoutYarnAclEnableHadoop33ChecksNoSubmitAcl) {
  const rm::ApplicationId id = SubmitNew("batch", "bob");
  EXPECT_EQ(Report(id, "bob")->yarn_application_state(), y::ACCEPTED);
}

HarnessOptions LabelledQueuesOptions() {
  HarnessOptions options = Options();
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "a,b") + CsProperty("root.a.capacity", "50") +
      CsProperty("root.b.capacity", "50") +
      CsProperty("root.accessible-node-labels.x.capacity", "100") +
      CsProperty("root.a.accessible-node-labels", "x") +
      CsProperty("root.a.accessible-node-labels.x.capacity", "30") +
      CsProperty("root.a.accessible-node-labels.x.maximum-capacity", "50") +
      CsProperty("root.b.accessible-node-labels", "x") +
      CsProperty("root.b.accessible-node-labels.x.capacity", "70");
  return options;
}

class ClientRmServiceLabelsTest : public ClientRmServiceTest {
 protected:
  ClientRmServiceLabelsTest() : ClientRmServiceTest(LabelledQueuesOptions()) {}
};

// 3.3's QueueInfo carries one QueueConfigurations per partition the queue
// may use (AbstractCSQueue.getQueueConfigurations): the default one, then
// x with its capacities and its effective share of x's nodes.
TEST_F(ClientRmServiceLabelsTest, QueueInfoHasEachPartitionsConfiguration) {
  rm_.AddNode("host2", 45454, pool::Resource::Of(10240, 10));
  pool::NodeUpdate update;
  update.set_label = true;
  update.label = rm_.pool().InternLabel("x");
  for (pool::NodeId node : rm_.nodes().PoolNodesOnHost("host2")) {
    ASSERT_TRUE(rm_.pool().UpdateNode(node, update).ok());
  }
  y::GetQueueInfoRequestProto request;
  request.set_queuename("a");
  y::GetQueueInfoResponseProto response;
  ASSERT_TRUE(rm_.Call("getQueueInfo", request, &response).ok());
  const y::QueueInfoProto& a = response.queueinfo();
  ASSERT_EQ(a.queueconfigurationsmap_size(), 2);
  EXPECT_EQ(a.queueconfigurationsmap(0).partitionname(), "");
  EXPECT_EQ(a.queueconfigurationsmap(1).partitionname(), "x");
  const y::QueueConfigurationsProto& x = a.queueconfigurationsmap(1).queueconfigurations();
  EXPECT_FLOAT_EQ(x.capacity(), 0.3f);
  EXPECT_FLOAT_EQ(x.absolutecapacity(), 0.3f);
  EXPECT_FLOAT_EQ(x.maxcapacity(), 0.5f);
  EXPECT_FLOAT_EQ(x.absolutemaxcapacity(), 0.5f);
  EXPECT_EQ(x.effectivemincapacity().memory(), 3072);  // 30% of x's 10 GB
  EXPECT_EQ(x.effectivemaxcapacity().memory(), 5120);
}

HarnessOptions Hadoop26Options() {
  HarnessOptions options = Options();
  options.service.submission.acl.line = rm::HadoopLine::k2_6;
  return options;
}

class ClientRmServiceHadoop26Test : public ClientRmServiceTest {
 protected:
  ClientRmServiceHadoop26Test() : ClientRmServiceTest(Hadoop26Options()) {}
};

// Hadoop 2.6/2.7: LeafQueue.submitApplication checks the ACL whatever
// yarn.acl.enable says, after the app is accepted, and the scheduler
// rejects it with the exception's toString.
TEST_F(ClientRmServiceHadoop26Test, TheSchedulerRejectsAUserWithoutSubmitRights) {
  const rm::ApplicationId denied = SubmitNew("batch", "bob");
  auto r = Report(denied, "bob");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->yarn_application_state(), y::FAILED);
  EXPECT_EQ(r->diagnostics(),
            "org.apache.hadoop.security.AccessControlException: User bob cannot submit "
            "applications to queue root.eng.batch");
  // carol (group engineers on root.eng) may; root (administer on root)
  // may submit anywhere.
  EXPECT_EQ(Report(SubmitNew("adhoc", "carol"), "carol")->yarn_application_state(), y::ACCEPTED);
  EXPECT_EQ(Report(SubmitNew("adhoc", "root"), "root")->yarn_application_state(), y::ACCEPTED);
}

TEST_F(ClientRmServiceTest, UnknownAndParentQueuesFailTheApp) {
  for (const std::string queue : {"nope", "eng"}) {
    const rm::ApplicationId id = SubmitNew(queue);
    auto r = Report(id);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->yarn_application_state(), y::FAILED);
    EXPECT_EQ(r->final_application_status(), y::APP_FAILED);
    EXPECT_THAT(r->diagnostics(), HasSubstr("unknown queue: " + queue));
    EXPECT_EQ(r->currentapplicationattemptid().attemptid(), -1);
    EXPECT_EQ(r->app_resource_usage().num_used_containers(), -1);
  }
}

TEST_F(ClientRmServiceTest, UnknownApplications) {
  const rm::ApplicationId ghost{1, 42};
  auto r = Report(ghost);
  EXPECT_EQ(r.status().java_class(), rm::yarn::kApplicationNotFound);
  EXPECT_EQ(r.status().message(), "Application with id 'application_1_0042' doesn't exist in RM.");
  y::GetApplicationReportRequestProto no_id;
  y::GetApplicationReportResponseProto response;
  EXPECT_EQ(rm_.Call("getApplicationReport", no_id, &response).java_class(),
            rm::yarn::kApplicationNotFound);
  y::KillApplicationRequestProto kill;
  ToProto(ghost, kill.mutable_application_id());
  y::KillApplicationResponseProto killed;
  Status s = rm_.Call("forceKillApplication", kill, &killed);
  EXPECT_EQ(s.java_class(), rm::yarn::kApplicationNotFound);
  EXPECT_EQ(s.message(), "Trying to kill an absent application application_1_0042");
  y::GetApplicationAttemptsRequestProto attempts;
  ToProto(ghost, attempts.mutable_application_id());
  y::GetApplicationAttemptsResponseProto attempts_response;
  EXPECT_EQ(rm_.Call("getApplicationAttempts", attempts, &attempts_response).java_class(),
            rm::yarn::kApplicationNotFound);
}

TEST_F(ClientRmServiceTest, KillIsCompleteAndCarriesWhoKilled) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  y::KillApplicationRequestProto request;
  ToProto(id, request.mutable_application_id());
  request.set_diagnostics("bye");
  y::KillApplicationResponseProto response;
  ASSERT_TRUE(rm_.Call("forceKillApplication", request, &response).ok());
  EXPECT_TRUE(response.is_kill_completed());
  auto r = Report(id);
  EXPECT_EQ(r->yarn_application_state(), y::KILLED);
  EXPECT_EQ(r->final_application_status(), y::APP_KILLED);
  EXPECT_EQ(r->diagnostics(), "Application " + id.ToString() +
                                  " was killed by user alice at 127.0.0.1 with diagnostic "
                                  "message: bye");
  // Again: already final.
  response.Clear();
  ASSERT_TRUE(rm_.Call("forceKillApplication", request, &response).ok());
  EXPECT_TRUE(response.is_kill_completed());
}

TEST_F(ClientRmServiceTest, GetApplicationsAppliesEveryFilter) {
  const rm::ApplicationId a = SubmitNew("default", "alice");  // MAPREDUCE
  rm_.clock().Advance(std::chrono::seconds(10));
  const rm::ApplicationId b = NewId("carol");
  auto context = Context(b, "adhoc");
  context.set_applicationtype("yarn");
  context.set_application_name("other");
  context.add_applicationtags("nightly");
  ASSERT_TRUE(Submit(context, "carol").ok());
  rm_.clock().Advance(std::chrono::seconds(10));
  const rm::ApplicationId c = SubmitNew("batch", "alice");
  Run(a);
  Finish(a);

  auto list = [&](const std::function<void(y::GetApplicationsRequestProto*)>& build,
                  const std::string& user = "alice") {
    y::GetApplicationsRequestProto request;
    build(&request);
    y::GetApplicationsResponseProto response;
    EXPECT_TRUE(rm_.Call("getApplications", request, &response, user).ok());
    std::vector<int32_t> ids;
    for (const auto& app : response.applications()) ids.push_back(app.applicationid().id());
    return ids;
  };
  EXPECT_THAT(list([](auto*) {}), ElementsAre(a.id, b.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->add_application_types("mapreduce"); }),
              ElementsAre(a.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->add_application_types("YARN"); }), ElementsAre(b.id));
  EXPECT_THAT(list([](auto* r) {
                r->add_application_states(y::SUBMITTED);
                r->add_application_states(y::ACCEPTED);
                r->add_application_states(y::RUNNING);
              }),
              ElementsAre(b.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->add_application_states(y::FINISHED); }), ElementsAre(a.id));
  EXPECT_THAT(list([](auto* r) { r->add_users("carol"); }), ElementsAre(b.id));
  EXPECT_THAT(list([](auto* r) { r->add_queues("eng"); }), ElementsAre(b.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->add_queues("root.eng.batch"); }), ElementsAre(c.id));
  EXPECT_THAT(list([](auto* r) { r->add_queues("default"); }), ElementsAre(a.id));
  EXPECT_THAT(list([](auto* r) { r->set_limit(2); }), ElementsAre(a.id, b.id));
  EXPECT_THAT(list([](auto* r) { r->set_limit(0); }), ElementsAre());
  EXPECT_THAT(list([](auto* r) { r->set_start_begin(1700000005000); }), ElementsAre(b.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->set_start_end(1700000015000); }), ElementsAre(a.id, b.id));
  EXPECT_THAT(list([](auto* r) {
                r->set_start_begin(1700000005000);
                r->set_start_end(1700000015000);
              }),
              ElementsAre(b.id));
  EXPECT_THAT(list([](auto* r) { r->set_finish_begin(1); }), ElementsAre(a.id));
  EXPECT_THAT(list([](auto* r) { r->set_finish_end(0); }), ElementsAre(b.id, c.id));
  EXPECT_THAT(list([](auto* r) { r->add_applicationtags("nightly"); }), ElementsAre(b.id));
  EXPECT_THAT(list([](auto* r) { r->add_applicationtags("weekly"); }), ElementsAre());
  EXPECT_THAT(list([](auto* r) { r->set_scope(y::OWN); }, "carol"), ElementsAre(b.id));
  EXPECT_THAT(list([](auto* r) { r->set_scope(y::VIEWABLE); }, "carol"),
              ElementsAre(a.id, b.id, c.id));  // ACLs are off
  EXPECT_THAT(list([](auto* r) { r->set_name("other"); }), ElementsAre(b.id));
}

TEST_F(ClientRmServiceTest, ClusterMetricsAndNodes) {
  rm_.AddNode("host2", 45454, pool::Resource::Of(4096, 4), "/rack2");
  rm::NodeHeartbeat heartbeat;
  heartbeat.id = rm::NodeId{"host2", 45454};
  heartbeat.healthy = false;
  heartbeat.health_report = "disk full";
  heartbeat.last_health_report_ms = 1234;
  ASSERT_EQ(rm_.nodes().Heartbeat(heartbeat).action, rm::NodeAction::kNormal);

  y::GetClusterMetricsRequestProto metrics_request;
  y::GetClusterMetricsResponseProto metrics;
  ASSERT_TRUE(rm_.Call("getClusterMetrics", metrics_request, &metrics).ok());
  EXPECT_EQ(metrics.cluster_metrics().num_node_managers(), 2);
  EXPECT_EQ(metrics.cluster_metrics().num_active_nms(), 1);
  EXPECT_EQ(metrics.cluster_metrics().num_unhealthy_nms(), 1);
  EXPECT_EQ(metrics.cluster_metrics().num_lost_nms(), 0);
  EXPECT_TRUE(metrics.cluster_metrics().has_num_decommissioned_nms());
  EXPECT_TRUE(metrics.cluster_metrics().has_num_rebooted_nms());

  y::GetClusterNodesRequestProto all;
  y::GetClusterNodesResponseProto nodes;
  ASSERT_TRUE(rm_.Call("getClusterNodes", all, &nodes).ok());
  ASSERT_EQ(nodes.nodereports_size(), 2);
  y::GetClusterNodesRequestProto running;
  running.add_nodestates(y::NS_RUNNING);
  y::GetClusterNodesResponseProto running_nodes;
  ASSERT_TRUE(rm_.Call("getClusterNodes", running, &running_nodes).ok());
  ASSERT_EQ(running_nodes.nodereports_size(), 1);
  const y::NodeReportProto& n = running_nodes.nodereports(0);
  EXPECT_EQ(n.nodeid().host(), "host1");
  EXPECT_EQ(n.nodeid().port(), 45454);
  EXPECT_EQ(n.httpaddress(), "host1:8042");
  EXPECT_EQ(n.rackname(), "/default-rack");
  EXPECT_EQ(n.capability().memory(), 8192);
  EXPECT_EQ(n.used().memory(), 0);
  EXPECT_FALSE(n.has_numcontainers());  // 0 is left out, as Java does
  EXPECT_EQ(n.node_state(), y::NS_RUNNING);
  EXPECT_TRUE(n.has_health_report());
  EXPECT_TRUE(n.has_last_health_report_time());
  y::GetClusterNodesRequestProto unhealthy;
  unhealthy.add_nodestates(y::NS_UNHEALTHY);
  y::GetClusterNodesResponseProto sick;
  ASSERT_TRUE(rm_.Call("getClusterNodes", unhealthy, &sick).ok());
  ASSERT_EQ(sick.nodereports_size(), 1);
  EXPECT_EQ(sick.nodereports(0).health_report(), "disk full");
  EXPECT_EQ(sick.nodereports(0).rackname(), "/rack2");
}

TEST_F(ClientRmServiceTest, QueueInfo) {
  auto info = [&](const std::string& name, bool apps, bool children, bool recursive) {
    y::GetQueueInfoRequestProto request;
    request.set_queuename(name);
    request.set_includeapplications(apps);
    request.set_includechildqueues(children);
    request.set_recursive(recursive);
    y::GetQueueInfoResponseProto response;
    EXPECT_TRUE(rm_.Call("getQueueInfo", request, &response).ok());
    return response;
  };
  y::GetQueueInfoResponseProto def = info("default", true, false, false);
  ASSERT_TRUE(def.has_queueinfo());
  EXPECT_EQ(def.queueinfo().queuename(), "default");
  EXPECT_FLOAT_EQ(def.queueinfo().capacity(), 0.4f);
  EXPECT_FLOAT_EQ(def.queueinfo().maximumcapacity(), 1.0f);
  EXPECT_FLOAT_EQ(def.queueinfo().currentcapacity(), 0);
  EXPECT_EQ(def.queueinfo().state(), y::Q_RUNNING);
  EXPECT_THAT(def.queueinfo().accessiblenodelabels(), ElementsAre("*"));
  EXPECT_EQ(def.queueinfo().childqueues_size(), 0);
  EXPECT_EQ(def.queueinfo().applications_size(), 0);

  const rm::ApplicationId id = SubmitNew("default");
  rm_.Step();  // 256 MB of default's 40% of 8192 MB
  def = info("default", true, false, false);
  EXPECT_NEAR(def.queueinfo().currentcapacity(), 256.0 / (8192 * 0.4), 1e-6);
  ASSERT_EQ(def.queueinfo().applications_size(), 1);
  EXPECT_EQ(FromProto(def.queueinfo().applications(0).applicationid()), id);
  // ACCEPTED with its AM container allocated counts running, as Apache's
  // QueueMetrics count it from the attempt's first container (seen on a
  // real 2.6.0 RM: appsRunning 1, appsPending 0).
  EXPECT_EQ(def.queueinfo().queuestatistics().numappsrunning(), 1);
  EXPECT_EQ(def.queueinfo().queuestatistics().numappspending(), 0);
  EXPECT_EQ(def.queueinfo().queuestatistics().allocatedmemorymb(), 256);
  // Its AM request served and nothing asked since: no active user
  // (AppSchedulingInfo.checkForDeactivation; QueueMetrics.activeUsers).
  EXPECT_EQ(def.queueinfo().queuestatistics().numactiveusers(), 0);
  EXPECT_TRUE(def.queueinfo().preemptiondisabled());
  ASSERT_EQ(def.queueinfo().queueconfigurationsmap_size(), 1);
  EXPECT_FLOAT_EQ(
      def.queueinfo().queueconfigurationsmap(0).queueconfigurations().absolutecapacity(), 0.4f);

  y::GetQueueInfoResponseProto root = info("root", false, true, false);
  EXPECT_EQ(root.queueinfo().queuename(), "root");
  ASSERT_EQ(root.queueinfo().childqueues_size(), 3);
  EXPECT_EQ(root.queueinfo().childqueues(1).queuename(), "eng");
  EXPECT_EQ(root.queueinfo().childqueues(1).childqueues_size(), 0);  // not recursive
  EXPECT_EQ(root.queueinfo().childqueues(2).state(), y::Q_STOPPED);
  EXPECT_EQ(root.queueinfo().queuestatistics().numappssubmitted(), 1);
  root = info("root", false, true, true);
  ASSERT_EQ(root.queueinfo().childqueues(1).childqueues_size(), 2);
  const y::QueueInfoProto& batch = root.queueinfo().childqueues(1).childqueues(0);
  EXPECT_EQ(batch.queuename(), "batch");
  EXPECT_FLOAT_EQ(batch.capacity(), 0.7f);
  EXPECT_FLOAT_EQ(batch.maximumcapacity(), 0.5f);
  EXPECT_FLOAT_EQ(batch.queueconfigurationsmap(0).queueconfigurations().absolutemaxcapacity(),
                  0.5f);
  // By path; the parent lists the apps below it.
  EXPECT_EQ(info("root.eng.adhoc", false, false, false).queueinfo().queuename(), "adhoc");
  EXPECT_EQ(info("root", true, false, false).queueinfo().applications_size(), 1);
  // Unknown: Hadoop 3 answers without a QueueInfo.
  EXPECT_FALSE(info("nope", false, false, false).has_queueinfo());
}

TEST_F(ClientRmServiceTest, QueueUserAclsFollowTheCaller) {
  auto acls = [&](const std::string& user) {
    y::GetQueueUserAclsInfoRequestProto request;
    y::GetQueueUserAclsInfoResponseProto response;
    EXPECT_TRUE(rm_.Call("getQueueUserAcls", request, &response, user).ok());
    std::map<std::string, std::vector<int>> out;
    for (const auto& q : response.queueuseracls()) {
      out[q.queuename()] = std::vector<int>(q.useracls().begin(), q.useracls().end());
    }
    return out;
  };
  auto alice = acls("alice");
  ASSERT_EQ(alice.size(), 6u);
  EXPECT_THAT(alice["root"], ElementsAre());
  EXPECT_THAT(alice["default"], ElementsAre(y::QACL_SUBMIT_APPLICATIONS));
  EXPECT_THAT(alice["batch"], ElementsAre(y::QACL_SUBMIT_APPLICATIONS));
  EXPECT_THAT(alice["adhoc"], ElementsAre());
  auto carol = acls("carol");
  EXPECT_THAT(carol["adhoc"], ElementsAre(y::QACL_SUBMIT_APPLICATIONS));
  auto root = acls("root");
  EXPECT_THAT(root["ops"], ElementsAre(y::QACL_ADMINISTER_QUEUE));
  auto qadmin = acls("qadmin");
  EXPECT_THAT(qadmin["default"],
              ElementsAre(y::QACL_SUBMIT_APPLICATIONS, y::QACL_ADMINISTER_QUEUE));
}

TEST_F(ClientRmServiceTest, AttemptsAndTheAmContainer) {
  const rm::ApplicationId id = SubmitNew();
  const rm::ApplicationAttemptId attempt{id, 1};
  y::GetApplicationAttemptReportRequestProto request;
  ToProto(attempt, request.mutable_application_attempt_id());
  y::GetApplicationAttemptReportResponseProto response;
  ASSERT_TRUE(rm_.Call("getApplicationAttemptReport", request, &response).ok());
  const auto& before = response.application_attempt_report();
  EXPECT_EQ(before.yarn_application_attempt_state(), y::APP_ATTEMPT_SCHEDULED);
  EXPECT_FALSE(before.has_am_container_id());
  EXPECT_EQ(before.host(), "N/A");
  EXPECT_EQ(before.original_tracking_url(), "N/A");

  Run(id);
  response.Clear();
  ASSERT_TRUE(rm_.Call("getApplicationAttemptReport", request, &response).ok());
  const auto& running = response.application_attempt_report();
  EXPECT_EQ(running.yarn_application_attempt_state(), y::APP_ATTEMPT_RUNNING);
  const rm::ContainerId am{attempt, 1};
  EXPECT_EQ(FromProto(running.am_container_id()), am);
  EXPECT_FALSE(running.am_container_id().has_app_id());
  EXPECT_EQ(running.tracking_url(), "http://rm.example:8088/proxy/" + id.ToString() + "/");
  EXPECT_EQ(running.original_tracking_url(), "http://am-host:9999/ui");
  EXPECT_EQ(running.host(), "am-host");
  EXPECT_TRUE(running.has_starttime());

  y::GetApplicationAttemptsRequestProto list;
  ToProto(id, list.mutable_application_id());
  y::GetApplicationAttemptsResponseProto attempts;
  ASSERT_TRUE(rm_.Call("getApplicationAttempts", list, &attempts).ok());
  EXPECT_EQ(attempts.application_attempts_size(), 1);

  y::GetContainersRequestProto containers_request;
  ToProto(attempt, containers_request.mutable_application_attempt_id());
  y::GetContainersResponseProto containers;
  ASSERT_TRUE(rm_.Call("getContainers", containers_request, &containers).ok());
  ASSERT_EQ(containers.containers_size(), 1);
  const auto& c = containers.containers(0);
  EXPECT_EQ(FromProto(c.container_id()), am);
  EXPECT_EQ(c.resource().memory(), 256);
  EXPECT_EQ(c.node_id().host(), "host1");
  EXPECT_EQ(c.container_state(), y::C_RUNNING);
  EXPECT_EQ(c.node_http_address(), "http://host1:8042");
  EXPECT_EQ(c.log_url(), "http://host1:8042/node/containerlogs/" + am.ToString() + "/alice");

  y::GetContainerReportRequestProto one;
  ToProto(am, one.mutable_container_id());
  y::GetContainerReportResponseProto report;
  ASSERT_TRUE(rm_.Call("getContainerReport", one, &report).ok());
  EXPECT_EQ(FromProto(report.container_report().container_id()), am);
  Finish(id);
  report.Clear();
  ASSERT_TRUE(rm_.Call("getContainerReport", one, &report).ok());
  EXPECT_EQ(report.container_report().container_state(), y::C_COMPLETE);
  EXPECT_EQ(report.container_report().container_exit_status(), 0);

  ToProto(rm::ContainerId{attempt, 7}, one.mutable_container_id());
  EXPECT_EQ(rm_.Call("getContainerReport", one, &report).java_class(),
            rm::yarn::kContainerNotFound);
  ToProto(rm::ContainerId{rm::ApplicationAttemptId{id, 3}, 1}, one.mutable_container_id());
  EXPECT_EQ(rm_.Call("getContainerReport", one, &report).java_class(),
            rm::yarn::kApplicationAttemptNotFound);
  const rm::ApplicationAttemptId second{id, 2};
  ToProto(second, request.mutable_application_attempt_id());
  Status missing = rm_.Call("getApplicationAttemptReport", request, &response);
  EXPECT_EQ(missing.java_class(), rm::yarn::kApplicationAttemptNotFound);
  EXPECT_EQ(missing.message(),
            "ApplicationAttempt with id '" + second.ToString() + "' doesn't exist in RM.");
}

TEST_F(ClientRmServiceTest, LiveContainersComeFromTheRegistry) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  const rm::ApplicationAttemptId attempt{id, 1};
  rm::RmContainer task;
  task.id = rm::ContainerId{attempt, 2};
  task.node = rm::NodeId{"host1", 45454};
  task.placement.resource = pool::Resource::Of(512, 1);
  task.placement.priority = 1;
  task.placement.committed_at = rm_.clock().Now();
  ASSERT_TRUE(rm_.containers().Add(task).ok());

  y::GetContainersRequestProto request;
  ToProto(attempt, request.mutable_application_attempt_id());
  y::GetContainersResponseProto containers;
  ASSERT_TRUE(rm_.Call("getContainers", request, &containers).ok());
  ASSERT_EQ(containers.containers_size(), 2);
  EXPECT_EQ(FromProto(containers.containers(1).container_id()), task.id);
  EXPECT_EQ(containers.containers(1).priority().priority(), 1);
  EXPECT_EQ(containers.containers(1).creation_time(), rm_.clock().WallMillis());

  y::GetContainerReportRequestProto one;
  ToProto(task.id, one.mutable_container_id());
  y::GetContainerReportResponseProto report;
  ASSERT_TRUE(rm_.Call("getContainerReport", one, &report).ok());
  EXPECT_EQ(report.container_report().resource().memory(), 512);
  EXPECT_EQ(report.container_report().container_state(), y::C_RUNNING);

  auto r = Report(id);
  EXPECT_EQ(r->app_resource_usage().num_used_containers(), 2);
  EXPECT_EQ(r->app_resource_usage().used_resources().memory(), 256 + 512);
}

TEST_F(ClientRmServiceTest, MoveCarriesTheAppAndItsUsageToTheTargetQueue) {
  const rm::ApplicationId id = SubmitNew("batch");
  Run(id);  // the AM container (256 MB, 1 vcore) is charged to root.eng.batch
  const pool::QueueId batch = *rm_.pool().FindQueue("batch");
  const pool::QueueId dflt = *rm_.pool().FindQueue("default");
  EXPECT_EQ(rm_.pool().queues().Usage(batch), pool::Resource::Of(256, 1));

  y::MoveApplicationAcrossQueuesRequestProto move;
  ToProto(id, move.mutable_application_id());
  y::MoveApplicationAcrossQueuesResponseProto moved;
  move.set_target_queue("adhoc");  // alice may not submit there
  Status s = rm_.Call("moveApplicationAcrossQueues", move, &moved);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_THAT(s.message(), HasSubstr("AccessControlException: User alice cannot submit "
                                     "applications to target queue or the target queue doesn't "
                                     "exist: adhoc"));
  move.set_target_queue("root.eng.batch");  // where it is
  EXPECT_TRUE(rm_.Call("moveApplicationAcrossQueues", move, &moved).ok());
  move.set_target_queue("default");
  s = rm_.Call("moveApplicationAcrossQueues", move, &moved);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Report(id)->queue(), "default");
  EXPECT_EQ(rm_.pool().queues().Usage(batch), pool::Resource());
  EXPECT_EQ(rm_.pool().queues().Usage(dflt), pool::Resource::Of(256, 1));

  // Its containers now credit the queue that holds them when they end.
  Finish(id);
  EXPECT_EQ(rm_.pool().queues().Usage(dflt), pool::Resource());
  s = rm_.Call("moveApplicationAcrossQueues", move, &moved);
  EXPECT_EQ(s.message(), "App in FINISHED state cannot be moved.");
}

TEST_F(ClientRmServiceTest, PriorityIsCappedAndEchoedOnceTheAppIsDone) {
  const rm::ApplicationId id = SubmitNew("batch");
  y::UpdateApplicationPriorityRequestProto priority;
  ToProto(id, priority.mutable_applicationid());
  priority.mutable_applicationpriority()->set_priority(5);
  y::UpdateApplicationPriorityResponseProto updated;
  ASSERT_TRUE(rm_.Call("updateApplicationPriority", priority, &updated).ok());
  EXPECT_EQ(updated.applicationpriority().priority(), 0);  // capped at the cluster maximum
  priority.mutable_applicationpriority()->set_priority(-3);
  ASSERT_TRUE(rm_.Call("updateApplicationPriority", priority, &updated).ok());
  EXPECT_EQ(updated.applicationpriority().priority(), -3);
  EXPECT_EQ(Report(id)->priority().priority(), -3);

  Run(id);
  Finish(id);
  priority.mutable_applicationpriority()->set_priority(-7);
  updated.Clear();
  ASSERT_TRUE(rm_.Call("updateApplicationPriority", priority, &updated).ok());
  EXPECT_EQ(updated.applicationpriority().priority(), -3);  // a finished app keeps its own
}

TEST_F(ClientRmServiceTest, FailAttemptStartsTheNextAttempt) {
  const rm::ApplicationId id = SubmitNew("batch");
  Run(id);
  y::FailApplicationAttemptRequestProto fail;
  ToProto(rm::ApplicationAttemptId{id, 1}, fail.mutable_application_attempt_id());
  y::FailApplicationAttemptResponseProto failed;
  ASSERT_TRUE(rm_.Call("failApplicationAttempt", fail, &failed).ok());
  auto app = rm_.apps().GetApp(id);
  ASSERT_TRUE(app.ok());
  ASSERT_EQ(app->attempts.size(), 2u);
  EXPECT_EQ(app->attempts[0].state, rm::AttemptState::kFailed);
  EXPECT_EQ(app->attempts[0].diagnostics, "Attempt failed by user.");
  EXPECT_EQ(app->yarn_state(), rm::YarnAppState::kAccepted);
  ASSERT_EQ(rm_.launcher().cleanups.size(), 1u);  // the first AM container is stopped
  // Failing it again, or an attempt that is over, changes nothing.
  ASSERT_TRUE(rm_.Call("failApplicationAttempt", fail, &failed).ok());
  EXPECT_EQ(rm_.apps().GetApp(id)->attempts.size(), 2u);
  ToProto(rm::ApplicationAttemptId{id, 9}, fail.mutable_application_attempt_id());
  EXPECT_EQ(rm_.Call("failApplicationAttempt", fail, &failed).java_class(),
            rm::yarn::kApplicationAttemptNotFound);
  // The last attempt failing fails the app (yarn.resourcemanager.am.max-attempts = 2).
  rm_.LaunchAll();
  ToProto(rm::ApplicationAttemptId{id, 2}, fail.mutable_application_attempt_id());
  ASSERT_TRUE(rm_.Call("failApplicationAttempt", fail, &failed).ok());
  EXPECT_EQ(rm_.apps().GetApp(id)->yarn_state(), rm::YarnAppState::kFailed);
}

TEST_F(ClientRmServiceTest, UsageSecondsAndNodeContainerCounts) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  rm_.clock().Advance(std::chrono::seconds(10));
  auto r = Report(id);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->app_resource_usage().memory_seconds(), 2560);  // 256 MB x 10 s
  EXPECT_EQ(r->app_resource_usage().vcore_seconds(), 10);
  EXPECT_EQ(r->app_resource_usage().application_resource_usage_map(0).value(), 2560);

  y::GetClusterNodesRequestProto all;
  y::GetClusterNodesResponseProto nodes;
  ASSERT_TRUE(rm_.Call("getClusterNodes", all, &nodes).ok());
  ASSERT_EQ(nodes.nodereports_size(), 1);
  EXPECT_EQ(nodes.nodereports(0).numcontainers(), 1);

  Finish(id);
  rm_.clock().Advance(std::chrono::seconds(5));
  r = Report(id);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->app_resource_usage().num_used_containers(), -1);  // Hadoop's dummy report ...
  EXPECT_EQ(r->app_resource_usage().memory_seconds(), 2560);     // ... with the app's totals
  EXPECT_EQ(r->app_resource_usage().vcore_seconds(), 10);
  nodes.Clear();
  ASSERT_TRUE(rm_.Call("getClusterNodes", all, &nodes).ok());
  EXPECT_FALSE(nodes.nodereports(0).has_numcontainers());
}

TEST_F(ClientRmServiceTest, ResourceTypesProfilesLabelsAndUnknownMethods) {
  y::GetAllResourceTypeInfoRequestProto types_request;
  y::GetAllResourceTypeInfoResponseProto types;
  ASSERT_TRUE(rm_.Call("getResourceTypeInfo", types_request, &types).ok());
  ASSERT_EQ(types.resource_type_info_size(), 2);
  EXPECT_EQ(types.resource_type_info(0).name(), "memory-mb");
  EXPECT_EQ(types.resource_type_info(0).units(), "Mi");
  EXPECT_EQ(types.resource_type_info(1).name(), "vcores");
  EXPECT_EQ(types.resource_type_info(1).units(), "");
  EXPECT_EQ(types.resource_type_info(1).type(), y::COUNTABLE);

  // ResourceProfilesManagerImpl with profiles off (Hadoop 3.3).
  y::GetAllResourceProfilesRequestProto profiles_request;
  y::GetAllResourceProfilesResponseProto profiles;
  Status s = rm_.Call("getResourceProfiles", profiles_request, &profiles);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnFeatureNotEnabled);
  EXPECT_THAT(s.message(), HasSubstr("yarn.resourcemanager.resource-profiles.enabled"));
  y::GetResourceProfileRequestProto profile_request;
  profile_request.set_profile("small");
  y::GetResourceProfileResponseProto profile;
  EXPECT_EQ(rm_.Call("getResourceProfile", profile_request, &profile).java_class(),
            rm::yarn::kYarnFeatureNotEnabled);

  y::GetClusterNodeLabelsRequestProto labels_request;
  y::GetClusterNodeLabelsResponseProto labels;
  ASSERT_TRUE(rm_.Call("getClusterNodeLabels", labels_request, &labels).ok());
  EXPECT_EQ(labels.nodelabels_size(), 0);
  EXPECT_EQ(labels.deprecatednodelabels_size(), 0);

  // A method no protocol version has still answers RpcNoSuchMethod.
  y::GetClusterMetricsRequestProto empty;
  y::GetClusterMetricsResponseProto ignored;
  EXPECT_EQ(rm_.Call("getClusterNodeLabelsV2", empty, &ignored).java_class(),
            ipc::java::kRpcNoSuchMethod);
}

// RM delegation tokens over the wire, with the answers a Hadoop client gets.
TEST_F(ClientRmServiceTest, DelegationTokensAreIssuedRenewedAndCancelled) {
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("yarn");
  hadoop::common::GetDelegationTokenResponseProto issued;
  ASSERT_TRUE(rm_.Call("getDelegationToken", get, &issued, "alice").ok());
  ASSERT_TRUE(issued.has_token());
  const hadoop::common::TokenProto& token = issued.token();
  EXPECT_EQ(token.kind(), "RM_DELEGATION_TOKEN");
  EXPECT_TRUE(token.has_service());  // required field, empty as Java's RM sends it
  EXPECT_EQ(token.service(), "");
  EXPECT_EQ(token.password().size(), 20u);
  auto id = rm::DecodeRmDelegationTokenIdentifier(token.identifier());
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(id->owner, "alice");
  EXPECT_EQ(id->renewer, "yarn");
  EXPECT_EQ(id->real_user, "");
  const int64_t now = rm_.clock().WallMillis();
  EXPECT_EQ(id->issue_date_ms, now);
  EXPECT_EQ(id->max_date_ms, now + int64_t{7} * 86'400'000);
  EXPECT_EQ(id->sequence_number, 1);

  // Only the renewer renews: newExpiryTime = now + the renew interval.
  hadoop::common::RenewDelegationTokenRequestProto renew;
  *renew.mutable_token() = token;
  hadoop::common::RenewDelegationTokenResponseProto renewed;
  rm_.clock().Advance(std::chrono::hours(1));
  ASSERT_TRUE(rm_.Call("renewDelegationToken", renew, &renewed, "yarn").ok());
  EXPECT_EQ(renewed.newexpirytime(),
            static_cast<uint64_t>(rm_.clock().WallMillis() + int64_t{86'400'000}));
  Status s = rm_.Call("renewDelegationToken", renew, &renewed, "alice");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.AccessControlException: alice tries to renew a token "
            "with renewer yarn");

  // Cancel: not by others; by the owner; then the token is gone.
  hadoop::common::CancelDelegationTokenRequestProto cancel;
  *cancel.mutable_token() = token;
  hadoop::common::CancelDelegationTokenResponseProto cancelled;
  s = rm_.Call("cancelDelegationToken", cancel, &cancelled, "mallory");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.AccessControlException: mallory is not authorized to "
            "cancel the token");
  ASSERT_TRUE(rm_.Call("cancelDelegationToken", cancel, &cancelled, "alice").ok());
  s = rm_.Call("cancelDelegationToken", cancel, &cancelled, "alice");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken: Token not found");
  s = rm_.Call("renewDelegationToken", renew, &renewed, "yarn");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken: Renewal request for "
            "unknown token");
}

// Hadoop's 8032 accepts the delegation token as TOKEN authentication: the
// connection's user is then the token's owner, whatever the client claims.
TEST_F(ClientRmServiceTest, DelegationTokensAuthenticateConnections) {
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("yarn");
  hadoop::common::GetDelegationTokenResponseProto issued;
  ASSERT_TRUE(rm_.Call("getDelegationToken", get, &issued, "alice").ok());

  hadoop::common::GetDelegationTokenResponseProto second;
  Status s = rm_.CallWithToken("getDelegationToken", get, &second, issued.token(), "mallory");
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto id = rm::DecodeRmDelegationTokenIdentifier(second.token().identifier());
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(id->owner, "alice");
  EXPECT_EQ(id->sequence_number, 2);

  // A wrong password, and a cancelled token, open no connection.
  hadoop::common::TokenProto forged = issued.token();
  forged.mutable_password()->at(0) ^= 1;
  EXPECT_FALSE(rm_.CallWithToken("getDelegationToken", get, &second, forged, "eve").ok());
  hadoop::common::CancelDelegationTokenRequestProto cancel;
  *cancel.mutable_token() = issued.token();
  hadoop::common::CancelDelegationTokenResponseProto cancelled;
  ASSERT_TRUE(rm_.Call("cancelDelegationToken", cancel, &cancelled, "alice").ok());
  s = rm_.CallWithToken("getDelegationToken", get, &second, issued.token(), "mallory2");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("can't be found in cache"), std::string::npos) << s.ToString();
}

// Golden: a Kerberos caller's token is owned by its full principal, as
// Hadoop 3.3's getDelegationToken builds RMDelegationTokenIdentifier from
// UGI.getUserName() (not the short name its calls run as); a proxy user's
// by the effective name with the real user's principal as realUser. The
// owner cancels by that full name.
TEST_F(ClientRmServiceTest, AKerberosCallersTokenIsOwnedByItsFullPrincipal) {
  ClientRmService::Who alice;
  alice.auth_method = ipc::AuthMethod::kKerberos;
  alice.user = "alice";
  alice.kerberos_principal = "alice@EXAMPLE.COM";
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("yarn/rm.example@EXAMPLE.COM");
  hadoop::common::GetDelegationTokenResponseProto issued;
  ASSERT_TRUE(rm_.service().GetDelegationToken(alice, get, &issued).ok());
  // YARNDelegationTokenIdentifierProto: owner (1) "alice@EXAMPLE.COM",
  // renewer (2) its short name "yarn", realUser (3) empty.
  const std::string& identifier = issued.token().identifier();
  const std::string golden = std::string("\x0a\x11") + "alice@EXAMPLE.COM" + "\x12\x04" + "yarn" +
                             std::string("\x1a\x00", 2);
  EXPECT_EQ(identifier.substr(0, golden.size()), golden);
  auto id = rm::DecodeRmDelegationTokenIdentifier(identifier);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(id->owner, "alice@EXAMPLE.COM");
  EXPECT_EQ(id->real_user, "");

  ClientRmService::Who proxy = alice;
  proxy.user = "bob";
  proxy.real_user = "alice";
  hadoop::common::GetDelegationTokenResponseProto for_bob;
  ASSERT_TRUE(rm_.service().GetDelegationToken(proxy, get, &for_bob).ok());
  id = rm::DecodeRmDelegationTokenIdentifier(for_bob.token().identifier());
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(id->owner, "bob");
  EXPECT_EQ(id->real_user, "alice@EXAMPLE.COM");

  // The owner cancels: its full name matches the token's owner.
  hadoop::common::CancelDelegationTokenRequestProto cancel;
  *cancel.mutable_token() = issued.token();
  hadoop::common::CancelDelegationTokenResponseProto cancelled;
  Status s = rm_.service().CancelDelegationToken(alice, cancel, &cancelled);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(ClientRmServiceTest, ExpiredDelegationTokensCannotBeRenewed) {
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("yarn");
  hadoop::common::GetDelegationTokenResponseProto issued;
  ASSERT_TRUE(rm_.Call("getDelegationToken", get, &issued, "bob").ok());
  rm_.clock().Advance(std::chrono::hours(24 * 7) + std::chrono::milliseconds(1));
  hadoop::common::RenewDelegationTokenRequestProto renew;
  *renew.mutable_token() = issued.token();
  hadoop::common::RenewDelegationTokenResponseProto renewed;
  const Status s = rm_.Call("renewDelegationToken", renew, &renewed, "yarn");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken: yarn tried to renew an "
            "expired token");
}

// With yarn.acl.enable: owners, admins, queue admins and the app's ACLs.
HarnessOptions AclOptions() {
  HarnessOptions options = Options();
  options.service.access.acl_enabled = true;
  options.service.access.admin_acl = rm::AccessControlList::Parse("yarnadmin");
  return options;
}

class ClientRmServiceAclTest : public ClientRmServiceTest {
 protected:
  ClientRmServiceAclTest() : ClientRmServiceTest(AclOptions()) {}
};

// Hadoop 3.3 with yarn.acl.enable: RMAppManager refuses at once, naming
// the queue as the client wrote it.
TEST_F(ClientRmServiceAclTest, Hadoop33RefusesAUserWithoutSubmitRightsAtOnce) {
  const rm::ApplicationId id = NewId("bob");
  const Status denied = Submit(Context(id, "batch"), "bob");
  EXPECT_EQ(denied.java_class(), rm::yarn::kAccessControl);
  EXPECT_EQ(denied.message(),
            "User bob does not have permission to submit " + id.ToString() + " to queue batch");
  EXPECT_TRUE(Submit(Context(NewId("carol"), "adhoc"), "carol").ok());
  EXPECT_TRUE(Submit(Context(NewId("root"), "adhoc"), "root").ok());
}

TEST_F(ClientRmServiceAclTest, OthersSeeARedactedReportAndCannotKill) {
  const rm::ApplicationId id = NewId();
  auto context = Context(id);
  auto* view = context.mutable_am_container_spec()->add_application_acls();
  view->set_accesstype(y::APPACCESS_VIEW_APP);
  view->set_acl("dave");
  ASSERT_TRUE(Submit(context).ok());
  Run(id);

  auto bob = Report(id, "bob");
  ASSERT_TRUE(bob.ok());
  EXPECT_EQ(bob->host(), "N/A");
  EXPECT_EQ(bob->rpc_port(), -1);
  EXPECT_EQ(bob->trackingurl(), "N/A");
  EXPECT_EQ(bob->diagnostics(), "N/A");
  EXPECT_EQ(bob->currentapplicationattemptid().attemptid(), -1);
  EXPECT_EQ(bob->app_resource_usage().num_used_containers(), -1);
  EXPECT_EQ(bob->yarn_application_state(), y::RUNNING);   // still shown
  EXPECT_EQ(Report(id, "dave")->host(), "am-host");       // the app's VIEW ACL
  EXPECT_EQ(Report(id, "yarnadmin")->host(), "am-host");  // admin
  EXPECT_EQ(Report(id, "qadmin")->host(), "am-host");     // queue admin

  y::GetApplicationsRequestProto viewable;
  viewable.set_scope(y::VIEWABLE);
  y::GetApplicationsResponseProto list;
  ASSERT_TRUE(rm_.Call("getApplications", viewable, &list, "bob").ok());
  EXPECT_EQ(list.applications_size(), 0);

  y::GetApplicationAttemptsRequestProto attempts;
  ToProto(id, attempts.mutable_application_id());
  y::GetApplicationAttemptsResponseProto attempts_response;
  Status s = rm_.Call("getApplicationAttempts", attempts, &attempts_response, "bob");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_THAT(s.message(), HasSubstr("User bob does not have privilege to see this application"));

  y::KillApplicationRequestProto kill;
  ToProto(id, kill.mutable_application_id());
  y::KillApplicationResponseProto killed;
  s = rm_.Call("forceKillApplication", kill, &killed, "dave");  // VIEW is not MODIFY
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.AccessControlException: User dave cannot "
            "perform operation MODIFY_APP on " +
                id.ToString());
  ASSERT_TRUE(rm_.Call("forceKillApplication", kill, &killed, "qadmin").ok());
  EXPECT_TRUE(killed.is_kill_completed());
}

TEST(ClientRmServiceOptionsTest, FromConfiguration) {
  rm::Configuration conf;
  auto defaults = ClientRmServiceOptions::FromConfiguration(conf);
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->access.acl_enabled);
  EXPECT_TRUE(defaults->access.admin_acl.allows_all());
  EXPECT_FALSE(defaults->reports.log_aggregation_enabled);
  EXPECT_EQ(defaults->submission.max_application_priority, 0);
  EXPECT_THAT(defaults->reports.proxy_address, ::testing::EndsWith(":8088"));
  EXPECT_THAT(defaults->reports.proxy_address, ::testing::Not(HasSubstr("0.0.0.0")));

  conf.Set("yarn.resourcemanager.hostname", "rm1");
  EXPECT_EQ(ClientRmServiceOptions::FromConfiguration(conf)->reports.proxy_address, "rm1:8088");
  conf.Set("yarn.resourcemanager.webapp.address", "rm1:18088");
  EXPECT_EQ(ClientRmServiceOptions::FromConfiguration(conf)->reports.proxy_address, "rm1:18088");
  conf.Set("yarn.web-proxy.address", "proxy:8089");
  conf.Set("yarn.acl.enable", "true");
  conf.Set("yarn.admin.acl", "root admins");
  conf.Set("yarn.cluster.max-application-priority", "10");
  conf.Set("yarn.log-aggregation-enable", "true");
  auto options = ClientRmServiceOptions::FromConfiguration(conf);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->reports.proxy_address, "proxy:8089");
  EXPECT_TRUE(options->access.acl_enabled);
  EXPECT_TRUE(options->access.admin_acl.IsUserAllowed("x", {"admins"}));
  EXPECT_EQ(options->submission.max_application_priority, 10);
  EXPECT_TRUE(options->reports.log_aggregation_enabled);
  conf.Set("yarn.acl.enable", "maybe");
  EXPECT_FALSE(ClientRmServiceOptions::FromConfiguration(conf).ok());
}

}  // namespace

// default may hold 3 applications, 1 per user (minimum-user-limit-percent 50
// x user-limit-factor 0.7 of 3, rounded down).
HarnessOptions LimitedOptions() {
  HarnessOptions options;
  options.capacity_scheduler_xml = CsProperty("root.queues", "default") +
                                   CsProperty("root.default.capacity", "100") +
                                   CsProperty("root.default.maximum-applications", "3") +
                                   CsProperty("root.default.minimum-user-limit-percent", "50") +
                                   CsProperty("root.default.user-limit-factor", "0.7");
  return options;
}

class ClientRmServiceLimitsTest : public ClientRmServiceTest {
 protected:
  ClientRmServiceLimitsTest() : ClientRmServiceTest(LimitedOptions()) {}
};

TEST_F(ClientRmServiceLimitsTest, FullQueuesRejectLikeTheCapacityScheduler) {
  const rm::ApplicationId first = SubmitNew("default", "alice");
  EXPECT_EQ(Report(first)->yarn_application_state(), y::ACCEPTED);
  const rm::ApplicationId second = SubmitNew("default", "alice");
  auto r = Report(second);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->yarn_application_state(), y::FAILED);
  EXPECT_EQ(r->diagnostics(),
            "org.apache.hadoop.security.AccessControlException: Queue root.default already has 1 "
            "applications from user alice cannot accept submission of application: " +
                second.ToString());
  SubmitNew("default", "bob");
  const rm::ApplicationId carol = SubmitNew("default", "carol");
  EXPECT_EQ(Report(carol)->yarn_application_state(), y::ACCEPTED);
  const rm::ApplicationId dave = SubmitNew("default", "dave");
  EXPECT_EQ(Report(dave)->diagnostics(),
            "org.apache.hadoop.security.AccessControlException: Queue root.default already has 3 "
            "applications, cannot accept submission of application: " +
                dave.ToString());
  // A finished application frees its place.
  Run(first);
  Finish(first);
  EXPECT_EQ(Report(SubmitNew("default", "dave"))->yarn_application_state(), y::ACCEPTED);
}

}  // namespace spindle::client_service
