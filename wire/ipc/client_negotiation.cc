#include "wire/ipc/client_negotiation.h"

#include "base/base64.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::ipc {

using hadoop::common::RpcSaslProto;

namespace {

// Java's GssKrb5Client wraps a GSSException of the initiator (no ticket, an
// expired one, an unknown server principal) in SaslException("GSS initiate
// failed", e), which prints its cause as " [Caused by ...]".
Status GssInitiateFailed(const Status& cause) {
  return Status::Remote(java::kSaslException,
                        "GSS initiate failed [Caused by " + cause.message() + "]",
                        Status::Code::kUnauthorized);
}

}  // namespace

ClientNegotiation::ClientNegotiation(const ClientToken* token, std::string cnonce,
                                     const ClientKerberos* kerberos, SaslQops qops)
    : token_(token), cnonce_(std::move(cnonce)), kerberos_(kerberos), qops_(std::move(qops)) {}

ClientNegotiation::~ClientNegotiation() = default;

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
      if (digest_ != nullptr || gssapi_ != nullptr) {
        return Status::ProtocolError("second SASL NEGOTIATE from server");
      }
      // Take the first usable auth, in the server's order (TOKEN comes first).
      for (const auto& auth : message.auths()) {
        if (auth.method() == "TOKEN" && auth.mechanism() == "DIGEST-MD5" && token_ != nullptr) {
          digest_ = std::make_unique<DigestMd5Client>(
              Base64Encode(token_->identifier), Base64Encode(token_->password), cnonce_, qops_);
          ASSIGN_OR_RETURN(std::string response, digest_->EvaluateChallenge(auth.challenge()));
          RpcSaslProto initiate;
          initiate.set_state(RpcSaslProto::INITIATE);
          initiate.set_token(response);
          auto* chosen = initiate.add_auths();
          *chosen = auth;
          chosen->clear_challenge();
          return std::optional<RpcSaslProto>(std::move(initiate));
        }
        if (auth.method() == "KERBEROS" && auth.mechanism() == "GSSAPI" && kerberos_ != nullptr) {
          Result<std::unique_ptr<GssapiClient>> client = GssapiClient::Create(
              {kerberos_->cache_name}, auth.protocol(), auth.serverid(), qops_);
          if (!client.ok()) return GssInitiateFailed(client.status());
          gssapi_ = std::move(client).value();
          kerberos_principal_ = gssapi_->client_principal();
          Result<std::string> token = gssapi_->Start();
          if (!token.ok()) return GssInitiateFailed(token.status());
          RpcSaslProto initiate;
          initiate.set_state(RpcSaslProto::INITIATE);
          initiate.set_token(std::move(token).value());
          auto* chosen = initiate.add_auths();
          *chosen = auth;
          chosen->clear_challenge();
          return std::optional<RpcSaslProto>(std::move(initiate));
        }
        if (auth.method() == "SIMPLE") {
          if (kerberos_ != nullptr) {
            // Java's SaslRpcClient with ipc.client.fallback-to-simple-auth-allowed
            // false (the default).
            return Status::Remote(
                java::kAccessControl,
                "Server asks us to fall back to SIMPLE auth, but this client is configured to "
                "only allow secure connections.",
                Status::Code::kUnauthorized);
          }
          RpcSaslProto initiate;
          initiate.set_state(RpcSaslProto::INITIATE);
          *initiate.add_auths() = auth;
          outcome_ = Outcome::kSimple;  // the server sends no reply to this
          return std::optional<RpcSaslProto>(std::move(initiate));
        }
      }
      if (kerberos_ != nullptr) {
        return Status::Remote(
            java::kAccessControl,
            "Client cannot authenticate via:" +
                std::string(token_ != nullptr ? "[TOKEN, KERBEROS]" : "[KERBEROS]"),
            Status::Code::kUnauthorized);
      }
      return Status::Remote(java::kAccessControl,
                            token_ == nullptr
                                ? "server requires TOKEN authentication and no token was given"
                                : "server offers no authentication method this client can use",
                            Status::Code::kUnauthorized);
    }
    case RpcSaslProto::SUCCESS:
      if (gssapi_ != nullptr) {
        if (!gssapi_->complete()) {
          return Status::Unauthorized("SASL SUCCESS before the GSSAPI exchange completed");
        }
        outcome_ = Outcome::kKerberos;
        return std::optional<RpcSaslProto>();
      }
      if (kerberos_ != nullptr && token_ == nullptr) {
        // A SIMPLE-only server's SUCCESS to NEGOTIATE: no fallback either.
        return Status::Remote(
            java::kAccessControl,
            "Server asks us to fall back to SIMPLE auth, but this client is configured to only "
            "allow secure connections.",
            Status::Code::kUnauthorized);
      }
      if (digest_ == nullptr) {
        outcome_ = Outcome::kSimple;  // SIMPLE-only server
        return std::optional<RpcSaslProto>();
      }
      RETURN_NOT_OK(digest_->VerifyServerFinal(message.token()));
      outcome_ = Outcome::kToken;
      return std::optional<RpcSaslProto>();
    case RpcSaslProto::CHALLENGE:
      if (gssapi_ != nullptr) {
        ASSIGN_OR_RETURN(std::string token, gssapi_->Step(message.token()));
        RpcSaslProto response;
        response.set_state(RpcSaslProto::RESPONSE);
        response.set_token(std::move(token));
        return std::optional<RpcSaslProto>(std::move(response));
      }
      // Hadoop's DIGEST-MD5 completes in one round; a second challenge would
      // mean a mechanism we did not negotiate.
      return Status::ProtocolError("unexpected SASL CHALLENGE after INITIATE");
    default:
      return Status::ProtocolError("unexpected SASL state " +
                                   RpcSaslProto::SaslState_Name(message.state()));
  }
}

Result<std::unique_ptr<SaslSecurityLayer>> ClientNegotiation::TakeSecurityLayer() {
  if (outcome_ == Outcome::kToken && digest_ != nullptr) return digest_->TakeSecurityLayer();
  if (outcome_ == Outcome::kKerberos && gssapi_ != nullptr) return gssapi_->TakeSecurityLayer();
  return std::unique_ptr<SaslSecurityLayer>();
}

}  // namespace spindle::ipc
