// AuthenticationFilter: the RM web's authentication, in front of every path
// (REST /ws/v1/..., /jmx, /conf, /logLevel, /stacks, /metrics, /isActive
// and the UI), as Hadoop 3.3's AuthenticationFilter (and the RM's
// DelegationTokenAuthenticationFilter around it) runs on every URL of the
// RM's HttpServer2:
//
// 1. A `hadoop.auth` cookie whose signature checks, whose type is this
//    filter's and which has not expired names the user; nothing else is
//    asked. A tampered, foreign-typed or expired cookie is ignored (and its
//    reason becomes the message of a refusal).
// 2. Otherwise the handler authenticates:
//    simple:   ?user.name=<u>; without one, anonymous (no user) when
//              hadoop.http.authentication.simple.anonymous.allowed, else
//              401 with "WWW-Authenticate: PseudoAuth";
//    kerberos: a path of kerberos.endpoint.whitelist is anonymous;
//              without "Authorization: Negotiate ..." 401 with
//              "WWW-Authenticate: Negotiate"; with one, the token is
//              accepted (SpnegoAcceptor, on the handler thread: the
//              credential was acquired at start) and the client principal
//              mapped to its short name (kerberos.name.rules, else
//              hadoop.security.auth_to_local); GSS-API's reply goes back in
//              "WWW-Authenticate: Negotiate <base64>". A token GSS-API
//              refuses, or that is not Base64, is answered 403 with the
//              reason, as Hadoop's filter answers an AuthenticationException.
//    A new token expires token.validity seconds from now and is sent signed
//    in Set-Cookie.
// 3. A refusal carries an emptied `hadoop.auth` cookie; a 401 without a
//    WWW-Authenticate becomes 403, as Hadoop's filter does.
// 4. The RM's flavour: ?doAs=<user> (any case) asks to act as another user;
//    `authorize_proxy` decides (hadoop.proxyuser.*), and without it, or
//    when it refuses, the answer is 403 with Hadoop's RemoteException JSON
//    ("User: <principal> is not allowed to impersonate <user>").
// 5. The RM's flavour with `verify_delegation_token` (Kerberos, as Hadoop
//    3.3 hands the RM's secret manager to RMAuthenticationFilter only
//    then): a request without a valid cookie that carries an RM delegation
//    token (header X-Hadoop-Delegation-Token, else the old
//    Hadoop-YARN-Auth-Delegation-Token when the new one is absent or empty,
//    else ?delegation=) is authenticated by the token alone, as
//    DelegationTokenAuthenticationHandler does (2.6 and 3.3 alike): the
//    user is the token's
//    owner, no cookie is issued, ?doAs= is ignored, and the request is
//    marked by_delegation_token (the RM's delegation-token endpoints refuse
//    such callers). A token that does not verify is 403 with the
//    RemoteException JSON of an AuthenticationException whose message is
//    the cause ("org.apache.hadoop.security.token.SecretManager$InvalidToken:
//    token (...) can't be found in cache").
// 6. The RM's flavour with `token_operations` (set with `verify_delegation_
//    token`): DelegationTokenAuthenticationHandler.managementOperation on
//    any path, before authentication, for ?op= (any case; not OPTIONS)
//    GETDELEGATIONTOKEN (GET; &renewer=, default the caller's short name;
//    &service=), RENEWDELEGATIONTOKEN (PUT; &token=) and
//    CANCELDELEGATIONTOKEN (PUT; &token=). Get and renew need the caller's
//    own credentials: the cookie's user, else the handler's SPNEGO (or
//    ?user.name=) alone, never a delegation token, no cookie issued (a
//    challenge is the handler's bare 401 + WWW-Authenticate: Negotiate).
//    The caller is the cookie's short user name (AuthenticationToken.
//    getUserName), or the ?doAs= user once `authorize_proxy` allows it
//    (else 403 AuthorizationException JSON): get makes a token owned by
//    that name (its real user the caller when proxied) and answers 200
//    {"Token":{"urlString":"..."}}; renew renews as the short name and
//    answers 200 {"long":<new expiry>}; cancel (no credentials needed: the
//    token's owner, by its short name, cancels) answers 200, empty. Errors
//    as the Java handler gives them: a wrong method 400 "Wrong HTTP method
//    [M] for operation [OP], it should be [GET|PUT]"; no &token= 400
//    "Operation [OP] requires the parameter [token]"; a get or renew the
//    secret manager refuses (or an undecodable token) is the filter's 403
//    whose message is the cause's "<class>: <message>"; any cancel failure
//    404 "Invalid delegation token, cannot cancel". An unknown ?op= is no
//    management call and passes on. Departure: an anonymous caller (a
//    kerberos.endpoint.whitelist path) is refused 403 (Java fails with an
//    IllegalArgumentException, 500).
//
// Behind the filter a request carries remote_user (the short name),
// user_principal (the full name, or the ?doAs= user) and auth_type
// ("KERBEROS"/"SIMPLE" behind the RM's filter, which reports its handler's
// method; the token type behind hadoop-auth's).
//
// Departures from Hadoop, both refusals where Java fails inside: a principal
// the name rules do not map is 403 (Java's IOException gives 500), and an
// empty ?user.name= is 403 (Java's IllegalArgumentException gives 500).
//
// Thread contract: Handle() from any thread, several at once.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "security/auth_to_local.h"
#include "security/spnego_acceptor.h"
#include "web/auth/auth_token.h"
#include "web/auth/cookie_signer.h"
#include "web/auth/http_auth_options.h"
#include "web/http/http_message.h"

namespace spindle::web::auth {

struct AuthenticationFilterDeps {
  // Required; must outlive the filter.
  const Clock* clock = nullptr;
  // hadoop.security.auth_to_local (used unless kerberos.name.rules is set);
  // required with kerberos.
  std::optional<security::AuthToLocal> auth_to_local;
  // May `real_principal` (who authenticated), calling from
  // `remote_address`, act as `doas_user`? OK or the refusal's message.
  // Unset: nobody may.
  std::function<Status(const std::string& real_principal, const std::string& doas_user,
                       const std::string& remote_address)>
      authorize_proxy;
  // The owner (full user name) of the RM delegation token in this URL
  // string (Token.encodeToUrlString), once it verifies as the RM's secret
  // manager verifyToken does; else the refusal (its java_class the cause's
  // class). Unset: no delegation-token authentication.
  std::function<Result<std::string>(std::string_view url_string)> verify_delegation_token;
  // The secret manager's operations behind rule 6; all three set, or none
  // (then ?op= is no management call). Thread-safe.
  struct DelegationTokenOperations {
    // A new token owned by `owner` (`real_user` empty unless proxied) for
    // `renewer`, its service `service` when given: its URL string.
    std::function<Result<std::string>(const std::string& owner, const std::string& real_user,
                                      const std::string& renewer,
                                      const std::optional<std::string>& service)>
        create;
    // The token's new expiry, renewed by `renewer` (a short name).
    std::function<Result<int64_t>(std::string_view url_string, const std::string& renewer)> renew;
    std::function<Status(std::string_view url_string, const std::string& canceller)> cancel;
  };
  std::optional<DelegationTokenOperations> token_operations;
};

class AuthenticationFilter {
 public:
  // `options.filter` must not be kNone. With kerberos the acceptor
  // credential is acquired here: an unusable keytab or principal fails.
  static Result<std::unique_ptr<AuthenticationFilter>> Create(const HttpAuthOptions& options,
                                                              AuthenticationFilterDeps deps);

  // What the filter lets through reaches `next` with remote_user set: the
  // user, or "" for an anonymous request.
  HttpResponse Handle(const HttpRequest& request, const HttpHandler& next) const;

 private:
  struct Outcome;
  AuthenticationFilter(HttpAuthOptions options, AuthenticationFilterDeps deps,
                       std::optional<security::AuthToLocal> name_rules,
                       std::unique_ptr<security::SpnegoAcceptor> acceptor,
                       std::unique_ptr<CookieSigner> signer);
  Result<std::optional<AuthToken>> TokenFromCookie(const HttpRequest& request) const;
  Outcome Authenticate(const HttpRequest& request) const;
  Outcome AuthenticateSimple(const HttpRequest& request) const;
  Outcome AuthenticateKerberos(const HttpRequest& request) const;
  // Set when the request carries a delegation token and the filter takes
  // them (rule 5).
  std::optional<Outcome> AuthenticateDelegationToken(const HttpRequest& request) const;
  // A user name's short name by hadoop.security.auth_to_local (UGI's
  // getShortUserName), else the HTTP name rules.
  Result<std::string> ShortNameOf(const std::string& user) const;
  HttpResponse Refuse(int status, const std::string& message,
                      std::vector<std::pair<std::string, std::string>> headers) const;
  // Rules 4 and 6: the 403 AuthorizationException JSON when `token`'s
  // principal may not act as `doas` (authorize_proxy), else nullopt.
  std::optional<HttpResponse> RefuseProxy(const AuthToken& token, const std::string& doas,
                                          const HttpRequest& request) const;
  // Rule 6: the answer to a management call, or nullopt when `request` is none. `token` is the
  // cookie's, if valid.
  std::optional<HttpResponse> ManagementOperation(const HttpRequest& request,
                                                  const std::optional<AuthToken>& token) const;

  const HttpAuthOptions options_;
  const AuthenticationFilterDeps deps_;
  // Set with kerberos.
  const std::optional<security::AuthToLocal> name_rules_;
  const std::unique_ptr<security::SpnegoAcceptor> acceptor_;
  const std::unique_ptr<CookieSigner> signer_;
};

}  // namespace spindle::web::auth
