#include "rm/security/rm_delegation_token_secret_manager.h"

#include <glog/logging.h>

#include <algorithm>
#include <limits>
#include <set>

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
  if (recovered.has_value()) {
    std::set<int32_t> ids;
    for (const DelegationKeyRecord& key : recovered->keys) {
      if (!ids.insert(key.key_id).second) {
        return Status::InvalidArgument("recovered RM delegation keys: two keys with id " +
                                       std::to_string(key.key_id));
      }
      if (key.bytes.empty()) {
        return Status::InvalidArgument("recovered RM delegation key " + std::to_string(key.key_id) +
                                       " has no bytes");
      }
    }
    if (recovered->current_key_id.has_value() && ids.count(*recovered->current_key_id) == 0) {
      return Status::InvalidArgument("recovered RM delegation current key " +
                                     std::to_string(*recovered->current_key_id) +
                                     " is not among the recovered keys");
    }
  }
  return Status::OK();
}

std::string RmDelegationTokenSecretManager::ShortName(std::string_view user) {
  const size_t end = user.find_first_of("/@");
  return std::string(end == std::string_view::npos ? user : user.substr(0, end));
}

Result<std::unique_ptr<RmDelegationTokenSecretManager>> RmDelegationTokenSecretManager::Create(
    RmDelegationTokenOptions options, const Clock* clock) {
  RETURN_NOT_OK(options.Validate());
  // Not kept in options_: the manager holds what it recovers.
  std::optional<RmDelegationTokenState> recovered = std::move(options.recovered);
  options.recovered.reset();
  std::unique_ptr<RmDelegationTokenSecretManager> manager(
      new RmDelegationTokenSecretManager(std::move(options), clock));
  {
    MutexLock lock(&manager->mu_);
    const int64_t now = clock->WallMillis();
    if (recovered.has_value()) {
      manager->Recover(*recovered, now);
    } else {
      manager->NewCurrentKey(now);
      manager->last_key_update_ms_ = now;
      manager->last_removal_scan_ms_ = now;
    }
  }
  manager->Deliver();
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
  KeyStoredLocked(id);
  LOG(INFO) << "RM delegation token master key " << id << " is current";
}

void RmDelegationTokenSecretManager::Recover(const RmDelegationTokenState& state, int64_t now_ms) {
  // Keys. Validate() ruled out duplicate ids and empty bytes.
  std::optional<int32_t> highest;
  for (const DelegationKeyRecord& key : state.keys) {
    keys_[key.key_id] = Key{key.bytes, key.expiry_date_ms};
    if (!highest.has_value() || key.key_id > *highest) highest = key.key_id;
  }
  if (highest.has_value()) {
    key_sequence_ = static_cast<uint32_t>(*highest);
    current_key_id_ = state.current_key_id.value_or(*highest);
    for (auto it = keys_.begin(); it != keys_.end();) {
      if (it->second.expiry_ms < now_ms && it->first != current_key_id_) {
        LOG(INFO) << "Recovered RM delegation token master key " << it->first
                  << " has expired; dropped";
        KeyRemovedLocked(it->first);
        it = keys_.erase(it);
      } else {
        ++it;
      }
    }
    // The current key was made at expiry - update interval - max lifetime
    // and rolls one update interval later (Advance() rolls once
    // last_key_update_ms_ + key_update_ms_ < now): at most one interval from
    // now, at the first Advance() if overdue.
    int64_t made = 0;
    if (__builtin_sub_overflow(keys_.at(current_key_id_).expiry_ms,
                               max_lifetime_ms_ + key_update_ms_, &made)) {
      made = std::numeric_limits<int64_t>::min();
    }
    last_key_update_ms_ = std::clamp(made, now_ms - key_update_ms_ - 1, now_ms);
    LOG(INFO) << "Recovered RM delegation token master key " << current_key_id_
              << " is current; it rolls after " << last_key_update_ms_ + key_update_ms_
              << " (wall ms)";
  }

  // Tokens, each under its recovered key (never a key made below). Every
  // recovered number counts, also those of tokens dropped here.
  int32_t sequence = state.sequence_number;
  size_t expired = 0;
  for (const DelegationTokenRecord& token : state.tokens) {
    const RmDelegationTokenIdentifier& id = token.identifier;
    sequence = std::max(sequence, id.sequence_number);
    auto key = keys_.find(id.master_key_id);
    if (key == keys_.end()) {
      LOG(WARNING) << "No RM delegation token master key found for persisted identifier "
                   << id.ToString() << "; dropped";
      TokenRemovedLocked(id);
      continue;
    }
    if (token.renew_date_ms < now_ms) {
      VLOG(1) << "Recovered RM delegation token expired: " << id.ToString();
      TokenRemovedLocked(id);
      ++expired;
      continue;
    }
    tokens_[id] = TokenInfo{token.renew_date_ms,
                            HmacSha1(key->second.bytes, EncodeRmDelegationTokenIdentifier(id))};
  }
  token_sequence_ = static_cast<uint32_t>(sequence);
  if (sequence != state.sequence_number) {
    LOG(WARNING) << "Recovered RM delegation token sequence number " << state.sequence_number
                 << " is behind a recovered token's; continuing after " << sequence;
    SequenceChangedLocked();
  }
  if (!highest.has_value()) {
    LOG(WARNING) << "No RM delegation token master key recovered; making a new one";
    NewCurrentKey(now_ms);
    last_key_update_ms_ = now_ms;
  }
  last_removal_scan_ms_ = now_ms;
  LOG(INFO) << "Recovered " << keys_.size() << " RM delegation token master keys and "
            << tokens_.size() << " tokens (" << expired
            << " expired ones dropped); last sequence number " << sequence;
}

void RmDelegationTokenSecretManager::KeyStoredLocked(int32_t key_id) {
  if (!options_.listener.key_stored) return;
  const Key& key = keys_.at(key_id);
  pending_.emplace_back(DelegationKeyRecord{key_id, key.expiry_ms, key.bytes});
}

void RmDelegationTokenSecretManager::KeyRemovedLocked(int32_t key_id) {
  if (options_.listener.key_removed) pending_.emplace_back(KeyRemoved{key_id});
}

void RmDelegationTokenSecretManager::TokenStoredLocked(const RmDelegationTokenIdentifier& id,
                                                       int64_t renew_date_ms) {
  if (options_.listener.token_stored) {
    pending_.emplace_back(DelegationTokenRecord{id, renew_date_ms});
  }
}

void RmDelegationTokenSecretManager::TokenRemovedLocked(const RmDelegationTokenIdentifier& id) {
  if (options_.listener.token_removed) pending_.emplace_back(TokenRemoved{id});
}

void RmDelegationTokenSecretManager::SequenceChangedLocked() {
  if (options_.listener.sequence_changed) {
    pending_.emplace_back(SequenceChanged{static_cast<int32_t>(token_sequence_)});
  }
}

void RmDelegationTokenSecretManager::Deliver() {
  const RmDelegationTokenListener& l = options_.listener;
  if (!l.key_stored && !l.key_removed && !l.token_stored && !l.token_removed &&
      !l.sequence_changed) {
    return;
  }
  MutexLock notify(&notify_mu_);
  for (;;) {
    std::vector<Event> batch;
    {
      MutexLock lock(&mu_);
      batch.swap(pending_);
    }
    if (batch.empty()) return;
    for (const Event& event : batch) Dispatch(event);
  }
}

void RmDelegationTokenSecretManager::Dispatch(const Event& event) {
  const RmDelegationTokenListener& l = options_.listener;
  if (const auto* key = std::get_if<DelegationKeyRecord>(&event)) {
    l.key_stored(*key);
  } else if (const auto* removed_key = std::get_if<KeyRemoved>(&event)) {
    l.key_removed(removed_key->key_id);
  } else if (const auto* token = std::get_if<DelegationTokenRecord>(&event)) {
    l.token_stored(*token);
  } else if (const auto* removed_token = std::get_if<TokenRemoved>(&event)) {
    l.token_removed(removed_token->identifier);
  } else {
    l.sequence_changed(std::get<SequenceChanged>(event).sequence_number);
  }
}

Token RmDelegationTokenSecretManager::CreateToken(std::string_view owner, std::string_view renewer,
                                                  std::string_view real_user) {
  RmDelegationTokenIdentifier id;
  id.owner = std::string(owner);
  id.renewer = ShortName(renewer);
  id.real_user = std::string(real_user);
  Token token;
  token.kind = kRmDelegationTokenKind;
  {
    MutexLock lock(&mu_);
    const int64_t now = clock_->WallMillis();
    id.issue_date_ms = now;
    id.max_date_ms = now + max_lifetime_ms_;
    id.sequence_number = static_cast<int32_t>(++token_sequence_);
    id.master_key_id = current_key_id_;
    token.identifier = EncodeRmDelegationTokenIdentifier(id);
    token.password = HmacSha1(keys_.at(current_key_id_).bytes, token.identifier);
    tokens_[id] = TokenInfo{now + renew_ms_, token.password};
    SequenceChangedLocked();
    TokenStoredLocked(id, now + renew_ms_);
  }
  LOG(INFO) << "Issued RM delegation token " << id.ToString();
  Deliver();
  return token;
}

Result<int64_t> RmDelegationTokenSecretManager::Renew(const Token& token,
                                                      std::string_view renewer) {
  auto decoded = DecodeRmDelegationTokenIdentifier(token.identifier);
  if (!decoded.ok()) return Undecodable(decoded.status());
  const std::string who(renewer);
  LOG(INFO) << "RM delegation token renewal by " << who << " for " << decoded->ToString();
  Result<int64_t> renewed = [&]() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return RenewLocked(*decoded, token, who);
  }();
  if (renewed.ok()) Deliver();
  return renewed;
}

Result<int64_t> RmDelegationTokenSecretManager::RenewLocked(const RmDelegationTokenIdentifier& id,
                                                            const Token& token,
                                                            const std::string& who) {
  const int64_t now = clock_->WallMillis();
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
  if (!SameBytesConstantTime(password, token.password)) {
    return AccessDenied(who + " is trying to renew a token with wrong password");
  }
  auto known = tokens_.find(id);
  if (known == tokens_.end()) return InvalidToken("Renewal request for unknown token");
  const int64_t renew_date = std::min(id.max_date_ms, now + renew_ms_);
  known->second = TokenInfo{renew_date, password};
  TokenStoredLocked(id, renew_date);
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
  {
    MutexLock lock(&mu_);
    if (tokens_.erase(id) == 0) return InvalidToken("Token not found");
    TokenRemovedLocked(id);
  }
  Deliver();
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
  // The password of the bytes the client holds. For a token this RM issued
  // it is the one kept; a token a Java 2.7+/3.x RM issued (YARN-2936) leaves
  // out empty fields that Spindle's encoding writes, so the password kept on
  // recovery (of the re-encoded identifier) is not the client's. Only a
  // holder of the key can make a password for other bytes of the same
  // identifier.
  auto key = keys_.find(decoded->master_key_id);
  const int64_t renew_date = known->second.renew_date_ms;
  if (key == keys_.end()) {
    return RmDelegationTokenSecret{known->second.password, decoded->owner, renew_date};
  }
  return RmDelegationTokenSecret{HmacSha1(key->second.bytes, identifier), decoded->owner,
                                 renew_date};
}

bool RmDelegationTokenSecretManager::Advance() {
  bool rolled = false;
  bool changed = false;
  {
    MutexLock lock(&mu_);
    const int64_t now = clock_->WallMillis();
    // Java's remover thread: "lastMasterKeyUpdate + keyUpdateInterval < now".
    if (last_key_update_ms_ + key_update_ms_ < now) {
      // removeExpiredKeys(): never the current key.
      for (auto it = keys_.begin(); it != keys_.end();) {
        if (it->second.expiry_ms < now && it->first != current_key_id_) {
          LOG(INFO) << "RM delegation token master key " << it->first << " expired";
          KeyRemovedLocked(it->first);
          it = keys_.erase(it);
        } else {
          ++it;
        }
      }
      // The retiring key verifies renewals as long as its tokens can live.
      keys_[current_key_id_].expiry_ms = now + max_lifetime_ms_;
      KeyStoredLocked(current_key_id_);
      NewCurrentKey(now);
      last_key_update_ms_ = now;
      rolled = true;
      changed = true;
    }
    if (last_removal_scan_ms_ + removal_scan_ms_ < now) {
      size_t removed = 0;
      for (auto it = tokens_.begin(); it != tokens_.end();) {
        if (it->second.renew_date_ms < now) {
          VLOG(1) << "RM delegation token expired: " << it->first.ToString();
          TokenRemovedLocked(it->first);
          it = tokens_.erase(it);
          ++removed;
        } else {
          ++it;
        }
      }
      if (removed > 0) LOG(INFO) << "Removed " << removed << " expired RM delegation tokens";
      last_removal_scan_ms_ = now;
      changed = changed || removed > 0;
    }
  }
  if (changed) Deliver();
  return rolled;
}

RmDelegationTokenState RmDelegationTokenSecretManager::State() const {
  RmDelegationTokenState state;
  MutexLock lock(&mu_);
  state.keys.reserve(keys_.size());
  for (const auto& [id, key] : keys_) {
    state.keys.push_back(DelegationKeyRecord{id, key.expiry_ms, key.bytes});
  }
  state.tokens.reserve(tokens_.size());
  for (const auto& [id, info] : tokens_) {
    state.tokens.push_back(DelegationTokenRecord{id, info.renew_date_ms});
  }
  state.sequence_number = static_cast<int32_t>(token_sequence_);
  state.current_key_id = current_key_id_;
  return state;
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
