#include "rm/security/rm_delegation_token_secret_manager.h"

#include <glog/logging.h>

#include <algorithm>

#include "base/crypto.h"
#include "rm/security/amrm_token_secret_manager.h"  // kInvalidTokenClass
#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

int64_t Millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

Status InvalidToken(const std::string& message) {
  return Status::Remote(kInvalidTokenClass, message, Status::Code::kUnauthorized);
}

Status AccessDenied(const std::string& message) {
  return Status::Remote(yarn::kAccessControl, message, Status::Code::kUnauthorized);
}

// Compares without an early exit, so that the time taken does not tell how
// much of a guessed password was right (Java 3.x: MessageDigest.isEqual).
bool SameBytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
  }
  return diff == 0;
}

// Java: readFields() of a YARNDelegationTokenIdentifier throws the protobuf
// parser's IOException; the caller sees it as an IOException.
Status Undecodable(const Status& s) {
  return Status::Remote("java.io.IOException", "Can't de-serialize tokenIdentifier: " + s.message(),
                        Status::Code::kUnauthorized);
}

}  // namespace

Status RmDelegationTokenOptions::Validate() const {
  const std::pair<const char*, Duration> intervals[] = {
      {"key_update_interval", key_update_interval},
      {"renew_interval", renew_interval},
      {"max_lifetime", max_lifetime},
      {"removal_scan_interval", removal_scan_interval},
  };
  for (const auto& [name, value] : intervals) {
    if (value < std::chrono::milliseconds(1)) {
      return Status::InvalidArgument(std::string("RM delegation token ") + name +
                                     " must be at least 1 ms, got " +
                                     std::to_string(value.count()) + " ns");
    }
  }
  if (key_length == 0) return Status::InvalidArgument("RM delegation key_length must be positive");
  return Status::OK();
}

std::string RmDelegationTokenSecretManager::ShortName(std::string_view user) {
  const size_t end = user.find_first_of("/@");
  return std::string(end == std::string_view::npos ? user : user.substr(0, end));
}

Result<std::unique_ptr<RmDelegationTokenSecretManager>> RmDelegationTokenSecretManager::Create(
    RmDelegationTokenOptions options, const Clock* clock) {
  RETURN_NOT_OK(options.Validate());
  std::unique_ptr<RmDelegationTokenSecretManager> manager(
      new RmDelegationTokenSecretManager(std::move(options), clock));
  {
    MutexLock lock(&manager->mu_);
    const int64_t now = clock->WallMillis();
    manager->NewCurrentKey(now);
    manager->last_key_update_ms_ = now;
    manager->last_removal_scan_ms_ = now;
  }
  return manager;
}

RmDelegationTokenSecretManager::RmDelegationTokenSecretManager(RmDelegationTokenOptions options,
                                                               const Clock* clock)
    : options_(std::move(options)),
      clock_(clock),
      key_update_ms_(Millis(options_.key_update_interval)),
      renew_ms_(Millis(options_.renew_interval)),
      max_lifetime_ms_(Millis(options_.max_lifetime)),
      removal_scan_ms_(Millis(options_.removal_scan_interval)) {}

void RmDelegationTokenSecretManager::NewCurrentKey(int64_t now_ms) {
  const int32_t id = static_cast<int32_t>(++key_sequence_);
  keys_[id] =
      Key{SecureRandomBytes(options_.key_length), now_ms + key_update_ms_ + max_lifetime_ms_};
  current_key_id_ = id;
  LOG(INFO) << "RM delegation token master key " << id << " is current";
}

Token RmDelegationTokenSecretManager::CreateToken(std::string_view owner, std::string_view renewer,
                                                  std::string_view real_user) {
  RmDelegationTokenIdentifier id;
  id.owner = std::string(owner);
  id.renewer = ShortName(renewer);
  id.real_user = std::string(real_user);
  Token token;
  token.kind = kRmDelegationTokenKind;
  MutexLock lock(&mu_);
  const int64_t now = clock_->WallMillis();
  id.issue_date_ms = now;
  id.max_date_ms = now + max_lifetime_ms_;
  id.sequence_number = static_cast<int32_t>(++token_sequence_);
  id.master_key_id = current_key_id_;
  token.identifier = EncodeRmDelegationTokenIdentifier(id);
  token.password = HmacSha1(keys_.at(current_key_id_).bytes, token.identifier);
  tokens_[id] = TokenInfo{now + renew_ms_, token.password};
  LOG(INFO) << "Issued RM delegation token " << id.ToString();
  return token;
}

Result<int64_t> RmDelegationTokenSecretManager::Renew(const Token& token,
                                                      std::string_view renewer) {
  auto decoded = DecodeRmDelegationTokenIdentifier(token.identifier);
  if (!decoded.ok()) return Undecodable(decoded.status());
  const RmDelegationTokenIdentifier& id = *decoded;
  const std::string who(renewer);
  MutexLock lock(&mu_);
  const int64_t now = clock_->WallMillis();
  LOG(INFO) << "RM delegation token renewal by " << who << " for " << id.ToString();
  if (id.max_date_ms < now) return InvalidToken(who + " tried to renew an expired token");
  if (id.renewer.empty()) {
    return AccessDenied(who + " tried to renew a token without a renewer");
  }
  if (id.renewer != who) {
    return AccessDenied(who + " tries to renew a token with renewer " + id.renewer);
  }
  auto key = keys_.find(id.master_key_id);
  if (key == keys_.end()) {
    return InvalidToken("Unable to find master key for keyId=" + std::to_string(id.master_key_id) +
                        " from cache. Failed to renew an unexpired token with sequenceNumber=" +
                        std::to_string(id.sequence_number));
  }
  const std::string password = HmacSha1(key->second.bytes, token.identifier);
  if (!SameBytes(password, token.password)) {
    return AccessDenied(who + " is trying to renew a token with wrong password");
  }
  auto known = tokens_.find(id);
  if (known == tokens_.end()) return InvalidToken("Renewal request for unknown token");
  const int64_t renew_date = std::min(id.max_date_ms, now + renew_ms_);
  known->second = TokenInfo{renew_date, password};
  return renew_date;
}

Result<RmDelegationTokenIdentifier> RmDelegationTokenSecretManager::Cancel(
    const Token& token, std::string_view canceller) {
  auto decoded = DecodeRmDelegationTokenIdentifier(token.identifier);
  if (!decoded.ok()) return Undecodable(decoded.status());
  const RmDelegationTokenIdentifier& id = *decoded;
  const std::string who(canceller);
  LOG(INFO) << "RM delegation token cancellation by " << who << " for " << id.ToString();
  // Java: getUser() is null for an empty owner.
  if (id.owner.empty()) return InvalidToken("Token with no owner");
  if (who != id.owner && (id.renewer.empty() || ShortName(who) != id.renewer)) {
    return AccessDenied(who + " is not authorized to cancel the token");
  }
  MutexLock lock(&mu_);
  if (tokens_.erase(id) == 0) return InvalidToken("Token not found");
  return id;
}

Result<RmDelegationTokenSecret> RmDelegationTokenSecretManager::RetrieveSecret(
    std::string_view identifier) const {
  auto decoded = DecodeRmDelegationTokenIdentifier(identifier);
  if (!decoded.ok()) return InvalidToken("Can't de-serialize tokenIdentifier");
  MutexLock lock(&mu_);
  auto known = tokens_.find(*decoded);
  if (known == tokens_.end()) {
    return InvalidToken("token (" + decoded->ToString() + ") can't be found in cache");
  }
  if (known->second.renew_date_ms < clock_->WallMillis()) {
    return InvalidToken("token (" + decoded->ToString() + ") is expired");
  }
  return RmDelegationTokenSecret{known->second.password, decoded->owner};
}

bool RmDelegationTokenSecretManager::Advance() {
  MutexLock lock(&mu_);
  const int64_t now = clock_->WallMillis();
  bool rolled = false;
  // Java's remover thread: "lastMasterKeyUpdate + keyUpdateInterval < now".
  if (last_key_update_ms_ + key_update_ms_ < now) {
    // removeExpiredKeys(): never the current key.
    for (auto it = keys_.begin(); it != keys_.end();) {
      if (it->second.expiry_ms < now && it->first != current_key_id_) {
        LOG(INFO) << "RM delegation token master key " << it->first << " expired";
        it = keys_.erase(it);
      } else {
        ++it;
      }
    }
    // The retiring key verifies renewals as long as its tokens can live.
    keys_[current_key_id_].expiry_ms = now + max_lifetime_ms_;
    NewCurrentKey(now);
    last_key_update_ms_ = now;
    rolled = true;
  }
  if (last_removal_scan_ms_ + removal_scan_ms_ < now) {
    size_t removed = 0;
    for (auto it = tokens_.begin(); it != tokens_.end();) {
      if (it->second.renew_date_ms < now) {
        VLOG(1) << "RM delegation token expired: " << it->first.ToString();
        it = tokens_.erase(it);
        ++removed;
      } else {
        ++it;
      }
    }
    if (removed > 0) LOG(INFO) << "Removed " << removed << " expired RM delegation tokens";
    last_removal_scan_ms_ = now;
  }
  return rolled;
}

int32_t RmDelegationTokenSecretManager::CurrentKeyId() const {
  MutexLock lock(&mu_);
  return current_key_id_;
}

size_t RmDelegationTokenSecretManager::KeyCount() const {
  MutexLock lock(&mu_);
  return keys_.size();
}

size_t RmDelegationTokenSecretManager::TokenCount() const {
  MutexLock lock(&mu_);
  return tokens_.size();
}

}  // namespace spindle::rm
