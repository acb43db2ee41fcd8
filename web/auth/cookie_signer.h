// CookieSigner: signs and checks the `hadoop.auth` cookie's value as hadoop-
// auth 3.3's Signer does: "<text>&s=<signature>", the signature being the
// standard Base64 (with padding) of HMAC-SHA256(secret, UTF-8 text). Hadoop
// 2.6 and 2.7 signed with a SHA-1 digest of text || secret instead; Spindle
// follows 3.3 (a cookie is only ever checked by the server that signed it,
// or by servers sharing its secret file, so the line matters only when a
// Java 2.x RM shares the file).
//
// Thread-safety: Sign() and VerifyAndExtract() from any thread (as safe as
// the SignerSecrets).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "web/auth/signer_secrets.h"

namespace spindle::web::auth {

class CookieSigner {
 public:
  explicit CookieSigner(std::unique_ptr<SignerSecrets> secrets);

  // `text` must be non-empty.
  std::string Sign(std::string_view text) const;
  // The signed text without its signature; Unauthorized "Invalid signed
  // text: ..." when there is no "&s=", "Invalid signature" when no secret
  // in force made it (compared in constant time).
  Result<std::string> VerifyAndExtract(std::string_view signed_text) const;

  // The signature of `text` under `secret`, for tests.
  static std::string Signature(std::string_view secret, std::string_view text);

 private:
  const std::unique_ptr<SignerSecrets> secrets_;
};

}  // namespace spindle::web::auth
