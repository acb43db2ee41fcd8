#include "web/http/router.h"

#include <gtest/gtest.h>

namespace spindle::web {
namespace {

HttpRequest Request(HttpMethod method, std::string path) {
  HttpRequest request;
  request.method = method;
  request.path = std::move(path);
  return request;
}

HttpHandler Echo(std::string tag) {
  return [tag](const HttpRequest& request) {
    std::string body = tag;
    for (const auto& [name, value] : request.path_params) body += " " + name + "=" + value;
    return HttpResponse::Text(200, body);
  };
}

TEST(RouterTest, LiteralsBeatParametersWhichBeatSubtrees) {
  Router router;
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/apps", Echo("apps"));
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/apps/new-application", Echo("literal"));
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/apps/{appid}", Echo("app"));
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/apps/{appid}/state", Echo("state"));
  router.Add(HttpMethod::kGet, "/static/*", Echo("static"));
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/ws/v1/cluster/apps/")).body, "apps");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/ws/v1/cluster/apps/new-application")).body,
            "literal");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/ws/v1/cluster/apps/application_1_2")).body,
            "app appid=application_1_2");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/ws/v1/cluster/apps/a_1/state")).body,
            "state appid=a_1");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/static/js/app.js")).body,
            "static *=js/app.js");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/static")).body, "static *=");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/ws/v1/cluster/apps/a/b/c")).status, 404);
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kGet, "/nowhere")).status, 404);
}

TEST(RouterTest, OtherMethodIs405WithAllowAndHeadFallsBackToGet) {
  Router router;
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/apps/{appid}/state", Echo("get"));
  router.Add(HttpMethod::kPut, "/ws/v1/cluster/apps/{appid}/state", Echo("put"));
  HttpResponse response =
      router.Dispatch(Request(HttpMethod::kDelete, "/ws/v1/cluster/apps/a/state"));
  EXPECT_EQ(response.status, 405);
  ASSERT_EQ(response.headers.size(), 1u);
  EXPECT_EQ(response.headers[0].first, "Allow");
  EXPECT_EQ(response.headers[0].second, "GET, PUT, HEAD");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kHead, "/ws/v1/cluster/apps/a/state")).body,
            "get appid=a");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kPut, "/ws/v1/cluster/apps/a/state")).body,
            "put appid=a");
}

// hadoop-auth's AuthenticatedURL handshake (KerberosAuthenticator, then
// PseudoAuthenticator with ?user.name=) sends OPTIONS to the resource and
// goes on only on 200/201/202, as `yarn top` does with /ws/v1/cluster/info;
// the Java RM's Jersey resources answer OPTIONS with 200 and Allow.
TEST(RouterTest, OptionsOnAKnownPathIs200WithAllow) {
  Router router;
  router.Add(HttpMethod::kGet, "/ws/v1/cluster/info", Echo("info"));
  router.Add(HttpMethod::kGet, "/static/*", Echo("static"));
  HttpResponse response = router.Dispatch(Request(HttpMethod::kOptions, "/ws/v1/cluster/info"));
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, "");
  ASSERT_EQ(response.headers.size(), 1u);
  EXPECT_EQ(response.headers[0].first, "Allow");
  EXPECT_EQ(response.headers[0].second, "GET, HEAD, OPTIONS");
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kOptions, "/static/a.css")).status, 200);
  // Unknown paths stay 404 (the handshake then fails as against Java).
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kOptions, "/ws/v1/nowhere")).status, 404);
  // An OPTIONS route of its own wins.
  router.Add(HttpMethod::kOptions, "/ws/v1/cluster/info", Echo("own"));
  EXPECT_EQ(router.Dispatch(Request(HttpMethod::kOptions, "/ws/v1/cluster/info")).body, "own");
}

TEST(RouterTest, NotFoundHandlerIsReplaceable) {
  Router router;
  router.SetNotFound([](const HttpRequest&) { return HttpResponse::Json(404, "{}"); });
  HttpResponse response = router.Dispatch(Request(HttpMethod::kGet, "/x"));
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(response.body, "{}");
}

TEST(RouterTest, QueryAndHeaderLookups) {
  HttpRequest request;
  request.query = {{"states", "RUNNING"}, {"states", "ACCEPTED"}, {"user", "alice"}};
  request.headers = {{"accept", "application/xml"}};
  EXPECT_EQ(request.Query("user").value_or(""), "alice");
  EXPECT_FALSE(request.Query("queue").has_value());
  EXPECT_EQ(request.QueryAll("states").size(), 2u);
  EXPECT_EQ(request.Header("Accept"), "application/xml");
  EXPECT_EQ(request.Header("Content-Type"), "");
}

TEST(RouterDeathTest, DuplicateRouteIsABug) {
  Router router;
  router.Add(HttpMethod::kGet, "/a/{x}", Echo("a"));
  EXPECT_DEATH(router.Add(HttpMethod::kGet, "/a/{x}", Echo("b")), "registered twice");
  EXPECT_DEATH(router.Add(HttpMethod::kGet, "/a/{y}/z", Echo("b")), "two names");
}

}  // namespace
}  // namespace spindle::web
