#include "web/rest/scheduler_conf_routes.h"

#include "web/rest/rest_response.h"

namespace spindle::web::rest {

namespace {

// RMWebServices.initForWritableEndpoints(caller, true) in SIMPLE mode.
std::optional<HttpResponse> RefuseNonAdmin(const HttpRequest& request,
                                           const SchedulerConfDeps& deps) {
  const client_service::ClientRmServiceOptions& options = deps.client->options();
  if (!options.access.acl_enabled) return std::nullopt;
  const std::string user = WebCaller(request, deps.callers);
  const bool admin =
      deps.is_admin ? deps.is_admin(user) : options.access.admin_acl.IsUserAllowed(user, {});
  if (admin) return std::nullopt;
  return RenderError(request, RestError::Forbidden("Only admins can carry out this operation."));
}

HttpHandler NotMutable(const SchedulerConfDeps& deps, std::string text) {
  return [deps, text = std::move(text)](const HttpRequest& request) {
    if (auto refused = RefuseNonAdmin(request, deps)) return *refused;
    return TextEntity(request, 400, text);
  };
}

}  // namespace

void AddSchedulerConfRoutes(Router* router, const SchedulerConfDeps& deps) {
  router->Add(HttpMethod::kPut, "/ws/v1/cluster/scheduler-conf",
              NotMutable(deps, "Configuration change only supported by MutableConfScheduler."));
  router->Add(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf",
              NotMutable(deps,
                         "This API only supports to retrieve scheduler configuration from a "
                         "mutable-conf scheduler, underneath scheduler CapacityScheduler is not "
                         "an instance of MutableConfScheduler"));
  router->Add(HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf/version",
              NotMutable(deps, "Configuration Version only supported by MutableConfScheduler."));
  router->Add(
      HttpMethod::kGet, "/ws/v1/cluster/scheduler-conf/format",
      NotMutable(deps, "Scheduler Configuration format only supported by MutableConfScheduler."));
  router->Add(
      HttpMethod::kPost, "/ws/v1/cluster/scheduler-conf/validate",
      NotMutable(deps, "Configuration change validation only supported by MutableConfScheduler."));
}

}  // namespace spindle::web::rest
