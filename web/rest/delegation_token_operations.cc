#include "web/rest/delegation_token_operations.h"

#include <glog/logging.h>

#include "rm/security/credentials.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::web::rest {
namespace {

Result<rm::Token> Decode(std::string_view url_string) {
  Result<rm::Token> token = rm::DecodeTokenUrlString(url_string);
  if (!token.ok()) {
    return Status::Remote(ipc::java::kIoException, token.status().message(),
                          Status::Code::kInvalidArgument);
  }
  return token;
}

}  // namespace

auth::AuthenticationFilterDeps::DelegationTokenOperations FilterTokenOperations(
    rm::ClientFacade* core) {
  CHECK(core != nullptr);
  auth::AuthenticationFilterDeps::DelegationTokenOperations operations;
  operations.create = [core](const std::string& owner, const std::string& real_user,
                             const std::string& renewer,
                             const std::optional<std::string>& service) -> Result<std::string> {
    ASSIGN_OR_RETURN(rm::Token token, core->CreateDelegationToken(owner, renewer, real_user));
    if (service.has_value()) token.service = *service;
    return rm::EncodeTokenUrlString(token);
  };
  operations.renew = [core](std::string_view url_string,
                            const std::string& renewer) -> Result<int64_t> {
    ASSIGN_OR_RETURN(const rm::Token token, Decode(url_string));
    return core->RenewDelegationToken(token, renewer);
  };
  operations.cancel = [core](std::string_view url_string, const std::string& canceller) {
    ASSIGN_OR_RETURN(const rm::Token token, Decode(url_string));
    return core->CancelDelegationToken(token, canceller);
  };
  return operations;
}

}  // namespace spindle::web::rest
