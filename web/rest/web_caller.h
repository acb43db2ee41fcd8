// Who a web request acts as: the user the web's filter chain (web/auth)
// authenticated or named (HttpRequest::remote_user: SPNEGO's short name,
// the hadoop.auth cookie's user, ?user.name= under simple authentication,
// the static user). Nobody (an anonymous request with no static-user
// filter after the authentication filter) acts as the static user
// `hadoop.http.staticuser.user` ("dr.who"), where Hadoop's web services
// would see no user at all. A request no chain saw (a route called
// directly) acts as Hadoop's default non-secure chain would make it: the
// `user.name` query parameter if given, else the static user. ACL checks
// (yarn.acl.enable) then apply to that user, as on the RPC side.
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
