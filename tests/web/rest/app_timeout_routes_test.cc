// The timeout endpoints (RMWebServices 3.3: getAppTimeouts, getAppTimeout,
// updateApplicationTimeout) against a real RM core. The expected documents
// and statuses are those the Java RM 3.3.6 answered to the same requests
// (captured locally with curl); times differ, so expiries are computed here.
#include "web/rest/app_timeout_routes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "am_protocol/client_service/iso8601_time.h"
#include "tests/web/rest/write_routes_fixture.h"

namespace spindle::web::rest {
namespace {

using ::testing::HasSubstr;

class AppTimeoutRoutesTest : public AppWriteRoutesTest {
 protected:
  // A submitted app of alice's, past NEW (updates need SUBMITTED, ACCEPTED
  // or RUNNING).
  std::string AcceptedApp() {
    const std::string id = NewApplication();
    EXPECT_EQ(Submit(id, "alice").status, 202);
    for (int i = 0; i < 50 && App(id).state != rm::AppState::kAccepted; ++i) rm_.Step();
    EXPECT_EQ(App(id).state, rm::AppState::kAccepted);
    return id;
  }

  HttpResponse Put(const std::string& id, const std::string& body, const std::string& user,
                   const std::string& type = "application/json") {
    return Call(HttpMethod::kPut, "/ws/v1/cluster/apps/" + id + "/timeout", body, user, type);
  }

  HttpResponse Get(const std::string& path, const std::string& accept = "") {
    HttpRequest request;
    request.method = HttpMethod::kGet;
    request.path = path;
    if (!accept.empty()) request.headers = {{"Accept", accept}};
    return router_.Dispatch(request);
  }

  int64_t NowMs() { return rm_.clock().WallMillis(); }
};

TEST_F(AppTimeoutRoutesTest, NoLifetimeIsUnlimited) {
  const std::string id = AcceptedApp();
  HttpResponse all = Get("/ws/v1/cluster/apps/" + id + "/timeouts");
  EXPECT_EQ(all.status, 200);
  EXPECT_EQ(all.body, R"({"timeouts":{"timeout":[{"type":"LIFETIME","expiryTime":"UNLIMITED",)"
                      R"("remainingTimeInSeconds":-1}]}})");
  HttpResponse one = Get("/ws/v1/cluster/apps/" + id + "/timeouts/LIFETIME");
  EXPECT_EQ(one.status, 200);
  EXPECT_EQ(
      one.body,
      R"({"timeout":{"type":"LIFETIME","expiryTime":"UNLIMITED","remainingTimeInSeconds":-1}})");
}

TEST_F(AppTimeoutRoutesTest, UpdateThenReadBackInJsonAndXml) {
  const std::string id = AcceptedApp();
  const int64_t expiry_ms = NowMs() + 3600 * 1000;
  const std::string expiry = client_service::FormatIso8601(expiry_ms, 0);
  HttpResponse updated =
      Put(id, R"({"timeout":{"type":"LIFETIME","expiryTime":")" + expiry + R"("}})", "alice");
  ASSERT_EQ(updated.status, 200) << updated.body;
  const std::string local = client_service::FormatIso8601(expiry_ms);
  EXPECT_EQ(updated.body, R"({"timeout":{"type":"LIFETIME","expiryTime":")" + local +
                              R"(","remainingTimeInSeconds":3600}})");
  EXPECT_EQ(App(id).lifetime_expiry_ms, expiry_ms);

  // Remaining time counts down with the RM's clock; the type's case and
  // surrounding blanks do not matter.
  rm_.clock().Advance(std::chrono::seconds(100));
  HttpResponse lower = Get("/ws/v1/cluster/apps/" + id + "/timeouts/lifetime");
  EXPECT_EQ(lower.status, 200);
  EXPECT_EQ(lower.body, R"({"timeout":{"type":"LIFETIME","expiryTime":")" + local +
                            R"(","remainingTimeInSeconds":3500}})");
  HttpResponse xml = Get("/ws/v1/cluster/apps/" + id + "/timeouts", "application/xml");
  EXPECT_EQ(xml.status, 200);
  EXPECT_THAT(xml.body, HasSubstr("<timeouts><timeout><type>LIFETIME</type><expiryTime>" + local +
                                  "</expiryTime><remainingTimeInSeconds>3500"
                                  "</remainingTimeInSeconds></timeout></timeouts>"));

  // The XML form of the body.
  const int64_t later_ms = expiry_ms + 60 * 1000;
  HttpResponse by_xml =
      Put(id,
          "<timeout><type>LIFETIME</type><expiryTime>" +
              client_service::FormatIso8601(later_ms, 0) + "</expiryTime></timeout>",
          "alice", "application/xml");
  ASSERT_EQ(by_xml.status, 200) << by_xml.body;
  EXPECT_EQ(App(id).lifetime_expiry_ms, later_ms);
}

TEST_F(AppTimeoutRoutesTest, BadTypesAndAppsAreRefusedAsHadoopRefusesThem) {
  const std::string id = AcceptedApp();
  HttpResponse bad_type = Get("/ws/v1/cluster/apps/" + id + "/timeouts/NOSUCH");
  EXPECT_EQ(bad_type.status, 400);
  EXPECT_EQ(bad_type.body,
            R"({"RemoteException":{"exception":"BadRequestException","message":"java.lang.)"
            R"(Exception: Invalid application-state NOSUCH specified. It should be one of )"
            R"([LIFETIME]","javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}})");
  HttpResponse unknown = Get("/ws/v1/cluster/apps/application_1_0001/timeouts");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body,
            R"({"RemoteException":{"exception":"NotFoundException","message":"java.lang.)"
            R"(Exception: app with id: application_1_0001 not found","javaClassName":)"
            R"("org.apache.hadoop.yarn.webapp.NotFoundException"}})");
  HttpResponse garbage = Get("/ws/v1/cluster/apps/garbage/timeouts");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(garbage.body,
            R"({"RemoteException":{"exception":"BadRequestException","message":"java.lang.)"
            R"(IllegalArgumentException: Invalid ApplicationId prefix: garbage. The valid )"
            R"(ApplicationId should start with prefix application","javaClassName":)"
            R"("org.apache.hadoop.yarn.webapp.BadRequestException"}})");
  HttpResponse put_unknown = Put(
      "application_1_0001",
      R"({"timeout":{"type":"LIFETIME","expiryTime":"2099-01-01T00:00:00.000+0000"}})", "alice");
  EXPECT_EQ(put_unknown.status, 404);
}

TEST_F(AppTimeoutRoutesTest, UpdateRefusals) {
  const std::string id = AcceptedApp();
  const std::string future = client_service::FormatIso8601(NowMs() + 3600 * 1000, 0);
  // No type: AppTimeoutInfo's type stays null.
  HttpResponse no_type = Put(id, R"({"timeout":{"expiryTime":")" + future + R"("}})", "alice");
  EXPECT_EQ(no_type.status, 400);
  EXPECT_EQ(no_type.body, "Timeout type or ExpiryTime is null.");
  HttpResponse null_expiry =
      Put(id, R"({"timeout":{"type":"LIFETIME","expiryTime":null}})", "alice");
  EXPECT_EQ(null_expiry.status, 400);
  // Without MODIFY_APP (yarn.acl.enable, mallory is neither owner nor admin).
  HttpResponse denied =
      Put(id, R"({"timeout":{"type":"LIFETIME","expiryTime":")" + future + R"("}})", "mallory");
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.body,
            "Unauthorized attempt to change timeout of app " + id + " by remote user mallory");
  // In the past: ClientRMService's YarnException, rethrown by doAs.
  HttpResponse past =
      Put(id, R"({"timeout":{"type":"LIFETIME","expiryTime":"2001-01-01T00:00:00.000+0000"}})",
          "alice");
  EXPECT_EQ(past.status, 500);
  EXPECT_EQ(past.body,
            R"({"RemoteException":{"exception":"UndeclaredThrowableException","javaClassName":)"
            R"("java.lang.reflect.UndeclaredThrowableException"}})");
  // Not ISO8601, and an absent expiry time ("UNLIMITED", the DAO's default):
  // the ParseException branch.
  HttpResponse unparsable =
      Put(id, R"({"timeout":{"type":"LIFETIME","expiryTime":"tomorrow"}})", "alice");
  EXPECT_EQ(unparsable.status, 400);
  EXPECT_THAT(unparsable.body, HasSubstr("Expire time is not in ISO8601 format"));
  EXPECT_THAT(unparsable.body, HasSubstr("Configured timeout value is tomorrow"));
  HttpResponse absent = Put(id, R"({"timeout":{"type":"LIFETIME"}})", "alice");
  EXPECT_EQ(absent.status, 400);
  EXPECT_THAT(absent.body, HasSubstr("Configured timeout value is UNLIMITED"));
  EXPECT_FALSE(App(id).lifetime_expiry_ms.has_value());
}

}  // namespace
}  // namespace spindle::web::rest
