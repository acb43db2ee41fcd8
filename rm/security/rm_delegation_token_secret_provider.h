// RmDelegationTokenSecretProvider: lets the IPC layer's SASL DIGEST-MD5
// server on the ApplicationClientProtocol port (8032) authenticate clients
// with their RM delegation token, as Hadoop's RM does (its 8032 server takes
// RMDelegationTokenSecretManager as secret manager and offers TOKEN and
// SIMPLE; WIRE.md 3.1). A token authenticates while it is known and its
// renew date has not passed; the connection's user is the token's owner.
// Header-only for the same reason as AmrmTokenSecretProvider: rm/security
// links no IPC code.
//
// Thread-safety: as RmDelegationTokenSecretManager::RetrieveSecret():
// thread-safe, non-blocking, no I/O; fit for I/O threads.
#pragma once

#include <string_view>
#include <utility>

#include "am_protocol/ipc/token_secret_provider.h"
#include "rm/security/rm_delegation_token_secret_manager.h"

namespace spindle::rm {

class RmDelegationTokenSecretProvider final : public ipc::TokenSecretProvider {
 public:
  // `manager` is not owned and must outlive the provider.
  explicit RmDelegationTokenSecretProvider(const RmDelegationTokenSecretManager* manager)
      : manager_(manager) {}

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto secret = manager_->RetrieveSecret(identifier);
    if (!secret.ok()) return secret.status();
    return ipc::TokenSecret{std::move(secret->password), std::move(secret->user)};
  }

 private:
  const RmDelegationTokenSecretManager* const manager_;
};

}  // namespace spindle::rm
