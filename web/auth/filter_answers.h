// What the RM web's authentication filter writes itself, shared by its
// authentication (authentication_filter.cc) and its delegation-token
// management calls (authentication_filter_management.cc): Hadoop 3.3's
// HttpExceptionUtils JSON, Jetty's error page, DelegationTokenAuthentication
// Filter.getDoAs.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "web/http/http_message.h"

namespace spindle::web::auth {

inline constexpr char kAuthorizationExceptionClass[] =
    "org.apache.hadoop.security.authorize.AuthorizationException";
inline constexpr char kAuthenticationExceptionClass[] =
    "org.apache.hadoop.security.authentication.client.AuthenticationException";

// HttpExceptionUtils.createServletExceptionResponse's body for an exception
// of `java_class` (getOneLineMessage: the message's first line).
std::string RemoteExceptionJson(const std::string& message, const std::string& java_class);

// The page of HttpServletResponse.sendError(status, message) on the RM's
// Jetty.
HttpResponse ErrorPage(int status, const std::string& message);

// DelegationTokenAuthenticationFilter.getDoAs: the first "doAs" parameter,
// its name in any case.
std::optional<std::string> DoAsParameter(const HttpRequest& request);

}  // namespace spindle::web::auth
