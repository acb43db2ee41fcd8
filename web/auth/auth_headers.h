// The HTTP headers of Hadoop's web authentication, read and written as
// hadoop-auth 3.3 does:
//   - "Authorization: Negotiate <base64>" (KerberosAuthenticationHandler:
//     the value must start with "Negotiate", case-sensitive; the rest,
//     trimmed, is Base64);
//   - the `hadoop.auth` cookie among the request's Cookie headers (the
//     first one wins; surrounding double quotes are dropped, as the servlet
//     container's cookie parser does);
//   - the Set-Cookie that carries it (AuthenticationFilter.createAuthCookie):
//     hadoop.auth="<value>"; Path=..; Domain=..; Expires=..; HttpOnly, the
//     value left out (and so empty) when a request is refused, Expires only
//     for persistent cookies.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"
#include "web/http/http_message.h"

namespace spindle::web::auth {

inline constexpr char kAuthCookieName[] = "hadoop.auth";
inline constexpr char kNegotiate[] = "Negotiate";

// The client's Negotiate token: nullopt when the request has no
// Authorization header or one that does not start with "Negotiate" (the
// handshake starts then); InvalidArgument when what follows is not Base64
// or is empty.
Result<std::optional<std::string>> NegotiateToken(const HttpRequest& request);

// The value of the first `hadoop.auth` cookie, unquoted; nullopt without one.
std::optional<std::string> AuthCookieValue(const HttpRequest& request);

struct AuthCookieAttributes {
  std::optional<std::string> domain;
  std::optional<std::string> path;
  bool persistent = false;
};

// The Set-Cookie value. `expires_millis` (epoch) is written only when
// `persistent` and >= 0, as "EEE, dd-MMM-yyyy HH:mm:ss GMT".
std::string AuthCookieHeader(const std::string& value, int64_t expires_millis,
                             const AuthCookieAttributes& attributes);

}  // namespace spindle::web::auth
