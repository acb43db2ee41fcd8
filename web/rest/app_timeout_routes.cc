#include "web/rest/app_timeout_routes.h"

#include <glog/logging.h>

#include <algorithm>
#include <optional>

#include "am_protocol/client_service/iso8601_time.h"
#include "am_protocol/client_service/record_protos.h"
#include "base/strings/trim.h"
#include "rm/yarn_exceptions.h"
#include "web/rest/app_lookup.h"
#include "web/rest/rest_params.h"
#include "web/rest/write_request.h"

namespace spindle::web::rest {

namespace {

namespace y = hadoop::yarn;

// The only ApplicationTimeoutType of Hadoop 3.3.
constexpr char kLifetime[] = "LIFETIME";

// RMWebServices.constructAppTimeoutDao: "UNLIMITED" and -1 without a value.
RestNode TimeoutNode(const rm::RmApp& app, int64_t now_ms) {
  RestNode timeout;
  timeout.Str("type", kLifetime);
  if (app.lifetime_expiry_ms.has_value()) {
    timeout.Str("expiryTime", client_service::FormatIso8601(*app.lifetime_expiry_ms))
        .Int("remainingTimeInSeconds",
             std::max<int64_t>((*app.lifetime_expiry_ms - now_ms) / 1000, 0));
  } else {
    timeout.Str("expiryTime", "UNLIMITED").Int("remainingTimeInSeconds", -1);
  }
  return timeout;
}

int64_t NowMs(const AppWriteDeps& deps) { return deps.client->clock().WallMillis(); }

HttpResponse Timeouts(const AppWriteDeps& deps, const HttpRequest& request) {
  RestError error;
  auto app = FindAppParam(*deps.core, request.PathParam("appid"), &error);
  if (!app.has_value()) return RenderError(request, error);
  RestNode body;
  body.Items("timeout", {TimeoutNode(*app, NowMs(deps))});
  return RenderDocument(request, RestDocument("timeouts", std::move(body)));
}

HttpResponse Timeout(const AppWriteDeps& deps, const HttpRequest& request) {
  RestError error;
  auto app = FindAppParam(*deps.core, request.PathParam("appid"), &error);
  if (!app.has_value()) return RenderError(request, error);
  // ApplicationTimeoutType.valueOf(toUpperCase(type.trim())).
  const std::string type(TrimBlanks(request.PathParam("type")));
  if (UpperAscii(type) != kLifetime) {
    return RenderError(
        request, RestError::BadRequest("Invalid application-state " + type +
                                       " specified. It should be one of [" + kLifetime + "]"));
  }
  return RenderDocument(request, RestDocument("timeout", TimeoutNode(*app, NowMs(deps))));
}

// Java answers these String entities with the resource's JSON type.
HttpResponse TextAnswer(int status, std::string text) {
  return HttpResponse::Json(status, std::move(text));
}

HttpResponse UpdateTimeout(const AppWriteDeps& deps, const HttpRequest& request) {
  HttpResponse refused;
  std::optional<json::JsonValue> body = ReadBody(request, "timeout", &refused);
  if (!body.has_value()) return refused;
  const std::string app_id = request.PathParam("appid");
  RestError error;
  auto app = FindAppParam(*deps.core, app_id, &error);
  if (!app.has_value()) return RenderError(request, error);
  // JSON keeps AppTimeoutInfo's root ("timeout"); the XML reader already
  // stripped it. JAXB leaves a field it cannot read at its default: type
  // null, expiryTime "UNLIMITED".
  const json::JsonValue* fields = &*body;
  if (!BodyIsXml(request)) {
    fields = body->is_object() ? body->Find("timeout") : nullptr;
  }
  const json::JsonValue* type =
      fields != nullptr && fields->is_object() ? fields->Find("type") : nullptr;
  const json::JsonValue* expiry =
      fields != nullptr && fields->is_object() ? fields->Find("expiryTime") : nullptr;
  const bool type_ok = type != nullptr && type->is_string() && type->text() == kLifetime;
  const bool expiry_null = expiry != nullptr && expiry->is_null();
  if (!type_ok || expiry_null) return TextAnswer(400, "Timeout type or ExpiryTime is null.");
  const std::string expiry_time =
      expiry == nullptr ? "UNLIMITED"
                        : (expiry->is_string() || expiry->is_number() ? expiry->text() : "");

  const ipc::ConnectionIdentity who = Who(request, deps.callers);
  y::UpdateApplicationTimeoutsRequestProto update;
  client_service::ToProto(app->submission.id, update.mutable_applicationid());
  y::ApplicationUpdateTimeoutMapProto* entry = update.add_application_timeouts();
  entry->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  entry->set_expire_time(expiry_time);
  y::UpdateApplicationTimeoutsResponseProto updated;
  Status status = deps.client->UpdateApplicationTimeouts(who, update, &updated);
  if (!status.ok()) {
    const std::string& message = status.message();
    if (message.find(rm::yarn::kAccessControl) != std::string::npos) {
      return TextAnswer(403, "Unauthorized attempt to change timeout of app " + app_id +
                                 " by remote user " + who.user);
    }
    if (message.rfind("Expire time is not in ISO8601 format", 0) == 0) {
      return TextAnswer(400, message);
    }
    // Rethrown from doAs: Jersey reports the wrapper, which has no message,
    // with GenericExceptionHandler's status for an unmapped exception (500).
    return RenderError(
        request, RestError::Of("java.lang.reflect.UndeclaredThrowableException", std::nullopt));
  }
  auto now = deps.core->ApplicationReport(app->submission.id);
  return RenderDocument(request,
                        RestDocument("timeout", TimeoutNode(now.ok() ? *now : *app, NowMs(deps))));
}

}  // namespace

void AddAppTimeoutRoutes(Router* router, const AppWriteDeps& deps) {
  CHECK(deps.client != nullptr && deps.core != nullptr) << "AppWriteDeps needs client and core";
  router->Add(HttpMethod::kGet, "/ws/v1/cluster/apps/{appid}/timeouts",
              [deps](const HttpRequest& request) { return Timeouts(deps, request); });
  router->Add(HttpMethod::kGet, "/ws/v1/cluster/apps/{appid}/timeouts/{type}",
              [deps](const HttpRequest& request) { return Timeout(deps, request); });
  router->Add(HttpMethod::kPut, "/ws/v1/cluster/apps/{appid}/timeout",
              [deps](const HttpRequest& request) { return UpdateTimeout(deps, request); });
}

}  // namespace spindle::web::rest
