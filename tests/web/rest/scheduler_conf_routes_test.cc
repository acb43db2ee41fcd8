// /ws/v1/cluster/scheduler-conf as Hadoop 3.3's RMWebServices answers it for
// a CapacityScheduler whose configuration is not mutable (the file store,
// its default).
#include "web/rest/scheduler_conf_routes.h"

#include <gtest/gtest.h>

#include "tests/am_protocol/client_service/rm_harness.h"

namespace spindle::web::rest {
namespace {

using client_service::testing::CsProperty;
using client_service::testing::HarnessOptions;
using client_service::testing::RmHarness;

HarnessOptions Options(bool acls) {
  HarnessOptions options;
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "default") + CsProperty("root.default.capacity", "100");
  options.service.access.acl_enabled = acls;
  options.service.access.admin_acl = rm::AccessControlList::Parse("root");
  return options;
}

class SchedulerConfRoutesTest : public ::testing::Test {
 protected:
  explicit SchedulerConfRoutesTest(bool acls = false) : rm_(Options(acls)) {
    SchedulerConfDeps deps;
    deps.client = &rm_.service();
    AddSchedulerConfRoutes(&router_, deps);
  }

  HttpResponse Call(HttpMethod method, const std::string& path, const std::string& user = "",
                    const std::string& accept = "") {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.remote_address = "127.0.0.1";
    if (!accept.empty()) request.headers = {{"Accept", accept}};
    if (!user.empty()) request.query = {{"user.name", user}};
    if (method == HttpMethod::kPut || method == HttpMethod::kPost) {
      request.headers.emplace_back("Content-Type", "application/xml");
      request.body = "<sched-conf><global-updates/></sched-conf>";
    }
    return router_.Dispatch(request);
  }

  RmHarness rm_;
  Router router_;
};

TEST_F(SchedulerConfRoutesTest, EveryEndpointSaysTheSchedulerIsNotMutable) {
  // `yarn schedulerconf -update ...`: PUT, as the CLI sends it.
  HttpResponse put =
      Call(HttpMethod::kPut, "/ws/v1/cluster/scheduler-conf", "alice", "application/json");
  EXPECT_EQ(put.status, 400);
  EXPECT_EQ(put.body, "Configuration change only supported by MutableConfScheduler.");
  EXPECT_EQ(put.content_type, "application/json; charset=utf-8");

  // `yarn schedulerconf -getconf` asks for XML.
  HttpResponse get =
      Call(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf", "alice", "application/xml");
  EXPECT_EQ(get.status, 400);
  EXPECT_EQ(get.body,
            "This API only supports to retrieve scheduler configuration from a mutable-conf "
            "scheduler, underneath scheduler CapacityScheduler is not an instance of "
            "MutableConfScheduler");
  EXPECT_EQ(get.content_type, "application/xml; charset=utf-8");

  EXPECT_EQ(Call(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf/version").body,
            "Configuration Version only supported by MutableConfScheduler.");
  EXPECT_EQ(Call(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf/format").body,
            "Scheduler Configuration format only supported by MutableConfScheduler.");
  HttpResponse validate = Call(HttpMethod::kPost, "/ws/v1/cluster/scheduler-conf/validate");
  EXPECT_EQ(validate.status, 400);
  EXPECT_EQ(validate.body,
            "Configuration change validation only supported by MutableConfScheduler.");
}

class SchedulerConfAclTest : public SchedulerConfRoutesTest {
 protected:
  SchedulerConfAclTest() : SchedulerConfRoutesTest(true) {}
};

TEST_F(SchedulerConfAclTest, WithAclsOnlyAdminsGetThatFar) {
  // initForWritableEndpoints(caller, true): ForbiddenException first.
  HttpResponse denied = Call(HttpMethod::kPut, "/ws/v1/cluster/scheduler-conf", "alice");
  EXPECT_EQ(denied.status, 403);
  EXPECT_NE(denied.body.find("ForbiddenException"), std::string::npos) << denied.body;
  EXPECT_NE(denied.body.find("Only admins can carry out this operation."), std::string::npos);
  // The static user is no admin either.
  EXPECT_EQ(Call(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf").status, 403);
  HttpResponse admin = Call(HttpMethod::kPut, "/ws/v1/cluster/scheduler-conf", "root");
  EXPECT_EQ(admin.status, 400);
  EXPECT_EQ(admin.body, "Configuration change only supported by MutableConfScheduler.");
}

}  // namespace
}  // namespace spindle::web::rest
