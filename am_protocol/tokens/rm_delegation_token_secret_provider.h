// RmDelegationTokenSecretProvider: lets the IPC layer's SASL DIGEST-MD5
// server on the ApplicationClientProtocol port (8032) authenticate clients
// with their RM delegation token, as Hadoop's RM does (its 8032 server takes
// RMDelegationTokenSecretManager as secret manager and offers TOKEN and
// SIMPLE; WIRE.md 3.1). A token authenticates while it is known and its
// renew date has not passed; the connection's user is the token's owner.
// Lives beside AmrmTokenSecretProvider, on the wire side, for the same
// reason: rm/ depends on no IPC code.
//
// Thread-safety: as rm::RmDelegationTokenSecretManager::RetrieveSecret():
// thread-safe, non-blocking, no I/O; fit for I/O threads.
#pragma once

#include <string_view>
#include <utility>

#include "rm/security/rm_delegation_token_secret_manager.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::am_protocol {

class RmDelegationTokenSecretProvider final : public ipc::TokenSecretProvider {
 public:
  // `manager` is not owned and must outlive the provider.
  explicit RmDelegationTokenSecretProvider(const rm::RmDelegationTokenSecretManager* manager)
      : manager_(manager) {}

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto secret = manager_->RetrieveSecret(identifier);
    if (!secret.ok()) return secret.status();
    return ipc::TokenSecret{std::move(secret->password), std::move(secret->user)};
  }

 private:
  const rm::RmDelegationTokenSecretManager* const manager_;
};

}  // namespace spindle::am_protocol
