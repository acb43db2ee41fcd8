#include "rm/security/nm_token_secret_manager.h"

#include <glog/logging.h>

#include "rm/security/token_identifiers.h"

namespace spindle::rm {

Result<std::unique_ptr<NmTokenSecretManager>> NmTokenSecretManager::Create(KeyRollingOptions keys,
                                                                           const Clock* clock) {
  keys.family = KeyFamily::kNmTokens;
  ASSIGN_OR_RETURN(auto manager, MasterKeyManager::Create(std::move(keys), clock));
  return std::unique_ptr<NmTokenSecretManager>(new NmTokenSecretManager(std::move(manager)));
}

NmTokenSecretManager::NmTokenSecretManager(std::unique_ptr<MasterKeyManager> keys)
    : keys_(std::move(keys)) {}

Token NmTokenSecretManager::CreateToken(const ApplicationAttemptId& attempt, const NodeId& node,
                                        std::string_view app_submitter,
                                        std::string_view nm_service) const {
  const SigningKey key = keys_->CurrentSigningKey();
  Token token;
  token.identifier = EncodeNmTokenIdentifier(attempt, node, app_submitter, key.key_id);
  token.password = key.hmac->Sign(token.identifier);
  token.kind = kNmTokenKind;
  token.service = std::string(nm_service);
  VLOG(2) << "NMToken for " << attempt.ToString() << " on " << node.ToString() << " under key "
          << key.key_id;
  return token;
}

std::vector<NmTokenSecretManager::NodeToken> NmTokenSecretManager::CreateTokensForNewNodes(
    const ApplicationAttemptId& attempt, std::string_view app_submitter,
    const std::vector<NodeAddress>& nodes) {
  std::vector<NodeToken> tokens;
  MutexLock lock(&mu_);
  auto it = nodes_with_tokens_.find(attempt);
  if (it == nodes_with_tokens_.end()) return tokens;
  for (const NodeAddress& address : nodes) {
    if (!it->second.insert(address.node).second) continue;
    tokens.push_back(NodeToken{address.node,
                               CreateToken(attempt, address.node, app_submitter, address.service)});
  }
  return tokens;
}

void NmTokenSecretManager::RegisterAttempt(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  nodes_with_tokens_[attempt].clear();
}

void NmTokenSecretManager::UnregisterAttempt(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  nodes_with_tokens_.erase(attempt);
}

bool NmTokenSecretManager::IsAttemptRegistered(const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  return nodes_with_tokens_.contains(attempt);
}

bool NmTokenSecretManager::HasTokenFor(const ApplicationAttemptId& attempt,
                                       const NodeId& node) const {
  MutexLock lock(&mu_);
  auto it = nodes_with_tokens_.find(attempt);
  return it != nodes_with_tokens_.end() && it->second.contains(node);
}

void NmTokenSecretManager::RemoveNode(const NodeId& node) {
  MutexLock lock(&mu_);
  for (auto& [attempt, nodes] : nodes_with_tokens_) nodes.erase(node);
}

KeyTransitions NmTokenSecretManager::Advance() {
  MutexLock lock(&mu_);
  const KeyTransitions done = keys_->Advance();
  if (done.activated > 0) {
    for (auto& [attempt, nodes] : nodes_with_tokens_) nodes.clear();
  }
  return done;
}

}  // namespace spindle::rm
