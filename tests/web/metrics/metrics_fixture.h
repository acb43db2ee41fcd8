// A real RM core (tests/am_protocol/client_service/rm_harness.h: pool,
// nodes, apps, queues, containers behind a ClientRmService on 127.0.0.1)
// with one node and one RUNNING app in root.default, wired into
// MetricsDeps; plus JSON helpers for the /jmx answers.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "am_protocol/client_service/record_protos.h"
#include "base/json/json_stream.h"
#include "tests/am_protocol/client_service/rm_harness.h"
#include "web/metrics/metrics_deps.h"

namespace spindle::web::testing {

namespace y = hadoop::yarn;
using client_service::testing::CsProperty;

// root: default 40 | eng 60 (batch 70, adhoc 30).
inline client_service::testing::HarnessOptions MetricsHarnessOptions() {
  client_service::testing::HarnessOptions options;
  options.capacity_scheduler_xml =
      CsProperty("root.queues", "default,eng") + CsProperty("root.default.capacity", "40") +
      CsProperty("root.eng.capacity", "60") + CsProperty("root.eng.queues", "batch,adhoc") +
      CsProperty("root.eng.batch.capacity", "70") + CsProperty("root.eng.adhoc.capacity", "30");
  return options;
}

class RmFixture : public ::testing::Test {
 protected:
  RmFixture() : RmFixture(MetricsHarnessOptions()) {}
  explicit RmFixture(client_service::testing::HarnessOptions options) : rm_(std::move(options)) {
    rm_.AddNode("host1", 45454, pool::Resource::Of(8192, 8));
    app_ = SubmitAndRun("default", "alice");
    deps_.core = &rm_.core();
    deps_.hostname = "rm.test";
  }

  rm::ApplicationId SubmitAndRun(const std::string& queue, const std::string& user) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    EXPECT_TRUE(rm_.Call("getNewApplication", new_request, &new_response, user).ok());
    const rm::ApplicationId id = client_service::FromProto(new_response.application_id());
    y::SubmitApplicationRequestProto request;
    auto* context = request.mutable_application_submission_context();
    client_service::ToProto(id, context->mutable_application_id());
    context->set_application_name("demo");
    context->set_queue(queue);
    context->mutable_am_container_spec()->add_command("sleep 1");
    auto* ask = context->add_am_container_resource_request();
    ask->set_resource_name("*");
    ask->mutable_capability()->set_memory(1024);
    ask->mutable_capability()->set_virtual_cores(1);
    ask->set_num_containers(1);
    y::SubmitApplicationResponseProto response;
    Status s = rm_.Call("submitApplication", request, &response, user);
    EXPECT_TRUE(s.ok()) << s.ToString();
    rm_.LaunchAll();
    s = rm_.apps().RegisterAm({id, 1}, "am-host", 4321, "");
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }

  client_service::testing::RmHarness rm_;
  rm::ApplicationId app_;
  MetricsDeps deps_;
};

// The one top-level JSON object of `text` (fails the test otherwise).
inline json::JsonValue ParseJson(const std::string& text) {
  auto stream = json::JsonStream::FromString("response", text);
  json::JsonValue value;
  auto next = stream->Next(&value);
  EXPECT_TRUE(next.ok() && *next) << (next.ok() ? "empty" : next.status().ToString()) << "\n"
                                  << text;
  return value;
}

// Every element of a top-level JSON array (JsonStream yields them one by one).
inline std::vector<json::JsonValue> ParseJsonArray(const std::string& text) {
  auto stream = json::JsonStream::FromString("array", text);
  std::vector<json::JsonValue> out;
  while (true) {
    json::JsonValue value;
    auto next = stream->Next(&value);
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !*next) break;
    out.push_back(std::move(value));
  }
  return out;
}

// The bean named `name` in a /jmx answer, or nullptr.
inline const json::JsonValue* FindBean(const json::JsonValue& root, const std::string& name) {
  const json::JsonValue* beans = root.Find("beans");
  if (beans == nullptr) return nullptr;
  for (const json::JsonValue& bean : beans->elements()) {
    const json::JsonValue* n = bean.Find("name");
    if (n != nullptr && n->text() == name) return &bean;
  }
  return nullptr;
}

inline int64_t IntField(const json::JsonValue& bean, const std::string& key) {
  const json::JsonValue* v = bean.Find(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return -1;
  auto i = v->AsInt64();
  EXPECT_TRUE(i.has_value()) << key << " = " << v->text();
  return i.value_or(-1);
}

inline double NumField(const json::JsonValue& bean, const std::string& key) {
  const json::JsonValue* v = bean.Find(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return -1;
  return v->AsDouble().value_or(-1);
}

inline std::string StrField(const json::JsonValue& bean, const std::string& key) {
  const json::JsonValue* v = bean.Find(key);
  EXPECT_NE(v, nullptr) << key;
  return v == nullptr ? "" : v->text();
}

}  // namespace spindle::web::testing
