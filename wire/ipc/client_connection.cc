#include "wire/ipc/client_connection.h"

#include <glog/logging.h>

#include "base/base64.h"
#include "base/crypto.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/socket_reader.h"

namespace spindle::ipc {

namespace asio = boost::asio;
using boost::system::error_code;
using hadoop::common::RpcResponseHeaderProto;
using Clock = std::chrono::steady_clock;

namespace {
constexpr std::chrono::milliseconds kTimerTick{250};
}  // namespace

ClientConnection::ClientConnection(RpcClient* owner, asio::io_context& io, ConnectionSpec spec,
                                   std::string key)
    : owner_(owner),
      options_(owner->options_),
      spec_(std::move(spec)),
      key_(std::move(key)),
      strand_(asio::make_strand(io)),
      resolver_(strand_),
      socket_(strand_),
      timer_(strand_),
      decoder_(options_.max_response_length) {}

void ClientConnection::Enqueue(PendingCall call) {
  asio::post(strand_, [self = shared_from_this(), call = std::move(call)]() mutable {
    if (self->state_ == State::kClosed) {
      call.done(Status::Aborted("connection closed"));
      return;
    }
    self->last_activity_ = Clock::now();
    if (self->state_ == State::kReady) {
      self->in_flight_.emplace(
          call.call_id,
          PendingCall{call.call_id, {}, call.response, std::move(call.done), call.deadline});
      self->Send(std::move(call.frame));
      return;
    }
    self->waiting_.push_back(std::move(call));
    if (self->state_ == State::kIdle) self->Connect();
  });
}

void ClientConnection::Shutdown(Status why) {
  asio::post(strand_, [self = shared_from_this(), why = std::move(why)] { self->Fail(why); });
}

void ClientConnection::Connect() {
  state_ = State::kConnecting;
  connect_deadline_ = Clock::now() + options_.connect_timeout;
  ArmTimer();
  resolver_.async_resolve(
      spec_.host, std::to_string(spec_.port),
      asio::bind_executor(
          strand_, [self = shared_from_this()](
                       const error_code& ec, const asio::ip::tcp::resolver::results_type& results) {
            self->OnResolved(ec, results);
          }));
}

void ClientConnection::OnResolved(const error_code& ec,
                                  const asio::ip::tcp::resolver::results_type& results) {
  if (state_ == State::kClosed) return;
  if (ec) {
    Fail(Status::IoError("cannot resolve " + spec_.host + ": " + ec.message()));
    return;
  }
  asio::async_connect(
      socket_, results,
      asio::bind_executor(strand_, [self = shared_from_this()](const error_code& cec,
                                                               const asio::ip::tcp::endpoint&) {
        self->OnConnected(cec);
      }));
}

void ClientConnection::OnConnected(const error_code& ec) {
  if (state_ == State::kClosed) return;
  if (ec) {
    Fail(Status::IoError("cannot connect to " + spec_.host + ":" + std::to_string(spec_.port) +
                         ": " + ec.message()));
    return;
  }
  error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  PrepareForReadable(socket_);
  DoRead();
  if (!spec_.token.has_value() && !spec_.kerberos.has_value()) {
    Send(EncodePreamble(AuthProtocol::kNone));
    BecomeReady(/*token_auth=*/false);
    return;
  }
  state_ = State::kNegotiating;
  // Note: a KERBEROS negotiation asks the KDC for a service ticket from
  // this I/O thread (gss_init_sec_context).
  negotiation_.emplace(spec_.token.has_value() ? &*spec_.token : nullptr,
                       Base64Encode(SecureRandomBytes(30)),
                       spec_.kerberos.has_value() ? &*spec_.kerberos : nullptr, options_.qops);
  std::string bytes = EncodePreamble(AuthProtocol::kSasl);
  bytes += EncodeSaslFrame(negotiation_->Start());
  Send(std::move(bytes));
}

void ClientConnection::BecomeReady(bool token_auth) {
  state_ = State::kReady;
  // Under KERBEROS the context names the ticket's principal (Hadoop 3.3's
  // ProtoUtil.makeIpcConnectionContext sends ugi.getUserName()).
  const bool kerberos =
      negotiation_.has_value() && negotiation_->outcome() == ClientNegotiation::Outcome::kKerberos;
  const std::string& user = !kerberos ? spec_.user
                            : spec_.kerberos_proxy_for.has_value()
                                ? *spec_.kerberos_proxy_for
                                : negotiation_->kerberos_principal();
  // Context and every queued call in one write, as Java's client does.
  std::string bytes =
      EncodeConnectionContextFrame(owner_->client_id(), spec_.protocol, user, token_auth);
  for (auto& call : waiting_) {
    bytes += call.frame;
    in_flight_.emplace(
        call.call_id,
        PendingCall{call.call_id, {}, call.response, std::move(call.done), call.deadline});
  }
  waiting_.clear();
  Send(std::move(bytes));
}

void ClientConnection::Send(std::string bytes) {
  if (security_layer_ != nullptr) {
    // On the strand, in order: the layer's message count follows the wire.
    Result<std::string> wrapped = WrapRequestFrames(security_layer_.get(), bytes);
    if (!wrapped.ok()) {
      Fail(wrapped.status());
      return;
    }
    bytes = std::move(wrapped).value();
  }
  out_queue_.push_back(std::move(bytes));
  if (writing_.empty()) StartWrite();
}

void ClientConnection::StartWrite() {
  if (state_ == State::kClosed || out_queue_.empty()) return;
  writing_.swap(out_queue_);
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(writing_.size());
  for (const auto& b : writing_) buffers.emplace_back(asio::buffer(b));
  asio::async_write(
      socket_, buffers,
      asio::bind_executor(strand_, [self = shared_from_this()](const error_code& ec, size_t) {
        self->writing_.clear();
        if (self->state_ == State::kClosed) return;
        if (ec) {
          self->Fail(Status::IoError("write failed: " + ec.message()));
          return;
        }
        self->StartWrite();
      }));
}

void ClientConnection::DoRead() {
  socket_.async_wait(
      asio::ip::tcp::socket::wait_read,
      asio::bind_executor(
          strand_, [self = shared_from_this()](const error_code& ec) { self->OnReadable(ec); }));
}

void ClientConnection::OnReadable(const error_code& wait_ec) {
  if (state_ == State::kClosed) return;
  error_code ec = wait_ec;
  std::string_view bytes;
  if (!ec) bytes = ReadAvailable(socket_, &ec);
  if (IsWouldBlock(ec)) {
    DoRead();
    return;
  }
  if (ec) {
    Fail(Status::IoError(ec == asio::error::eof ? "connection closed by server"
                                                : "read failed: " + ec.message()));
    return;
  }
  last_activity_ = Clock::now();
  decoder_.Append(bytes);
  std::string frame;
  while (state_ != State::kClosed) {
    auto next = decoder_.Next(&frame);
    if (!next.ok()) {
      Fail(next.status());
      return;
    }
    if (!*next) break;
    Status s = security_layer_ != nullptr ? HandleWrappedFrame(frame) : HandleFrame(frame);
    if (!s.ok()) {
      Fail(s);
      return;
    }
  }
  if (state_ != State::kClosed) DoRead();
}

Status ClientConnection::HandleWrappedFrame(std::string_view frame) {
  RpcResponseHeaderProto header;
  RETURN_NOT_OK(ReadDelimited(&frame, &header));
  hadoop::common::RpcSaslProto sasl;
  if (static_cast<int32_t>(header.callid()) != kSaslCallId ||
      header.status() != RpcResponseHeaderProto::SUCCESS || !ReadDelimited(&frame, &sasl).ok() ||
      sasl.state() != hadoop::common::RpcSaslProto::WRAP) {
    if (header.status() == RpcResponseHeaderProto::FATAL) {
      // Not protected, so not trusted for more than a reason to give up.
      return Status::Remote(header.exceptionclassname(), header.errormsg(),
                            Status::Code::kUnauthorized);
    }
    return Status::Remote(java::kSaslException, "Server sent non-wrapped response",
                          Status::Code::kUnauthorized);
  }
  if (Status s = wrapped_reader_->Add(sasl.token()); !s.ok()) {
    return Status::Remote(java::kSaslException, s.message(), Status::Code::kUnauthorized);
  }
  std::string inner;
  while (state_ != State::kClosed) {
    ASSIGN_OR_RETURN(const bool whole, wrapped_reader_->Next(&inner));
    if (!whole) break;
    RETURN_NOT_OK(HandleFrame(inner));
  }
  return Status::OK();
}

Status ClientConnection::HandleFrame(std::string_view frame) {
  RpcResponseHeaderProto header;
  RETURN_NOT_OK(ReadDelimited(&frame, &header));
  const auto call_id = static_cast<int32_t>(header.callid());
  if (header.status() != RpcResponseHeaderProto::SUCCESS) {
    // Authentication failures keep their Java class but are classified as
    // Unauthorized, whichever class the server chose to send.
    Status error = Status::Remote(header.exceptionclassname(), header.errormsg(),
                                  header.errordetail() == RpcResponseHeaderProto::FATAL_UNAUTHORIZED
                                      ? Status::Code::kUnauthorized
                                      : Status::Code::kRemoteError);
    if (header.status() == RpcResponseHeaderProto::FATAL || call_id < 0) {
      return error;  // the server closes after a FATAL: fail everything
    }
    auto it = in_flight_.find(call_id);
    if (it == in_flight_.end()) return Status::OK();  // timed out earlier
    PendingCall call = std::move(it->second);
    in_flight_.erase(it);
    if (!frame.empty()) return Status::ProtocolError("RPC response length mismatch");
    call.done(error);
    return Status::OK();
  }
  if (call_id == kSaslCallId) {
    if (state_ != State::kNegotiating) return Status::ProtocolError("unexpected SASL frame");
    hadoop::common::RpcSaslProto sasl;
    RETURN_NOT_OK(ReadDelimited(&frame, &sasl));
    auto reply = negotiation_->OnServerMessage(sasl);
    if (!reply.ok()) {
      // Refused on this side, as Java's SaslRpcClient refuses: what its
      // SaslClient throws is a SaslException (e.g. "No common protection
      // layer between client and server" when hadoop.rpc.protection leaves
      // nothing in common); the negotiation's own refusals name their class.
      if (reply.status().IsRemote()) return reply.status();
      return Status::Remote(java::kSaslException, reply.status().message(),
                            Status::Code::kUnauthorized);
    }
    if (reply->has_value()) Send(EncodeSaslFrame(**reply));
    if (negotiation_->outcome() != ClientNegotiation::Outcome::kInProgress) {
      // From here on (the context first) everything is wrapped when the
      // qop is auth-int or auth-conf.
      ASSIGN_OR_RETURN(security_layer_, negotiation_->TakeSecurityLayer());
      if (security_layer_ != nullptr) {
        wrapped_reader_ = std::make_unique<WrappedFrameReader>(security_layer_.get(),
                                                               options_.max_response_length);
      }
      BecomeReady(negotiation_->outcome() == ClientNegotiation::Outcome::kToken);
    }
    return Status::OK();
  }
  if (!header.clientid().empty() && header.clientid() != owner_->client_id()) {
    return Status::ProtocolError("Client IDs not matched");
  }
  auto it = in_flight_.find(call_id);
  if (it == in_flight_.end()) return Status::OK();  // answer to a call that timed out
  PendingCall call = std::move(it->second);
  in_flight_.erase(it);
  std::string_view body;
  Status s = ReadDelimitedBytes(&frame, &body);
  if (s.ok() && !frame.empty()) s = Status::ProtocolError("RPC response length mismatch");
  if (s.ok()) s = ParseMessage(body, call.response);
  call.done(s);
  return Status::OK();
}

void ClientConnection::ArmTimer() {
  timer_.expires_after(kTimerTick);
  timer_.async_wait([self = shared_from_this()](const error_code& ec) { self->OnTimer(ec); });
}

void ClientConnection::OnTimer(const error_code& ec) {
  if (ec || state_ == State::kClosed) return;
  const auto now = Clock::now();
  if (state_ != State::kReady && now > connect_deadline_) {
    Fail(Status::TimedOut("connecting to " + spec_.host + ":" + std::to_string(spec_.port) +
                          " timed out"));
    return;
  }
  for (auto it = in_flight_.begin(); it != in_flight_.end();) {
    if (now > it->second.deadline) {
      auto done = std::move(it->second.done);
      it = in_flight_.erase(it);
      done(Status::TimedOut("call timed out after " +
                            std::to_string(options_.call_timeout.count()) + " ms"));
    } else {
      ++it;
    }
  }
  if (state_ == State::kReady && in_flight_.empty() && waiting_.empty() &&
      now - last_activity_ > options_.max_idle) {
    Fail(Status::Aborted("idle connection closed"));
    return;
  }
  ArmTimer();
}

void ClientConnection::Fail(const Status& why) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  VLOG(1) << "IPC client connection " << spec_.host << ":" << spec_.port
          << " closed: " << why.ToString();
  owner_->Forget(key_, this);
  error_code ignored;
  timer_.cancel(ignored);
  resolver_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  auto waiting = std::move(waiting_);
  auto in_flight = std::move(in_flight_);
  for (auto& call : waiting) call.done(why);
  for (auto& [id, call] : in_flight) call.done(why);
}

}  // namespace spindle::ipc
