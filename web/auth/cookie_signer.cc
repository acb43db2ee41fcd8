#include "web/auth/cookie_signer.h"

#include <glog/logging.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/base64.h"

namespace spindle::web::auth {
namespace {

constexpr std::string_view kSignatureSeparator = "&s=";

}  // namespace

CookieSigner::CookieSigner(std::unique_ptr<SignerSecrets> secrets) : secrets_(std::move(secrets)) {
  CHECK(secrets_ != nullptr);
}

std::string CookieSigner::Signature(std::string_view secret, std::string_view text) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  CHECK(HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
             reinterpret_cast<const unsigned char*>(text.data()), text.size(), out,
             &len) != nullptr);
  return Base64Encode(std::string_view(reinterpret_cast<const char*>(out), len));
}

std::string CookieSigner::Sign(std::string_view text) const {
  CHECK(!text.empty()) << "NULL or empty string to sign";
  return std::string(text) + std::string(kSignatureSeparator) +
         Signature(secrets_->Current(), text);
}

Result<std::string> CookieSigner::VerifyAndExtract(std::string_view signed_text) const {
  const size_t at = signed_text.rfind(kSignatureSeparator);
  if (at == std::string_view::npos) {
    return Status::Unauthorized("Invalid signed text: " + std::string(signed_text));
  }
  const std::string_view text = signed_text.substr(0, at);
  const std::string_view signature = signed_text.substr(at + kSignatureSeparator.size());
  for (const std::string& secret : secrets_->All()) {
    const std::string expected = Signature(secret, text);
    if (expected.size() == signature.size() &&
        CRYPTO_memcmp(expected.data(), signature.data(), expected.size()) == 0) {
      return std::string(text);
    }
  }
  return Status::Unauthorized("Invalid signature");
}

}  // namespace spindle::web::auth
