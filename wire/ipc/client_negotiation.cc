#include "wire/ipc/client_negotiation.h"

#include "base/base64.h"

namespace spindle::ipc {

using hadoop::common::RpcSaslProto;

ClientNegotiation::ClientNegotiation(const ClientToken* token, std::string cnonce)
    : token_(token), cnonce_(std::move(cnonce)) {}

RpcSaslProto ClientNegotiation::Start() const {
  RpcSaslProto negotiate;
  negotiate.set_state(RpcSaslProto::NEGOTIATE);
  return negotiate;
}

Result<std::optional<RpcSaslProto>> ClientNegotiation::OnServerMessage(
    const RpcSaslProto& message) {
  if (outcome_ != Outcome::kInProgress) {
    return Status::ProtocolError("SASL message after negotiation finished");
  }
  switch (message.state()) {
    case RpcSaslProto::NEGOTIATE: {
      if (digest_ != nullptr) return Status::ProtocolError("second SASL NEGOTIATE from server");
      // Take the first usable auth, in the server's order (TOKEN comes first).
      for (const auto& auth : message.auths()) {
        if (auth.method() == "TOKEN" && auth.mechanism() == "DIGEST-MD5" && token_ != nullptr) {
          digest_ = std::make_unique<DigestMd5Client>(Base64Encode(token_->identifier),
                                                      Base64Encode(token_->password), cnonce_);
          ASSIGN_OR_RETURN(std::string response, digest_->EvaluateChallenge(auth.challenge()));
          RpcSaslProto initiate;
          initiate.set_state(RpcSaslProto::INITIATE);
          initiate.set_token(response);
          auto* chosen = initiate.add_auths();
          *chosen = auth;
          chosen->clear_challenge();
          return std::optional<RpcSaslProto>(std::move(initiate));
        }
        if (auth.method() == "SIMPLE") {
          RpcSaslProto initiate;
          initiate.set_state(RpcSaslProto::INITIATE);
          *initiate.add_auths() = auth;
          outcome_ = Outcome::kSimple;  // the server sends no reply to this
          return std::optional<RpcSaslProto>(std::move(initiate));
        }
      }
      return Status::Unauthorized(
          token_ == nullptr ? "server requires TOKEN authentication and no token was given"
                            : "server offers no authentication method this client can use");
    }
    case RpcSaslProto::SUCCESS:
      if (digest_ == nullptr) {
        outcome_ = Outcome::kSimple;  // SIMPLE-only server
        return std::optional<RpcSaslProto>();
      }
      RETURN_NOT_OK(digest_->VerifyServerFinal(message.token()));
      outcome_ = Outcome::kToken;
      return std::optional<RpcSaslProto>();
    case RpcSaslProto::CHALLENGE:
      // Hadoop's DIGEST-MD5 completes in one round; a second challenge would
      // mean a mechanism we did not negotiate.
      return Status::ProtocolError("unexpected SASL CHALLENGE after INITIATE");
    default:
      return Status::ProtocolError("unexpected SASL state " +
                                   RpcSaslProto::SaslState_Name(message.state()));
  }
}

}  // namespace spindle::ipc
