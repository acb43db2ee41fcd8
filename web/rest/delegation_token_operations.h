// The RM's delegation-token operations for the web filter's
// ?op=GETDELEGATIONTOKEN / RENEWDELEGATIONTOKEN / CANCELDELEGATIONTOKEN
// management calls (web/auth/authentication_filter.h rule 6): Hadoop 3.3's
// DelegationTokenManager over the RM's own RMDelegationTokenSecretManager
// (RMAuthenticationFilter is handed it by RMWebAppUtil.setupSecurityAndFilters),
// so the tokens are exactly those the RPC side and the REST routes issue,
// renew and cancel.
//
// Thread-safety: the operations call the thread-safe core; no I/O.
#pragma once

#include "rm/core/client_facade.h"
#include "web/auth/authentication_filter.h"

namespace spindle::web::rest {

// Over `core` (required; must outlive the operations):
//   create: DelegationTokenManager.createToken: owned by the owner (its real
//           user when proxied) for the renewer, the Token's service set when
//           given; its URL string (Token.encodeToUrlString);
//   renew / cancel: renewToken / cancelToken of the token in the URL string.
// Text that is no token is a java.io.IOException (decodeFromUrlString); the
// secret manager's refusals keep their class (SecretManager$InvalidToken,
// AccessControlException).
auth::AuthenticationFilterDeps::DelegationTokenOperations FilterTokenOperations(
    rm::ClientFacade* core);

}  // namespace spindle::web::rest
