// ClientNegotiation: the client side of Hadoop's SASL handshake (WIRE.md 3.3)
// as a pure state machine over RpcSaslProto messages. With a token it
// authenticates with TOKEN/DIGEST-MD5 and verifies the server's rspauth; with
// none, or when the server offers only SIMPLE, it settles on SIMPLE.
//
// Thread contract: not thread-safe; owned by one client connection.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "rpc_header.pb.h"
#include "wire/ipc/digest_md5.h"

namespace spindle::ipc {

// A token as the client holds it (Hadoop's Token: identifier, password, kind, service).
struct ClientToken {
  std::string identifier;  // raw bytes
  std::string password;    // raw bytes
  std::string kind;
  std::string service;
};

class ClientNegotiation {
 public:
  enum class Outcome { kInProgress, kSimple, kToken };

  // `token` may be null (SIMPLE only). `cnonce` must be unpredictable.
  ClientNegotiation(const ClientToken* token, std::string cnonce);

  // The first message: NEGOTIATE.
  hadoop::common::RpcSaslProto Start() const;

  // Feeds a server reply. Returns the message to send next (if any); sets
  // outcome() once done. Errors: the server offered nothing usable, or its
  // rspauth did not verify.
  Result<std::optional<hadoop::common::RpcSaslProto>> OnServerMessage(
      const hadoop::common::RpcSaslProto& message);

  Outcome outcome() const { return outcome_; }

 private:
  const ClientToken* token_;
  std::string cnonce_;
  std::unique_ptr<DigestMd5Client> digest_;
  Outcome outcome_ = Outcome::kInProgress;
};

}  // namespace spindle::ipc
