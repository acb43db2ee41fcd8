#include "rm/security/master_key_manager.h"

#include <glog/logging.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "base/crypto.h"

namespace spindle::rm {

namespace {

constexpr size_t kMaxKeyLength = 1024;

std::string Millis(Duration d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) + " ms";
}

uint32_t RandomUint32() {
  const std::string bytes = SecureRandomBytes(sizeof(uint32_t));
  uint32_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof(value));
  return value;
}

}  // namespace

const char* KeyFamilyName(KeyFamily family) {
  switch (family) {
    case KeyFamily::kContainerTokens:
      return "container-tokens";
    case KeyFamily::kNmTokens:
      return "nm-tokens";
    case KeyFamily::kAmrmTokens:
      return "am-rm-tokens";
  }
  return "unknown";
}

Status KeyRollingOptions::Validate() const {
  const std::string name = KeyFamilyName(family);
  if (rolling_interval <= Duration::zero()) {
    return Status::InvalidArgument(name + ": master-key rolling interval must be positive, got " +
                                   Millis(rolling_interval));
  }
  if (activation_delay < Duration::zero()) {
    return Status::InvalidArgument(name +
                                   ": master-key activation delay must not be negative, got " +
                                   Millis(activation_delay));
  }
  // Java: "... should be more than 3 X ...expiry-interval-ms" (rolling > 2 x 1.5 x expiry).
  if (rolling_interval <= activation_delay * 2) {
    return Status::InvalidArgument(
        name + ": master-key rolling interval (" + Millis(rolling_interval) +
        ") must be more than twice the activation delay (" + Millis(activation_delay) + ")");
  }
  if (key_length == 0 || key_length > kMaxKeyLength) {
    return Status::InvalidArgument(name + ": key length must be 1.." +
                                   std::to_string(kMaxKeyLength) + " bytes, got " +
                                   std::to_string(key_length));
  }
  if (recovered.has_value()) {
    if (recovered->current.bytes.empty() ||
        (recovered->next.has_value() && recovered->next->bytes.empty())) {
      return Status::InvalidArgument(name + ": a recovered master key has no bytes");
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<MasterKeyManager>> MasterKeyManager::Create(KeyRollingOptions options,
                                                                   const Clock* clock) {
  RETURN_NOT_OK(options.Validate());
  return std::unique_ptr<MasterKeyManager>(new MasterKeyManager(std::move(options), clock));
}

MasterKeyManager::MasterKeyManager(KeyRollingOptions options, const Clock* clock)
    : options_(std::move(options)), clock_(clock) {
  const TimePoint now = clock_->Now();
  MutexLock lock(&mu_);
  serial_ = options_.first_key_id.has_value() ? static_cast<uint32_t>(*options_.first_key_id)
                                              : RandomUint32();
  if (options_.recovered.has_value()) {
    current_ = options_.recovered->current;
    next_ = options_.recovered->next;
    const MasterKey& newest = next_.has_value() ? *next_ : current_;
    if (!options_.first_key_id.has_value()) serial_ = static_cast<uint32_t>(newest.key_id) + 1;
    activation_due_ = now + options_.activation_delay;
    LOG(INFO) << KeyFamilyName(options_.family) << ": recovered master key " << current_.key_id
              << (next_.has_value() ? ", next " + std::to_string(next_->key_id) : std::string());
  } else {
    current_ = NewKey();
    LOG(INFO) << KeyFamilyName(options_.family) << ": master key " << current_.key_id
              << "; rolling interval " << Millis(options_.rolling_interval) << ", activation delay "
              << Millis(options_.activation_delay);
  }
  next_roll_ = now + options_.rolling_interval;
}

MasterKey MasterKeyManager::NewKey() {
  MasterKey key;
  key.key_id = static_cast<int32_t>(serial_++);
  key.bytes = SecureRandomBytes(options_.key_length);
  return key;
}

MasterKey MasterKeyManager::Current() const {
  MutexLock lock(&mu_);
  return current_;
}

std::optional<MasterKey> MasterKeyManager::Next() const {
  MutexLock lock(&mu_);
  return next_;
}

MasterKey MasterKeyManager::Newest() const {
  MutexLock lock(&mu_);
  return next_.has_value() ? *next_ : current_;
}

std::optional<MasterKey> MasterKeyManager::Find(int32_t key_id) const {
  MutexLock lock(&mu_);
  if (current_.key_id == key_id) return current_;
  if (next_.has_value() && next_->key_id == key_id) return next_;
  return std::nullopt;
}

SigningKey MasterKeyManager::CurrentSigningKey() const {
  MutexLock lock(&mu_);
  return SigningKeyOf(current_);
}

SigningKey MasterKeyManager::NewestSigningKey() const {
  MutexLock lock(&mu_);
  return SigningKeyOf(next_.has_value() ? *next_ : current_);
}

SigningKey MasterKeyManager::SigningKeyOf(const MasterKey& key) const {
  for (const SigningKey& made : signing_keys_) {
    if (made.key_id == key.key_id) return made;
  }
  // Keep only the keys that can still sign: current and next.
  const int32_t current_id = current_.key_id;
  const std::optional<int32_t> next_id =
      next_.has_value() ? std::optional<int32_t>(next_->key_id) : std::nullopt;
  std::erase_if(signing_keys_, [current_id, next_id](const SigningKey& made) {
    return made.key_id != current_id && made.key_id != next_id;
  });
  SigningKey made{key.key_id, std::make_shared<const HmacSha1Key>(key.bytes)};
  signing_keys_.push_back(made);
  return made;
}

KeyState MasterKeyManager::State() const {
  MutexLock lock(&mu_);
  return KeyState{current_, next_};
}

std::optional<MasterKey> MasterKeyManager::KeyForNode(
    std::optional<int32_t> node_last_known_key_id) const {
  MutexLock lock(&mu_);
  if (!next_.has_value()) return std::nullopt;
  if (node_last_known_key_id.has_value() && *node_last_known_key_id == next_->key_id) {
    return std::nullopt;
  }
  return next_;
}

KeyTransitions MasterKeyManager::Advance() {
  const TimePoint now = clock_->Now();
  const Duration interval = options_.rolling_interval;
  KeyTransitions done;
  MutexLock lock(&mu_);
  // After a clock jump, skip all but the last overdue roll: intermediate keys
  // would be made and dropped without ever signing anything.
  if (now - next_roll_ > interval * 2) {
    if (next_.has_value() && activation_due_ <= now) {
      current_ = std::move(*next_);
      next_.reset();
      ++done.activated;
    }
    next_roll_ += ((now - next_roll_) / interval) * interval;
  }
  for (;;) {
    const bool activation_first = next_.has_value() && activation_due_ <= next_roll_;
    const TimePoint due = activation_first ? activation_due_ : next_roll_;
    if (due > now) break;
    if (activation_first) {
      LOG(INFO) << KeyFamilyName(options_.family) << ": activating next master key "
                << next_->key_id;
      current_ = std::move(*next_);
      next_.reset();
      ++done.activated;
    } else {
      next_ = NewKey();
      activation_due_ = next_roll_ + options_.activation_delay;
      next_roll_ += interval;
      ++done.rolled;
      LOG(INFO) << KeyFamilyName(options_.family) << ": rolled master key; next key "
                << next_->key_id << " activates in " << Millis(options_.activation_delay);
    }
  }
  return done;
}

TimePoint MasterKeyManager::NextEventTime() const {
  MutexLock lock(&mu_);
  return next_.has_value() ? std::min(next_roll_, activation_due_) : next_roll_;
}

}  // namespace spindle::rm
