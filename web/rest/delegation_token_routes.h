// RM delegation tokens over REST, as Hadoop 3.3's RMWebServices serves them
// (postDelegationToken, postDelegationTokenExpiration,
// cancelDelegationToken and the DelegationToken DAO; followed on every
// line: 2.6 and 2.7 have the same endpoints, DAO and Kerberos checks but no
// static-user refusal), through the RM core's RmDelegationTokenSecretManager
// (the engine the RPC side's getDelegationToken uses).
//
//   POST   /ws/v1/cluster/delegation-token             body {"renewer": "<u>"}
//          (JSON, or <delegation-token><renewer>..</renewer></delegation-token>)
//          200 DelegationToken {token (Token.encodeToUrlString), renewer (as
//          asked), owner, kind, expiration-time (the renew date),
//          max-validity (the identifier's maxDate)}; JSON without the root,
//          as JAXBContextResolver unwraps DelegationToken.
//   POST   /ws/v1/cluster/delegation-token/expiration  header
//          Hadoop-YARN-RM-Delegation-Token: <url string>
//          200 {"expiration-time": <new renew date>}.
//   DELETE /ws/v1/cluster/delegation-token             the same header
//          200, empty.
//
// The caller is the request's principal (getUserPrincipal().getName(), as
// RMWebServices reads it with usePrincipal: the full Kerberos principal, or
// the ?doAs= user), and in that order (Java's create reads its body first):
//   * none: 401 AuthorizationException "Unable to obtain user name, user not
//     authenticated";
//   * the static user with security on: 403 ForbiddenException "The default
//     static user cannot carry out this operation.";
//   * an auth type other than kerberos: 403, text "Delegation token
//     operations can only be carried out on a Kerberos authenticated
//     channel. Expected auth type is kerberos, got type <type|null>";
//   * authenticated by a delegation token: 403, text "Delegation token
//     operations cannot be carried out using delegation token
//     authentication.".
// The token's owner is that principal (ClientRMService.getDelegationToken
// under callerUGI.doAs: the UGI's user name) and no real user; renew runs
// as its short name (getRenewerForToken: getShortUserName, by
// hadoop.security.auth_to_local) and cancel as the full name.
//
// Bad input: no header 400 BadRequestException "Header
// 'Hadoop-YARN-RM-Delegation-Token' containing encoded token not found",
// an undecodable one 400 "Could not decode encoded token"; on renew and
// cancel the secret manager's InvalidToken is 400 BadRequestException with
// its message, its AccessControlException 403 with the message as text; any
// other failure 500 UndeclaredThrowableException (what callerUGI.doAs
// throws for the YarnException), its message the cause's text where Java
// has none. Departures: a create body without a renewer is 400
// BadRequestException (Java fails with a NullPointerException, 500); a
// principal hadoop.security.auth_to_local cannot map is 400
// IllegalArgumentException "Illegal principal name ..." on renew (Java's
// UserGroupInformation throws it, 500).
//
// Thread-safety: handlers run concurrently; the core is thread-safe.
#pragma once

#include <functional>
#include <string>

#include "base/result.h"
#include "rm/core/client_facade.h"
#include "web/http/router.h"
#include "web/rest/web_caller.h"

namespace spindle::web::rest {

// RMWebServices.DELEGATION_TOKEN_HEADER.
inline constexpr char kRmDelegationTokenHeader[] = "Hadoop-YARN-RM-Delegation-Token";

struct DelegationTokenRouteDeps {
  // Required; must outlive the router.
  rm::ClientFacade* core = nullptr;
  WebCallerOptions callers;
  // hadoop.security.authentication=kerberos (UGI.isSecurityEnabled).
  bool security_enabled = false;
  // A principal's short name by hadoop.security.auth_to_local
  // (UGI.getShortUserName), thread-safe. Unset:
  // RmDelegationTokenSecretManager::ShortName (the DEFAULT rule's result).
  std::function<Result<std::string>(const std::string& principal)> short_name;
};

void AddDelegationTokenRoutes(Router* router, const DelegationTokenRouteDeps& deps);

}  // namespace spindle::web::rest
