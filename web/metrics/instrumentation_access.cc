#include "web/metrics/instrumentation_access.h"

namespace spindle::web {

std::optional<HttpResponse> CheckInstrumentationAccess(const HttpRequest& request,
                                                       const MetricsDeps& deps) {
  if (deps.conf == nullptr) return std::nullopt;
  // A malformed boolean counts as the default, as Hadoop's getBoolean does.
  auto requires_admin = deps.conf->GetBool("hadoop.security.instrumentation.requires.admin", false);
  if (!requires_admin.ok() || !*requires_admin) return std::nullopt;
  auto authorization = deps.conf->GetBool("hadoop.security.authorization", false);
  if (!authorization.ok() || !*authorization) return std::nullopt;
  // HttpServer2.hasAdministratorAccess asks getRemoteUser(): the filter
  // chain's user; without a chain, ?user.name as pseudo authentication gives.
  const std::optional<std::string> user =
      request.remote_user.has_value() ? request.remote_user : request.Query("user.name");
  if (!user.has_value() || user->empty()) {
    return HttpResponse::Text(403, "Unauthenticated users are not authorized to access this page.");
  }
  if (!deps.is_admin || !deps.is_admin(*user)) {
    return HttpResponse::Text(403, "User " + *user + " is unauthorized to access this page.");
  }
  return std::nullopt;
}

}  // namespace spindle::web
