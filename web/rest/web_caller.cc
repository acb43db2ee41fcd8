#include "web/rest/web_caller.h"

namespace spindle::web::rest {

WebCallerOptions WebCallerOptions::FromConfiguration(const rm::Configuration& conf) {
  WebCallerOptions options;
  options.static_user = conf.GetTrimmed("hadoop.http.staticuser.user").value_or("dr.who");
  return options;
}

std::string WebCaller(const HttpRequest& request, const WebCallerOptions& options) {
  if (request.remote_user.has_value()) {
    return request.remote_user->empty() ? options.static_user : *request.remote_user;
  }
  std::optional<std::string> user = request.Query("user.name");
  if (user.has_value() && !user->empty()) return *user;
  return options.static_user;
}

}  // namespace spindle::web::rest
