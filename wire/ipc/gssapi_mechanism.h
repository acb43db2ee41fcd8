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
// with one layer bit (RFC 4752 3.3). The server offers the layers
// hadoop.rpc.protection allows (none = authentication, integrity, privacy)
// and the client takes the first of its own preference list the server
// offers, as Java's GssKrb5Server/GssKrb5Client do; with integrity or
// privacy every later message goes through gss_wrap/gss_unwrap (conf_req =
// privacy), and a duplicate, old, out-of-sequence or gap token is refused
// as Java's checkMessageProp refuses it.
//
// The acceptor's credential (its keytab key) is acquired once, at server
// start (GssapiAcceptorCredential), not per connection: reading the keytab
// is file I/O that must not run on the I/O threads.
//
// Thread contract: not thread-safe; each object belongs to one connection,
// except GssapiAcceptorCredential, shared read-only by every connection.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "wire/ipc/sasl_qop.h"
#include "wire/ipc/sasl_security_layer.h"

namespace spindle::ipc {

// RFC 4752 security layer bits.
inline constexpr uint8_t kGssapiNoSecurityLayer = 0x01;
inline constexpr uint8_t kGssapiIntegrityLayer = 0x02;
inline constexpr uint8_t kGssapiPrivacyLayer = 0x04;
// The largest wrapped message each side accepts (Java's default
// Sasl.MAX_BUFFER, 65536).
inline constexpr uint32_t kGssapiMaxBuffer = 65536;

// The layer bits of a preference list, and the qop of one layer bit.
uint8_t GssapiLayerMask(const SaslQops& qops);

// Where a server finds its key.
struct GssapiAcceptorIdentity {
  // The service principal, e.g. "rm/host.example.com@EXAMPLE.COM".
  std::string principal;
  // Its keytab file.
  std::string keytab;
};

// An acceptor credential from a keytab, acquired once and shared by every
// connection of a server. Thread-safe once made (GSS-API only reads it).
class GssapiAcceptorCredential {
 public:
  // Fails when the principal does not parse or the keytab cannot be used.
  static Result<std::shared_ptr<const GssapiAcceptorCredential>> Acquire(
      const GssapiAcceptorIdentity& identity);
  ~GssapiAcceptorCredential();
  GssapiAcceptorCredential(const GssapiAcceptorCredential&) = delete;
  GssapiAcceptorCredential& operator=(const GssapiAcceptorCredential&) = delete;

 private:
  friend class GssapiServer;
  struct Handle;
  explicit GssapiAcceptorCredential(std::unique_ptr<Handle> handle);
  std::unique_ptr<Handle> handle_;
};

class GssapiServer {
 public:
  // A server over an acquired credential, offering the layers of `qops`.
  static std::unique_ptr<GssapiServer> Create(
      std::shared_ptr<const GssapiAcceptorCredential> credential, SaslQops qops = {SaslQop::kAuth});
  // Acquires a credential for this one server (tests, fuzzers).
  static Result<std::unique_ptr<GssapiServer>> Create(const GssapiAcceptorIdentity& identity,
                                                      SaslQops qops = {SaslQop::kAuth});
  ~GssapiServer();

  // One client token in (INITIATE's, then each RESPONSE's); the challenge
  // to send back, or nullopt when authentication is complete (SUCCESS).
  // Errors are the reason to refuse the client (Unauthorized).
  Result<std::optional<std::string>> Step(std::string_view client_token);

  bool complete() const { return stage_ == Stage::kComplete; }
  // The authenticated client principal (once complete).
  const std::string& client_principal() const { return client_principal_; }
  // The layer the client chose (once complete).
  SaslQop negotiated_qop() const { return negotiated_qop_; }
  // Once complete with integrity or privacy: the security layer, which
  // takes the GSS context over (null for no layer). Call once.
  std::unique_ptr<SaslSecurityLayer> TakeSecurityLayer();

 private:
  enum class Stage { kAccepting, kAwaitEmpty, kAwaitLayerChoice, kComplete, kFailed };
  struct Handles;
  GssapiServer(std::unique_ptr<Handles> handles, SaslQops qops);
  Result<std::string> LayerOffer();

  std::unique_ptr<Handles> handles_;
  const SaslQops qops_;
  Stage stage_ = Stage::kAccepting;
  std::string client_principal_;
  SaslQop negotiated_qop_ = SaslQop::kAuth;
  uint32_t peer_max_buffer_ = 0;
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
  // `qops`: the layers this client accepts, preferred first.
  static Result<std::unique_ptr<GssapiClient>> Create(const GssapiInitiatorIdentity& identity,
                                                      std::string_view protocol,
                                                      std::string_view server_id,
                                                      SaslQops qops = {SaslQop::kAuth});
  ~GssapiClient();

  // INITIATE's token.
  Result<std::string> Start();
  // A CHALLENGE's token in, the RESPONSE's token out.
  Result<std::string> Step(std::string_view challenge);
  // The security-layer exchange is done: only SUCCESS may follow.
  bool complete() const { return stage_ == Stage::kComplete; }
  // Whose ticket this client uses ("nm/host@REALM").
  const std::string& client_principal() const { return client_principal_; }
  // The layer chosen (once complete).
  SaslQop negotiated_qop() const { return negotiated_qop_; }
  // Once complete with integrity or privacy: the security layer, which
  // takes the GSS context over (null for no layer). Call once.
  std::unique_ptr<SaslSecurityLayer> TakeSecurityLayer();

 private:
  enum class Stage { kStart, kEstablishing, kAwaitOffer, kComplete, kFailed };
  struct Handles;
  GssapiClient(std::unique_ptr<Handles> handles, std::string client_principal, SaslQops qops);
  Result<std::string> Initiate(std::string_view input);

  std::unique_ptr<Handles> handles_;
  const std::string client_principal_;
  const SaslQops qops_;
  Stage stage_ = Stage::kStart;
  SaslQop negotiated_qop_ = SaslQop::kAuth;
  uint32_t peer_max_buffer_ = 0;
};

}  // namespace spindle::ipc
