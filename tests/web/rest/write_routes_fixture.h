// The write endpoints' test fixture: a real RM core behind a real
// ClientRmService (the client service tests' harness) with the write and
// timeout routes, called as HttpRequests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "base/json/json_stream.h"
#include "tests/am_protocol/client_service/rm_harness.h"
#include "web/rest/app_timeout_routes.h"
#include "web/rest/app_write_routes.h"

namespace spindle::web::rest {

using client_service::testing::CsProperty;
using client_service::testing::HarnessOptions;
using client_service::testing::RmHarness;

inline HarnessOptions WriteRoutesOptions() {
  HarnessOptions options;
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "default,ops") + CsProperty("root.default.capacity", "100") +
      CsProperty("root.ops.capacity", "0") + CsProperty("root.ops.state", "STOPPED") +
      // Capacity Scheduler's root ACLs default to "*": everyone would
      // administer (and so may kill) every app.
      CsProperty("root.acl_administer_queue", " ") +
      CsProperty("root.acl_submit_applications", " ") +
      CsProperty("root.default.acl_submit_applications", "*");
  options.service.access.acl_enabled = true;
  options.service.access.admin_acl = rm::AccessControlList::Parse("root");
  return options;
}

inline json::JsonValue Json(const std::string& text) {
  auto stream = json::JsonStream::FromString("response", text);
  json::JsonValue value;
  Result<bool> read = stream->Next(&value);
  EXPECT_TRUE(read.ok() && *read) << text;
  return value;
}

class AppWriteRoutesTest : public ::testing::Test {
 protected:
  AppWriteRoutesTest() : rm_(WriteRoutesOptions()) {
    rm_.AddNode("host1", 45454, pool::Resource::Of(8192, 8));
    AppWriteDeps deps;
    deps.client = &rm_.service();
    deps.core = &rm_.core();
    AddAppWriteRoutes(&router_, deps);
    AddAppTimeoutRoutes(&router_, deps);
  }

  HttpResponse Call(HttpMethod method, const std::string& path, const std::string& body = "",
                    const std::string& user = "", const std::string& type = "application/json") {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.body = body;
    request.remote_address = "127.0.0.1";
    request.headers = {{"Host", "rm.example:8088"}};
    if (!type.empty()) request.headers.emplace_back("Content-Type", type);
    if (!user.empty()) request.query = {{"user.name", user}};
    return router_.Dispatch(request);
  }

  std::string NewApplication(const std::string& user = "alice") {
    HttpResponse response =
        Call(HttpMethod::kPost, "/ws/v1/cluster/apps/new-application", "", user);
    EXPECT_EQ(response.status, 200) << response.body;
    const json::JsonValue body = Json(response.body);
    EXPECT_NE(body.Find("application-id"), nullptr) << response.body;
    return body.Find("application-id") != nullptr ? body.Find("application-id")->text() : "";
  }

  HttpResponse Submit(const std::string& id, const std::string& user = "alice",
                      const std::string& queue = "default") {
    return Call(HttpMethod::kPost, "/ws/v1/cluster/apps",
                R"({"application-id":")" + id + R"(", "application-name":"rest", "queue":")" +
                    queue +
                    R"(", "am-container-spec": {"commands": {"command": "sleep 60"}},
                    "resource": {"memory": 256, "vCores": 1}, "application-type": "YARN"})",
                user);
  }

  rm::RmApp App(const std::string& id) { return *rm_.apps().GetApp(*rm::ApplicationId::Parse(id)); }

  RmHarness rm_;
  Router router_;
};

}  // namespace spindle::web::rest
