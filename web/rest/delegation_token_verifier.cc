#include "web/rest/delegation_token_verifier.h"

#include "base/crypto.h"
#include "rm/security/amrm_token_secret_manager.h"  // kInvalidTokenClass
#include "rm/security/credentials.h"
#include "rm/security/token_identifiers.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::web::rest {

Result<std::string> VerifyDelegationTokenUrlString(const rm::ClientFacade& core,
                                                   std::string_view url_string) {
  Result<rm::Token> token = rm::DecodeTokenUrlString(url_string);
  if (!token.ok()) {
    return Status::Remote(ipc::java::kIoException, token.status().message(),
                          Status::Code::kUnauthorized);
  }
  // checkToken (known, not expired), then the password.
  ASSIGN_OR_RETURN(const rm::RmDelegationTokenSecret secret,
                   core.RetrieveDelegationTokenSecret(token->identifier));
  if (!SameBytesConstantTime(secret.password, token->password)) {
    Result<rm::RmDelegationTokenIdentifier> id =
        rm::DecodeRmDelegationTokenIdentifier(token->identifier);
    return Status::Remote(rm::kInvalidTokenClass,
                          "token (" + (id.ok() ? id->ToString() : std::string()) +
                              ") is invalid, password doesn't match",
                          Status::Code::kUnauthorized);
  }
  return secret.user;
}

}  // namespace spindle::web::rest
