// The few cryptographic primitives Hadoop's wire needs, over OpenSSL:
// MD5 (SASL DIGEST-MD5), SHA-1 (ZooKeeper digest ids), HMAC-SHA1 (token passwords) and a CSPRNG
// (nonces, master keys). All functions are thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace spindle {

// Raw 16-byte MD5 digest.
std::string Md5(std::string_view data);
// Raw 20-byte SHA-1 digest (ZooKeeper's digest ACL ids).
std::string Sha1(std::string_view data);
// Raw 20-byte HMAC-SHA1 of `data` keyed with `key`.
std::string HmacSha1(std::string_view key, std::string_view data);
// Whether `a` and `b` are the same bytes, compared without an early exit so
// that the time taken does not tell how much of a guessed secret was right
// (Java 3.x: MessageDigest.isEqual).
bool SameBytesConstantTime(std::string_view a, std::string_view b);
// `n` bytes from OpenSSL's CSPRNG. CHECK-fails only if the CSPRNG is broken.
std::string SecureRandomBytes(size_t n);
// Lower-case hex of raw bytes.
std::string HexEncode(std::string_view bytes);
// Parses hex (either case); returns false on odd length or a non-hex digit.
bool HexDecode(std::string_view hex, std::string* out);
// The value of one hex digit (either case), or -1.
int HexDigitValue(char c);

}  // namespace spindle
