// SASL GSSAPI (Kerberos v5, RFC 4752) as Hadoop's KERBEROS auth runs it
// inside RpcSaslProto INITIATE / CHALLENGE / RESPONSE / SUCCESS, on MIT
// GSS-API (libgssapi_krb5) directly rather than Cyrus SASL's GSSAPI plugin:
// the exchange is a handful of GSS calls plus RFC 4752's 4-octet
// security-layer message, the same shape as our hand-written DIGEST-MD5,
// and it needs no process-wide sasl_server_init state nor a plugin loaded
// from /usr/lib/sasl2 at run time.
//
// The exchange (Java's GssKrb5Client / GssKrb5Server, which Hadoop uses):
//   client INITIATE  AP-REQ                  server accepts; CHALLENGE AP-REP
//   client RESPONSE  "" (context complete)   server CHALLENGE wrap(offer)
//   client RESPONSE  wrap(choice, authzid)   server SUCCESS
// where offer = [layers bitmask][max buffer, 3 octets] and choice the same
// with one layer bit. Only "no security layer" (hadoop.rpc.protection =
// authentication) is offered and accepted for now.
//
// Thread contract: not thread-safe; each object belongs to one connection.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::ipc {

// RFC 4752 security layer bits.
inline constexpr uint8_t kGssapiNoSecurityLayer = 0x01;

// Where a server finds its key.
struct GssapiAcceptorIdentity {
  // The service principal, e.g. "rm/host.example.com@EXAMPLE.COM".
  std::string principal;
  // Its keytab file.
  std::string keytab;
};

class GssapiServer {
 public:
  // Fails when the principal does not parse or the keytab cannot be used.
  static Result<std::unique_ptr<GssapiServer>> Create(const GssapiAcceptorIdentity& identity);
  ~GssapiServer();

  // One client token in (INITIATE's, then each RESPONSE's); the challenge
  // to send back, or nullopt when authentication is complete (SUCCESS).
  // Errors are the reason to refuse the client (Unauthorized).
  Result<std::optional<std::string>> Step(std::string_view client_token);

  bool complete() const { return stage_ == Stage::kComplete; }
  // The authenticated client principal (once complete).
  const std::string& client_principal() const { return client_principal_; }

 private:
  enum class Stage { kAccepting, kAwaitEmpty, kAwaitLayerChoice, kComplete, kFailed };
  struct Handles;
  explicit GssapiServer(std::unique_ptr<Handles> handles);
  Result<std::string> LayerOffer();

  std::unique_ptr<Handles> handles_;
  Stage stage_ = Stage::kAccepting;
  std::string client_principal_;
};

// Where a client finds its ticket.
struct GssapiInitiatorIdentity {
  // A credential cache ("MEMORY:...", "FILE:..."); empty: the default one
  // (KRB5CCNAME, as after kinit).
  std::string cache_name;
};

class GssapiClient {
 public:
  // `protocol` and `server_id` are what the server advertised: the target is
  // the host-based service protocol@server_id, as Java's SaslRpcClient asks.
  static Result<std::unique_ptr<GssapiClient>> Create(const GssapiInitiatorIdentity& identity,
                                                      std::string_view protocol,
                                                      std::string_view server_id);
  ~GssapiClient();

  // INITIATE's token.
  Result<std::string> Start();
  // A CHALLENGE's token in, the RESPONSE's token out.
  Result<std::string> Step(std::string_view challenge);
  // The security-layer exchange is done: only SUCCESS may follow.
  bool complete() const { return stage_ == Stage::kComplete; }
  // Whose ticket this client uses ("nm/host@REALM").
  const std::string& client_principal() const { return client_principal_; }

 private:
  enum class Stage { kStart, kEstablishing, kAwaitOffer, kComplete, kFailed };
  struct Handles;
  GssapiClient(std::unique_ptr<Handles> handles, std::string client_principal);
  Result<std::string> Initiate(std::string_view input);

  std::unique_ptr<Handles> handles_;
  const std::string client_principal_;
  Stage stage_ = Stage::kStart;
};

}  // namespace spindle::ipc
