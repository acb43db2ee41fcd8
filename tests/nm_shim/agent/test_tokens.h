// Tokens as the RM makes them, for the agent's unit tests.
#pragma once

#include <string>

#include "base/crypto.h"
#include "nm_shim/agent/node_token_keys.h"
#include "rm/security/token_identifiers.h"
#include "security.pb.h"

namespace spindle::nm::testing {

inline constexpr int64_t kRmIdentifier = 1'700'000'000'000;

inline rm::ApplicationAttemptId Attempt(int32_t app) { return {{kRmIdentifier, app}, 1}; }

// A container token for container `seq` of `app`'s first attempt.
inline hadoop::common::TokenProto ContainerToken(int32_t app, int64_t seq, const std::string& key,
                                                 int32_t key_id, const rm::NodeId& node,
                                                 int64_t expiry,
                                                 int64_t rm_identifier = kRmIdentifier,
                                                 int64_t memory_mb = 512) {
  rm::ContainerTokenRequest request;
  request.container_id = {Attempt(app), seq};
  request.node_id = node;
  request.app_submitter = "alice";
  request.resource.set_memory(memory_mb);
  request.resource.set_virtual_cores(1);
  const std::string id = rm::EncodeContainerTokenIdentifier(
      request, {expiry, key_id, rm_identifier}, rm::ContainerTokenLayout::kHadoop3);
  hadoop::common::TokenProto token;
  token.set_identifier(id);
  token.set_password(HmacSha1(key, id));
  token.set_kind("ContainerToken");
  token.set_service(node.ToString());
  return token;
}

}  // namespace spindle::nm::testing
