// The ApplicationClientProtocol methods of the Hadoop 3.3 line that Spindle
// answers beyond the 2.x set, checked against Hadoop 3.3's ClientRMService,
// RMAppManager, RMAppImpl and RMAppLifetimeMonitor (rel/release-3.3.0):
// every method of the 3.3 protocol is answered (never RpcNoSuchMethod),
// application lifetimes (submission, updateApplicationTimeouts, the report,
// expiry on a simulated clock), signalToContainer, node labels and
// attributes, reservations.
#include <gmock/gmock.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <set>

#include "am_protocol/client_service/iso8601_time.h"
#include "applicationclient_protocol.pb.h"
#include "rm/yarn_exceptions.h"
#include "tests/am_protocol/client_service/client_rm_service_fixture.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::client_service {
namespace {

namespace pb = google::protobuf;
using ::testing::HasSubstr;

// Every rpc of Hadoop 3.3's ApplicationClientProtocolService
// (hadoop-yarn-api/src/main/proto/applicationclient_protocol.proto,
// rel/release-3.3.0), in its order.
const std::vector<std::string>& Hadoop33Methods() {
  static const auto* methods = new std::vector<std::string>{
      "getNewApplication",
      "getApplicationReport",
      "submitApplication",
      "failApplicationAttempt",
      "forceKillApplication",
      "getClusterMetrics",
      "getApplications",
      "getClusterNodes",
      "getQueueInfo",
      "getQueueUserAcls",
      "getDelegationToken",
      "renewDelegationToken",
      "cancelDelegationToken",
      "moveApplicationAcrossQueues",
      "getApplicationAttemptReport",
      "getApplicationAttempts",
      "getContainerReport",
      "getContainers",
      "getNewReservation",
      "submitReservation",
      "updateReservation",
      "deleteReservation",
      "listReservations",
      "getNodeToLabels",
      "getLabelsToNodes",
      "getClusterNodeLabels",
      "updateApplicationPriority",
      "signalToContainer",
      "updateApplicationTimeouts",
      "getResourceProfiles",
      "getResourceProfile",
      "getResourceTypeInfo",
      "getClusterNodeAttributes",
      "getAttributesToNodes",
      "getNodesToAttributes",
  };
  return *methods;
}

// Sets every required field (recursively) to its default, so that the
// message serializes: the smallest request a client could send.
void FillRequired(pb::Message* message) {
  const pb::Descriptor* d = message->GetDescriptor();
  const pb::Reflection* r = message->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    if (!f->is_required()) continue;
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        FillRequired(r->MutableMessage(message, f));
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        r->SetString(message, f, "x");
        break;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        r->SetEnum(message, f, f->default_value_enum());
        break;
      case pb::FieldDescriptor::CPPTYPE_INT32:
        r->SetInt32(message, f, 0);
        break;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        r->SetInt64(message, f, 0);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        r->SetUInt32(message, f, 0);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        r->SetUInt64(message, f, 0);
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        r->SetBool(message, f, false);
        break;
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        r->SetFloat(message, f, 0);
        break;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        r->SetDouble(message, f, 0);
        break;
    }
  }
}

// Our applicationclient_protocol.proto's service (no generated stubs: read
// from the descriptor pool).
const pb::ServiceDescriptor* OurService() {
  // Keeps the generated file linked in.
  (void)&descriptor_table_applicationclient_5fprotocol_2eproto;
  const pb::ServiceDescriptor* service = pb::DescriptorPool::generated_pool()->FindServiceByName(
      "hadoop.yarn.ApplicationClientProtocolService");
  EXPECT_NE(service, nullptr);
  return service;
}

TEST_F(ClientRmServiceTest, OurDescriptorHasEveryMethodOfHadoop33) {
  const pb::ServiceDescriptor* service = OurService();
  ASSERT_NE(service, nullptr);
  std::set<std::string> ours;
  for (int i = 0; i < service->method_count(); ++i) ours.insert(service->method(i)->name());
  const std::set<std::string> hadoop(Hadoop33Methods().begin(), Hadoop33Methods().end());
  EXPECT_EQ(ours, hadoop);
  EXPECT_EQ(Hadoop33Methods().size(), 35u);
}

TEST_F(ClientRmServiceTest, NoMethodOfHadoop33AnswersRpcNoSuchMethod) {
  const pb::ServiceDescriptor* service = OurService();
  ASSERT_NE(service, nullptr);
  for (const std::string& name : Hadoop33Methods()) {
    SCOPED_TRACE(name);
    const pb::MethodDescriptor* method = service->FindMethodByName(name);
    ASSERT_NE(method, nullptr);
    pb::MessageFactory* factory = pb::MessageFactory::generated_factory();
    std::unique_ptr<pb::Message> request(factory->GetPrototype(method->input_type())->New());
    std::unique_ptr<pb::Message> response(factory->GetPrototype(method->output_type())->New());
    FillRequired(request.get());
    const Status s = rm_.Call(name, *request, response.get());
    EXPECT_NE(s.java_class(), ipc::java::kRpcNoSuchMethod) << s.ToString();
    EXPECT_NE(s.java_class(), ipc::java::kRpcServerException) << s.ToString();
    // Whatever fails, fails with an exception the client does not retry.
    if (!s.ok()) {
      EXPECT_THAT(s.java_class(), HasSubstr("org.apache.hadoop.")) << s.ToString();
    }
  }
}

TEST_F(ClientRmServiceTest, ReservationsAreRefusedAsWithTheReservationSystemOff) {
  // ClientRMService.checkReservationSystem, via RPCUtil.getRemoteException.
  auto expect_refused = [&](const std::string& method, const pb::Message& request,
                            pb::Message* response) {
    SCOPED_TRACE(method);
    const Status s = rm_.Call(method, request, response);
    EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
    EXPECT_EQ(s.message(), "Reservation is not enabled. Please enable & try again");
  };
  y::GetNewReservationResponseProto new_reservation;
  expect_refused("getNewReservation", y::GetNewReservationRequestProto(), &new_reservation);
  y::ReservationSubmissionRequestProto submission;
  submission.set_queue("default");
  y::ReservationSubmissionResponseProto submitted;
  expect_refused("submitReservation", submission, &submitted);
  y::ReservationUpdateResponseProto updated;
  expect_refused("updateReservation", y::ReservationUpdateRequestProto(), &updated);
  y::ReservationDeleteResponseProto deleted;
  expect_refused("deleteReservation", y::ReservationDeleteRequestProto(), &deleted);
  y::ReservationListRequestProto list;
  list.set_queue("default");
  y::ReservationListResponseProto listed;
  expect_refused("listReservations", list, &listed);
}

TEST_F(ClientRmServiceTest, NodeLabelsAndAttributesAreEmptyWithoutAny) {
  // Hadoop 3.3's managers hold only labels and attributes that were added.
  y::GetLabelsToNodesRequestProto labels_to_nodes;
  labels_to_nodes.add_nodelabels("gpu");
  y::GetLabelsToNodesResponseProto by_label;
  ASSERT_TRUE(rm_.Call("getLabelsToNodes", labels_to_nodes, &by_label).ok());
  EXPECT_EQ(by_label.labelstonodes_size(), 0);
  y::GetNodesToLabelsResponseProto by_node;
  ASSERT_TRUE(rm_.Call("getNodeToLabels", y::GetNodesToLabelsRequestProto(), &by_node).ok());
  EXPECT_EQ(by_node.nodetolabels_size(), 0);
  y::GetClusterNodeAttributesResponseProto attributes;
  ASSERT_TRUE(
      rm_.Call("getClusterNodeAttributes", y::GetClusterNodeAttributesRequestProto(), &attributes)
          .ok());
  EXPECT_EQ(attributes.nodeattributes_size(), 0);
  y::GetAttributesToNodesResponseProto attributes_to_nodes;
  ASSERT_TRUE(
      rm_.Call("getAttributesToNodes", y::GetAttributesToNodesRequestProto(), &attributes_to_nodes)
          .ok());
  EXPECT_EQ(attributes_to_nodes.attributestonodes_size(), 0);
  y::GetNodesToAttributesRequestProto hosts;
  hosts.add_hostnames("host1");
  y::GetNodesToAttributesResponseProto nodes_to_attributes;
  ASSERT_TRUE(rm_.Call("getNodesToAttributes", hosts, &nodes_to_attributes).ok());
  EXPECT_EQ(nodes_to_attributes.nodestoattributes_size(), 0);
}

// ---- application lifetime ---------------------------------------------------

class LifetimeTest : public ClientRmServiceTest {
 protected:
  using ClientRmServiceTest::ClientRmServiceTest;

  Status UpdateLifetime(const rm::ApplicationId& id, const std::optional<std::string>& expire,
                        y::UpdateApplicationTimeoutsResponseProto* response,
                        const std::string& user = "alice") {
    y::UpdateApplicationTimeoutsRequestProto request;
    ToProto(id, request.mutable_applicationid());
    auto* timeout = request.add_application_timeouts();
    timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
    if (expire.has_value()) timeout->set_expire_time(*expire);
    return rm_.Call("updateApplicationTimeouts", request, response, user);
  }
  y::ApplicationTimeoutProto Lifetime(const y::ApplicationReportProto& report) {
    if (report.apptimeouts_size() != 1) {
      ADD_FAILURE() << "timeouts: " << report.apptimeouts_size();
      return y::ApplicationTimeoutProto();
    }
    EXPECT_EQ(report.apptimeouts(0).application_timeout_type(), y::APP_TIMEOUT_LIFETIME);
    return report.apptimeouts(0).application_timeout();
  }
  int64_t Now() { return rm_.clock().WallMillis(); }
};

TEST_F(LifetimeTest, WithoutALifetimeTheReportSaysUnlimited) {
  const rm::ApplicationId id = SubmitNew();
  const y::ApplicationTimeoutProto t = Lifetime(*Report(id));
  EXPECT_EQ(t.expire_time(), "UNLIMITED");
  EXPECT_EQ(t.remaining_time(), -1);
}

TEST_F(LifetimeTest, UpdateSetsTheExpiryAndTheMonitorKillsTheApp) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  // `yarn application -updateLifetime 30`: now + 30 s, formatted by the
  // client (Times.formatISO8601, here with an offset).
  const int64_t expiry = Now() + 30000;
  const std::string iso = FormatIso8601(expiry, 2 * 3600);
  y::UpdateApplicationTimeoutsResponseProto response;
  ASSERT_TRUE(UpdateLifetime(id, iso, &response).ok());
  // The request comes back: the client compares it to what it sent.
  ASSERT_EQ(response.application_timeouts_size(), 1);
  EXPECT_EQ(response.application_timeouts(0).application_timeout_type(), y::APP_TIMEOUT_LIFETIME);
  EXPECT_EQ(response.application_timeouts(0).expire_time(), iso);

  const y::ApplicationTimeoutProto t = Lifetime(*Report(id));
  EXPECT_EQ(*ParseIso8601(t.expire_time()), expiry);
  EXPECT_EQ(t.remaining_time(), 30);

  rm_.clock().Advance(std::chrono::milliseconds(12500));
  rm_.apps().Tick();
  EXPECT_EQ(Lifetime(*Report(id)).remaining_time(), 17);  // whole seconds, rounded down
  // At the expiry time the app still runs (expiry needs now > expire time).
  rm_.clock().Advance(std::chrono::milliseconds(17500));
  rm_.apps().Tick();
  EXPECT_EQ(Report(id)->yarn_application_state(), y::RUNNING);
  rm_.clock().Advance(std::chrono::milliseconds(1));
  rm_.apps().Tick();
  rm_.launcher().CompleteAll(Status::OK());
  const y::ApplicationReportProto killed = *Report(id);
  EXPECT_EQ(killed.yarn_application_state(), y::KILLED);
  EXPECT_EQ(killed.final_application_status(), y::APP_KILLED);
  EXPECT_EQ(killed.diagnostics(),
            "Application is killed by ResourceManager as it has exceeded the lifetime period.");
  // A completed app keeps its expiry time, with nothing remaining.
  EXPECT_EQ(*ParseIso8601(Lifetime(killed).expire_time()), expiry);
  EXPECT_EQ(Lifetime(killed).remaining_time(), 0);
}

TEST_F(LifetimeTest, SubmittedLifetimeCountsFromSubmission) {
  const rm::ApplicationId id = NewId();
  y::ApplicationSubmissionContextProto context = Context(id);
  auto* timeout = context.add_application_timeouts();
  timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  timeout->set_timeout(10);
  const int64_t submitted = Now();
  ASSERT_TRUE(Submit(context).ok());
  const y::ApplicationTimeoutProto t = Lifetime(*Report(id));
  EXPECT_EQ(*ParseIso8601(t.expire_time()), submitted + 10000);
  EXPECT_EQ(t.remaining_time(), 10);
  rm_.LaunchAll();
  rm_.clock().Advance(std::chrono::milliseconds(10001));
  rm_.apps().Tick();
  const y::ApplicationReportProto killed = *Report(id);
  EXPECT_EQ(killed.yarn_application_state(), y::KILLED);
  EXPECT_EQ(killed.diagnostics(),
            "Application is killed by ResourceManager as it has exceeded the lifetime period.");
}

TEST_F(LifetimeTest, SubmissionRefusesANonPositiveLifetime) {
  const rm::ApplicationId id = NewId();
  y::ApplicationSubmissionContextProto context = Context(id);
  auto* timeout = context.add_application_timeouts();
  timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  timeout->set_timeout(0);
  const Status s = Submit(context);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(), "Invalid application timeout, value=0 for type=LIFETIME");
}

TEST_F(LifetimeTest, ErrorsAreHadoops) {
  y::UpdateApplicationTimeoutsResponseProto response;
  // Unknown app: ApplicationNotFoundException with verifyUserAccessForRMApp's text.
  rm::ApplicationId unknown{1700000000000, 99};
  Status s = UpdateLifetime(unknown, FormatIso8601(Now() + 1000), &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kApplicationNotFound);
  EXPECT_EQ(s.message(),
            "Application with id 'application_1700000000000_0099' doesn't exist in RM. Please "
            "check that the job submission was successful.");

  const rm::ApplicationId id = SubmitNew();
  Run(id);
  // No timeout at all.
  y::UpdateApplicationTimeoutsRequestProto empty;
  ToProto(id, empty.mutable_applicationid());
  s = rm_.Call("updateApplicationTimeouts", empty, &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "At least one ApplicationTimeoutType should be configured for updating timeouts.");
  // Not ISO8601 (and a missing value, Java's null).
  s = UpdateLifetime(id, "tomorrow", &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "Expire time is not in ISO8601 format. ISO8601 supported format is "
            "yyyy-MM-dd'T'HH:mm:ss.SSSZ. Configured timeout value is tomorrow");
  s = UpdateLifetime(id, std::nullopt, &response);
  EXPECT_THAT(s.message(), HasSubstr("Configured timeout value is null"));
  // In the past.
  const int64_t now = Now();
  s = UpdateLifetime(id, FormatIso8601(now - 1), &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(), "Expire time is less than current time, current-time=" +
                             FormatIso8601(now) + " expire-time=" + FormatIso8601(now - 1));
  // Nothing changed.
  EXPECT_EQ(Lifetime(*Report(id)).expire_time(), "UNLIMITED");

  // A finished app: the request is echoed and nothing changes.
  Finish(id);
  const std::string later = FormatIso8601(now + 60000);
  ASSERT_TRUE(UpdateLifetime(id, later, &response).ok());
  EXPECT_EQ(response.application_timeouts(0).expire_time(), later);
  EXPECT_EQ(Lifetime(*Report(id)).expire_time(), "UNLIMITED");
}

// Per-queue lifetimes (CapacityScheduler 3.3): default 100 s and maximum
// 300 s on "default".
HarnessOptions QueueLifetimeOptions() {
  HarnessOptions options = Options();
  options.capacity_scheduler_xml += CsProperty("root.default.maximum-application-lifetime", "300") +
                                    CsProperty("root.default.default-application-lifetime", "100");
  return options;
}

class QueueLifetimeTest : public LifetimeTest {
 protected:
  QueueLifetimeTest() : LifetimeTest(QueueLifetimeOptions()) {}

  rm::ApplicationId SubmitWithLifetime(int64_t seconds) {
    const rm::ApplicationId id = NewId();
    y::ApplicationSubmissionContextProto context = Context(id);
    if (seconds > 0) {
      auto* timeout = context.add_application_timeouts();
      timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
      timeout->set_timeout(seconds);
    }
    EXPECT_TRUE(Submit(context).ok());
    return id;
  }
};

// RMAppNewlySavingTransition + checkAndGetApplicationLifetime: none asked
// gets the queue's default, too long is cut to the maximum, within it stays.
TEST_F(QueueLifetimeTest, SubmissionGetsTheQueuesDefaultAndMaximum) {
  const int64_t submitted = Now();
  const rm::ApplicationId none = SubmitWithLifetime(0);
  EXPECT_EQ(*ParseIso8601(Lifetime(*Report(none)).expire_time()), submitted + 100 * 1000);
  const rm::ApplicationId too_long = SubmitWithLifetime(1000);
  EXPECT_EQ(*ParseIso8601(Lifetime(*Report(too_long)).expire_time()), submitted + 300 * 1000);
  const rm::ApplicationId within = SubmitWithLifetime(200);
  EXPECT_EQ(*ParseIso8601(Lifetime(*Report(within)).expire_time()), submitted + 200 * 1000);
  EXPECT_EQ(Lifetime(*Report(within)).remaining_time(), 200);
}

// RMAppManager.updateApplicationTimeout: an update past submission + the
// queue's maximum is cut to it, and the answer carries the cut time.
TEST_F(QueueLifetimeTest, UpdateIsCappedAtTheQueuesMaximumFromSubmission) {
  const int64_t submitted = Now();
  const rm::ApplicationId id = SubmitWithLifetime(50);
  Run(id);
  rm_.clock().Advance(std::chrono::seconds(10));
  y::UpdateApplicationTimeoutsResponseProto response;
  ASSERT_TRUE(UpdateLifetime(id, FormatIso8601(Now() + 3600 * 1000), &response).ok());
  const int64_t cap = submitted + 300 * 1000;
  ASSERT_EQ(response.application_timeouts_size(), 1);
  EXPECT_EQ(response.application_timeouts(0).expire_time(), FormatIso8601(cap));
  EXPECT_EQ(*ParseIso8601(Lifetime(*Report(id)).expire_time()), cap);
  EXPECT_EQ(Lifetime(*Report(id)).remaining_time(), 290);
  // Within the maximum: as asked, echoed unchanged.
  const std::string within = FormatIso8601(Now() + 60 * 1000, 0);
  ASSERT_TRUE(UpdateLifetime(id, within, &response).ok());
  EXPECT_EQ(response.application_timeouts(0).expire_time(), within);
  EXPECT_EQ(Lifetime(*Report(id)).remaining_time(), 60);
}

HarnessOptions AclOptions() {
  HarnessOptions options = Options();
  options.service.access.acl_enabled = true;
  options.service.access.admin_acl = rm::AccessControlList::Parse("root");
  return options;
}

TEST(LifetimeAccessTest, OnlyThoseWhoMayModifyTheAppMayChangeItsLifetime) {
  RmHarness rm(AclOptions());
  rm.AddNode("host1", 45454, pool::Resource::Of(8192, 8));
  y::GetNewApplicationResponseProto id_response;
  ASSERT_TRUE(rm.Call("getNewApplication", y::GetNewApplicationRequestProto(), &id_response).ok());
  y::SubmitApplicationRequestProto submit;
  auto* context = submit.mutable_application_submission_context();
  *context->mutable_application_id() = id_response.application_id();
  context->set_queue("default");
  auto* am = context->add_am_container_resource_request();
  am->set_resource_name("*");
  am->mutable_capability()->set_memory(200);
  am->mutable_capability()->set_virtual_cores(1);
  y::SubmitApplicationResponseProto submitted;
  ASSERT_TRUE(rm.Call("submitApplication", submit, &submitted, "alice").ok());

  y::UpdateApplicationTimeoutsRequestProto request;
  *request.mutable_applicationid() = id_response.application_id();
  auto* timeout = request.add_application_timeouts();
  timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  timeout->set_expire_time(FormatIso8601(rm.clock().WallMillis() + 60000));
  y::UpdateApplicationTimeoutsResponseProto response;
  const Status s = rm.Call("updateApplicationTimeouts", request, &response, "mallory");
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.AccessControlException: User mallory cannot perform "
            "operation MODIFY_APP on " +
                FromProto(id_response.application_id()).ToString());
}

// ---- signalToContainer ------------------------------------------------------

TEST_F(ClientRmServiceTest, SignalsWaitForTheContainersNode) {
  const rm::ApplicationId id = SubmitNew();
  Run(id);
  const auto app = rm_.apps().GetApp(id);
  const rm::ContainerId am = app->current_attempt()->am_container->id;
  y::SignalContainerRequestProto request;
  ToProto(am, request.mutable_container_id());
  request.set_command(y::GRACEFUL_SHUTDOWN);
  y::SignalContainerResponseProto response;
  ASSERT_TRUE(rm_.Call("signalToContainer", request, &response).ok());
  request.set_command(y::OUTPUT_THREAD_DUMP);
  ASSERT_TRUE(rm_.Call("signalToContainer", request, &response).ok());
  const rm::NodeId node{"host1", 45454};
  const std::vector<rm::ContainerSignal> signals = rm_.apps().container_signals().Take(node);
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].container, am);
  EXPECT_EQ(signals[0].command, rm::SignalCommand::kGracefulShutdown);
  EXPECT_EQ(signals[1].command, rm::SignalCommand::kOutputThreadDump);
  // Handed out once.
  EXPECT_TRUE(rm_.apps().container_signals().Take(node).empty());

  // A container the scheduler does not hold, of a known app or not.
  const rm::ContainerId absent{am.attempt, 77};
  ToProto(absent, request.mutable_container_id());
  Status s = rm_.Call("signalToContainer", request, &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(), "Trying to signal an absent container " + absent.ToString());
  const rm::ContainerId unknown_app{{{1700000000000, 42}, 1}, 1};
  ToProto(unknown_app, request.mutable_container_id());
  s = rm_.Call("signalToContainer", request, &response);
  EXPECT_EQ(s.message(), "Trying to signal an absent container " + unknown_app.ToString());
}

}  // namespace
}  // namespace spindle::client_service
