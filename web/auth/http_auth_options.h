// HttpAuthOptions: how the RM's web authenticates callers, read from
// Hadoop's configuration as Hadoop 3.3's RM sets its HTTP server up
// (RMWebAppUtil.setupSecurityAndFilters, then HttpServer2's filter
// initializers and AuthenticationFilterInitializer's properties):
//
// hadoop.http.filter.initializers (core-default: StaticUserWebFilter) names
// the filters, in order. Spindle knows three and refuses to start on any
// other class, as Hadoop does on one it cannot load:
//   org.apache.hadoop.security.AuthenticationFilterInitializer
//   org.apache.hadoop.yarn.server.security.http.RMAuthenticationFilterInitializer
//   org.apache.hadoop.http.lib.StaticUserWebFilter
// With hadoop.security.authentication=kerberos, yarn.resourcemanager.webapp.
// delegation-token-auth-filter.enabled (default true) and
// hadoop.http.authentication.type=kerberos, AuthenticationFilterInitializer
// becomes RMAuthenticationFilterInitializer. Without Kerberos, an empty list
// becomes [RMAuthenticationFilterInitializer] and exactly StaticUserWebFilter
// becomes [RMAuthenticationFilterInitializer, StaticUserWebFilter], both
// with the type forced to simple: so by default a non-secure RM takes
// ?user.name (anonymous: the static user) and a secure RM authenticates
// only when the operator lists an authentication filter, as in Hadoop.
//
// The authentication filter's properties are hadoop.http.authentication.*:
//   type                         simple | kerberos (other handlers refused)
//   simple.anonymous.allowed     core-default true
//   kerberos.principal           core-default HTTP/_HOST@LOCALHOST; _HOST:
//                                the web server's bind host (its canonical
//                                name for 0.0.0.0); "*": every HTTP/ key of
//                                the keytab; set empty: refused
//   kerberos.keytab              core-default ${user.home}/hadoop.keytab
//   kerberos.name.rules          auth_to_local rules for HTTP only (default:
//                                hadoop.security.auth_to_local's)
//   kerberos.name.rules.mechanism
//   kerberos.endpoint.whitelist  paths ("/jmx") served anonymously (3.3)
//   token.validity               seconds, default 36000
//   token.max-inactive-interval  seconds, default -1 (off)
//   signer.secret.provider       file (default) | random
//   signature.secret.file        core-default ${user.home}/hadoop-http-auth-
//                                signature-secret; unreadable: a random
//                                secret, as Hadoop falls back
//   cookie.domain, cookie.path   path default "/"
//   cookie.persistent            default false
//
// Thread-safety: a value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "security/authentication_method.h"

namespace spindle::web::auth {

inline constexpr char kAuthenticationFilterInitializer[] =
    "org.apache.hadoop.security.AuthenticationFilterInitializer";
inline constexpr char kRmAuthenticationFilterInitializer[] =
    "org.apache.hadoop.yarn.server.security.http.RMAuthenticationFilterInitializer";
inline constexpr char kStaticUserWebFilter[] = "org.apache.hadoop.http.lib.StaticUserWebFilter";

// Which authentication filter runs.
enum class AuthFilterKind {
  kNone,
  // hadoop-auth's AuthenticationFilter: token types "simple", "kerberos".
  kHadoop,
  // The RM's (a DelegationTokenAuthenticationFilter): token types
  // "simple-dt", "kerberos-dt", and ?doAs= asks for a proxy user.
  kResourceManager,
};

enum class AuthType { kSimple, kKerberos };

struct HttpAuthOptions {
  AuthFilterKind filter = AuthFilterKind::kNone;
  // StaticUserWebFilter is installed; `static_user_last` when it comes after
  // the authentication filter (then an anonymous request runs as the static
  // user; before it, the authentication filter's "nobody" wins).
  bool static_user_filter = false;
  bool static_user_last = true;
  // hadoop.http.staticuser.user. Default: dr.who.
  std::string static_user = "dr.who";

  AuthType type = AuthType::kSimple;
  bool anonymous_allowed = true;
  // With kerberos: _HOST filled in.
  std::string principal;
  std::string keytab;
  std::optional<std::string> name_rules;
  std::optional<std::string> name_rules_mechanism;
  // Paths served without SPNEGO, as anonymous (kerberos.endpoint.whitelist).
  std::vector<std::string> endpoint_whitelist;

  int64_t validity_seconds = 36000;
  int64_t max_inactive_seconds = -1;
  // Empty: a random secret.
  std::optional<std::string> secret_file;
  std::optional<std::string> cookie_domain;
  std::optional<std::string> cookie_path = "/";
  bool cookie_persistent = false;

  // The token type this filter issues and accepts.
  std::string TokenType() const;

  // `bind_host` is the web server's (for _HOST). InvalidArgument names the
  // key and what is wrong: an unknown filter initializer, an unknown type
  // or secret provider, a bad number, kerberos without principal or keytab.
  static Result<HttpAuthOptions> FromConfiguration(const rm::Configuration& conf,
                                                   security::AuthenticationMethod method,
                                                   std::string_view bind_host);
};

}  // namespace spindle::web::auth
