// HmacSha1Key: one HMAC-SHA1 key with its key schedule done once. HMAC hashes
// (key ^ ipad) and (key ^ opad) as the first block of its inner and outer
// digests whatever the message is, so both digest states are computed here
// and each Sign() only copies them and hashes the message: about a seventh
// of a one-shot HmacSha1() (crypto.h), which re-derives the key and looks
// the algorithm up on every call. The RM signs every container token and
// NMToken with one master key for a day (rm/security/master_key_manager.h).
//
// Sign(data) == HmacSha1(key, data) for every key and message (RFC 2104).
//
// Thread contract: immutable after construction; Sign() from any thread
// (each thread hashes in a context of its own).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace spindle {

class HmacSha1Key {
 public:
  explicit HmacSha1Key(std::string_view key);
  ~HmacSha1Key();
  HmacSha1Key(const HmacSha1Key&) = delete;
  HmacSha1Key& operator=(const HmacSha1Key&) = delete;

  // Raw 20-byte HMAC-SHA1 of `data` under this key.
  std::string Sign(std::string_view data) const;

 private:
  struct DigestStates;
  const std::unique_ptr<DigestStates> states_;
};

}  // namespace spindle
