#include "web/auth/authentication_filter.h"

#include <glog/logging.h>
#include <strings.h>

#include "base/base64.h"
#include "security/kerberos_credentials.h"
#include "web/auth/auth_headers.h"
#include "web/auth/filter_answers.h"

namespace spindle::web::auth {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr char kWwwAuthenticate[] = "WWW-Authenticate";
constexpr char kPseudoAuth[] = "PseudoAuth";

// DelegationTokenAuthenticator.DELEGATION_TOKEN_HEADER, RMAuthenticationFilter's
// OLD_HEADER, KerberosDelegationTokenAuthenticator.DELEGATION_PARAM.
constexpr char kDelegationTokenHeader[] = "X-Hadoop-Delegation-Token";
constexpr char kOldDelegationTokenHeader[] = "Hadoop-YARN-Auth-Delegation-Token";
constexpr char kDelegationParam[] = "delegation";

// The first header `name` (any case), if present (possibly empty).
std::optional<std::string> HeaderIfPresent(const HttpRequest& request, const char* name) {
  for (const auto& [key, value] : request.headers) {
    if (strcasecmp(key.c_str(), name) == 0) return value;
  }
  return std::nullopt;
}

// DelegationTokenAuthenticationHandler.getDelegationToken behind
// RMAuthenticationFilter's header fallback.
std::optional<std::string> DelegationTokenOf(const HttpRequest& request) {
  std::optional<std::string> token = HeaderIfPresent(request, kDelegationTokenHeader);
  if (!token.has_value() || token->empty()) {
    std::optional<std::string> old = HeaderIfPresent(request, kOldDelegationTokenHeader);
    if (old.has_value() && !old->empty()) token = std::move(old);
  }
  if (token.has_value()) return token;
  return request.Query(kDelegationParam);
}

}  // namespace

// What the handler (simple or kerberos) made of a request without a cookie.
struct AuthenticationFilter::Outcome {
  enum class Kind { kToken, kAnonymous, kChallenge, kRefused };
  Kind kind = Kind::kRefused;
  AuthToken token;
  Headers headers;
  std::string message;
  // Authenticated by a delegation token (rule 5); a refusal then is the
  // AuthenticationException JSON, not the filter's error page.
  bool by_delegation_token = false;
};

AuthenticationFilter::AuthenticationFilter(HttpAuthOptions options, AuthenticationFilterDeps deps,
                                           std::optional<security::AuthToLocal> name_rules,
                                           std::unique_ptr<security::SpnegoAcceptor> acceptor,
                                           std::unique_ptr<CookieSigner> signer)
    : options_(std::move(options)),
      deps_(std::move(deps)),
      name_rules_(std::move(name_rules)),
      acceptor_(std::move(acceptor)),
      signer_(std::move(signer)) {}

Result<std::unique_ptr<AuthenticationFilter>> AuthenticationFilter::Create(
    const HttpAuthOptions& options, AuthenticationFilterDeps deps) {
  CHECK(options.filter != AuthFilterKind::kNone);
  CHECK(deps.clock != nullptr);
  std::unique_ptr<SignerSecrets> secrets;
  if (options.secret_file.has_value()) {
    Result<std::unique_ptr<SignerSecrets>> file = FileSignerSecrets(*options.secret_file);
    if (file.ok()) {
      secrets = std::move(file).value();
    } else if (file.status().code() == Status::Code::kIoError) {
      // AuthenticationFilter.constructSecretProvider falls back to random
      // (core-default names a file few clusters create).
      LOG(INFO) << file.status().message() << "; signing hadoop.auth cookies with a random "
                << "secret instead";
    } else {
      return file.status();
    }
  }
  if (secrets == nullptr) {
    secrets = std::make_unique<RandomSignerSecrets>(deps.clock,
                                                    std::chrono::seconds(options.validity_seconds));
  }
  std::unique_ptr<security::SpnegoAcceptor> acceptor;
  std::optional<security::AuthToLocal> name_rules = deps.auth_to_local;
  if (options.type == AuthType::kKerberos) {
    ASSIGN_OR_RETURN(acceptor,
                     security::SpnegoAcceptor::Create({options.principal, options.keytab}));
    if (options.name_rules.has_value()) {
      security::RuleMechanism mechanism = security::RuleMechanism::kHadoop;
      if (options.name_rules_mechanism.has_value()) {
        ASSIGN_OR_RETURN(mechanism,
                         security::AuthToLocal::ParseMechanism(*options.name_rules_mechanism));
      }
      Result<std::string> realm = security::DefaultKerberosRealm();
      ASSIGN_OR_RETURN(name_rules, security::AuthToLocal::Parse(*options.name_rules, mechanism,
                                                                realm.ok() ? *realm : ""));
    }
    CHECK(name_rules.has_value()) << "kerberos needs auth_to_local rules";
    LOG(INFO) << "HTTP SPNEGO: using keytab " << options.keytab << " for principal "
              << options.principal;
  }
  return std::unique_ptr<AuthenticationFilter>(
      new AuthenticationFilter(options, std::move(deps), std::move(name_rules), std::move(acceptor),
                               std::make_unique<CookieSigner>(std::move(secrets))));
}

Result<std::optional<AuthToken>> AuthenticationFilter::TokenFromCookie(
    const HttpRequest& request) const {
  const std::optional<std::string> cookie = AuthCookieValue(request);
  if (!cookie.has_value()) return std::optional<AuthToken>();
  if (cookie->empty()) return Status::Unauthorized("Unauthorized access");
  ASSIGN_OR_RETURN(const std::string text, signer_->VerifyAndExtract(*cookie));
  Result<AuthToken> token = AuthToken::Parse(text);
  if (!token.ok()) return Status::Unauthorized(token.status().message());
  if (token->type != options_.TokenType()) {
    return Status::Unauthorized("Invalid AuthenticationToken type");
  }
  if (token->IsExpired(deps_.clock->WallMillis())) {
    return Status::Unauthorized("AuthenticationToken expired");
  }
  return std::optional<AuthToken>(std::move(token).value());
}

AuthenticationFilter::Outcome AuthenticationFilter::AuthenticateSimple(
    const HttpRequest& request) const {
  Outcome outcome;
  const std::optional<std::string> user = request.Query("user.name");
  if (!user.has_value()) {
    if (options_.anonymous_allowed) {
      outcome.kind = Outcome::Kind::kAnonymous;
    } else {
      outcome.kind = Outcome::Kind::kChallenge;
      outcome.headers.emplace_back(kWwwAuthenticate, kPseudoAuth);
    }
    return outcome;
  }
  if (user->empty() || user->find('&') != std::string::npos) {
    outcome.message = "userName is NULL, empty or contains a '&'";
    return outcome;
  }
  outcome.kind = Outcome::Kind::kToken;
  outcome.token = AuthToken{*user, *user, options_.TokenType()};
  return outcome;
}

AuthenticationFilter::Outcome AuthenticationFilter::AuthenticateKerberos(
    const HttpRequest& request) const {
  Outcome outcome;
  for (const std::string& endpoint : options_.endpoint_whitelist) {
    if (request.path == endpoint) {
      outcome.kind = Outcome::Kind::kAnonymous;
      return outcome;
    }
  }
  Result<std::optional<std::string>> token = NegotiateToken(request);
  if (!token.ok()) {
    outcome.message = token.status().message();
    return outcome;
  }
  if (!token->has_value()) {
    outcome.kind = Outcome::Kind::kChallenge;
    outcome.headers.emplace_back(kWwwAuthenticate, kNegotiate);
    return outcome;
  }
  Result<security::SpnegoAcceptance> accepted = acceptor_->Accept(**token);
  if (!accepted.ok()) {
    outcome.message = accepted.status().message();
    return outcome;
  }
  if (!accepted->reply_token.empty()) {
    outcome.headers.emplace_back(
        kWwwAuthenticate, std::string(kNegotiate) + " " + Base64Encode(accepted->reply_token));
  }
  if (!accepted->established) {
    outcome.kind = Outcome::Kind::kChallenge;
    return outcome;
  }
  Result<std::string> user = name_rules_->ShortName(accepted->client_principal);
  if (!user.ok()) {
    outcome.message = user.status().message();
    return outcome;
  }
  outcome.kind = Outcome::Kind::kToken;
  outcome.token = AuthToken{*user, accepted->client_principal, options_.TokenType()};
  return outcome;
}

Result<std::string> AuthenticationFilter::ShortNameOf(const std::string& user) const {
  if (deps_.auth_to_local.has_value()) return deps_.auth_to_local->ShortName(user);
  if (name_rules_.has_value()) return name_rules_->ShortName(user);
  return user;
}

std::optional<AuthenticationFilter::Outcome> AuthenticationFilter::AuthenticateDelegationToken(
    const HttpRequest& request) const {
  if (options_.filter != AuthFilterKind::kResourceManager || !deps_.verify_delegation_token) {
    return std::nullopt;
  }
  std::optional<std::string> encoded = DelegationTokenOf(request);
  if (!encoded.has_value()) return std::nullopt;
  Outcome outcome;
  outcome.by_delegation_token = true;
  Result<std::string> owner = deps_.verify_delegation_token(*encoded);
  Result<std::string> user = owner.ok() ? ShortNameOf(*owner) : owner.status();
  if (!user.ok()) {
    // new AuthenticationException(cause): the cause's toString().
    const std::string& cause = user.status().java_class();
    outcome.message = (cause.empty() ? std::string("java.io.IOException") : cause) + ": " +
                      user.status().message();
    return outcome;
  }
  outcome.kind = Outcome::Kind::kToken;
  // An ephemeral token: it expires at once (0), so no cookie is made of it.
  outcome.token = AuthToken{*user, *owner, options_.TokenType()};
  outcome.token.expires = 0;
  return outcome;
}

AuthenticationFilter::Outcome AuthenticationFilter::Authenticate(const HttpRequest& request) const {
  if (std::optional<Outcome> by_token = AuthenticateDelegationToken(request)) {
    return std::move(*by_token);
  }
  return options_.type == AuthType::kKerberos ? AuthenticateKerberos(request)
                                              : AuthenticateSimple(request);
}

HttpResponse AuthenticationFilter::Refuse(int status, const std::string& message,
                                          Headers headers) const {
  // A 401 must tell the client how to authenticate; without that Hadoop
  // answers 403.
  bool challenges = false;
  for (const auto& [name, value] : headers) challenges |= name == kWwwAuthenticate;
  if (status == 401 && !challenges) status = 403;
  HttpResponse response = ErrorPage(status, message);
  response.headers = std::move(headers);
  response.headers.emplace_back(
      "Set-Cookie",
      AuthCookieHeader("", 0,
                       {options_.cookie_domain, options_.cookie_path, options_.cookie_persistent}));
  return response;
}

namespace {

// KerberosDelegationTokenAuthenticator.DelegationTokenOperation: the
// operation, its HTTP method and whether it needs the caller's own
// credentials.
struct TokenOperation {
  enum class Kind { kGet, kRenew, kCancel };
  Kind kind;
  const char* name;
  HttpMethod method;
  const char* method_name;
  bool needs_credentials;
};

constexpr TokenOperation kTokenOperations[] = {
    {TokenOperation::Kind::kGet, "GETDELEGATIONTOKEN", HttpMethod::kGet, "GET", true},
    {TokenOperation::Kind::kRenew, "RENEWDELEGATIONTOKEN", HttpMethod::kPut, "PUT", true},
    {TokenOperation::Kind::kCancel, "CANCELDELEGATIONTOKEN", HttpMethod::kPut, "PUT", false},
};

// new AuthenticationException(ex.toString(), ex): the cause's toString().
std::string CauseText(const Status& status) {
  return (status.java_class().empty() ? std::string("java.io.IOException") : status.java_class()) +
         ": " + status.message();
}

}  // namespace

std::optional<HttpResponse> AuthenticationFilter::RefuseProxy(const AuthToken& token,
                                                              const std::string& doas,
                                                              const HttpRequest& request) const {
  Status allowed = deps_.authorize_proxy
                       ? deps_.authorize_proxy(token.principal, doas, request.remote_address)
                       : Status::Unauthorized("User: " + token.principal +
                                              " is not allowed to impersonate " + doas);
  if (allowed.ok()) return std::nullopt;
  LOG_EVERY_N(WARNING, 100) << "Authentication exception: " << allowed.message();
  return HttpResponse::Json(403,
                            RemoteExceptionJson(allowed.message(), kAuthorizationExceptionClass));
}

std::optional<HttpResponse> AuthenticationFilter::ManagementOperation(
    const HttpRequest& request, const std::optional<AuthToken>& cookie) const {
  if (options_.filter != AuthFilterKind::kResourceManager || !deps_.token_operations.has_value() ||
      request.method == HttpMethod::kOptions) {
    return std::nullopt;
  }
  const std::optional<std::string> op = request.Query("op");
  if (!op.has_value()) return std::nullopt;
  const TokenOperation* operation = nullptr;
  for (const TokenOperation& known : kTokenOperations) {
    if (strcasecmp(op->c_str(), known.name) == 0) operation = &known;
  }
  if (operation == nullptr) return std::nullopt;
  if (request.method != operation->method) {
    return ErrorPage(400, std::string("Wrong HTTP method [") + MethodName(request.method) +
                              "] for operation [" + operation->name + "], it should be [" +
                              operation->method_name + "]");
  }
  std::optional<AuthToken> token = cookie;
  Headers headers;
  if (operation->needs_credentials && !token.has_value()) {
    // The handler's own authentication: never a delegation token.
    Outcome outcome = options_.type == AuthType::kKerberos ? AuthenticateKerberos(request)
                                                           : AuthenticateSimple(request);
    headers = std::move(outcome.headers);
    switch (outcome.kind) {
      case Outcome::Kind::kRefused:
        LOG_EVERY_N(WARNING, 100) << "Authentication exception: " << outcome.message;
        return Refuse(403, outcome.message, std::move(headers));
      case Outcome::Kind::kChallenge: {
        // What the handler wrote: its status and challenge, no body.
        HttpResponse challenge =
            HttpResponse::Text(options_.type == AuthType::kKerberos ? 401 : 403, "");
        challenge.headers = std::move(headers);
        return challenge;
      }
      case Outcome::Kind::kAnonymous:
        return Refuse(403, "Anonymous requests cannot carry out delegation token operations",
                      std::move(headers));
      case Outcome::Kind::kToken:
        token = std::move(outcome.token);
        break;
    }
  }
  const auto answer = [&headers](HttpResponse response) {
    for (auto& header : headers) response.headers.push_back(std::move(header));
    return response;
  };
  // The request's UGI: the token's user name, or the ?doAs= proxy on it.
  std::string user;
  std::string real_user;
  if (token.has_value()) {
    user = token->user;
    if (std::optional<std::string> doas = DoAsParameter(request); doas.has_value()) {
      if (std::optional<HttpResponse> refused = RefuseProxy(*token, *doas, request)) {
        return answer(std::move(*refused));
      }
      real_user = token->user;
      user = *doas;
    }
  }
  const AuthenticationFilterDeps::DelegationTokenOperations& manager = *deps_.token_operations;
  const auto missing_token = [&] {
    return answer(ErrorPage(
        400, std::string("Operation [") + operation->name + "] requires the parameter [token]"));
  };
  switch (operation->kind) {
    case TokenOperation::Kind::kGet: {
      Result<std::string> renewer = request.Query("renewer").has_value()
                                        ? Result<std::string>(*request.Query("renewer"))
                                        : ShortNameOf(user);
      Result<std::string> url_string =
          renewer.ok() ? manager.create(user, real_user, *renewer, request.Query("service"))
                       : renewer.status();
      if (!url_string.ok()) return Refuse(403, CauseText(url_string.status()), std::move(headers));
      std::string escaped;
      for (char c : *url_string) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
      }
      return answer(HttpResponse::Json(200, "{\"Token\":{\"urlString\":\"" + escaped + "\"}}\n"));
    }
    case TokenOperation::Kind::kRenew: {
      const std::optional<std::string> url_string = request.Query("token");
      if (!url_string.has_value()) return missing_token();
      Result<std::string> renewer = ShortNameOf(user);
      Result<int64_t> expiry =
          renewer.ok() ? manager.renew(*url_string, *renewer) : renewer.status();
      if (!expiry.ok()) return Refuse(403, CauseText(expiry.status()), std::move(headers));
      return answer(HttpResponse::Json(200, "{\"long\":" + std::to_string(*expiry) + "}\n"));
    }
    case TokenOperation::Kind::kCancel: {
      const std::optional<std::string> url_string = request.Query("token");
      if (!url_string.has_value()) return missing_token();
      // Without a caller, the token's owner cancels (DelegationTokenManager.
      // cancelToken: verifyToken(token).getShortUserName()).
      Result<std::string> canceller = std::string();
      if (token.has_value()) {
        canceller = ShortNameOf(user);
      } else {
        Result<std::string> owner = deps_.verify_delegation_token(*url_string);
        canceller = owner.ok() ? ShortNameOf(*owner) : owner.status();
      }
      Status cancelled =
          canceller.ok() ? manager.cancel(*url_string, *canceller) : canceller.status();
      if (!cancelled.ok()) {
        LOG_EVERY_N(WARNING, 100) << "Delegation token not cancelled: " << cancelled.ToString();
        return answer(ErrorPage(404, "Invalid delegation token, cannot cancel"));
      }
      return answer(HttpResponse::Text(200, ""));
    }
  }
  return std::nullopt;
}

HttpResponse AuthenticationFilter::Handle(const HttpRequest& request,
                                          const HttpHandler& next) const {
  const int64_t now = deps_.clock->WallMillis();
  std::string ignored_because;
  std::optional<AuthToken> token;
  bool new_token = false;
  Result<std::optional<AuthToken>> from_cookie = TokenFromCookie(request);
  if (from_cookie.ok()) {
    token = std::move(from_cookie).value();
  } else {
    ignored_because = from_cookie.status().message();
    LOG_EVERY_N(WARNING, 100) << "AuthenticationToken ignored: " << ignored_because;
  }
  if (std::optional<HttpResponse> managed = ManagementOperation(request, token)) {
    return std::move(*managed);
  }
  Headers headers;
  bool by_delegation_token = false;
  if (!token.has_value()) {
    Outcome outcome = Authenticate(request);
    headers = std::move(outcome.headers);
    by_delegation_token = outcome.by_delegation_token;
    switch (outcome.kind) {
      case Outcome::Kind::kRefused:
        if (by_delegation_token) {
          // The handler wrote the answer itself (the response is committed:
          // no emptied cookie follows).
          LOG_EVERY_N(WARNING, 100) << "Delegation token refused: " << outcome.message;
          return HttpResponse::Json(
              403, RemoteExceptionJson(outcome.message, kAuthenticationExceptionClass));
        }
        LOG_EVERY_N(WARNING, 100) << "Authentication exception: " << outcome.message;
        return Refuse(403, outcome.message, std::move(headers));
      case Outcome::Kind::kChallenge:
        return Refuse(401, ignored_because.empty() ? "Authentication required" : ignored_because,
                      std::move(headers));
      case Outcome::Kind::kAnonymous:
        break;
      case Outcome::Kind::kToken:
        token = std::move(outcome.token);
        if (token->expires != 0) token->expires = now + options_.validity_seconds * 1000;
        new_token = true;
        break;
    }
  } else if (!options_.cookie_persistent && options_.max_inactive_seconds > 0) {
    // A session cookie in use stays alive another inactive interval.
    token->max_inactives = now + options_.max_inactive_seconds * 1000;
    new_token = true;
  }
  if (token.has_value() && new_token && !token->IsExpired(now)) {
    headers.emplace_back("Set-Cookie",
                         AuthCookieHeader(signer_->Sign(token->ToString()), token->expires,
                                          {options_.cookie_domain, options_.cookie_path,
                                           options_.cookie_persistent}));
  }
  HttpRequest forwarded = request;
  forwarded.remote_user = token.has_value() ? token->user : std::string();
  forwarded.user_principal = token.has_value() ? token->principal : std::string();
  forwarded.by_delegation_token = by_delegation_token;
  if (token.has_value()) {
    // DelegationTokenAuthenticationFilter reports its handler's method;
    // hadoop-auth's filter the token's type.
    forwarded.auth_type = options_.filter != AuthFilterKind::kResourceManager ? token->type
                          : options_.type == AuthType::kKerberos              ? "KERBEROS"
                                                                              : "SIMPLE";
  }
  // A request a delegation token authenticated acts as the token's owner
  // (as on the RPC side, ?doAs= is ignored then).
  if (token.has_value() && options_.filter == AuthFilterKind::kResourceManager &&
      !by_delegation_token) {
    if (std::optional<std::string> doas = DoAsParameter(request); doas.has_value()) {
      if (std::optional<HttpResponse> refused = RefuseProxy(*token, *doas, request)) {
        refused->headers = std::move(headers);
        return std::move(*refused);
      }
      // UGI.createProxyUser(doAs, real): getRemoteUser() is its short name,
      // the principal its name.
      forwarded.remote_user = *doas;
      forwarded.user_principal = *doas;
    }
  }
  HttpResponse response = next(forwarded);
  for (auto& header : headers) response.headers.push_back(std::move(header));
  return response;
}

}  // namespace spindle::web::auth
