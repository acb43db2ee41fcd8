// ClientRmServiceTest: the fixture of the ClientRmService tests: an
// RmHarness with a queue tree (default, eng.batch, eng.adhoc, a STOPPED ops)
// and one 8 GB / 8 vcore node, and the client calls the tests share.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "am_protocol/client_service/record_protos.h"
#include "tests/am_protocol/client_service/rm_harness.h"

namespace spindle::client_service {

using testing::CsProperty;
using testing::HarnessOptions;
using testing::RmHarness;
namespace y = hadoop::yarn;

// root: default 40 | eng 60 (batch 70, adhoc 30) | ops 0 (STOPPED).
inline std::string QueueXml() {
  return CsProperty("root.queues", "default,eng,ops") + CsProperty("root.default.capacity", "40") +
         CsProperty("root.eng.capacity", "60") + CsProperty("root.eng.queues", "batch,adhoc") +
         CsProperty("root.eng.batch.capacity", "70") +
         CsProperty("root.eng.batch.maximum-capacity", "50") +
         CsProperty("root.eng.adhoc.capacity", "30") + CsProperty("root.ops.state", "STOPPED") +
         CsProperty("root.acl_submit_applications", " ") +
         CsProperty("root.acl_administer_queue", "root") +
         CsProperty("root.default.acl_submit_applications", "*") +
         CsProperty("root.default.acl_administer_queue", "qadmin") +
         CsProperty("root.eng.acl_submit_applications", " engineers") +
         CsProperty("root.eng.batch.acl_submit_applications", "alice");
}

inline HarnessOptions Options() {
  HarnessOptions options;
  options.capacity_scheduler_xml = QueueXml();
  options.service.reports.proxy_address = "rm.example:8088";
  options.groups = rm::StaticGroupMapping(
      std::map<std::string, std::vector<std::string>>{{"carol", {"engineers"}}});
  return options;
}

class ClientRmServiceTest : public ::testing::Test {
 protected:
  explicit ClientRmServiceTest(HarnessOptions options = Options()) : rm_(std::move(options)) {
    rm_.AddNode("host1", 45454, pool::Resource::Of(8192, 8));
  }

  rm::ApplicationId NewId(const std::string& user = "alice") {
    y::GetNewApplicationRequestProto request;
    y::GetNewApplicationResponseProto response;
    EXPECT_TRUE(rm_.Call("getNewApplication", request, &response, user).ok());
    return FromProto(response.application_id());
  }

  // A context as YarnClient 3.x builds it (AM resource in field 17).
  y::ApplicationSubmissionContextProto Context(const rm::ApplicationId& id,
                                               const std::string& queue = "default") {
    y::ApplicationSubmissionContextProto context;
    ToProto(id, context.mutable_application_id());
    context.set_application_name("demo");
    context.set_queue(queue);
    context.set_applicationtype("MAPREDUCE");
    context.mutable_am_container_spec()->add_command("sleep 1");
    auto* request = context.add_am_container_resource_request();
    request->set_resource_name("*");
    request->mutable_capability()->set_memory(200);
    request->mutable_capability()->set_virtual_cores(1);
    request->set_num_containers(1);
    return context;
  }

  Status Submit(const y::ApplicationSubmissionContextProto& context,
                const std::string& user = "alice") {
    y::SubmitApplicationRequestProto request;
    *request.mutable_application_submission_context() = context;
    y::SubmitApplicationResponseProto response;
    return rm_.Call("submitApplication", request, &response, user);
  }

  rm::ApplicationId SubmitNew(const std::string& queue = "default",
                              const std::string& user = "alice") {
    const rm::ApplicationId id = NewId(user);
    Status s = Submit(Context(id, queue), user);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }

  Result<y::ApplicationReportProto> Report(const rm::ApplicationId& id,
                                           const std::string& user = "alice") {
    y::GetApplicationReportRequestProto request;
    ToProto(id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    RETURN_NOT_OK(rm_.Call("getApplicationReport", request, &response, user));
    return response.application_report();
  }

  // Brings a submitted app to RUNNING.
  void Run(const rm::ApplicationId& id) {
    rm_.LaunchAll();
    ASSERT_TRUE(rm_.apps().RegisterAm({id, 1}, "am-host", 4321, "http://am-host:9999/ui").ok());
  }
  void Finish(const rm::ApplicationId& id) {
    ASSERT_TRUE(rm_.apps().FinishAm({id, 1}, rm::FinalStatus::kSucceeded, "", "").ok());
    const auto app = rm_.apps().GetApp(id);
    ASSERT_TRUE(app->current_attempt()->am_container.has_value());
    rm_.apps().OnContainerFinished(app->current_attempt()->am_container->id, 0, "");
  }

  RmHarness rm_;
};

}  // namespace spindle::client_service
