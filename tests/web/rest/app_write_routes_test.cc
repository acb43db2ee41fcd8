// The write endpoints against a real RM core behind a real ClientRmService
// (the client service tests' harness), called as HttpRequests.
#include "web/rest/app_write_routes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/web/rest/write_routes_fixture.h"

namespace spindle::web::rest {
namespace {

using ::testing::HasSubstr;

TEST_F(AppWriteRoutesTest, NewApplicationHandsOutAnIdAndTheMaximumUnwrapped) {
  HttpResponse response = Call(HttpMethod::kPost, "/ws/v1/cluster/apps/new-application");
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(response.body, R"({"application-id":"application_1700000000000_0001",)"
                           R"("maximum-resource-capability":{"memory":8192,"vCores":4}})");
  HttpRequest xml;
  xml.method = HttpMethod::kPost;
  xml.path = "/ws/v1/cluster/apps/new-application";
  xml.headers = {{"Accept", "application/xml"}};
  response = router_.Dispatch(xml);
  EXPECT_THAT(response.body, HasSubstr("<NewApplication><application-id>application_1700000000000_"
                                       "0002</application-id><maximum-resource-capability>"));
}

TEST_F(AppWriteRoutesTest, SubmissionIsAcceptedWithItsLocationAndRunsAsTheCaller) {
  const std::string id = NewApplication();
  HttpResponse response = Submit(id, "alice");
  ASSERT_EQ(response.status, 202) << response.body;
  EXPECT_EQ(response.body, "");
  ASSERT_EQ(response.headers.size(), 1u);
  EXPECT_EQ(response.headers[0].first, "Location");
  EXPECT_EQ(response.headers[0].second, "http://rm.example:8088/ws/v1/cluster/apps/" + id);
  const rm::RmApp app = App(id);
  EXPECT_EQ(app.submission.user, "alice");
  EXPECT_EQ(app.submission.name, "rest");
  // Submitting the same id again is YarnClient's retry: accepted.
  EXPECT_EQ(Submit(id, "alice").status, 202);
}

TEST_F(AppWriteRoutesTest, StaticUserIsTheCallerWithoutUserName) {
  const std::string id = NewApplication();
  ASSERT_EQ(Submit(id, "").status, 202);
  EXPECT_EQ(App(id).submission.user, "dr.who");
}

TEST_F(AppWriteRoutesTest, RefusalsAreBadRequestsWithTheRmsMessage) {
  const std::string id = NewApplication();
  HttpResponse stopped = Submit(id, "alice", "ops");
  EXPECT_EQ(stopped.status, 400) << stopped.body;
  EXPECT_THAT(stopped.body, HasSubstr(R"("exception":"BadRequestException")"));
  EXPECT_THAT(stopped.body, HasSubstr("ops"));
  HttpResponse bad = Call(HttpMethod::kPost, "/ws/v1/cluster/apps", R"({"application-id":"x"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("Could not parse application id x"));
  HttpResponse not_json = Call(HttpMethod::kPost, "/ws/v1/cluster/apps", "{\"a\":");
  EXPECT_EQ(not_json.status, 400);
  EXPECT_THAT(not_json.body, HasSubstr("cannot read the request body"));
  HttpResponse form = Call(HttpMethod::kPost, "/ws/v1/cluster/apps", "a=b", "alice",
                           "application/x-www-form-urlencoded");
  EXPECT_EQ(form.status, 415);
  EXPECT_THAT(form.body, HasSubstr("WebApplicationException"));
}

TEST_F(AppWriteRoutesTest, XmlSubmissionWorksToo) {
  const std::string id = NewApplication();
  HttpResponse response =
      Call(HttpMethod::kPost, "/ws/v1/cluster/apps",
           "<application-submission-context><application-id>" + id +
               "</application-id><application-name>xml</application-name><am-container-spec>"
               "<commands><command>sleep 1</command></commands></am-container-spec>"
               "<resource><memory>256</memory><vCores>1</vCores></resource>"
               "</application-submission-context>",
           "bob", "application/xml; charset=utf-8");
  ASSERT_EQ(response.status, 202) << response.body;
  EXPECT_EQ(App(id).submission.name, "xml");
}

TEST_F(AppWriteRoutesTest, KillIsAcceptedThenDoneAndCheckedAgainstTheModifyAcl) {
  const std::string id = NewApplication();
  ASSERT_EQ(Submit(id, "alice").status, 202);
  const std::string state_path = "/ws/v1/cluster/apps/" + id + "/state";
  // Another user may not kill it (yarn.acl.enable, no application ACL).
  HttpResponse denied = Call(HttpMethod::kPut, state_path, R"({"state":"KILLED"})", "mallory");
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.body, "Unauthorized attempt to kill appid " + id + " by remote user mallory");
  // Only KILLED is a target.
  HttpResponse running = Call(HttpMethod::kPut, state_path, R"({"state":"RUNNING"})", "alice");
  EXPECT_EQ(running.status, 400);
  EXPECT_THAT(running.body, HasSubstr("Only 'KILLED' is allowed as a target state."));
  // The current state as the target: 200 with the state, nothing done.
  const std::string now(rm::Name(App(id).state));
  HttpResponse same = Call(HttpMethod::kPut, state_path, R"({"state":")" + now + R"("})", "alice");
  EXPECT_EQ(same.status, 200);
  EXPECT_EQ(same.body, R"({"state":")" + now + R"("})");
  // The owner kills it; the XML form of the body works.
  HttpResponse killed = Call(HttpMethod::kPut, state_path,
                             "<appstate><state>KILLED</state><diagnostics>by test</diagnostics>"
                             "</appstate>",
                             "alice", "application/xml");
  ASSERT_TRUE(killed.status == 200 || killed.status == 202) << killed.status << killed.body;
  if (killed.status == 202) {
    ASSERT_EQ(killed.headers.size(), 1u);
    EXPECT_EQ(killed.headers[0].second, "http://rm.example:8088" + state_path);
  }
  for (int i = 0; i < 100 && !rm::IsFinal(App(id).state); ++i) rm_.Step();
  EXPECT_EQ(App(id).state, rm::AppState::kKilled);
  EXPECT_THAT(App(id).diagnostics, HasSubstr("by test"));
  HttpResponse again = Call(HttpMethod::kPut, state_path, R"({"state":"KILLED"})", "alice");
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, R"({"state":"KILLED"})");
}

TEST_F(AppWriteRoutesTest, UnknownAndMalformedAppsOnKill) {
  HttpResponse unknown = Call(HttpMethod::kPut, "/ws/v1/cluster/apps/application_1_9999/state",
                              R"({"state":"KILLED"})");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr("app with id: application_1_9999 not found"));
  HttpResponse malformed =
      Call(HttpMethod::kPut, "/ws/v1/cluster/apps/bogus/state", R"({"state":"KILLED"})");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_THAT(malformed.body, HasSubstr("Invalid ApplicationId: bogus"));
}

// RMWebServices.signalToContainer (Hadoop 3.3), through the client service.
TEST_F(AppWriteRoutesTest, SignalToContainer) {
  const std::string id = NewApplication();
  ASSERT_EQ(Submit(id).status, 202);
  rm_.LaunchAll();
  const auto app = rm_.apps().GetApp(*rm::ApplicationId::Parse(id));
  ASSERT_TRUE(app.ok());
  const rm::ContainerId am = app->current_attempt()->am_container->id;
  const std::string base = "/ws/v1/cluster/containers/" + am.ToString() + "/signal/";
  HttpResponse ok = Call(HttpMethod::kPost, base + "graceful_shutdown", "", "alice");
  EXPECT_EQ(ok.status, 200) << ok.body;
  const auto signals = rm_.apps().container_signals().Take(rm::NodeId{"host1", 45454});
  ASSERT_EQ(signals.size(), 1u);
  EXPECT_EQ(signals[0].command, rm::SignalCommand::kGracefulShutdown);

  HttpResponse bad = Call(HttpMethod::kPost, base + "stop", "", "alice");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body,
            "Invalid command: STOP, valid commands are: [OUTPUT_THREAD_DUMP, GRACEFUL_SHUTDOWN, "
            "FORCEFUL_SHUTDOWN]");
  const rm::ContainerId absent{am.attempt, 42};
  HttpResponse gone = Call(
      HttpMethod::kPost,
      "/ws/v1/cluster/containers/" + absent.ToString() + "/signal/FORCEFUL_SHUTDOWN", "", "alice");
  EXPECT_EQ(gone.status, 500);
  EXPECT_EQ(gone.body, "Trying to signal an absent container " + absent.ToString());
}

}  // namespace
}  // namespace spindle::web::rest
