// The RM web filter's delegation-token check (web/auth/authentication_filter.h
// rule 5): Hadoop 3.3's DelegationTokenAuthenticationHandler hands the token
// of ?delegation= / X-Hadoop-Delegation-Token to DelegationTokenManager.
// verifyToken over the RM's own RMDelegationTokenSecretManager
// (RMWebAppUtil.setupSecurityAndFilters sets it on RMAuthenticationFilter),
// so the tokens that authenticate REST calls are exactly those the RM
// issues, renews and cancels over RPC and REST.
//
// Thread-safety: a free function over the thread-safe core; no I/O.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "rm/core/client_facade.h"

namespace spindle::web::rest {

// The owner (the identifier's full user name) of the RM delegation token in
// `url_string` (Token.encodeToUrlString), once it verifies as the secret
// manager's verifyToken does, in its order: the identifier decodes, the
// token is known and its renew date has not passed (checkToken), the
// password matches. Else the refusal with the class of Java's cause:
// SecretManager$InvalidToken ("token (<id>) can't be found in cache", "...
// is expired", "... is invalid, password doesn't match"), java.io.
// IOException for text that is no token (decodeFromUrlString). The kind is
// not checked, as Java does not: a token of another kind is unknown.
Result<std::string> VerifyDelegationTokenUrlString(const rm::ClientFacade& core,
                                                   std::string_view url_string);

}  // namespace spindle::web::rest
