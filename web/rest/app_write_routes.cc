#include "web/rest/app_write_routes.h"

#include <glog/logging.h>

#include <algorithm>
#include <cctype>

#include "am_protocol/client_service/record_protos.h"
#include "base/json/json_stream.h"
#include "rm/yarn_exceptions.h"
#include "web/rest/app_info.h"
#include "web/rest/rest_response.h"
#include "web/rest/submission_json.h"
#include "web/rest/write_request.h"

namespace spindle::web::rest {

namespace {

namespace y = hadoop::yarn;

// RMWebServices.getRMAppForAppId: an empty id is NotFound, a malformed one
// BadRequest (the IllegalArgumentException's toString), an unknown one
// NotFound.
Result<rm::RmApp> FindApp(const rm::ClientFacade& core, const std::string& text, RestError* error) {
  if (text.empty()) {
    *error = RestError::NotFound("appId, " + text + ", is empty or null");
    return Status::NotFound("");
  }
  auto id = rm::ApplicationId::Parse(text);
  if (!id.ok()) {
    *error = RestError::BadRequestCause("java.lang.IllegalArgumentException",
                                        "Invalid ApplicationId: " + text);
    return Status::InvalidArgument("");
  }
  auto app = core.ApplicationReport(*id);
  if (!app.ok()) {
    *error = RestError::NotFound("app with id: " + text + " not found");
    return Status::NotFound("");
  }
  return app;
}

// A Status from ClientRmService as RMWebServices rethrows a YarnException:
// BadRequestException with the exception's message.
HttpResponse SubmissionRefused(const HttpRequest& request, const Status& status) {
  return RenderError(request, RestError::BadRequest(status.message()));
}

HttpResponse NewApplication(const AppWriteDeps& deps, const HttpRequest& request) {
  y::GetNewApplicationResponseProto response;
  Status status = deps.client->GetNewApplication(Who(request, deps.callers), {}, &response);
  if (!status.ok()) return SubmissionRefused(request, status);
  const rm::ApplicationId id = client_service::FromProto(response.application_id());
  RestNode capability;
  capability.Int("memory", response.maximumcapability().memory())
      .Int("vCores", response.maximumcapability().virtual_cores());
  RestNode body;
  body.Str("application-id", id.ToString()).Put("maximum-resource-capability", capability);
  return RenderDocument(
      request, RestDocument("NewApplication", std::move(body), RestDocument::JsonRoot::kUnwrapped));
}

HttpResponse Submit(const AppWriteDeps& deps, const HttpRequest& request) {
  HttpResponse refused;
  std::optional<json::JsonValue> body =
      ReadBody(request, "application-submission-context", &refused);
  if (!body.has_value()) return refused;
  auto max_allocation = deps.core->MaximumAllocation();
  if (!max_allocation.ok()) {
    return RenderError(request, RestError::Of(std::string(max_allocation.status().java_class()),
                                              max_allocation.status().message()));
  }
  SubmissionLimits limits;
  limits.max_memory_mb = max_allocation->memory_mb();
  limits.max_vcores = max_allocation->vcores();
  auto context = SubmissionContextFromJson(*body, limits);
  if (!context.ok()) return RenderError(request, RestError::BadRequest(context.status().message()));
  y::SubmitApplicationRequestProto submit;
  *submit.mutable_application_submission_context() = *context;
  y::SubmitApplicationResponseProto ignored;
  const ipc::ConnectionIdentity who = Who(request, deps.callers);
  Status status = deps.client->SubmitApplication(who, submit, &ignored);
  if (!status.ok()) return SubmissionRefused(request, status);
  const rm::ApplicationId id = client_service::FromProto(context->application_id());
  LOG(INFO) << "REST submission of " << id.ToString() << " by " << who.user << " from "
            << request.remote_address;
  // Jersey labels the empty 202 with the resource's JSON type.
  HttpResponse accepted = HttpResponse::Json(202, "");
  accepted.headers.emplace_back("Location", RequestUrl(request) + "/" + id.ToString());
  return accepted;
}

HttpResponse UpdateState(const AppWriteDeps& deps, const HttpRequest& request) {
  HttpResponse refused;
  std::optional<json::JsonValue> body = ReadBody(request, "appstate", &refused);
  if (!body.has_value()) return refused;
  const json::JsonValue* target = body->is_object() ? body->Find("state") : nullptr;
  const json::JsonValue* diagnostics = body->is_object() ? body->Find("diagnostics") : nullptr;
  const std::string app_id = request.PathParam("appid");
  RestError error;
  auto app = FindApp(*deps.core, app_id, &error);
  if (!app.ok()) return RenderError(request, error);
  const std::string target_state =
      target != nullptr && (target->is_string() || target->is_number()) ? target->text() : "";
  if (target_state == rm::Name(app->state)) return RenderDocument(request, AppStateDocument(*app));
  if (target_state != "KILLED") {
    return RenderError(request,
                       RestError::BadRequest("Only 'KILLED' is allowed as a target state."));
  }
  const ipc::ConnectionIdentity who = Who(request, deps.callers);
  y::KillApplicationRequestProto kill;
  client_service::ToProto(app->submission.id, kill.mutable_application_id());
  if (diagnostics != nullptr && diagnostics->is_string()) kill.set_diagnostics(diagnostics->text());
  y::KillApplicationResponseProto killed;
  Status status = deps.client->ForceKillApplication(who, kill, &killed);
  if (!status.ok()) {
    if (status.message().find(rm::yarn::kAccessControl) != std::string::npos) {
      return HttpResponse::Text(
          403, "Unauthorized attempt to kill appid " + app_id + " by remote user " + who.user);
    }
    return RenderError(
        request, RestError::Of(status.java_class().empty() ? std::string(rm::yarn::kYarnException)
                                                           : std::string(status.java_class()),
                               status.message()));
  }
  auto now = deps.core->ApplicationReport(app->submission.id);
  const rm::RmApp& current = now.ok() ? *now : *app;
  if (killed.is_kill_completed()) return RenderDocument(request, AppStateDocument(current));
  HttpResponse accepted = RenderDocument(request, AppStateDocument(current), 202);
  accepted.headers.emplace_back("Location", RequestUrl(request));
  return accepted;
}

}  // namespace

// RMWebServices.signalToContainer (Hadoop 3.3): an unknown command is 400
// with its text; the call goes through ClientRMService.signalToContainer,
// whose exceptions (a bad id, an absent container, access) answer 500 with
// their message; else 200, empty. Java makes that call as the RM's own user;
// Spindle makes it as the web caller, so that yarn.acl.enable applies.
HttpResponse SignalToContainer(const AppWriteDeps& deps, const HttpRequest& request) {
  std::string command = request.path_params.at("command");
  std::transform(command.begin(), command.end(), command.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  y::SignalContainerCommandProto value;
  if (!y::SignalContainerCommandProto_Parse(command, &value)) {
    return HttpResponse::Text(400, "Invalid command: " + command +
                                       ", valid commands are: [OUTPUT_THREAD_DUMP, "
                                       "GRACEFUL_SHUTDOWN, FORCEFUL_SHUTDOWN]");
  }
  const std::string& text = request.path_params.at("containerid");
  auto id = rm::ContainerId::Parse(text);
  if (!id.ok()) return HttpResponse::Text(500, "Invalid ContainerId: " + text);
  y::SignalContainerRequestProto signal;
  client_service::ToProto(*id, signal.mutable_container_id());
  signal.set_command(value);
  y::SignalContainerResponseProto response;
  Status s = deps.client->SignalToContainer(Who(request, deps.callers), signal, &response);
  if (!s.ok()) return HttpResponse::Text(500, s.message());
  return HttpResponse::Text(200, "");
}

void AddAppWriteRoutes(Router* router, const AppWriteDeps& deps) {
  CHECK(deps.client != nullptr && deps.core != nullptr) << "AppWriteDeps needs client and core";
  router->Add(HttpMethod::kPost, "/ws/v1/cluster/apps/new-application",
              [deps](const HttpRequest& request) { return NewApplication(deps, request); });
  router->Add(HttpMethod::kPost, "/ws/v1/cluster/apps",
              [deps](const HttpRequest& request) { return Submit(deps, request); });
  router->Add(HttpMethod::kPut, "/ws/v1/cluster/apps/{appid}/state",
              [deps](const HttpRequest& request) { return UpdateState(deps, request); });
  router->Add(HttpMethod::kPost, "/ws/v1/cluster/containers/{containerid}/signal/{command}",
              [deps](const HttpRequest& request) { return SignalToContainer(deps, request); });
}

}  // namespace spindle::web::rest
