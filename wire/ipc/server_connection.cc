#include "wire/ipc/server_connection.h"

#include <glog/logging.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>

#include "base/base64.h"
#include "base/crypto.h"
#include "wire/ipc/socket_reader.h"

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
      fd_(socket_.native_handle()),
      session_(env->session_options, this, NewNonce()) {
  session_.set_remote_address(remote_);
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
  active_since_timer_.store(true, std::memory_order_relaxed);
  RpcActivityCounters::Add(env_->activity.received_bytes, static_cast<int64_t>(bytes.size()));
  if (!session_.OnData(bytes)) {
    CloseAfterFlush();
    return;
  }
  DoRead();
}

void ServerConnection::CloseAfterFlush() {
  LOG(WARNING) << LogPrefix() << "closing: " << session_.close_reason();
  bool flushed = false;
  {
    MutexLock lock(&write_mu_);
    close_after_flush_ = true;
    flushed = !sending_ && out_queue_.empty();
  }
  if (flushed) CloseNow(session_.close_reason());
}

bool ServerConnection::AuthorizeOffThread(std::function<Status()> authorize) {
  asio::post(*env_->workers, [self = shared_from_this(), authorize = std::move(authorize)] {
    Status authorized = authorize();
    asio::post(self->strand_,
               [self, authorized = std::move(authorized)] { self->OnAuthorized(authorized); });
  });
  return true;
}

void ServerConnection::OnAuthorized(const Status& authorized) {
  if (closed_) return;
  if (!session_.OnAuthorized(authorized)) CloseAfterFlush();
}

void ServerConnection::SendBytes(std::string bytes) {
  // On the strand (the session's replies): queued behind any answer being
  // sent, and sent by the async_write path.
  {
    MutexLock lock(&write_mu_);
    if (write_closed_) return;
    if (!QueueLocked(std::move(bytes))) return;
    if (sending_) return;
    sending_ = true;
    writing_.swap(out_queue_);
    written_ = 0;
  }
  StartAsyncWrite();
}

void ServerConnection::SendResponse(std::string frame) {
  calls_in_progress_.fetch_sub(1, std::memory_order_relaxed);
  MutexLock lock(&write_mu_);
  if (write_closed_) return;
  if (!QueueLocked(std::move(frame))) return;
  if (sending_) return;  // the sender takes it with its next send
  sending_ = true;
  SendOnThisThread();
}

bool ServerConnection::QueueLocked(std::string bytes) {
  if (wrap_layer_ == nullptr) {
    out_queue_.push_back(std::move(bytes));
    return true;
  }
  Result<std::string> wrapped = WrapResponseFrames(wrap_layer_.get(), bytes);
  if (!wrapped.ok()) {
    LOG(WARNING) << LogPrefix()
                 << "closing: cannot wrap a response: " << wrapped.status().ToString();
    asio::post(strand_, [self = shared_from_this()] { self->CloseNow("SASL wrap failed"); });
    return false;
  }
  out_queue_.push_back(std::move(wrapped).value());
  return true;
}

void ServerConnection::OnSecurityLayer(std::shared_ptr<SaslSecurityLayer> layer) {
  MutexLock lock(&write_mu_);
  wrap_layer_ = std::move(layer);
}

void ServerConnection::SendOnThisThread() {
  auto self = shared_from_this();  // CloseNow and the strand may run meanwhile
  while (!out_queue_.empty() && !write_closed_) {
    writing_.swap(out_queue_);
    written_ = 0;
    handler_sending_ = true;
    write_mu_.Unlock();
    error_code ec;
    const bool all_sent = SendWithoutBlocking(&ec);
    write_mu_.Lock();
    handler_sending_ = false;
    if (ec || write_closed_) {
      writing_.clear();
      if (ec && !write_closed_) {
        asio::post(strand_, [self, why = "write failed: " + ec.message()] { self->CloseNow(why); });
      }
      break;
    }
    if (!all_sent) {
      // The socket is full: the strand waits for it to drain, and keeps
      // sending_ until the queue is empty.
      asio::post(strand_, [self] { self->StartAsyncWrite(); });
      return;
    }
    active_since_timer_.store(true, std::memory_order_relaxed);
    writing_.clear();
  }
  sending_ = false;
  AfterSendingLocked();
}

bool ServerConnection::SendWithoutBlocking(error_code* ec) {
  constexpr size_t kMaxIov = 64;
  size_t first = 0;  // writing_[first] is the first frame not fully sent
  while (first < writing_.size()) {
    iovec iov[kMaxIov];
    size_t count = 0;
    for (size_t i = first; i < writing_.size() && count < kMaxIov; ++i, ++count) {
      const size_t skip = i == first ? written_ : 0;
      iov[count].iov_base = writing_[i].data() + skip;
      iov[count].iov_len = writing_[i].size() - skip;
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    const ssize_t n = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      *ec = error_code(errno, boost::system::system_category());
      return false;
    }
    RpcActivityCounters::Add(env_->activity.sent_bytes, static_cast<int64_t>(n));
    size_t left = static_cast<size_t>(n);
    while (first < writing_.size()) {
      const size_t rest = writing_[first].size() - written_;
      if (left < rest) {
        written_ += left;
        break;
      }
      left -= rest;
      written_ = 0;
      ++first;
    }
  }
  writing_.erase(writing_.begin(), writing_.begin() + static_cast<std::ptrdiff_t>(first));
  return writing_.empty();
}

void ServerConnection::StartAsyncWrite() {
  if (closed_) return;
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(writing_.size());
  for (size_t i = 0; i < writing_.size(); ++i) {
    buffers.emplace_back(asio::buffer(writing_[i]) + (i == 0 ? written_ : 0));
  }
  asio::async_write(
      socket_, buffers,
      asio::bind_executor(strand_, [self = shared_from_this()](const error_code& ec, size_t n) {
        RpcActivityCounters::Add(self->env_->activity.sent_bytes, static_cast<int64_t>(n));
        self->OnWrite(ec);
      }));
}

void ServerConnection::OnWrite(const error_code& ec) {
  writing_.clear();
  written_ = 0;
  if (closed_) return;
  if (ec) {
    CloseNow("write failed: " + ec.message());
    return;
  }
  active_since_timer_.store(true, std::memory_order_relaxed);
  {
    MutexLock lock(&write_mu_);
    if (!out_queue_.empty()) {
      writing_.swap(out_queue_);
    } else {
      sending_ = false;
      AfterSendingLocked();
      return;
    }
  }
  StartAsyncWrite();
}

void ServerConnection::AfterSendingLocked() {
  if (close_deferred_) {
    close_deferred_ = false;
    asio::post(strand_, [self = shared_from_this()] {
      error_code ignored;
      self->socket_.close(ignored);
    });
  } else if (close_after_flush_ && !write_closed_) {
    asio::post(strand_,
               [self = shared_from_this()] { self->CloseNow(self->session_.close_reason()); });
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
  bool sending = false;
  {
    MutexLock lock(&write_mu_);
    sending = sending_;
  }
  const bool busy = calls_in_progress_.load(std::memory_order_relaxed) > 0 || sending;
  if (!active_since_timer_.exchange(false, std::memory_order_relaxed) && !busy) {
    LOG(INFO) << LogPrefix() << "closing idle connection";
    CloseNow("idle");
    return;
  }
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
  bool defer_close = false;
  {
    MutexLock lock(&write_mu_);
    write_closed_ = true;
    out_queue_.clear();
    // A handler thread inside a send still uses the descriptor: shut the
    // socket down now (the peer sees the end, the send fails) and let the
    // sender post the close (AfterSendingLocked).
    defer_close = handler_sending_;
    close_deferred_ = defer_close;
  }
  error_code ignored;
  idle_timer_.cancel(ignored);
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  if (!defer_close) socket_.close(ignored);
  LeaveTable();
}

void ServerConnection::LeaveTable() {
  // Remove() is idempotent, so the destructor may call this again.
  if (env_->table != nullptr) env_->table->Remove(peer_ip_, this);
}

}  // namespace spindle::ipc
