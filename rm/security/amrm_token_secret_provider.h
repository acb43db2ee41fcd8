// AmrmTokenSecretProvider: lets the IPC layer's SASL DIGEST-MD5 server on the
// ApplicationMasterProtocol port ask the AMRM secret manager for a token's
// password and user. Header-only on purpose: token_secret_provider.h is a
// pure interface, so rm/security depends on no IPC code and links none.
//
// Thread-safety: as AmrmTokenSecretManager::RetrieveSecret(): thread-safe,
// non-blocking, no I/O; fit for I/O threads.
#pragma once

#include <string_view>
#include <utility>

#include "am_protocol/ipc/token_secret_provider.h"
#include "rm/security/amrm_token_secret_manager.h"

namespace spindle::rm {

class AmrmTokenSecretProvider final : public ipc::TokenSecretProvider {
 public:
  // `manager` is not owned and must outlive the provider.
  explicit AmrmTokenSecretProvider(const AmrmTokenSecretManager* manager) : manager_(manager) {}

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto secret = manager_->RetrieveSecret(identifier);
    if (!secret.ok()) return secret.status();
    return ipc::TokenSecret{std::move(secret->password), std::move(secret->user)};
  }

 private:
  const AmrmTokenSecretManager* const manager_;
};

}  // namespace spindle::rm
