// A TokenSecretProvider test double: passwords are HMAC-SHA1 of the
// identifier under a fixed key (as YARN derives them), the user is the
// identifier text; identifiers starting with "revoked" are refused, those
// starting with "later" answered RetriableException (not ready yet).
#pragma once

#include "base/crypto.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::ipc::testing {

class FakeTokenSecrets : public TokenSecretProvider {
 public:
  Result<TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    if (identifier.rfind("revoked", 0) == 0) {
      return Status::Remote("org.apache.hadoop.security.token.SecretManager$InvalidToken",
                            "token is revoked");
    }
    if (identifier.rfind("later", 0) == 0) {
      return Status::Remote("org.apache.hadoop.ipc.RetriableException", "keys not there yet");
    }
    return TokenSecret{HmacSha1(kKey, identifier), std::string(identifier)};
  }

  static ClientToken TokenFor(std::string identifier) {
    ClientToken token;
    token.password = HmacSha1(kKey, identifier);
    token.identifier = std::move(identifier);
    token.kind = "TEST_TOKEN";
    token.service = "127.0.0.1:0";
    return token;
  }

 private:
  static constexpr char kKey[] = "test-master-key";
};

}  // namespace spindle::ipc::testing
