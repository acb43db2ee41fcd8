// The node's token checks (WIRE.md 5.4), as Hadoop's NodeManager makes them:
//
// * VerifyNmToken: the NMToken that authenticates a ContainerManagementProtocol
//   connection (SASL DIGEST-MD5) must name this node and one of its current
//   or previous NM-token keys; its password is HMAC-SHA1(key, identifier).
// * VerifyContainerToken: each startContainers request's container token must
//   be signed (HMAC-SHA1) with a current or previous container-token key,
//   name this node (nmHostAddr), be unexpired, come from this RM
//   (rmIdentifier), and belong to the NMToken's application.
//
// Failures carry the Java exception class Hadoop throws, so that the AM sees
// what a Java NM would tell it: SecretManager$InvalidToken for signatures,
// keys and nodes; YarnException ("Unauthorized request to start
// container...") for expiry and a foreign application;
// InvalidContainerException for a previous RM's container.
//
// Thread-safety: pure functions over a thread-safe NodeTokenKeys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"
#include "nm_shim/agent/node_token_keys.h"
#include "rm/records/yarn_ids.h"
#include "security.pb.h"
#include "yarn_security_token.pb.h"

namespace spindle::nm {

namespace java {
inline constexpr char kInvalidToken[] =
    "org.apache.hadoop.security.token.SecretManager$InvalidToken";
inline constexpr char kYarnException[] = "org.apache.hadoop.yarn.exceptions.YarnException";
inline constexpr char kInvalidContainer[] =
    "org.apache.hadoop.yarn.exceptions.InvalidContainerException";
inline constexpr char kInvalidAuxService[] =
    "org.apache.hadoop.yarn.exceptions.InvalidAuxServiceException";
inline constexpr char kNmNotYetReady[] = "org.apache.hadoop.yarn.exceptions.NMNotYetReadyException";
}  // namespace java

// A verified NMToken: who the caller is.
struct NmTokenInfo {
  rm::ApplicationAttemptId attempt;
  rm::NodeId node;
  std::string app_submitter;
  std::string password;  // HMAC-SHA1 with the node's key, for the SASL check
};

// Decodes an NMTokenIdentifierProto without checking it (Corruption if the
// bytes do not parse).
Result<hadoop::yarn::NMTokenIdentifierProto> DecodeNmTokenIdentifier(std::string_view identifier);

// Checks an NMToken identifier presented to `node` (whose keys are `keys`)
// and computes its password.
Result<NmTokenInfo> VerifyNmToken(std::string_view identifier, const rm::NodeId& node,
                                  const NodeTokenKeys& keys);

// A verified container token.
struct VerifiedContainerToken {
  hadoop::yarn::ContainerTokenIdentifierProto identifier;
  rm::ContainerId container;
};

// Checks a container token presented to `node` by a caller authenticated
// with an NMToken for `caller`, at wall-clock `now_ms`.
Result<VerifiedContainerToken> VerifyContainerToken(const hadoop::common::TokenProto& token,
                                                    const rm::NodeId& node,
                                                    const NodeTokenKeys& keys,
                                                    const rm::ApplicationAttemptId& caller,
                                                    int64_t now_ms);

}  // namespace spindle::nm
