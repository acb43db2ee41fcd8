#include "am_protocol/ipc/server_connection.h"

#include <glog/logging.h>

#include "am_protocol/ipc/socket_reader.h"
#include "base/base64.h"
#include "base/crypto.h"

namespace spindle::ipc {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {
// 30 random bytes as 40 Base64 characters, like the JDK's DIGEST-MD5 nonce.
std::string NewNonce() { return Base64Encode(SecureRandomBytes(30)); }

std::string RemoteOf(const asio::ip::tcp::socket& socket) {
  error_code ec;
  auto ep = socket.remote_endpoint(ec);
  if (ec) return "?";
  return ep.address().to_string() + ":" + std::to_string(ep.port());
}
}  // namespace

ServerConnection::ServerConnection(asio::ip::tcp::socket socket, ServerConnectionEnv* env,
                                   std::string peer_ip)
    : env_(env),
      strand_(asio::make_strand(socket.get_executor())),
      socket_(std::move(socket)),
      idle_timer_(strand_),
      remote_(RemoteOf(socket_)),
      peer_ip_(std::move(peer_ip)),
      session_(env->session_options, this, NewNonce()) {
  error_code ec;
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  PrepareForReadable(socket_);
  RpcActivityCounters::Add(env_->activity.open_connections, 1);
}

ServerConnection::~ServerConnection() {
  if (counted_open_) RpcActivityCounters::Add(env_->activity.open_connections, -1);
  LeaveTable();
  VLOG(1) << LogPrefix() << "connection released";
}

std::string ServerConnection::LogPrefix() const {
  return "[" + env_->server_name + " " + remote_ + "] ";
}

void ServerConnection::Start() {
  asio::dispatch(strand_, [self = shared_from_this()] {
    VLOG(1) << self->LogPrefix() << "accepted";
    self->ArmIdleTimer();
    self->DoRead();
  });
}

void ServerConnection::Close(std::function<void()> closed) {
  asio::post(strand_, [self = shared_from_this(), closed = std::move(closed)] {
    self->CloseNow("server stopping");
    if (closed) closed();
  });
}

void ServerConnection::DoRead() {
  if (closed_) return;
  socket_.async_wait(
      asio::ip::tcp::socket::wait_read,
      asio::bind_executor(
          strand_, [self = shared_from_this()](const error_code& ec) { self->OnReadable(ec); }));
}

void ServerConnection::OnReadable(const error_code& wait_ec) {
  if (closed_) return;
  if (wait_ec) {
    CloseNow(wait_ec.message());
    return;
  }
  // The bytes are this I/O thread's scratch: the session copies what it
  // keeps before the next read can overwrite them.
  error_code ec;
  const std::string_view bytes = ReadAvailable(socket_, &ec);
  if (IsWouldBlock(ec)) {
    DoRead();
    return;
  }
  if (ec) {
    CloseNow(ec == asio::error::eof ? "peer closed" : ec.message());
    return;
  }
  active_since_timer_ = true;
  RpcActivityCounters::Add(env_->activity.received_bytes, static_cast<int64_t>(bytes.size()));
  if (!session_.OnData(bytes)) {
    LOG(WARNING) << LogPrefix() << "closing: " << session_.close_reason();
    close_after_flush_ = true;
    if (writing_.empty() && out_queue_.empty()) CloseNow(session_.close_reason());
    return;
  }
  DoRead();
}

void ServerConnection::SendBytes(std::string bytes) {
  out_queue_.push_back(std::move(bytes));
  if (writing_.empty()) StartWrite();
}

void ServerConnection::SendResponse(std::string frame) {
  asio::post(strand_, [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->calls_in_progress_.fetch_sub(1, std::memory_order_relaxed);
    if (self->closed_) return;
    self->SendBytes(std::move(frame));
  });
}

void ServerConnection::StartWrite() {
  if (closed_ || out_queue_.empty()) return;
  writing_.swap(out_queue_);
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(writing_.size());
  for (const auto& frame : writing_) buffers.emplace_back(asio::buffer(frame));
  asio::async_write(
      socket_, buffers,
      asio::bind_executor(strand_, [self = shared_from_this()](const error_code& ec, size_t n) {
        RpcActivityCounters::Add(self->env_->activity.sent_bytes, static_cast<int64_t>(n));
        self->OnWrite(ec);
      }));
}

void ServerConnection::OnWrite(const error_code& ec) {
  writing_.clear();
  if (closed_) return;
  if (ec) {
    CloseNow("write failed: " + ec.message());
    return;
  }
  active_since_timer_ = true;
  if (!out_queue_.empty()) {
    StartWrite();
  } else if (close_after_flush_) {
    CloseNow(session_.close_reason());
  }
}

void ServerConnection::OnCall(InboundRequest request) {
  if (identity_ == nullptr) {
    auto identity = std::make_shared<ConnectionIdentity>(session_.identity());
    identity->remote_address = remote_;
    identity_ = std::move(identity);
  }
  calls_in_progress_.fetch_add(1, std::memory_order_relaxed);
  InboundCall call(shared_from_this(), identity_, request.echo, std::move(request.method));
  if (env_->queued_calls.fetch_add(1, std::memory_order_relaxed) >= env_->max_queued_calls) {
    env_->queued_calls.fetch_sub(1, std::memory_order_relaxed);
    RpcActivityCounters::Add(env_->activity.calls_refused_busy, 1);
    call.RespondError(java::kRetriableException, "Server is too busy.",
                      hadoop::common::RpcResponseHeaderProto::ERROR_RPC_SERVER);
    return;
  }
  RpcActivityCounters::Add(env_->activity.call_queue_length, 1);
  asio::post(*env_->workers,
             [env = env_, log_budget = session_.log_budget(), call = std::move(call),
              protocol = std::move(request.protocol), payload = std::move(request.payload),
              received = std::chrono::steady_clock::now()]() mutable {
               using std::chrono::duration_cast;
               using std::chrono::microseconds;
               RpcActivityCounters& activity = env->activity;
               const auto started = std::chrono::steady_clock::now();
               RpcActivityCounters::Add(activity.call_queue_length, -1);
               RpcActivityCounters::Add(activity.queue_time_num_ops, 1);
               RpcActivityCounters::Add(activity.queue_time_sum_micros,
                                        duration_cast<microseconds>(started - received).count());
               env->calls_served.fetch_add(1, std::memory_order_relaxed);
               {
                 // Parsing the request and running the handler are work of
                 // this connection's (protobuf_log_folding.h).
                 const ProtobufLogScope log_scope(log_budget.get());
                 env->services->Dispatch(protocol, payload, std::move(call));
               }
               RpcActivityCounters::Add(
                   activity.processing_time_sum_micros,
                   duration_cast<microseconds>(std::chrono::steady_clock::now() - started).count());
               RpcActivityCounters::Add(activity.processing_time_num_ops, 1);
               env->queued_calls.fetch_sub(1, std::memory_order_relaxed);
             });
}

void ServerConnection::OnAuthEvent(SessionAuthEvent event) {
  RpcActivityCounters& activity = env_->activity;
  switch (event) {
    case SessionAuthEvent::kAuthenticationSucceeded:
      RpcActivityCounters::Add(activity.authentication_successes, 1);
      break;
    case SessionAuthEvent::kAuthenticationFailed:
      RpcActivityCounters::Add(activity.authentication_failures, 1);
      break;
    case SessionAuthEvent::kAuthorizationSucceeded:
      RpcActivityCounters::Add(activity.authorization_successes, 1);
      break;
    case SessionAuthEvent::kAuthorizationFailed:
      RpcActivityCounters::Add(activity.authorization_failures, 1);
      break;
  }
}

void ServerConnection::ArmIdleTimer() {
  if (closed_) return;
  idle_timer_.expires_after(env_->idle_timeout);
  idle_timer_.async_wait(
      [self = shared_from_this()](const error_code& ec) { self->OnIdleTimer(ec); });
}

void ServerConnection::OnIdleTimer(const error_code& ec) {
  if (ec || closed_) return;
  const bool busy = calls_in_progress_.load(std::memory_order_relaxed) > 0 || !writing_.empty();
  if (!active_since_timer_ && !busy) {
    LOG(INFO) << LogPrefix() << "closing idle connection";
    CloseNow("idle");
    return;
  }
  active_since_timer_ = false;
  ArmIdleTimer();
}

void ServerConnection::CloseNow(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  if (counted_open_) {
    counted_open_ = false;
    RpcActivityCounters::Add(env_->activity.open_connections, -1);
  }
  VLOG(1) << LogPrefix() << "closed: " << why;
  error_code ignored;
  idle_timer_.cancel(ignored);
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  LeaveTable();
}

void ServerConnection::LeaveTable() {
  // Remove() is idempotent, so the destructor may call this again.
  if (env_->table != nullptr) env_->table->Remove(peer_ip_, this);
}

}  // namespace spindle::ipc
