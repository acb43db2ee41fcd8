#include "web/http/http_connection.h"

#include <glog/logging.h>
#include <sys/socket.h>

#include <exception>
#include <utility>

#include "web/http/response_writer.h"

namespace spindle::web {
namespace asio = boost::asio;

namespace {

// Frees a buffer's memory once it is empty and grew past one read: an idle
// connection keeps nothing of a large request or response.
void ReleaseIfEmpty(std::string* buffer) {
  if (buffer->empty() && buffer->capacity() > HttpServer::Shared::kReadChunk) {
    std::string().swap(*buffer);
  }
}

bool WouldBlock(const boost::system::error_code& ec) {
  return ec == asio::error::would_block || ec == asio::error::try_again;
}

}  // namespace

HttpConnection::HttpConnection(HttpServer::Shared* shared, asio::ip::tcp::socket socket,
                               uint64_t id, std::string remote_address)
    : shared_(shared),
      socket_(std::move(socket)),
      id_(id),
      remote_address_(std::move(remote_address)),
      timer_(shared->io),
      accepted_at_(SteadyClock::now()),
      idle_since_(accepted_at_),
      reader_(static_cast<uint64_t>(shared->options.max_request_header_bytes),
              static_cast<uint64_t>(shared->options.max_request_body_bytes)) {
  shared_->open_connections.fetch_add(1);
  // Reads happen only once the socket is readable, into the shared buffer.
  boost::system::error_code ignored;
  socket_.non_blocking(true, ignored);
}

// The count is of open sockets: a closed connection may outlive its socket
// while an aborted operation still holds it.
HttpConnection::~HttpConnection() {
  if (phase_ != Phase::kClosed) shared_->open_connections.fetch_sub(1);
}

void HttpConnection::Start() {
  // A client usually sends its request with the connect, so it is often in
  // the kernel by the time the socket is accepted: read it now, before the
  // server accepts anyone else. Under a flood from the same address every
  // later accept displaces the oldest waiting connection, and a request
  // still unread after a few dozen of them would be lost with its socket.
  boost::system::error_code ec;
  const size_t n = ReadAvailable(&ec);
  if (ec && !WouldBlock(ec)) {
    // EOF or an error already: the same ends as a read that waited.
    OnReadable(boost::system::error_code());
    return;
  }
  if (!ec) inbound_.append(shared_->read_buffer.data(), n);
  // Parses what came, arms the header timeout and waits for the rest.
  Process();
}

bool HttpConnection::HasUnreadInput() {
  if (phase_ != Phase::kReading) return false;
  char byte = 0;
  const ssize_t n =
      ::recv(socket_.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT | MSG_NOSIGNAL);
  return n > 0;
}

void HttpConnection::Shutdown() {
  closing_ = true;
  if (phase_ == Phase::kReading || phase_ == Phase::kDraining) Close();
}

void HttpConnection::Displace() {
  shared_->displaced_connections.fetch_add(1);
  Close();
}

void HttpConnection::Process() {
  if (phase_ != Phase::kReading) return;
  size_t consumed = 0;
  const auto state = reader_.Feed(inbound_, &consumed);
  inbound_.erase(0, consumed);
  ReleaseIfEmpty(&inbound_);
  switch (state) {
    case RequestReader::State::kNeedMore:
      UpdateReadTimer();
      if (!continue_sent_ && reader_.WantsContinue()) SendContinue();
      DoRead();
      return;
    case RequestReader::State::kHeaderTooLarge:
      shared_->too_large.fetch_add(1);
      RespondError(431, "Request header fields too large\n", false);
      return;
    case RequestReader::State::kBodyTooLarge:
      shared_->too_large.fetch_add(1);
      RespondError(413, "Request body too large\n", false);
      return;
    case RequestReader::State::kMalformed:
      shared_->bad_requests.fetch_add(1);
      RespondError(400, "Malformed request\n", false);
      return;
    case RequestReader::State::kNotImplemented:
      // The body's length is unknown, so nothing after the header can be
      // trusted as a next request: answer and close (the lingering close
      // reads and drops the rest).
      shared_->bad_requests.fetch_add(1);
      RespondError(501, "Transfer coding not implemented\n", false);
      return;
    case RequestReader::State::kComplete:
      Dispatch();
      return;
  }
}

void HttpConnection::UpdateReadTimer() {
  const auto& o = shared_->options;
  SteadyClock::time_point deadline;
  if (!reader_.started()) {
    deadline = fresh_ ? accepted_at_ + o.header_timeout : idle_since_ + o.idle_timeout;
  } else {
    if (!first_byte_at_.has_value()) first_byte_at_ = SteadyClock::now();
    deadline = *first_byte_at_ + o.request_timeout;
    if (!reader_.header_done()) {
      const auto header_from = fresh_ ? accepted_at_ : *first_byte_at_;
      deadline = std::min(deadline, header_from + o.header_timeout);
    }
  }
  if (read_deadline_ == deadline) return;
  ArmTimer(deadline, TimerKind::kRead);
  read_deadline_ = deadline;
}

void HttpConnection::DoRead() {
  if (read_outstanding_) return;
  read_outstanding_ = true;
  socket_.async_wait(
      asio::ip::tcp::socket::wait_read,
      [self = shared_from_this()](const boost::system::error_code& ec) { self->OnReadable(ec); });
}

void HttpConnection::OnReadable(const boost::system::error_code& wait_ec) {
  read_outstanding_ = false;
  if (phase_ != Phase::kReading) return;  // cancelled by a 408 or a close
  if (wait_ec) {
    Close();
    return;
  }
  boost::system::error_code ec;
  const size_t n = ReadAvailable(&ec);
  if (WouldBlock(ec)) {
    DoRead();
    return;
  }
  if (ec == asio::error::eof) {
    OnEof();
    return;
  }
  if (ec) {
    Close();
    return;
  }
  inbound_.append(shared_->read_buffer.data(), n);
  Process();
}

void HttpConnection::OnEof() {
  switch (reader_.FeedEof()) {
    case RequestReader::State::kComplete:
      Dispatch();
      return;
    case RequestReader::State::kMalformed:
      shared_->bad_requests.fetch_add(1);
      RespondError(400, "Incomplete request\n", false);
      return;
    default:
      Close();
      return;
  }
}

void HttpConnection::Dispatch() {
  auto parsed = reader_.Take();
  if (!parsed.ok()) {
    shared_->bad_requests.fetch_add(1);
    RespondError(400, parsed.status().message() + "\n", false);
    return;
  }
  CancelTimer();
  phase_ = Phase::kHandling;
  // The request is in our hands now: never displaced until answered.
  shared_->table.SetBusy(id_);
  parsed->request.remote_address = remote_address_;
  const bool head = parsed->request.method == HttpMethod::kHead;
  const bool keep_alive = parsed->keep_alive;
  auto task = [self = shared_from_this(), request = std::move(parsed->request), head,
               keep_alive]() {
    HttpResponse response;
    bool threw = false;
    // Handlers return errors as responses; one that throws is a bug, but it
    // must cost one request, not the server.
    try {
      response = self->shared_->handler(request);
    } catch (const std::exception& e) {
      LOG(ERROR) << "HTTP handler for " << MethodName(request.method) << " " << request.path
                 << " threw: " << e.what();
      threw = true;
    } catch (...) {
      LOG(ERROR) << "HTTP handler for " << MethodName(request.method) << " " << request.path
                 << " threw a non-exception";
      threw = true;
    }
    if (threw) {
      self->shared_->handler_errors.fetch_add(1);
      response = HttpResponse::Text(500, "Internal server error\n");
    }
    self->shared_->requests_in_pool.fetch_sub(1);
    asio::post(self->shared_->io,
               [self, response = std::move(response), head, keep_alive]() mutable {
                 self->OnHandled(std::move(response), head, keep_alive);
               });
  };
  shared_->requests_in_pool.fetch_add(1);
  if (!shared_->pool->TrySubmit(std::move(task))) {
    shared_->requests_in_pool.fetch_sub(1);
    shared_->rejected_busy.fetch_add(1);
    HttpResponse busy = HttpResponse::Text(503, "Too many requests in progress; retry later\n");
    busy.headers.emplace_back("Retry-After", std::to_string(shared_->options.retry_after_seconds));
    Write(busy, head, keep_alive);
  }
}

void HttpConnection::OnHandled(HttpResponse response, bool head, bool keep_alive) {
  shared_->requests_served.fetch_add(1);
  if (phase_ != Phase::kHandling) return;  // closed meanwhile
  Write(response, head, keep_alive);
}

void HttpConnection::RespondError(int status, const std::string& text, bool keep_alive) {
  Write(HttpResponse::Text(status, text), /*head=*/false, keep_alive);
}

void HttpConnection::Write(const HttpResponse& response, bool head, bool keep_alive) {
  keep_alive = keep_alive && !closing_;
  phase_ = Phase::kWriting;
  shared_->table.SetBusy(id_);
  outbound_ = SerializeResponse(response, ResponseFraming{head, keep_alive},
                                HttpDate(std::chrono::system_clock::now()));
  write_deadline_ = SteadyClock::now() + shared_->options.idle_timeout;
  // A response the client does not take within header_timeout may make room
  // for a new connection (kWriteStalled); it is closed at write_deadline_.
  ArmTimer(std::min(write_deadline_, SteadyClock::now() + shared_->options.header_timeout),
           TimerKind::kWriteStalled);
  if (continue_in_flight_) {
    deferred_write_ = keep_alive;
    return;
  }
  StartWrite(keep_alive);
}

void HttpConnection::SendContinue() {
  static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  continue_sent_ = true;
  continue_in_flight_ = true;
  asio::async_write(socket_, asio::buffer(kContinue.data(), kContinue.size()),
                    [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                      self->continue_in_flight_ = false;
                      if (ec) {
                        self->Close();
                        return;
                      }
                      if (self->deferred_write_.has_value()) {
                        const bool keep_alive = *self->deferred_write_;
                        self->deferred_write_.reset();
                        if (self->phase_ == Phase::kWriting) self->StartWrite(keep_alive);
                      }
                    });
}

void HttpConnection::StartWrite(bool keep_alive) {
  asio::async_write(
      socket_, asio::buffer(outbound_),
      [self = shared_from_this(), keep_alive](const boost::system::error_code& ec, size_t) {
        self->OnWrite(ec, keep_alive);
      });
}

void HttpConnection::OnWrite(const boost::system::error_code& ec, bool keep_alive) {
  if (phase_ != Phase::kWriting) return;
  CancelTimer();
  std::string().swap(outbound_);
  if (ec || closing_) {
    Close();
  } else if (!keep_alive) {
    Linger();
  } else {
    NextRequest();
  }
}

void HttpConnection::Linger() {
  phase_ = Phase::kDraining;
  drained_bytes_ = 0;
  // Nothing more to lose: a lingering connection may make room for a new one.
  shared_->table.SetWaiting(id_);
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  ArmTimer(SteadyClock::now() + shared_->options.request_timeout, TimerKind::kDrain);
  DrainRead();
}

void HttpConnection::DrainRead() {
  socket_.async_wait(asio::ip::tcp::socket::wait_read,
                     [self = shared_from_this()](const boost::system::error_code& ec) {
                       self->OnDrainReadable(ec);
                     });
}

void HttpConnection::OnDrainReadable(const boost::system::error_code& wait_ec) {
  if (phase_ != Phase::kDraining) return;
  boost::system::error_code ec = wait_ec;
  const size_t n = ec ? 0 : ReadAvailable(&ec);
  if (WouldBlock(ec)) {
    DrainRead();
    return;
  }
  drained_bytes_ += n;
  // EOF is the normal end: the client read the response and closed.
  if (ec || drained_bytes_ > kMaxDrainBytes) {
    Close();
    return;
  }
  DrainRead();
}

size_t HttpConnection::ReadAvailable(boost::system::error_code* ec) {
  return socket_.read_some(asio::buffer(shared_->read_buffer), *ec);
}

void HttpConnection::NextRequest() {
  phase_ = Phase::kReading;
  reader_.Reset();
  fresh_ = false;
  idle_since_ = SteadyClock::now();
  first_byte_at_.reset();
  read_deadline_.reset();
  continue_sent_ = false;
  shared_->table.SetWaiting(id_);
  Process();
}

void HttpConnection::ArmTimer(SteadyClock::time_point at, TimerKind kind) {
  const uint64_t generation = ++timer_generation_;
  read_deadline_.reset();
  timer_.expires_at(at);
  timer_.async_wait(
      [self = shared_from_this(), generation, kind](const boost::system::error_code& ec) {
        if (ec || generation != self->timer_generation_) return;
        self->OnTimer(kind);
      });
}

void HttpConnection::CancelTimer() {
  ++timer_generation_;
  read_deadline_.reset();
  timer_.cancel();
}

void HttpConnection::OnTimer(TimerKind kind) {
  switch (kind) {
    case TimerKind::kRead: {
      if (phase_ != Phase::kReading) return;
      if (!reader_.started()) {
        // Nothing of a request came: close without a word, as between
        // keep-alive requests.
        shared_->idle_closed.fetch_add(1);
        Close();
        return;
      }
      shared_->timed_out.fetch_add(1);
      // Stop the pending read first: its handler sees phase_ != kReading.
      boost::system::error_code ignored;
      socket_.cancel(ignored);
      RespondError(408, "Request not received in time\n", false);
      return;
    }
    case TimerKind::kWriteStalled:
      if (phase_ != Phase::kWriting) return;
      // A client that does not read what it asked for cannot pin its slot
      // (a flood of such requests would lock others out until the deadline).
      shared_->table.SetWaiting(id_);
      ArmTimer(write_deadline_, TimerKind::kWrite);
      return;
    case TimerKind::kWrite:
      if (phase_ != Phase::kWriting) return;
      Close();
      return;
    case TimerKind::kDrain:
      if (phase_ != Phase::kDraining) return;
      Close();
      return;
  }
}

void HttpConnection::Close() {
  if (phase_ == Phase::kClosed) return;
  phase_ = Phase::kClosed;
  CancelTimer();
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  shared_->connections.erase(id_);
  shared_->table.Remove(id_);
  shared_->open_connections.fetch_sub(1);
}

}  // namespace spindle::web
