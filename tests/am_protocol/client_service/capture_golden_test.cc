// Golden test against Apache Hadoop 2.6.0: replays the ApplicationClientProtocol
// calls that real clients made (shared/captures/hadoop-2.6.0: the `yarn
// application/node/queue/applicationattempt` CLI, DistributedShell's client,
// and status/kill of unknown apps) against ClientRmService over the wire,
// with the RM driven into the state Apache's RM was in, and checks that each
// answer sets the same fields (by field number, recursively; values may
// differ) and fails with the same exception classes as Apache's did.
//
// Spindle answers as a Hadoop 3 RM, so it also sets fields that 2.6.0 did
// not have; those are listed in kNewerFields (each introduced after 2.6 per
// WIRE.md's tables). Any other difference fails the test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/record_protos.h"
#include "ipc_connection_context.pb.h"
#include "tests/am_protocol/client_service/rm_harness.h"
#include "tests/wire/captures/call_replay.h"
#include "tests/wire/captures/capture_corpus.h"
#include "tests/wire/captures/field_sets.h"

namespace spindle::client_service {
namespace {

namespace y = hadoop::yarn;
namespace pb = google::protobuf;
using captures::CaptureRoot;
using captures::Conversation;
using testing::HarnessOptions;
using testing::RmHarness;

// Fields Spindle sets that Hadoop 2.6.0 had not yet defined.
const captures::NewerFields& NewerFields() {
  static const auto* fields = new captures::NewerFields{
      // log_aggregation_status, unmanaged_application, priority (2.8),
      // appNodeLabelExpression, amNodeLabelExpression (2.8), appTimeouts (2.9),
      // launchTime (3.2), submitTime (3.3).
      {"hadoop.yarn.ApplicationReportProto", {21, 22, 23, 24, 25, 26, 27, 28}},
      // queue/cluster usage percentages, preempted seconds (2.8), usage maps (3.0).
      {"hadoop.yarn.ApplicationResourceUsageReportProto", {8, 9, 10, 11, 12, 13}},
      // startTime, finishTime (2.8).
      {"hadoop.yarn.ApplicationAttemptReportProto", {9, 10}},
      // queueStatistics, preemptionDisabled (2.8), queueConfigurationsMap (2.9),
      // intraQueuePreemptionDisabled (3.1).
      {"hadoop.yarn.QueueInfoProto", {10, 11, 12, 13}},
      // decommissioned/active/lost/unhealthy/rebooted counts (2.8).
      {"hadoop.yarn.YarnClusterMetricsProto", {2, 3, 4, 5, 6}},
  };
  return *fields;
}

using Exchange = captures::CallExchange;
using Replay = captures::CallReplay;

Replay Load(const std::string& scenario, const std::string& file) {
  auto replay = captures::LoadCallReplay(scenario, file);
  EXPECT_TRUE(replay.ok()) << replay.status().ToString();
  return replay.ok() ? std::move(replay).value() : Replay{};
}

// Sends every captured call; `before` may bring the RM into Apache's state
// first. Returns the number of calls compared.
int ReplayCalls(RmHarness& rm, const Replay& replay,
                const std::function<void(const Exchange&)>& before = nullptr) {
  int compared = 0;
  for (const Exchange& exchange : replay.exchanges) {
    SCOPED_TRACE("call " + std::to_string(exchange.call.call_id) + " " + exchange.call.method);
    if (before) before(exchange);
    auto request = captures::NewMessage(exchange.method->input_type());
    EXPECT_TRUE(request->ParseFromString(exchange.call.payload));
    auto response = captures::NewMessage(exchange.method->output_type());
    Status s = rm.Call(exchange.call.method, *request, response.get(), replay.user);
    if (!exchange.apache_ok) {
      EXPECT_FALSE(s.ok());
      EXPECT_EQ(s.java_class(), exchange.apache_exception) << s.ToString();
    } else {
      EXPECT_TRUE(s.ok()) << s.ToString();
      std::vector<std::string> problems;
      captures::CompareFieldSets(*exchange.apache_response, *response, exchange.call.method,
                                 NewerFields(), &problems);
      EXPECT_THAT(problems, ::testing::IsEmpty());
    }
    ++compared;
  }
  return compared;
}

std::string CapturedConf() {
  return (CaptureRoot() / "distributedshell" / "conf" / "capacity-scheduler.xml").string();
}

// The captured cluster: one NodeManager, localhost:45454, 8 GB, 4 vcores.
std::unique_ptr<RmHarness> CapturedRm(int64_t cluster_timestamp) {
  HarnessOptions options;
  options.capacity_scheduler_path = CapturedConf();
  options.cluster_timestamp_ms = cluster_timestamp;
  options.service.reports.proxy_address = "127.0.0.1:8089";
  auto rm = std::make_unique<RmHarness>(std::move(options));
  rm->AddNode("localhost", 45454, pool::Resource::Of(8192, 4));
  return rm;
}

// Moves application 1 forward to `state` as its AM would.
void DriveTo(RmHarness& rm, const rm::ApplicationId& id, y::YarnApplicationStateProto state) {
  auto app = rm.apps().GetApp(id);
  ASSERT_TRUE(app.ok());
  const rm::ApplicationAttemptId attempt{id, 1};
  if (state >= y::RUNNING && app->yarn_state() == rm::YarnAppState::kAccepted) {
    rm.LaunchAll();
    ASSERT_TRUE(rm.apps().RegisterAm(attempt, "vm/127.0.0.1", -1, "").ok());
  }
  if (state == y::FINISHED && rm.apps().GetApp(id)->yarn_state() == rm::YarnAppState::kRunning) {
    ASSERT_TRUE(rm.apps().AmHeartbeat(attempt, 0.5f).ok());
    ASSERT_TRUE(rm.apps().FinishAm(attempt, rm::FinalStatus::kSucceeded, "", "").ok());
    rm.apps().OnContainerFinished(rm.apps().GetApp(id)->current_attempt()->am_container->id, 0, "");
  }
  EXPECT_EQ(ToProto(rm.apps().GetApp(id)->yarn_state()), state);
}

TEST(CaptureGoldenTest, DistributedShellClient) {
  const Replay replay = Load("distributedshell", "02-ds-client-to-rm-8032.jsonl");
  ASSERT_EQ(replay.user, "root");
  ASSERT_EQ(replay.exchanges.size(), 14u);
  auto rm = CapturedRm(1795352696796);
  const rm::ApplicationId app{1795352696796, 1};
  const int compared = ReplayCalls(*rm, replay, [&](const Exchange& exchange) {
    if (exchange.call.method != "getApplicationReport") return;
    const auto& apache =
        static_cast<const y::GetApplicationReportResponseProto&>(*exchange.apache_response);
    DriveTo(*rm, app, apache.application_report().yarn_application_state());
  });
  EXPECT_EQ(compared, 14);
  // The replayed submission is Apache's, byte for byte.
  auto submitted = rm->apps().GetApp(app);
  ASSERT_TRUE(submitted.ok());
  EXPECT_EQ(submitted->submission.name, "DistributedShell");
  EXPECT_EQ(submitted->submission.user, "root");
  EXPECT_EQ(submitted->submission.queue, "default");
  EXPECT_EQ(submitted->submission.am_resource, pool::Resource::Of(256, 1));
  EXPECT_EQ(submitted->yarn_state(), rm::YarnAppState::kFinished);
}

TEST(CaptureGoldenTest, CliCommands) {
  // The CLI ran after one DistributedShell app had finished: submit the
  // captured DS context under this cluster's id and run it to FINISHED.
  const int64_t cluster_timestamp = 1795352768286;
  auto rm = CapturedRm(cluster_timestamp);
  const Replay ds = Load("distributedshell", "02-ds-client-to-rm-8032.jsonl");
  for (const Exchange& exchange : ds.exchanges) {
    if (exchange.call.method != "submitApplication") continue;
    y::SubmitApplicationRequestProto request;
    ASSERT_TRUE(request.ParseFromString(exchange.call.payload));
    request.mutable_application_submission_context()
        ->mutable_application_id()
        ->set_cluster_timestamp(cluster_timestamp);
    y::GetNewApplicationRequestProto new_app;
    y::GetNewApplicationResponseProto new_app_response;
    ASSERT_TRUE(rm->Call("getNewApplication", new_app, &new_app_response, "root").ok());
    y::SubmitApplicationResponseProto response;
    ASSERT_TRUE(rm->Call("submitApplication", request, &response, "root").ok());
  }
  DriveTo(*rm, rm::ApplicationId{cluster_timestamp, 1}, y::FINISHED);

  auto files = captures::ListConversationFiles("cli-application-list");
  ASSERT_TRUE(files.ok());
  int compared = 0;
  for (const std::string& file : *files) {
    if (file.find("-8032.jsonl") == std::string::npos) continue;  // 8033 is the admin protocol
    SCOPED_TRACE(file);
    compared += ReplayCalls(*rm, Load("cli-application-list", file));
  }
  EXPECT_EQ(compared, 7);
}

TEST(CaptureGoldenTest, UnknownApplications) {
  auto rm = CapturedRm(1795352696796);
  for (const char* file :
       {"01-cli-status-unknown-app-to-rm-8032.jsonl", "02-cli-kill-unknown-app-to-rm-8032.jsonl"}) {
    SCOPED_TRACE(file);
    const Replay replay = Load("errors", file);
    ASSERT_FALSE(replay.exchanges.empty());
    EXPECT_FALSE(replay.exchanges[0].apache_ok);
    EXPECT_EQ(replay.exchanges[0].apache_exception,
              "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException");
    ReplayCalls(*rm, replay);
  }
}

}  // namespace
}  // namespace spindle::client_service
