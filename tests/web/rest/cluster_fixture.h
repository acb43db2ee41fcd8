// ClusterFixture: a real RM core and ClientRmService (RmHarness, on a
// ManualClock) with the REST read routes on a Router, and a small cluster:
//   nodes   host1:45454 RUNNING (8192 MB, 8 vcores), host2:45454 SHUTDOWN;
//   queues  root.default (60%), root.eng (40%) > root.eng.batch (100%);
//   apps    0001 alice RUNNING (MAPREDUCE, AM registered on am-host:4321),
//           0002 bob ACCEPTED in batch (SPARK, tags "nightly,etl"),
//           0003 alice FINISHED/SUCCEEDED, 0004 carol KILLED.
// Requests go straight to Router::Dispatch (no sockets).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "am_protocol/client_service/record_protos.h"
#include "tests/am_protocol/client_service/rm_harness.h"
#include "web/http/router.h"
#include "web/rest/cluster_read_routes.h"

namespace spindle::web::rest::testing {

namespace y = hadoop::yarn;
using client_service::testing::CsProperty;
using client_service::testing::HarnessOptions;
using client_service::testing::RmHarness;

inline HarnessOptions ClusterHarnessOptions(bool acl_enabled) {
  HarnessOptions options;
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "default,eng") + CsProperty("root.default.capacity", "60") +
      CsProperty("root.eng.capacity", "40") + CsProperty("root.eng.queues", "batch") +
      CsProperty("root.eng.batch.capacity", "100") +
      CsProperty("root.acl_administer_queue", "admin") +
      CsProperty("root.default.acl_submit_applications", "*") +
      CsProperty("root.eng.batch.acl_submit_applications", "*");
  options.service.reports.proxy_address = "rm.example:8088";
  options.service.access.acl_enabled = acl_enabled;
  options.service.access.admin_acl = rm::AccessControlList::Parse("admin");
  return options;
}

// Submits an application of `user` to `queue` through the service (a 1 GB
// AM ask), named "job-<sequence>", with the type and tags given.
inline rm::ApplicationId SubmitTo(RmHarness& rm, const std::string& user, const std::string& queue,
                                  const std::string& type, const std::vector<std::string>& tags) {
  client_service::ClientRmService::Who who;
  who.user = user;
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  EXPECT_TRUE(rm.service().GetNewApplication(who, new_request, &new_response).ok());
  const rm::ApplicationId id = client_service::FromProto(new_response.application_id());
  y::SubmitApplicationRequestProto request;
  y::ApplicationSubmissionContextProto* context = request.mutable_application_submission_context();
  client_service::ToProto(id, context->mutable_application_id());
  context->set_application_name("job-" + std::to_string(id.id));
  context->set_queue(queue);
  context->set_applicationtype(type);
  for (const auto& tag : tags) context->add_applicationtags(tag);
  context->mutable_am_container_spec()->add_command("sleep 1");
  auto* ask = context->add_am_container_resource_request();
  ask->set_resource_name("*");
  ask->mutable_capability()->set_memory(1024);
  ask->mutable_capability()->set_virtual_cores(1);
  ask->set_num_containers(1);
  y::SubmitApplicationResponseProto response;
  Status s = rm.service().SubmitApplication(who, request, &response);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return id;
}

class ClusterFixture : public ::testing::Test {
 protected:
  explicit ClusterFixture(bool acl_enabled = false) : rm_(ClusterHarnessOptions(acl_enabled)) {
    rm_.AddNode("host1", 45454, pool::Resource::Of(8192, 8));
    rm_.AddNode("host2", 45454, pool::Resource::Of(4096, 4));
    EXPECT_TRUE(rm_.nodes().Unregister(rm::NodeId{"host2", 45454}).ok());
    rm_.ApplyQueues();

    ClusterWebDeps deps;
    deps.client = &rm_.service();
    deps.core = &rm_.core();
    deps.identity.cluster_timestamp = 1700000000000;
    options_.static_user = "dr.who";
    AddClusterReadRoutes(&router_, options_, deps);

    running_ = SubmitNew("alice", "default", "MAPREDUCE", {});
    rm_.LaunchAll();
    EXPECT_TRUE(
        rm_.apps().RegisterAm({running_, 1}, "am-host", 4321, "http://am-host:9999/ui").ok());
    EXPECT_TRUE(rm_.apps().AmHeartbeat({running_, 1}, 0.25f).ok());

    finished_ = SubmitNew("alice", "default", "YARN", {});
    rm_.LaunchAll();
    EXPECT_TRUE(rm_.apps().RegisterAm({finished_, 1}, "am-host2", 5555, "").ok());
    rm_.clock().Advance(std::chrono::milliseconds(5000));
    EXPECT_TRUE(
        rm_.apps().FinishAm({finished_, 1}, rm::FinalStatus::kSucceeded, "all done", "").ok());
    auto app = rm_.apps().GetApp(finished_);
    EXPECT_TRUE(app.ok() && app->current_attempt()->am_container.has_value());
    rm_.apps().OnContainerFinished(app->current_attempt()->am_container->id, 0, "");

    killed_ = SubmitNew("carol", "default", "YARN", {});
    y::KillApplicationRequestProto kill;
    client_service::ToProto(killed_, kill.mutable_application_id());
    y::KillApplicationResponseProto killed;
    EXPECT_TRUE(rm_.service().ForceKillApplication(Who("carol"), kill, &killed).ok());

    // Submitted last, never launched: stays ACCEPTED.
    accepted_ = SubmitNew("bob", "batch", "SPARK", {"nightly", "etl"});
    rm_.clock().Advance(std::chrono::milliseconds(1000));
  }

  static client_service::ClientRmService::Who Who(const std::string& user) {
    client_service::ClientRmService::Who who;
    who.user = user;
    return who;
  }

  rm::ApplicationId SubmitNew(const std::string& user, const std::string& queue,
                              const std::string& type, const std::vector<std::string>& tags) {
    return SubmitTo(rm_, user, queue, type, tags);
  }

  // GET `target` ("/ws/v1/cluster/apps?states=RUNNING"), with an Accept header if given.
  HttpResponse Get(const std::string& target, const std::string& accept = "") const {
    HttpRequest request;
    request.method = HttpMethod::kGet;
    const size_t q = target.find('?');
    request.path = target.substr(0, q);
    if (q != std::string::npos) {
      std::string query = target.substr(q + 1);
      size_t start = 0;
      while (start <= query.size()) {
        size_t amp = query.find('&', start);
        if (amp == std::string::npos) amp = query.size();
        std::string pair = query.substr(start, amp - start);
        const size_t eq = pair.find('=');
        if (!pair.empty()) {
          request.query.emplace_back(pair.substr(0, eq),
                                     eq == std::string::npos ? "" : pair.substr(eq + 1));
        }
        start = amp + 1;
      }
    }
    if (!accept.empty()) request.headers.emplace_back("Accept", accept);
    return router_.Dispatch(request);
  }

  RmHarness rm_;
  WebCallerOptions options_;
  Router router_;
  rm::ApplicationId running_, finished_, killed_, accepted_;
};

}  // namespace spindle::web::rest::testing
