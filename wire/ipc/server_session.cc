#include "wire/ipc/server_session.h"

#include <glog/logging.h>

#include "base/base64.h"
#include "ipc_connection_context.pb.h"
#include "protobuf_rpc_engine.pb.h"
#include "rpc_header.pb.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/gssapi_mechanism.h"

namespace spindle::ipc {

namespace {
using hadoop::common::RpcRequestHeaderProto;
using hadoop::common::RpcResponseHeaderProto;
using hadoop::common::RpcSaslProto;

constexpr char kTokenMethod[] = "TOKEN";
constexpr char kSimpleMethod[] = "SIMPLE";
constexpr char kDigestMechanism[] = "DIGEST-MD5";
constexpr char kKerberosMethod[] = "KERBEROS";
constexpr char kGssapiMechanism[] = "GSSAPI";

// The auths a server advertises, in Hadoop's order: TOKEN first, then SIMPLE.
RpcSaslProto::SaslAuth TokenAuth() {
  RpcSaslProto::SaslAuth auth;
  auth.set_method(kTokenMethod);
  auth.set_mechanism(kDigestMechanism);
  auth.set_protocol("");
  auth.set_serverid(kDigestRealm);
  return auth;
}

// SaslRpcServer (3.3): the principal "service/host@REALM" split at '/' and
// '@' into at most three parts gives protocol and serverId ("" without a
// host part).
RpcSaslProto::SaslAuth KerberosAuth(const KerberosAcceptor& acceptor) {
  const std::string& name = acceptor.principal;
  const size_t first = name.find_first_of("/@");
  RpcSaslProto::SaslAuth auth;
  auth.set_method(kKerberosMethod);
  auth.set_mechanism(kGssapiMechanism);
  auth.set_protocol(name.substr(0, first));
  std::string server_id;
  if (first != std::string::npos) {
    const size_t second = name.find_first_of("/@", first + 1);
    server_id = name.substr(first + 1,
                            second == std::string::npos ? std::string::npos : second - first - 1);
  }
  auth.set_serverid(server_id);
  return auth;
}

RpcSaslProto::SaslAuth SimpleAuth() {
  RpcSaslProto::SaslAuth auth;
  auth.set_method(kSimpleMethod);
  auth.set_mechanism("");
  return auth;
}

// Java requires the chosen auth to equal an advertised one in all set fields.
bool SameAuth(const RpcSaslProto::SaslAuth& a, const RpcSaslProto::SaslAuth& b) {
  return a.method() == b.method() && a.mechanism() == b.mechanism() &&
         a.has_protocol() == b.has_protocol() && a.protocol() == b.protocol() &&
         a.has_serverid() == b.has_serverid() && a.serverid() == b.serverid();
}

std::string AvailableMethods(const ServerSessionOptions& options) {
  // Hadoop prints its List<AuthMethod>: TOKEN, then the configured method.
  std::string out;
  const auto add = [&out](const char* method) {
    out += (out.empty() ? "" : ", ") + std::string(method);
  };
  if (options.token_provider != nullptr) add(kTokenMethod);
  if (options.kerberos != nullptr) add(kKerberosMethod);
  if (options.simple_enabled) add(kSimpleMethod);
  return "[" + out + "]";
}
}  // namespace

ServerSession::ServerSession(const ServerSessionOptions& options, ServerSessionSink* sink,
                             std::string nonce)
    : options_(options),
      sink_(sink),
      decoder_(options.max_data_length),
      digest_(std::move(nonce), options.qops) {
  CHECK(options_.simple_enabled || options_.token_provider != nullptr ||
        options_.kerberos != nullptr)
      << "a server must offer at least one authentication method";
  CHECK(options_.kerberos == nullptr || !options_.simple_enabled)
      << "a Kerberos server does not offer SIMPLE";
}

bool ServerSession::OnData(std::string_view bytes) {
  if (state_ == State::kClosed) return false;
  const ProtobufLogScope log_scope(log_budget_.get());
  if (state_ == State::kPreamble) {
    const size_t need = kPreambleLength - preamble_.size();
    preamble_.append(bytes.substr(0, need));
    bytes.remove_prefix(std::min(need, bytes.size()));
    if (preamble_.size() < kPreambleLength) return true;
    HandlePreamble(preamble_);
    if (state_ == State::kClosed) return false;
  }
  decoder_.Append(bytes);
  HandleBufferedFrames();
  return state_ != State::kClosed;
}

bool ServerSession::OnAuthorized(const Status& authorized) {
  CHECK(state_ == State::kAuthorizing) << "OnAuthorized without an authorization running";
  const ProtobufLogScope log_scope(log_budget_.get());
  FinishAuthorization(authorizing_echo_, authorized);
  HandleBufferedFrames();
  return state_ != State::kClosed;
}

void ServerSession::HandleBufferedFrames() {
  // Frames unwrapped before the authorization paused the session.
  if (wrapped_reader_ != nullptr && !in_wrapped_) HandleUnwrappedFrames();
  std::string frame;
  while (Handling()) {
    auto next = decoder_.Next(&frame);
    if (!next.ok()) {
      // Hadoop closes without a reply here (the length is not trusted).
      CloseSilently(next.status().ToString());
      break;
    }
    if (!*next) break;
    HandleFrame(frame);
  }
}

void ServerSession::HandlePreamble(std::string_view preamble) {
  const Preamble p = ParsePreamble(preamble);
  switch (p.kind) {
    case Preamble::Kind::kHttpGet:
      sink_->SendBytes(HttpGetReply());
      CloseSilently("HTTP request on an IPC port");
      return;
    case Preamble::Kind::kWrongVersion:
      sink_->SendBytes(VersionMismatchReply(p.version));
      CloseSilently("client IPC version " + std::to_string(p.version));
      return;
    case Preamble::Kind::kValid:
      break;
  }
  if (p.auth_byte == static_cast<uint8_t>(AuthProtocol::kSasl)) {
    state_ = State::kSasl;
    return;
  }
  if (p.auth_byte != static_cast<uint8_t>(AuthProtocol::kNone)) {
    sink_->SendBytes(EncodeFatalSetupResponse(
        java::kIpcException, "Unknown auth protocol:" + std::to_string(int{p.auth_byte}),
        RpcResponseHeaderProto::FATAL_UNAUTHORIZED));
    CloseSilently("unknown auth protocol byte");
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  if (!options_.simple_enabled) {
    sink_->SendBytes(EncodeFatalSetupResponse(
        java::kAccessControl,
        "SIMPLE authentication is not enabled.  Available:" + AvailableMethods(options_),
        RpcResponseHeaderProto::FATAL_UNAUTHORIZED));
    CloseSilently("SIMPLE authentication is not enabled");
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  identity_.auth_method = AuthMethod::kSimple;
  state_ = State::kNeedContext;
}

void ServerSession::HandleFrame(std::string_view frame) {
  RpcRequestHeaderProto header;
  std::string_view rest = frame;
  const CallEcho unknown{kAuthorizationFailedCallId, "", -1};
  if (!ReadDelimited(&rest, &header).ok()) {
    Fatal(unknown, java::kRpcServerException, "IPC Server unable to read call header",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  const CallEcho echo{header.callid(), header.clientid(), header.retrycount()};
  if (!header.has_rpcop()) {
    Fatal(echo, java::kRpcServerException, " IPC Server: No rpc op in rpcRequestHeader",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  if (header.rpcop() != RpcRequestHeaderProto::RPC_FINAL_PACKET) {
    Fatal(echo, java::kRpcServerException, "IPC Server does not implement rpc header operation",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  if (!header.has_rpckind()) {
    Fatal(echo, java::kRpcServerException, " IPC Server: No rpc kind in rpcRequestHeader",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  const int32_t call_id = header.callid();
  if (security_layer_ != nullptr && !in_wrapped_) {
    if (call_id == kSaslCallId) {
      HandleWrapped(rest);
    } else {
      // Java's Server would take it; a frame outside the protection could
      // have been injected by anyone on the path, so it is refused.
      Fatal(echo, java::kSaslException,
            "an unwrapped RPC on a connection whose SASL qop is " +
                std::string(SaslQopName(security_layer_->qop())),
            RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    }
    return;
  }
  if (call_id == kSaslCallId) {
    const State before = state_;
    HandleSasl(rest);
    if (state_ == State::kClosed) {
      sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    } else if (before == State::kSasl && state_ == State::kNeedContext &&
               identity_.auth_method == AuthMethod::kToken) {
      sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationSucceeded);
    }
    return;
  }
  if (state_ == State::kSasl) {
    // Nothing but SASL before negotiation is complete.
    Fatal(echo, java::kAccessControl, "Connection not authenticated: SASL negotiation incomplete",
          RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  if (call_id == kPingCallId) return;  // keep-alive, no reply
  if (call_id == kConnectionContextCallId) {
    HandleContext(rest);
    return;
  }
  if (call_id < 0) {
    Fatal(echo, java::kRpcServerException, "Unknown out of band call #" + std::to_string(call_id),
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  if (state_ != State::kReady) {
    Fatal(echo, java::kRpcServerException, "Connection context not established",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  if (header.rpckind() != hadoop::common::RPC_PROTOCOL_BUFFER) {
    sink_->SendBytes(
        EncodeErrorResponse(echo, RpcResponseHeaderProto::ERROR, java::kRpcServerException,
                            "Unsupported rpc kind " + std::to_string(header.rpckind()) +
                                ": this server speaks only RPC_PROTOCOL_BUFFER",
                            RpcResponseHeaderProto::ERROR_RPC_SERVER));
    return;
  }
  HandleCall(echo, rest);
}

void ServerSession::HandleSasl(std::string_view rest) {
  const CallEcho echo{kSaslCallId, "", -1};
  if (state_ != State::kSasl) {
    Fatal(echo, java::kAccessControl,
          state_ == State::kNeedContext || state_ == State::kReady
              ? "SASL message after authentication completed"
              : "SASL message on a connection that did not announce SASL",
          RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    return;
  }
  RpcSaslProto sasl;
  if (!ReadDelimited(&rest, &sasl).ok()) {
    Fatal(echo, java::kRpcServerException, "IPC Server unable to read SASL message",
          RpcResponseHeaderProto::FATAL_DESERIALIZING_REQUEST);
    return;
  }
  switch (sasl.state()) {
    case RpcSaslProto::NEGOTIATE: {
      if (negotiated_) {
        Fatal(echo, java::kAccessControl, "Received duplicate SASL negotiation",
              RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        return;
      }
      negotiated_ = true;
      RpcSaslProto reply;
      if (options_.token_provider == nullptr && options_.kerberos == nullptr) {
        // SIMPLE-only servers answer SUCCESS: the client proceeds with SIMPLE.
        reply.set_state(RpcSaslProto::SUCCESS);
        identity_.auth_method = AuthMethod::kSimple;
        state_ = State::kNeedContext;
      } else {
        reply.set_state(RpcSaslProto::NEGOTIATE);
        if (options_.token_provider != nullptr) {
          auto* token = reply.add_auths();
          *token = TokenAuth();
          token->set_challenge(digest_.Challenge());
        }
        if (options_.kerberos != nullptr) *reply.add_auths() = KerberosAuth(*options_.kerberos);
        if (options_.simple_enabled) *reply.add_auths() = SimpleAuth();
      }
      sink_->SendBytes(EncodeSaslResponse(reply));
      return;
    }
    case RpcSaslProto::INITIATE: {
      if (!negotiated_ || sasl.auths_size() != 1) {
        Fatal(echo, java::kAccessControl,
              negotiated_ ? "Client mechanism is malformed" : "SASL INITIATE before NEGOTIATE",
              RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        return;
      }
      const auto& chosen = sasl.auths(0);
      if (options_.simple_enabled && SameAuth(chosen, SimpleAuth())) {
        // Java switches to SIMPLE and sends nothing; the client does not wait.
        identity_.auth_method = AuthMethod::kSimple;
        state_ = State::kNeedContext;
        return;
      }
      if (options_.kerberos != nullptr && SameAuth(chosen, KerberosAuth(*options_.kerberos))) {
        HandleGssapiToken(echo, sasl.token());
        return;
      }
      if (options_.token_provider == nullptr || !SameAuth(chosen, TokenAuth())) {
        Fatal(echo, java::kAccessControl,
              "Client mechanism is malformed: " + chosen.method() + "/" + chosen.mechanism() +
                  " was not offered",
              RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        return;
      }
      [[fallthrough]];
    }
    case RpcSaslProto::RESPONSE: {
      if (gssapi_ != nullptr && sasl.state() == RpcSaslProto::RESPONSE) {
        HandleGssapiToken(echo, sasl.token());
        return;
      }
      if (options_.token_provider == nullptr || !negotiated_) {
        Fatal(echo, java::kAccessControl, "SASL RESPONSE without a TOKEN negotiation",
              RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        return;
      }
      std::string token_user;
      std::string identifier;
      bool invalid_token = false;
      // A provider that cannot answer yet says so with RetriableException
      // (or StandbyException); as Java's Server (getCauseForInvalidToken)
      // that class, not InvalidToken, goes to the client, which retries.
      std::string_view failure_class = java::kInvalidToken;
      auto lookup = [&](std::string_view username) -> Result<std::string> {
        auto id = Base64Decode(username);
        if (!id.ok()) {
          invalid_token = true;
          return Status::Unauthorized("token identifier is not valid Base64");
        }
        auto secret = options_.token_provider->RetrieveSecret(*id);
        if (!secret.ok()) {
          invalid_token = true;
          const std::string& cls = secret.status().java_class();
          if (cls == java::kRetriableException) failure_class = java::kRetriableException;
          if (cls == java::kStandbyException) failure_class = java::kStandbyException;
          return secret.status();
        }
        token_user = secret->user;
        identifier = std::move(id).value();
        return Base64Encode(secret->password);
      };
      auto rspauth = digest_.EvaluateResponse(sasl.token(), lookup);
      if (!rspauth.ok()) {
        Fatal(echo, invalid_token ? failure_class : java::kSaslException,
              rspauth.status().message(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        return;
      }
      identity_.auth_method = AuthMethod::kToken;
      identity_.user = token_user;
      identity_.token_identifier = std::move(identifier);
      state_ = State::kNeedContext;
      RpcSaslProto reply;
      reply.set_state(RpcSaslProto::SUCCESS);
      reply.set_token(*rspauth);
      sink_->SendBytes(EncodeSaslResponse(reply));
      StartSecurityLayer(digest_.TakeSecurityLayer());
      return;
    }
    case RpcSaslProto::WRAP:
      // Server.saslReadAndProcess (2.6, 3.3): WRAP before SASL completed,
      // or on a connection that negotiated auth.
      Fatal(echo, java::kSaslException, "Server is not wrapping data",
            RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
      return;
    default:
      Fatal(echo, java::kAccessControl,
            "Unsupported SASL state " + RpcSaslProto::SaslState_Name(sasl.state()),
            RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
      return;
  }
}

void ServerSession::HandleGssapiToken(const CallEcho& echo, std::string_view token) {
  if (gssapi_ == nullptr) {
    Result<std::unique_ptr<GssapiServer>> server =
        options_.kerberos_credential != nullptr
            ? GssapiServer::Create(options_.kerberos_credential, options_.qops)
            : GssapiServer::Create({options_.kerberos->principal, options_.kerberos->keytab},
                                   options_.qops);
    if (!server.ok()) {
      LOG(WARNING) << "cannot accept Kerberos: " << server.status().message();
      Fatal(echo, java::kSaslException, "GSS initiate failed",
            RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
      sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
      return;
    }
    gssapi_ = std::move(server).value();
  }
  Result<std::optional<std::string>> challenge = gssapi_->Step(token);
  if (!challenge.ok()) {
    // Java's GssKrb5Server: SaslException "GSS initiate failed" (our reason
    // after it, for the operator).
    Fatal(echo, java::kSaslException, "GSS initiate failed: " + challenge.status().message(),
          RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  RpcSaslProto reply;
  if (challenge->has_value()) {
    reply.set_state(RpcSaslProto::CHALLENGE);
    reply.set_token(**challenge);
    sink_->SendBytes(EncodeSaslResponse(reply));
    return;
  }
  const std::string& principal = gssapi_->client_principal();
  Result<std::string> short_name = options_.kerberos->short_name(principal);
  if (!short_name.ok()) {
    Fatal(echo, java::kAccessControl, short_name.status().message(),
          RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  identity_.auth_method = AuthMethod::kKerberos;
  identity_.user = std::move(short_name).value();
  identity_.kerberos_principal = principal;
  state_ = State::kNeedContext;
  reply.set_state(RpcSaslProto::SUCCESS);
  sink_->SendBytes(EncodeSaslResponse(reply));
  StartSecurityLayer(gssapi_->TakeSecurityLayer());
  sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationSucceeded);
}

void ServerSession::StartSecurityLayer(std::unique_ptr<SaslSecurityLayer> layer) {
  if (layer == nullptr) return;  // qop auth: frames stay plain
  identity_.qop = layer->qop();
  security_layer_ = std::move(layer);
  wrapped_reader_ =
      std::make_unique<WrappedFrameReader>(security_layer_.get(), options_.max_data_length);
  sink_->OnSecurityLayer(security_layer_);
}

void ServerSession::HandleWrapped(std::string_view rest) {
  const CallEcho echo{kSaslCallId, "", -1};
  const std::string_view message = rest;
  RpcSaslProto sasl;
  if (!ReadDelimited(&rest, &sasl).ok()) {
    Fatal(echo, java::kRpcServerException, "IPC Server unable to read SASL message",
          RpcResponseHeaderProto::FATAL_DESERIALIZING_REQUEST);
    return;
  }
  if (sasl.state() != RpcSaslProto::WRAP) {
    HandleSasl(message);  // refused there: SASL after authentication completed
    return;
  }
  // Java's Server lets the unwrap's SaslException close the connection;
  // this one says why first (wrapped, so a Java client reads it as the
  // RemoteException it is).
  if (Status s = wrapped_reader_->Add(sasl.token()); !s.ok()) {
    Fatal(echo, java::kSaslException, s.message(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthenticationFailed);
    return;
  }
  HandleUnwrappedFrames();
}

void ServerSession::HandleUnwrappedFrames() {
  std::string frame;
  in_wrapped_ = true;
  while (Handling()) {
    Result<bool> next = wrapped_reader_->Next(&frame);
    if (!next.ok()) {
      CloseSilently(next.status().ToString());
      break;
    }
    if (!*next) break;
    HandleFrame(frame);
  }
  in_wrapped_ = false;
}

void ServerSession::HandleContext(std::string_view rest) {
  const CallEcho echo{kConnectionContextCallId, "", -1};
  if (state_ == State::kReady) {
    Fatal(echo, java::kRpcServerException, "Connection context already processed",
          RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
    return;
  }
  hadoop::common::IpcConnectionContextProto context;
  if (!ReadDelimited(&rest, &context).ok()) {
    Fatal(echo, java::kRpcServerException, "IPC Server unable to read connection context",
          RpcResponseHeaderProto::FATAL_DESERIALIZING_REQUEST);
    return;
  }
  const auto& info = context.userinfo();
  if (identity_.auth_method == AuthMethod::kKerberos) {
    // The client names its principal (ProtoUtil.makeIpcConnectionContext,
    // 3.3) or no one. Another name asks to impersonate (Server
    // .processConnectionContext makes a proxy user, 2.6 to 3.3): the
    // authorizer's proxy-user rules decide; without an authorizer there are
    // none, and Hadoop's DefaultImpersonationProvider refuses.
    if (info.has_effectiveuser() && info.effectiveuser() != identity_.kerberos_principal &&
        info.effectiveuser() != identity_.user) {
      if (options_.authorizer == nullptr) {
        Fatal(echo, java::kAuthorization,
              "User: " + identity_.kerberos_principal + " is not allowed to impersonate " +
                  info.effectiveuser(),
              RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
        sink_->OnAuthEvent(SessionAuthEvent::kAuthorizationFailed);
        return;
      }
      identity_.real_user = identity_.user;
      identity_.user = info.effectiveuser();
    }
  } else if (identity_.auth_method == AuthMethod::kToken) {
    // SASL proved who the caller is: a context may repeat that user or name
    // none (the calls run as the token's user), never claim another
    // (Server.processConnectionContext, 2.6 to 3.3).
    if (info.has_effectiveuser() && info.effectiveuser() != identity_.user) {
      Fatal(echo, java::kAccessControl,
            "Authenticated user (" + identity_.user +
                ") doesn't match what the client claims to be (" + info.effectiveuser() + ")",
            RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
      sink_->OnAuthEvent(SessionAuthEvent::kAuthorizationFailed);
      return;
    }
  } else if (!info.has_effectiveuser()) {
    // SIMPLE without an effective user: ProtoUtil.getUgi returns null (a
    // realUser alone is ignored) and Hadoop's handler runs the calls without
    // doAs, as the server's login user (2.6, 2.7 and 3.3 alike).
    identity_.user = options_.login_user;
    identity_.real_user.clear();
    LOG(WARNING) << "a connection context"
                 << (context.has_protocol() ? " for " + context.protocol() : std::string())
                 << " names no effective user"
                 << (info.has_realuser() ? " (real user " + info.realuser() + ")" : std::string())
                 << "; its calls run as this server's login user " << options_.login_user
                 << ", as Hadoop runs them";
  } else if (info.effectiveuser().empty()) {
    // Hadoop's createRemoteUser("") throws "Null user" and drops the
    // connection: there is no user to run as.
    Fatal(echo, java::kAccessControl, "Null user", RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthorizationFailed);
    return;
  } else {
    identity_.user = info.effectiveuser();
    identity_.real_user = info.realuser();
  }
  identity_.protocol = context.protocol();
  if (options_.authorizer == nullptr) {
    FinishAuthorization(echo, Status::OK());
    return;
  }
  // Off this (I/O) thread when the sink can: the authorizer may block.
  const ConnectionAuthorizer* authorizer = options_.authorizer;
  if (sink_->AuthorizeOffThread(
          [authorizer, identity = identity_] { return authorizer->Authorize(identity); })) {
    state_ = State::kAuthorizing;
    authorizing_echo_ = echo;
    return;
  }
  FinishAuthorization(echo, authorizer->Authorize(identity_));
}

void ServerSession::FinishAuthorization(const CallEcho& echo, const Status& authorized) {
  if (!authorized.ok()) {
    Fatal(echo, authorized.java_class().empty() ? java::kAuthorization : authorized.java_class(),
          authorized.message(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
    sink_->OnAuthEvent(SessionAuthEvent::kAuthorizationFailed);
    return;
  }
  state_ = State::kReady;
  sink_->OnAuthEvent(SessionAuthEvent::kAuthorizationSucceeded);
}

void ServerSession::HandleCall(const CallEcho& echo, std::string_view rest) {
  hadoop::common::RequestHeaderProto request_header;
  std::string_view payload;
  if (!ReadDelimited(&rest, &request_header).ok()) {
    Fatal(echo, java::kRpcServerException, "IPC server unable to read call parameters",
          RpcResponseHeaderProto::FATAL_DESERIALIZING_REQUEST);
    return;
  }
  // An empty request message may be sent as the single length byte 0 or not at all.
  if (!rest.empty() && !ReadDelimitedBytes(&rest, &payload).ok()) {
    Fatal(echo, java::kRpcServerException, "IPC server unable to read call parameters",
          RpcResponseHeaderProto::FATAL_DESERIALIZING_REQUEST);
    return;
  }
  InboundRequest request;
  request.echo = echo;
  request.method = request_header.methodname();
  request.protocol = request_header.declaringclassprotocolname();
  request.client_protocol_version = request_header.clientprotocolversion();
  request.payload.assign(payload.data(), payload.size());
  sink_->OnCall(std::move(request));
}

void ServerSession::Fatal(const CallEcho& echo, std::string_view exception_class,
                          std::string_view message, RpcErrorCode code) {
  sink_->SendBytes(
      EncodeErrorResponse(echo, RpcResponseHeaderProto::FATAL, exception_class, message, code));
  CloseSilently(std::string(exception_class) + ": " + std::string(message));
}

void ServerSession::CloseSilently(std::string reason) {
  state_ = State::kClosed;
  close_reason_ = std::move(reason);
}

}  // namespace spindle::ipc
