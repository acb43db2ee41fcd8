#include "rm/recovery/app_records.h"

#include <gtest/gtest.h>

#include "persist/state_store.h"
#include "rm/recovery/rm_state.h"
#include "rm/security/credentials.h"
#include "yarn_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {
namespace {

RmApp SampleApp() {
  RmApp app;
  Submission& s = app.submission;
  s.id = ApplicationId{1700000000000, 42};
  s.user = "alice";
  s.name = "word count";
  s.queue = "root.a.b";
  s.queue_limits = {"root.a.b", 10, 3};
  s.type = "MAPREDUCE";
  s.tags = {"x", "y"};
  s.priority = 5;
  s.max_attempts = 4;
  s.keep_containers_across_attempts = true;
  s.am_resource = pool::Resource::Of(2048, 2);
  s.context_bytes = std::string("\x0a\x02\x08\x01\x00binary", 11);
  app.max_attempts = 3;
  app.diagnostics = "some words";
  app.submit_time_ms = 1700000000100;
  app.start_time_ms = 1700000000200;
  return app;
}

RmAttempt SampleAttempt() {
  RmAttempt attempt;
  attempt.id = ApplicationAttemptId{ApplicationId{1700000000000, 42}, 2};
  AmContainer am;
  am.id = ContainerId{attempt.id, (int64_t{3} << 40) + 1};
  am.node = NodeId{"host7", 45454};
  am.node_http_address = "host7:8042";
  am.placement.resource = pool::Resource::Of(2048, 2);
  attempt.am_container = am;
  attempt.tracking_url = "http://am:8088/";
  attempt.diagnostics = "ok";
  attempt.start_time_ms = 1700000000300;
  return attempt;
}

TEST(AppRecordsTest, UnfinishedAppRoundTripsWithoutAState) {
  RmApp app = SampleApp();
  app.state = AppState::kRunning;  // live state is not stored
  auto back = DecodeAppRecord(EncodeAppRecord(app));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->state, AppState::kNew);
  const Submission& s = back->submission;
  EXPECT_EQ(s.id, app.submission.id);
  EXPECT_EQ(s.user, "alice");
  EXPECT_EQ(s.name, "word count");
  EXPECT_EQ(s.queue, "root.a.b");
  EXPECT_EQ(s.queue_limits.path, "root.a.b");
  EXPECT_EQ(s.queue_limits.max_apps, 10);
  EXPECT_EQ(s.queue_limits.max_apps_per_user, 3);
  EXPECT_EQ(s.type, "MAPREDUCE");
  EXPECT_EQ(s.tags, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(s.priority, 5);
  EXPECT_EQ(s.max_attempts, 3);
  EXPECT_TRUE(s.keep_containers_across_attempts);
  EXPECT_FALSE(s.unmanaged_am);
  EXPECT_EQ(s.am_resource, pool::Resource::Of(2048, 2));
  EXPECT_EQ(s.context_bytes, app.submission.context_bytes);
  EXPECT_EQ(back->max_attempts, 3);
  EXPECT_EQ(back->diagnostics, "some words");
  EXPECT_EQ(back->submit_time_ms, 1700000000100);
  EXPECT_EQ(back->start_time_ms, 1700000000200);
  EXPECT_EQ(back->finish_time_ms, 0);
}

TEST(AppRecordsTest, FinalStatesAreStoredAsHadoopStoresThem) {
  struct Case {
    AppState state;
    AppState after_saving;
    AppState expected;
    hadoop::yarn::RMAppStateProto stored;
  };
  const Case cases[] = {
      {AppState::kFinished, AppState::kNew, AppState::kFinished, hadoop::yarn::RMAPP_FINISHED},
      {AppState::kFailed, AppState::kNew, AppState::kFailed, hadoop::yarn::RMAPP_FAILED},
      {AppState::kKilled, AppState::kNew, AppState::kKilled, hadoop::yarn::RMAPP_KILLED},
      // Saving: the state being saved. FINISHING is FINISHED to the store.
      {AppState::kFinalSaving, AppState::kFinishing, AppState::kFinished,
       hadoop::yarn::RMAPP_FINISHED},
      {AppState::kFinalSaving, AppState::kKilled, AppState::kKilled, hadoop::yarn::RMAPP_KILLED},
  };
  for (const Case& c : cases) {
    RmApp app = SampleApp();
    app.state = c.state;
    app.after_saving = c.after_saving;
    app.finish_time_ms = 1700000009999;
    app.final_status = FinalStatus::kSucceeded;
    const std::string bytes = EncodeAppRecord(app);
    hadoop::yarn::ApplicationStateDataProto proto;
    ASSERT_TRUE(proto.ParseFromString(bytes));
    EXPECT_EQ(proto.application_state(), c.stored);
    EXPECT_EQ(proto.finish_time(), 1700000009999);
    auto back = DecodeAppRecord(bytes);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->state, c.expected);
    EXPECT_EQ(back->final_status, FinalStatus::kSucceeded);
    EXPECT_EQ(back->finish_time_ms, 1700000009999);
  }
}

TEST(AppRecordsTest, HadoopFieldNumbersCarryTheHadoopFields) {
  RmApp app = SampleApp();
  hadoop::yarn::ApplicationStateDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(EncodeAppRecord(app)));
  // Field 2 holds the submission context as the client sent it: a Hadoop
  // reader sees an ApplicationSubmissionContextProto there.
  const auto* field = proto.GetDescriptor()->FindFieldByName("application_submission_context");
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->number(), 2);
  EXPECT_EQ(proto.application_submission_context(), app.submission.context_bytes);
  EXPECT_EQ(proto.GetDescriptor()->FindFieldByName("user")->number(), 3);
  EXPECT_EQ(proto.GetDescriptor()->FindFieldByName("diagnostics")->number(), 6);
  EXPECT_EQ(proto.GetDescriptor()->FindFieldByName("finish_time")->number(), 7);
  EXPECT_EQ(proto.user(), "alice");
  EXPECT_EQ(proto.submit_time(), 1700000000100);
  EXPECT_FALSE(proto.has_application_state());
}

TEST(AppRecordsTest, AttemptRoundTripsWithItsAmContainer) {
  RmAttempt attempt = SampleAttempt();
  attempt.state = AttemptState::kRunning;
  auto back = DecodeAttemptRecord(EncodeAttemptRecord(attempt));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->id, attempt.id);
  EXPECT_EQ(back->state, AttemptState::kNew);
  ASSERT_TRUE(back->am_container.has_value());
  EXPECT_EQ(back->am_container->id, attempt.am_container->id);
  EXPECT_EQ(back->am_container->id.epoch(), 3);
  EXPECT_EQ(back->am_container->node, (NodeId{"host7", 45454}));
  EXPECT_EQ(back->am_container->node_http_address, "host7:8042");
  EXPECT_EQ(back->am_container->placement.resource, pool::Resource::Of(2048, 2));
  EXPECT_EQ(back->am_container->placement.allocation_request_id, kAmAllocationRequestId);
  EXPECT_EQ(back->tracking_url, "http://am:8088/");
  EXPECT_EQ(back->start_time_ms, 1700000000300);
  EXPECT_FALSE(back->am_exit_status.has_value());
}

TEST(AppRecordsTest, AttemptFinalStatesRoundTrip) {
  const std::pair<AttemptState, AttemptState> cases[] = {
      {AttemptState::kFinished, AttemptState::kFinished},
      {AttemptState::kFinishing, AttemptState::kFinished},
      {AttemptState::kFailed, AttemptState::kFailed},
      {AttemptState::kKilled, AttemptState::kKilled},
  };
  for (const auto& [state, expected] : cases) {
    RmAttempt attempt = SampleAttempt();
    attempt.state = AttemptState::kFinalSaving;
    attempt.after_saving = state;
    attempt.final_status = FinalStatus::kFailed;
    attempt.am_exit_status = 137;
    attempt.finish_time_ms = 1700000001234;
    auto back = DecodeAttemptRecord(EncodeAttemptRecord(attempt));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->state, expected);
    EXPECT_EQ(back->final_status, FinalStatus::kFailed);
    EXPECT_EQ(back->am_exit_status, 137);
    EXPECT_EQ(back->finish_time_ms, 1700000001234);
  }
}

// The ClientToAMToken master key is where Hadoop's RMStateStore keeps it:
// the secret key YARN_CLIENT_TOKEN_MASTER_KEY of the record's credentials
// (token storage, WRITABLE), so a Java RM recovering our record registers
// the same key, and we recover a Java RM's. Without a key the credentials
// are empty, as a Java RM with security off writes them.
TEST(AppRecordsTest, TheClientToAmKeyIsASecretOfTheAttemptsCredentials) {
  RmAttempt attempt = SampleAttempt();
  attempt.client_token_master_key = std::string("\x01\x00\xfe\x7fkey!", 8);
  hadoop::yarn::ApplicationAttemptStateDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(EncodeAttemptRecord(attempt)));
  ASSERT_TRUE(proto.has_app_attempt_tokens());
  Result<Credentials> credentials = Credentials::Parse(proto.app_attempt_tokens());
  ASSERT_TRUE(credentials.ok()) << credentials.status().ToString();
  EXPECT_TRUE(credentials->tokens().empty());
  ASSERT_EQ(credentials->secrets().size(), 1u);
  EXPECT_EQ(credentials->secrets()[0].alias, "YARN_CLIENT_TOKEN_MASTER_KEY");
  EXPECT_EQ(credentials->secrets()[0].secret, attempt.client_token_master_key);
  EXPECT_EQ(credentials->source_format(), CredentialsFormat::kWritable);

  auto back = DecodeAttemptRecord(proto.SerializeAsString());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->client_token_master_key, attempt.client_token_master_key);

  // A 3.x token storage in the PROTOBUF format is read too.
  proto.set_app_attempt_tokens(credentials->Serialize(CredentialsFormat::kProtobuf));
  back = DecodeAttemptRecord(proto.SerializeAsString());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->client_token_master_key, attempt.client_token_master_key);

  attempt.client_token_master_key.clear();
  ASSERT_TRUE(proto.ParseFromString(EncodeAttemptRecord(attempt)));
  EXPECT_EQ(proto.app_attempt_tokens(), Credentials().Serialize());
  EXPECT_EQ(DecodeAttemptRecord(proto.SerializeAsString())->client_token_master_key, "");

  // Credentials that do not parse: the attempt has no key, the record is
  // read (ApplicationAttemptStateDataPBImpl logs and reads none).
  proto.set_app_attempt_tokens(std::string("HDTS\x00\x05", 6));
  back = DecodeAttemptRecord(proto.SerializeAsString());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->client_token_master_key, "");
  EXPECT_EQ(back->id, attempt.id);
}

TEST(AppRecordsTest, GarbageIsCorruption) {
  EXPECT_EQ(DecodeAppRecord("\xff\xff\xff").status().code(), Status::Code::kCorruption);
  EXPECT_EQ(DecodeAppRecord("").status().code(), Status::Code::kCorruption);  // no id
  EXPECT_EQ(DecodeAttemptRecord("\x0a\xff").status().code(), Status::Code::kCorruption);
  EXPECT_EQ(DecodeKeyState("").status().code(), Status::Code::kCorruption);
}

TEST(RmStateTest, KeyStatesRoundTrip) {
  KeyState keys{{17, "12345678"}, MasterKey{18, "abcdefgh"}};
  auto back = DecodeKeyState(EncodeKeyState(keys));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, keys);
  keys.next.reset();
  EXPECT_EQ(*DecodeKeyState(EncodeKeyState(keys)), keys);
}

TEST(RmStateTest, DecodesEverythingAStoreHolds) {
  persist::LoadedState loaded;
  RmApp app = SampleApp();
  loaded.applications[app.submission.id.ToString()] = EncodeAppRecord(app);
  RmAttempt second = SampleAttempt();
  RmAttempt first = SampleAttempt();
  first.id.attempt = 1;
  first.state = AttemptState::kFailed;
  auto& attempts = loaded.attempts[app.submission.id.ToString()];
  attempts[second.id.ToString()] = EncodeAttemptRecord(second);
  attempts[first.id.ToString()] = EncodeAttemptRecord(first);
  loaded.cluster[persist::ClusterField::kClusterTimestamp] = 1700000000000;
  loaded.cluster[persist::ClusterField::kEpoch] = 4;
  loaded.cluster[persist::ClusterField::kAppIdCounter] = 2000;
  persist::StoreBatch batch;
  PutKeyState(KeyFamily::kAmrmTokens, KeyState{{1, "k1k1k1k1"}, std::nullopt}, &batch);
  loaded.master_keys[{batch.ops()[0].id, 0}] = batch.ops()[0].value;
  loaded.nodes["host7:45454"] = "host7:45454";

  auto state = DecodeRmState(loaded);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->cluster_timestamp, 1700000000000);
  EXPECT_EQ(state->epoch, 4);
  EXPECT_EQ(state->last_app_id, 2000);
  ASSERT_EQ(state->apps.size(), 1u);
  ASSERT_EQ(state->apps[0].attempts.size(), 2u);
  EXPECT_EQ(state->apps[0].attempts[0].id.attempt, 1);
  EXPECT_EQ(state->apps[0].attempts[1].id.attempt, 2);
  EXPECT_EQ(state->keys.at(KeyFamily::kAmrmTokens).current.key_id, 1);
  EXPECT_EQ(state->nodes, std::set<std::string>{"host7:45454"});
}

TEST(RmStateTest, ABadRecordRefusesTheWholeState) {
  persist::LoadedState loaded;
  loaded.applications["application_1_0001"] = "\xff\xff";
  auto state = DecodeRmState(loaded);
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().code(), Status::Code::kCorruption);
  EXPECT_NE(state.status().message().find("application_1_0001"), std::string::npos);

  // A record filed under another app's id.
  persist::LoadedState misfiled;
  misfiled.applications["application_1_0002"] = EncodeAppRecord(SampleApp());
  EXPECT_FALSE(DecodeRmState(misfiled).ok());
}

// The lifetime's expiry time is Hadoop's field 9 (application_timeouts:
// LIFETIME -> the absolute expiry in epoch ms).
TEST(AppRecordsTest, TheLifetimeIsKeptInHadoopsField) {
  RmApp app = SampleApp();
  EXPECT_FALSE(DecodeAppRecord(EncodeAppRecord(app))->lifetime_expiry_ms.has_value());
  app.lifetime_expiry_ms = 1700000060000;
  const std::string bytes = EncodeAppRecord(app);
  EXPECT_EQ(DecodeAppRecord(bytes)->lifetime_expiry_ms, 1700000060000);
  hadoop::yarn::ApplicationStateDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  ASSERT_EQ(proto.application_timeouts_size(), 1);
  EXPECT_EQ(proto.application_timeouts(0).application_timeout_type(),
            hadoop::yarn::APP_TIMEOUT_LIFETIME);
  EXPECT_EQ(proto.application_timeouts(0).timeout(), 1700000060000);
}

// The AM request's expression is not a field of the record: like Hadoop
// (RMAppManager.recoverApplication -> validateAndCreateResourceRequest) it
// is read again from the stored submission context.
TEST(AppRecordsTest, LabelExpressionsComeBackFromTheStoredContext) {
  hadoop::yarn::ApplicationSubmissionContextProto context;
  context.set_node_label_expression("x");
  RmApp app = SampleApp();
  app.submission.context_bytes = context.SerializeAsString();
  RmApp back = DecodeAppRecord(EncodeAppRecord(app)).value();
  EXPECT_EQ(back.submission.app_label_expression, "x");
  EXPECT_EQ(back.submission.am_label_expression, "x");

  // The AM's own ANY request names another: that one is the AM's.
  hadoop::yarn::ResourceRequestProto* any = context.add_am_container_resource_request();
  any->set_resource_name("*");
  any->set_node_label_expression("y");
  app.submission.context_bytes = context.SerializeAsString();
  back = DecodeAppRecord(EncodeAppRecord(app)).value();
  EXPECT_EQ(back.submission.app_label_expression, "x");
  EXPECT_EQ(back.submission.am_label_expression, "y");

  // None anywhere: none (the queue's default applies at recovery).
  app.submission.context_bytes =
      hadoop::yarn::ApplicationSubmissionContextProto().SerializeAsString();
  back = DecodeAppRecord(EncodeAppRecord(app)).value();
  EXPECT_FALSE(back.submission.app_label_expression.has_value());
  EXPECT_FALSE(back.submission.am_label_expression.has_value());
}

}  // namespace
}  // namespace spindle::rm
