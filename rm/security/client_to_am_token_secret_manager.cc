#include "rm/security/client_to_am_token_secret_manager.h"

#include "base/crypto.h"
#include "rm/security/yarn_id_protos.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {

std::string ClientToAmTokenSecretManager::MasterKey(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  auto [it, inserted] = keys_.try_emplace(attempt);
  if (inserted) it->second = SecureRandomBytes(kKeyLength);
  return it->second;
}

std::optional<Token> ClientToAmTokenSecretManager::CreateToken(const ApplicationAttemptId& attempt,
                                                               const std::string& client) const {
  std::string key;
  {
    MutexLock lock(&mu_);
    auto it = keys_.find(attempt);
    if (it == keys_.end()) return std::nullopt;
    key = it->second;
  }
  hadoop::yarn::ClientToAMTokenIdentifierProto identifier;
  ToProto(attempt, identifier.mutable_appattemptid());
  identifier.set_clientname(client);
  Token token;
  token.identifier = identifier.SerializeAsString();
  token.password = HmacSha1(key, token.identifier);
  token.kind = kClientToAmTokenKind;
  return token;
}

void ClientToAmTokenSecretManager::AttemptFinished(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  keys_.erase(attempt);
}

}  // namespace spindle::rm
