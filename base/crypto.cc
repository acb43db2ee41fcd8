#include "base/crypto.h"

#include <glog/logging.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

namespace spindle {

std::string Md5(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  CHECK_EQ(EVP_Digest(data.data(), data.size(), out, &len, EVP_md5(), nullptr), 1);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string Sha1(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  CHECK_EQ(EVP_Digest(data.data(), data.size(), out, &len, EVP_sha1(), nullptr), 1);
  return std::string(reinterpret_cast<char*>(out), len);
}

bool SameBytesConstantTime(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string HmacSha1(std::string_view key, std::string_view data) {
  // Fetched once: OpenSSL 3 looks EVP_sha1() up in its provider tables on
  // every use, which costs more than the digest of a short token (every
  // container token the RM signs goes through here).
  static EVP_MD* const kSha1 = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  CHECK(kSha1 != nullptr) << "OpenSSL has no SHA1";
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  CHECK(HMAC(kSha1, key.data(), static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
             &len) != nullptr);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string SecureRandomBytes(size_t n) {
  std::string out(n, '\0');
  CHECK_EQ(RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)), 1)
      << "OpenSSL CSPRNG failed";
  return out;
}

std::string HexEncode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool HexDecode(std::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  out->clear();
  out->reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexDigitValue(hex[i]);
    const int lo = HexDigitValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>((hi << 4) | lo));
  }
  return true;
}

}  // namespace spindle
