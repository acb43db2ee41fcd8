#include "rm/security/amrm_token_secret_manager.h"

#include <glog/logging.h>

#include "base/crypto.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {

namespace {

Status InvalidToken(const std::string& message) {
  return Status::Remote(kInvalidTokenClass, message, Status::Code::kUnauthorized);
}

}  // namespace

Result<std::unique_ptr<AmrmTokenSecretManager>> AmrmTokenSecretManager::Create(
    KeyRollingOptions keys, const Clock* clock) {
  keys.family = KeyFamily::kAmrmTokens;
  ASSIGN_OR_RETURN(auto manager, MasterKeyManager::Create(std::move(keys), clock));
  return std::unique_ptr<AmrmTokenSecretManager>(new AmrmTokenSecretManager(std::move(manager)));
}

AmrmTokenSecretManager::AmrmTokenSecretManager(std::unique_ptr<MasterKeyManager> keys)
    : keys_(std::move(keys)) {}

Token AmrmTokenSecretManager::CreateToken(const ApplicationAttemptId& attempt) {
  const MasterKey key = keys_->Newest();
  Token token;
  token.identifier = EncodeAmrmTokenIdentifier(attempt, key.key_id);
  token.password = HmacSha1(key.bytes, token.identifier);
  token.kind = kAmrmTokenKind;
  {
    MutexLock lock(&mu_);
    attempts_.insert(attempt);
  }
  VLOG(1) << "AMRM token for " << attempt.ToString() << " under key " << key.key_id;
  return token;
}

void AmrmTokenSecretManager::AddRecoveredAttempt(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  attempts_.insert(attempt);
}

void AmrmTokenSecretManager::AttemptFinished(const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  if (attempts_.erase(attempt) > 0) {
    VLOG(1) << "AMRM token of " << attempt.ToString() << " no longer valid";
  }
}

bool AmrmTokenSecretManager::IsAttemptRegistered(const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  return attempts_.contains(attempt);
}

Result<AmrmTokenSecret> AmrmTokenSecretManager::RetrieveSecret(std::string_view identifier) const {
  auto decoded = DecodeAmrmTokenIdentifier(identifier);
  // Java's SASL server: the identifier did not deserialize.
  if (!decoded.ok()) return InvalidToken("Can't de-serialize tokenIdentifier");
  // Java prints a missing attempt id as "null".
  const std::string user = decoded->attempt.has_value() ? decoded->attempt->ToString() : "null";
  bool registered = false;
  if (decoded->attempt.has_value()) {
    MutexLock lock(&mu_);
    registered = attempts_.contains(*decoded->attempt);
  }
  if (!registered) return InvalidToken(user + " not found in AMRMTokenSecretManager.");
  const std::optional<MasterKey> key = keys_->Find(decoded->key_id);
  if (!key.has_value()) return InvalidToken("Invalid AMRMToken from " + user);
  return AmrmTokenSecret{HmacSha1(key->bytes, identifier), user};
}

bool AmrmTokenSecretManager::NeedsNewToken(int32_t presented_key_id) const {
  const std::optional<MasterKey> next = keys_->Next();
  return next.has_value() && next->key_id != presented_key_id;
}

}  // namespace spindle::rm
