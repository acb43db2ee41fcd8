// AmrmTokenSecretProvider: lets the IPC layer's SASL DIGEST-MD5 server on the
// ApplicationMasterProtocol port ask the AMRM secret manager for a token's
// password and user. It lives on the wire side (am_protocol/tokens) so that
// rm/ depends on no IPC code; header-only, as it is one call.
//
// The daemon gives it the RM core's lookup (ResourceManager::
// RetrieveAmrmSecret), which asks whichever activation is current; a test may
// give it one secret manager.
//
// Thread-safety: as rm::AmrmTokenSecretManager::RetrieveSecret(): thread-safe,
// non-blocking, no I/O; fit for I/O threads.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

#include "rm/security/amrm_token_secret_manager.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::am_protocol {

class AmrmTokenSecretProvider final : public ipc::TokenSecretProvider {
 public:
  using Lookup = std::function<Result<rm::AmrmTokenSecret>(std::string_view identifier)>;

  explicit AmrmTokenSecretProvider(Lookup lookup) : lookup_(std::move(lookup)) {}
  // `manager` is not owned and must outlive the provider.
  explicit AmrmTokenSecretProvider(const rm::AmrmTokenSecretManager* manager)
      : lookup_([manager](std::string_view identifier) {
          return manager->RetrieveSecret(identifier);
        }) {}

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto secret = lookup_(identifier);
    if (!secret.ok()) return secret.status();
    return ipc::TokenSecret{std::move(secret->password), std::move(secret->user)};
  }

 private:
  const Lookup lookup_;
};

}  // namespace spindle::am_protocol
