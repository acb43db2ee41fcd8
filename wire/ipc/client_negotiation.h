// ClientNegotiation: the client side of Hadoop's SASL handshake (WIRE.md 3.3)
// as a pure state machine over RpcSaslProto messages. With a token it
// authenticates with TOKEN/DIGEST-MD5 and verifies the server's rspauth; with
// a Kerberos identity it authenticates with KERBEROS/GSSAPI (and never falls
// back to SIMPLE, as Java's client configured for Kerberos refuses to); with
// neither, or when the server offers only SIMPLE, it settles on SIMPLE.
// Refusals of this side, kUnauthorized: no usable method (a SIMPLE fallback
// a Kerberos client will not take, "Client cannot authenticate via:[...]")
// is an org.apache.hadoop.security.AccessControlException as in Java's
// SaslRpcClient; what the mechanisms refuse ("No common protection layer
// between client and server" when hadoop.rpc.protection leaves the two
// sides nothing in common) has no class here: the connection names it
// javax.security.sasl.SaslException, as Java's SaslClient throws it.
//
// Thread contract: not thread-safe; owned by one client connection.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "rpc_header.pb.h"
#include "wire/ipc/digest_md5.h"
#include "wire/ipc/gssapi_mechanism.h"
#include "wire/ipc/sasl_qop.h"
#include "wire/ipc/sasl_security_layer.h"

namespace spindle::ipc {

// A token as the client holds it (Hadoop's Token: identifier, password, kind, service).
struct ClientToken {
  std::string identifier;  // raw bytes
  std::string password;    // raw bytes
  std::string kind;
  std::string service;
};

// A Kerberos identity a client authenticates with.
struct ClientKerberos {
  // Where its ticket is ("MEMORY:...", "FILE:..."); empty: the default cache
  // (KRB5CCNAME, as after kinit).
  std::string cache_name;
};

class ClientNegotiation {
 public:
  enum class Outcome { kInProgress, kSimple, kToken, kKerberos };

  // `token` and `kerberos` may be null. `cnonce` must be unpredictable.
  // `qops`: the protections accepted, preferred first (this side's
  // hadoop.rpc.protection).
  ClientNegotiation(const ClientToken* token, std::string cnonce,
                    const ClientKerberos* kerberos = nullptr, SaslQops qops = {SaslQop::kAuth});
  ~ClientNegotiation();

  // The first message: NEGOTIATE.
  hadoop::common::RpcSaslProto Start() const;

  // Feeds a server reply. Returns the message to send next (if any); sets
  // outcome() once done. Errors: the server offered nothing usable, or its
  // rspauth did not verify.
  Result<std::optional<hadoop::common::RpcSaslProto>> OnServerMessage(
      const hadoop::common::RpcSaslProto& message);

  Outcome outcome() const { return outcome_; }
  // The principal that authenticated (kKerberos), for the connection
  // context's effectiveUser.
  const std::string& kerberos_principal() const { return kerberos_principal_; }
  // Once the outcome is kToken or kKerberos: the security layer when the
  // mechanism settled on auth-int or auth-conf, else null. Call once.
  Result<std::unique_ptr<SaslSecurityLayer>> TakeSecurityLayer();

 private:
  const ClientToken* token_;
  std::string cnonce_;
  const ClientKerberos* kerberos_;
  const SaslQops qops_;
  std::unique_ptr<DigestMd5Client> digest_;
  std::unique_ptr<GssapiClient> gssapi_;
  std::string kerberos_principal_;
  Outcome outcome_ = Outcome::kInProgress;
};

}  // namespace spindle::ipc
