// ServerSession: the server side of one Hadoop IPC v9 connection as a pure
// state machine (Envoy-style codec: bytes in, callbacks out). It checks the
// preamble, runs SASL negotiation (SIMPLE and TOKEN/DIGEST-MD5), reads the
// connection context, and hands each call to the sink; it answers protocol
// violations with Hadoop's FATAL responses and then asks to close.
//
// No sockets or threads here: RpcServer's connection feeds it bytes, and the
// fuzzer and golden tests feed it captured bytes.
//
// Thread contract: not thread-safe; owned and used by one connection strand.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/process_user.h"
#include "base/result.h"
#include "wire/ipc/connection_authorizer.h"
#include "wire/ipc/connection_identity.h"
#include "wire/ipc/digest_md5.h"
#include "wire/ipc/frame_decoder.h"
#include "wire/ipc/gssapi_mechanism.h"
#include "wire/ipc/protobuf_log_folding.h"
#include "wire/ipc/rpc_responses.h"
#include "wire/ipc/sasl_qop.h"
#include "wire/ipc/sasl_security_layer.h"
#include "wire/ipc/sasl_wrap_framing.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::ipc {

// What a server needs to offer KERBEROS (SASL GSSAPI).
struct KerberosAcceptor {
  // This server's principal, "service/host@REALM": the NEGOTIATE reply
  // advertises service as protocol and host as serverId (SaslRpcServer, 3.3).
  std::string principal;
  // Its keytab file.
  std::string keytab;
  // hadoop.security.auth_to_local: the short name calls run as, or the
  // reason the principal has none. Required.
  std::function<Result<std::string>(const std::string& principal)> short_name;
};

struct ServerSessionOptions {
  // Offer SIMPLE authentication. Default: true. The AM port (8030) turns it
  // off, as Hadoop's RM does: only TOKEN is accepted there.
  bool simple_enabled = true;
  // Offer TOKEN/DIGEST-MD5 with passwords from this provider. Default: none
  // (SIMPLE-only server: a SASL NEGOTIATE is answered with SUCCESS).
  const TokenSecretProvider* token_provider = nullptr;
  // Offer KERBEROS (SASL GSSAPI) as this acceptor. Default: none. With it,
  // simple_enabled is false: Hadoop offers [TOKEN, KERBEROS] then.
  const KerberosAcceptor* kerberos = nullptr;
  // The acceptor's credential, acquired once (RpcServer::Start does) so
  // that no connection reads the keytab on an I/O thread. Default: none;
  // a session with `kerberos` and no credential acquires one itself.
  std::shared_ptr<const GssapiAcceptorCredential> kerberos_credential;
  // hadoop.rpc.protection: the qops TOKEN and KERBEROS offer, in order.
  // With auth-int or auth-conf negotiated every later frame is wrapped.
  // Default: authentication.
  SaslQops qops = {SaslQop::kAuth};
  // Decides, once the connection context is read, whether the connection
  // may go on (proxy users, service ACLs). Default: none. Without one, every
  // context is accepted except a Kerberos caller naming another user, which
  // is refused as Hadoop refuses it without proxy-user rules.
  const ConnectionAuthorizer* authorizer = nullptr;
  // ipc.maximum.data.length: larger frames close the connection before any
  // allocation. Default: 64 MiB (Hadoop 2.x).
  uint32_t max_data_length = 64 * 1024 * 1024;
  // Who the calls of a SIMPLE connection whose context names no effective
  // user run as: the server's login user, as in Hadoop. Default: this
  // process's ($HADOOP_USER_NAME, else the passwd name of its uid).
  std::string login_user = LoginUserName();
};

// A call ready for dispatch: headers decoded, request payload still bytes.
struct InboundRequest {
  CallEcho echo;
  std::string method;
  std::string protocol;
  uint64_t client_protocol_version = 0;
  std::string payload;  // serialized request message (may be empty)
};

// Security outcomes a session reports (for RpcActivity counters).
enum class SessionAuthEvent {
  kAuthenticationSucceeded,  // TOKEN (DIGEST-MD5) negotiation completed
  kAuthenticationFailed,     // refused during the preamble or SASL
  kAuthorizationSucceeded,   // connection context accepted
  kAuthorizationFailed,      // connection context refused (user)
};

class ServerSessionSink {
 public:
  virtual ~ServerSessionSink() = default;
  // A security outcome; default: ignored. Called on the session's thread.
  virtual void OnAuthEvent(SessionAuthEvent /*event*/) {}
  // Bytes for the peer: always whole frames (or a whole preamble reply).
  virtual void SendBytes(std::string bytes) = 0;
  // A call to run. The identity is session().identity().
  virtual void OnCall(InboundRequest request) = 0;
  // SASL negotiated integrity or privacy: from now on every byte sent to
  // the peer must be wrapped with `layer` (sasl_wrap_framing.h), in the
  // order sent. Called once, after the SUCCESS reply was handed to
  // SendBytes (that one goes unwrapped). A sink that sends nothing to a
  // peer (a fuzzer's) may ignore it; the default does.
  virtual void OnSecurityLayer(std::shared_ptr<SaslSecurityLayer> /*layer*/) {}
  // The connection authorizer may block (group look-ups, reverse DNS), so a
  // sink with worker threads runs `authorize` on one of them and later
  // calls ServerSession::OnAuthorized with its result, on the session's
  // thread; it returns true. Meanwhile the session only buffers input (the
  // calls after the context wait for the outcome). False (the default):
  // the session runs it itself, inline.
  virtual bool AuthorizeOffThread(std::function<Status()> /*authorize*/) { return false; }
};

class ServerSession {
 public:
  ServerSession(const ServerSessionOptions& options, ServerSessionSink* sink, std::string nonce);

  // Consumes bytes from the peer. Returns false once the connection must be
  // closed (any reply has already been handed to SendBytes); the session
  // ignores all further input then. libprotobuf lines it causes are charged
  // to log_budget() (protobuf_log_folding.h).
  bool OnData(std::string_view bytes);
  // The outcome of the authorization handed to the sink's
  // AuthorizeOffThread: a refusal is FATAL; then the input buffered
  // meanwhile is handled. Returns as OnData.
  bool OnAuthorized(const Status& authorized);

  // This connection's allowance of libprotobuf log lines: one. Shared, so
  // that work done for the connection elsewhere (its calls' handlers) is
  // charged to it too.
  const std::shared_ptr<ProtobufLogBudget>& log_budget() const { return log_budget_; }

  bool closed() const { return state_ == State::kClosed; }
  // The reason the session closed, for the log ("" while open).
  const std::string& close_reason() const { return close_reason_; }
  const ConnectionIdentity& identity() const { return identity_; }
  // "ip:port" of the peer, for the authorizer; set before the first bytes.
  void set_remote_address(std::string address) { identity_.remote_address = std::move(address); }
  bool context_established() const { return state_ == State::kReady; }
  // Bytes of buffer storage this session holds between reads: what an idle
  // connection costs beyond its fixed size (bounded by
  // FrameDecoder::kRetainedCapacity once a frame has been consumed).
  size_t retained_bytes() const { return decoder_.capacity(); }

 private:
  enum class State {
    kPreamble,     // waiting for the 7-byte preamble
    kSasl,         // auth byte SASL: negotiating
    kNeedContext,  // SIMPLE chosen or SASL complete: context next
    kAuthorizing,  // context read, the authorizer runs off this thread
    kReady,        // context read: calls accepted
    kClosed,
  };

  void HandlePreamble(std::string_view preamble);
  void HandleFrame(std::string_view frame);
  void HandleSasl(std::string_view rest);
  // INITIATE (KERBEROS chosen) or RESPONSE of a GSSAPI exchange.
  void HandleGssapiToken(const CallEcho& echo, std::string_view token);
  // After SASL SUCCESS: with auth-int/auth-conf, installs the layer (this
  // side unwraps, the sink wraps).
  void StartSecurityLayer(std::unique_ptr<SaslSecurityLayer> layer);
  // A SASL frame on a connection with a security layer: WRAP tokens are
  // unwrapped and their frames handled; anything else is refused.
  void HandleWrapped(std::string_view rest);
  // Handles the frames the wrapped reader holds, while input may be handled.
  void HandleUnwrappedFrames();
  void HandleContext(std::string_view rest);
  // The outcome of options_.authorizer over the finished identity (Hadoop's
  // authorizeConnection): on refusal FATAL and closed, else kReady.
  void FinishAuthorization(const CallEcho& echo, const Status& authorized);
  // Handles the frames buffered (unwrapped ones first) while input may be
  // handled: not closed, not waiting for the authorizer.
  void HandleBufferedFrames();
  bool Handling() const { return state_ != State::kClosed && state_ != State::kAuthorizing; }
  void HandleCall(const CallEcho& echo, std::string_view rest);
  // Sends FATAL (callId/clientId echoed from `echo`) and closes.
  void Fatal(const CallEcho& echo, std::string_view exception_class, std::string_view message,
             RpcErrorCode code);
  void CloseSilently(std::string reason);

  const ServerSessionOptions options_;
  ServerSessionSink* const sink_;
  State state_ = State::kPreamble;
  std::string preamble_;
  FrameDecoder decoder_;
  DigestMd5Server digest_;
  std::unique_ptr<GssapiServer> gssapi_;  // set once the client chose KERBEROS
  bool negotiated_ = false;               // NEGOTIATE seen
  ConnectionIdentity identity_;
  // Set once SASL negotiated auth-int or auth-conf.
  std::shared_ptr<SaslSecurityLayer> security_layer_;
  std::unique_ptr<WrappedFrameReader> wrapped_reader_;
  // Inside HandleWrapped: the frame being handled came unwrapped.
  bool in_wrapped_ = false;
  // kAuthorizing: the context's echo, for the refusal.
  CallEcho authorizing_echo_;
  std::string close_reason_;
  const std::shared_ptr<ProtobufLogBudget> log_budget_ = std::make_shared<ProtobufLogBudget>();
};

}  // namespace spindle::ipc
