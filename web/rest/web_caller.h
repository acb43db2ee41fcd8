// Who a web request acts as. Without Kerberos HTTP authentication Hadoop's
// RM puts its simple authentication filter and the static-user filter in
// front of the web services (RMWebAppUtil.setupSecurityAndFilters): the
// caller is the `user.name` query parameter if given, else the static
// user `hadoop.http.staticuser.user` ("dr.who"). ACL checks (yarn.acl.enable)
// then apply to that user, as on the RPC side.
//
// Thread-safety: values and pure functions.
#pragma once

#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "web/http/http_message.h"

namespace spindle::web::rest {

struct WebCallerOptions {
  // hadoop.http.staticuser.user. Default: "dr.who".
  std::string static_user = "dr.who";

  static WebCallerOptions FromConfiguration(const rm::Configuration& conf);
};

// The user `request` acts as.
std::string WebCaller(const HttpRequest& request, const WebCallerOptions& options);

}  // namespace spindle::web::rest
