#include "rm/security/container_token_secret_manager.h"

#include <glog/logging.h>

namespace spindle::rm {

Status ContainerTokenSecretManager::Options::Validate() const {
  if (token_expiry_ms <= 0) {
    return Status::InvalidArgument("container token expiry must be positive, got " +
                                   std::to_string(token_expiry_ms) + " ms");
  }
  return keys.Validate();
}

Result<std::unique_ptr<ContainerTokenSecretManager>> ContainerTokenSecretManager::Create(
    Options options, const Clock* clock) {
  options.keys.family = KeyFamily::kContainerTokens;
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto keys, MasterKeyManager::Create(options.keys, clock));
  return std::unique_ptr<ContainerTokenSecretManager>(
      new ContainerTokenSecretManager(std::move(options), std::move(keys), clock));
}

ContainerTokenSecretManager::ContainerTokenSecretManager(Options options,
                                                         std::unique_ptr<MasterKeyManager> keys,
                                                         const Clock* clock)
    : options_(std::move(options)), keys_(std::move(keys)), clock_(clock) {}

Token ContainerTokenSecretManager::CreateContainerToken(
    const ContainerTokenRequest& request) const {
  // One signing key, so that its id and bytes match even across a roll; its
  // HMAC key schedule is made once per key (MasterKeyManager), not here.
  const SigningKey key = keys_->CurrentSigningKey();
  ContainerTokenStamp stamp;
  stamp.expiry_time_ms = clock_->WallMillis() + options_.token_expiry_ms;
  stamp.master_key_id = key.key_id;
  stamp.rm_identifier = options_.rm_identifier;
  Token token;
  token.identifier = EncodeContainerTokenIdentifier(request, stamp, options_.layout);
  token.password = key.hmac->Sign(token.identifier);
  token.kind = kContainerTokenKind;
  token.service = request.nm_service;
  VLOG(2) << "container token for " << request.container_id.ToString() << " on "
          << request.node_id.ToString() << " under key " << key.key_id;
  return token;
}

}  // namespace spindle::rm
