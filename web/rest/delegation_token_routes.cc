#include "web/rest/delegation_token_routes.h"

#include <glog/logging.h>
#include <strings.h>

#include <optional>

#include "rm/security/amrm_token_secret_manager.h"  // kInvalidTokenClass
#include "rm/security/credentials.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/token_identifiers.h"
#include "web/rest/rest_response.h"
#include "web/rest/write_request.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::web::rest {

namespace {

constexpr char kAccessControlClass[] = "org.apache.hadoop.security.AccessControlException";
constexpr char kUndeclaredThrowableClass[] = "java.lang.reflect.UndeclaredThrowableException";

// RMWebServices.initForWritableEndpoints(caller, false) and
// createKerberosUserGroupInformation: the refusal, if any.
std::optional<HttpResponse> RefuseCaller(const HttpRequest& request,
                                         const DelegationTokenRouteDeps& deps) {
  if (request.user_principal.empty()) {
    return RenderError(
        request, RestError::Authorization("Unable to obtain user name, user not authenticated"));
  }
  if (deps.security_enabled && request.user_principal == deps.callers.static_user) {
    return RenderError(
        request, RestError::Forbidden("The default static user cannot carry out this operation."));
  }
  if (strcasecmp(request.auth_type.c_str(), "kerberos") != 0) {
    return TextEntity(request, 403,
                      "Delegation token operations can only be carried out on a Kerberos "
                      "authenticated channel. Expected auth type is kerberos, got type " +
                          (request.auth_type.empty() ? std::string("null") : request.auth_type));
  }
  if (request.by_delegation_token) {
    return TextEntity(request, 403,
                      "Delegation token operations cannot be carried out using delegation token "
                      "authentication.");
  }
  return std::nullopt;
}

// What renew and cancel check first: the caller (RefuseCaller), then
// extractToken: the header's token. nullopt with *refusal set otherwise.
std::optional<rm::Token> CallerAndToken(const HttpRequest& request,
                                        const DelegationTokenRouteDeps& deps,
                                        HttpResponse* refusal) {
  if (std::optional<HttpResponse> refused = RefuseCaller(request, deps)) {
    *refusal = std::move(*refused);
    return std::nullopt;
  }
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), kRmDelegationTokenHeader) != 0) continue;
    Result<rm::Token> token = rm::DecodeTokenUrlString(value);
    if (token.ok()) return std::move(token).value();
    *refusal = RenderError(request, RestError::BadRequest("Could not decode encoded token"));
    return std::nullopt;
  }
  *refusal = RenderError(request,
                         RestError::BadRequest(std::string("Header '") + kRmDelegationTokenHeader +
                                               "' containing encoded token not found"));
  return std::nullopt;
}

// What callerUGI.doAs rethrows for a failure of ClientRMService (a
// YarnException, checked: UndeclaredThrowableException), answered by
// GenericExceptionHandler with 500. Java's wrapper has no message; the
// cause's text is given instead.
HttpResponse Undeclared(const HttpRequest& request, const Status& cause) {
  LOG_EVERY_N(WARNING, 100) << "Delegation token request failed: " << cause.ToString();
  const std::string& java_class =
      cause.java_class().empty() ? std::string(ipc::java::kIoException) : cause.java_class();
  return RenderError(request,
                     RestError::Of(kUndeclaredThrowableClass, java_class + ": " + cause.message()));
}

// How renewDelegationToken / cancelDelegationToken answer the secret
// manager's refusals (the cause inside ClientRMService's YarnException).
HttpResponse SecretManagerRefusal(const HttpRequest& request, const Status& status) {
  if (status.java_class() == rm::kInvalidTokenClass) {
    return RenderError(request, RestError::BadRequest(status.message()));
  }
  if (status.java_class() == kAccessControlClass) return TextEntity(request, 403, status.message());
  return Undeclared(request, status);
}

HttpResponse Create(const HttpRequest& request, const DelegationTokenRouteDeps& deps) {
  HttpResponse unreadable;
  std::optional<json::JsonValue> body = ReadBody(request, "delegation-token", &unreadable);
  if (!body.has_value()) return unreadable;
  if (auto refused = RefuseCaller(request, deps)) return std::move(*refused);
  const json::JsonValue* renewer = body->Find("renewer");
  if (renewer == nullptr || !renewer->is_string()) {
    return RenderError(request,
                       RestError::BadRequest("The renewer of the delegation token is missing"));
  }
  Result<rm::Token> token =
      deps.core->CreateDelegationToken(request.user_principal, renewer->text(), "");
  if (!token.ok()) return Undeclared(request, token.status());
  // The DAO: the identifier's owner and maxDate, the secret manager's renew
  // date (getRenewDate).
  Result<rm::RmDelegationTokenIdentifier> identifier =
      rm::DecodeRmDelegationTokenIdentifier(token->identifier);
  if (!identifier.ok()) return Undeclared(request, identifier.status());
  Result<rm::RmDelegationTokenSecret> issued =
      deps.core->RetrieveDelegationTokenSecret(token->identifier);
  if (!issued.ok()) return Undeclared(request, issued.status());
  RestNode dao;
  dao.Str("token", rm::EncodeTokenUrlString(*token))
      .Str("renewer", renewer->text())
      .Str("owner", identifier->owner)
      .Str("kind", token->kind)
      .Int("expiration-time", issued->renew_date_ms)
      .Int("max-validity", identifier->max_date_ms);
  return RenderDocument(request, RestDocument("delegation-token", std::move(dao),
                                              RestDocument::JsonRoot::kUnwrapped));
}

HttpResponse Renew(const HttpRequest& request, const DelegationTokenRouteDeps& deps) {
  HttpResponse refusal;
  const std::optional<rm::Token> token = CallerAndToken(request, deps, &refusal);
  if (!token.has_value()) return refusal;
  Result<std::string> renewer =
      deps.short_name ? deps.short_name(request.user_principal)
                      : rm::RmDelegationTokenSecretManager::ShortName(request.user_principal);
  if (!renewer.ok()) {
    return RenderError(
        request, RestError::IllegalArgument("Illegal principal name " + request.user_principal +
                                            ": " + renewer.status().message()));
  }
  Result<int64_t> expiry = deps.core->RenewDelegationToken(*token, *renewer);
  if (!expiry.ok()) return SecretManagerRefusal(request, expiry.status());
  RestNode dao;
  dao.Int("expiration-time", *expiry);
  return RenderDocument(request, RestDocument("delegation-token", std::move(dao),
                                              RestDocument::JsonRoot::kUnwrapped));
}

HttpResponse Cancel(const HttpRequest& request, const DelegationTokenRouteDeps& deps) {
  HttpResponse refusal;
  const std::optional<rm::Token> token = CallerAndToken(request, deps, &refusal);
  if (!token.has_value()) return refusal;
  Status cancelled = deps.core->CancelDelegationToken(*token, request.user_principal);
  if (!cancelled.ok()) return SecretManagerRefusal(request, cancelled);
  return HttpResponse::Text(200, "");
}

}  // namespace

void AddDelegationTokenRoutes(Router* router, const DelegationTokenRouteDeps& deps) {
  CHECK(deps.core != nullptr);
  router->Add(HttpMethod::kPost, "/ws/v1/cluster/delegation-token",
              [deps](const HttpRequest& request) { return Create(request, deps); });
  router->Add(HttpMethod::kPost, "/ws/v1/cluster/delegation-token/expiration",
              [deps](const HttpRequest& request) { return Renew(request, deps); });
  router->Add(HttpMethod::kDelete, "/ws/v1/cluster/delegation-token",
              [deps](const HttpRequest& request) { return Cancel(request, deps); });
}

}  // namespace spindle::web::rest
