#include "security/delegation_token_access.h"

#include <string>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {

Status CheckDelegationTokenOp(bool security_enabled, ipc::AuthMethod real_auth_method,
                              DelegationTokenOp op) {
  if (!security_enabled || real_auth_method == ipc::AuthMethod::kKerberos) return Status::OK();
  const char* verb = op == DelegationTokenOp::kGet     ? "issued"
                     : op == DelegationTokenOp::kRenew ? "renewed"
                                                       : "cancelled";
  return Status::Remote(ipc::java::kIoException, std::string("Delegation Token can be ") + verb +
                                                     " only with kerberos authentication");
}

}  // namespace spindle::security
