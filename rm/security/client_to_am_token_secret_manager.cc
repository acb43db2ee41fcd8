#include "rm/security/client_to_am_token_secret_manager.h"

#include "base/crypto.h"
#include "rm/security/yarn_id_protos.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {

std::string ClientToAmTokenSecretManager::CreateMasterKey() {
  return SecureRandomBytes(kKeyLength);
}

void ClientToAmTokenSecretManager::RegisterApplication(const ApplicationAttemptId& attempt,
                                                       std::string key) {
  MutexLock lock(&mu_);
  keys_[attempt] = std::move(key);
}

void ClientToAmTokenSecretManager::UnregisterApplication(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  keys_.erase(attempt);
}

std::optional<std::string> ClientToAmTokenSecretManager::MasterKey(
    const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  auto it = keys_.find(attempt);
  if (it == keys_.end()) return std::nullopt;
  return it->second;
}

std::optional<Token> ClientToAmTokenSecretManager::CreateToken(const ApplicationAttemptId& attempt,
                                                               const std::string& client) const {
  std::optional<std::string> key = MasterKey(attempt);
  if (!key.has_value()) return std::nullopt;
  hadoop::yarn::ClientToAMTokenIdentifierProto identifier;
  ToProto(attempt, identifier.mutable_appattemptid());
  identifier.set_clientname(client);
  Token token;
  token.identifier = identifier.SerializeAsString();
  token.password = HmacSha1(*key, token.identifier);
  token.kind = kClientToAmTokenKind;
  return token;
}

size_t ClientToAmTokenSecretManager::size() const {
  MutexLock lock(&mu_);
  return keys_.size();
}

}  // namespace spindle::rm
