#include "nm_shim/agent/token_verifier.h"

#include "base/crypto.h"
#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {

namespace {

Status InvalidToken(const std::string& message) {
  return Status::Remote(java::kInvalidToken, message, Status::Code::kUnauthorized);
}

Status Unauthorized(const std::string& message) {
  return Status::Remote(java::kYarnException,
                        "Unauthorized request to start container.\n" + message,
                        Status::Code::kUnauthorized);
}

}  // namespace

Result<hadoop::yarn::NMTokenIdentifierProto> DecodeNmTokenIdentifier(std::string_view identifier) {
  hadoop::yarn::NMTokenIdentifierProto id;
  if (!id.ParseFromArray(identifier.data(), static_cast<int>(identifier.size()))) {
    return Status::Corruption("not an NMTokenIdentifier");
  }
  return id;
}

Result<NmTokenInfo> VerifyNmToken(std::string_view identifier, const rm::NodeId& node,
                                  const NodeTokenKeys& keys) {
  auto decoded = DecodeNmTokenIdentifier(identifier);
  if (!decoded.ok()) return InvalidToken("Given NMToken is not an NMTokenIdentifier");
  const auto& id = *decoded;
  NmTokenInfo info;
  info.attempt = rm::FromProto(id.appattemptid());
  info.node = rm::FromProto(id.nodeid());
  info.app_submitter = id.appsubmitter();
  if (info.node != node) {
    return InvalidToken("Given NMToken for application : " + info.attempt.ToString() +
                        " is not valid for current node manager.expected : " + node.ToString() +
                        " found : " + info.node.ToString());
  }
  auto key = keys.Find(NodeTokenKeys::Family::kNmTokens, id.keyid());
  if (!key.has_value()) {
    return InvalidToken("Given NMToken for application : " + info.attempt.ToString() +
                        " seems to have been generated illegally.");
  }
  info.password = HmacSha1(*key, identifier);
  return info;
}

Result<VerifiedContainerToken> VerifyContainerToken(const hadoop::common::TokenProto& token,
                                                    const rm::NodeId& node,
                                                    const NodeTokenKeys& keys,
                                                    const rm::ApplicationAttemptId& caller,
                                                    int64_t now_ms) {
  VerifiedContainerToken out;
  if (!token.has_identifier() || !out.identifier.ParseFromString(token.identifier()) ||
      !out.identifier.has_containerid()) {
    return InvalidToken("Invalid container token used for starting container on : " +
                        node.ToString());
  }
  const auto& id = out.identifier;
  out.container = rm::FromProto(id.containerid());
  const std::string container = out.container.ToString();
  // NMContainerTokenSecretManager.retrievePassword: the key, then the node.
  auto key = keys.Find(NodeTokenKeys::Family::kContainerTokens, id.masterkeyid());
  if (!key.has_value()) {
    return InvalidToken("Given Container " + container +
                        " seems to have an illegally generated token.");
  }
  if (id.nmhostaddr() != node.ToString()) {
    return InvalidToken("Given Container " + container +
                        " identifier is not valid for current Node manager. Expected : " +
                        node.ToString() + " Found : " + id.nmhostaddr());
  }
  if (HmacSha1(*key, token.identifier()) != token.password()) {
    return InvalidToken("Invalid container token used for starting container on : " +
                        node.ToString());
  }
  // ContainerManagerImpl.authorizeStartAndResourceIncreaseRequest.
  if (out.container.attempt.app != caller.app) {
    return Unauthorized("NMToken for application attempt : " + caller.ToString() +
                        " was used for starting container with container token issued for "
                        "application attempt : " +
                        out.container.attempt.ToString());
  }
  if (id.expirytimestamp() < now_ms) {
    return Unauthorized("This token is expired. current time is " + std::to_string(now_ms) +
                        " found " + std::to_string(id.expirytimestamp()) +
                        "\nNote: System times on machines may be out of sync. Check system time "
                        "and time zones.");
  }
  if (id.rmidentifier() != keys.rm_identifier()) {
    return Status::Remote(
        java::kInvalidContainer,
        "Container " + container + " rejected as it is allocated by a previous RM",
        Status::Code::kUnauthorized);
  }
  return out;
}

}  // namespace spindle::nm
