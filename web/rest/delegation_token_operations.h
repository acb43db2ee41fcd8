// The RM's delegation-token operations over Token URL strings, for the web
// filter's ?op=GETDELEGATIONTOKEN / RENEWDELEGATIONTOKEN /
// CANCELDELEGATIONTOKEN management calls (web/auth/authentication_filter.h
// rule 6): Hadoop 3.3's DelegationTokenManager over the RM's own
// RMDelegationTokenSecretManager (RMAuthenticationFilter is handed it by
// RMWebAppUtil.setupSecurityAndFilters), so the tokens are exactly those
// the RPC side and the REST routes issue, renew and cancel.
//
// Thread-safety: free functions over the thread-safe core; no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "rm/core/client_facade.h"

namespace spindle::web::rest {

// DelegationTokenManager.createToken: a token owned by `owner` (its real
// user `real_user`, empty for none) for `renewer`, the Token's service set
// when `service` is given; its URL string (Token.encodeToUrlString).
Result<std::string> CreateDelegationTokenUrlString(rm::ClientFacade& core, const std::string& owner,
                                                   const std::string& real_user,
                                                   const std::string& renewer,
                                                   const std::optional<std::string>& service);

// renewToken / cancelToken of the token in `url_string`; text that is no
// token is a java.io.IOException (decodeFromUrlString), the secret
// manager's refusals keep their class (SecretManager$InvalidToken,
// AccessControlException).
Result<int64_t> RenewDelegationTokenUrlString(rm::ClientFacade& core, std::string_view url_string,
                                              const std::string& renewer);
Status CancelDelegationTokenUrlString(rm::ClientFacade& core, std::string_view url_string,
                                      const std::string& canceller);

}  // namespace spindle::web::rest
