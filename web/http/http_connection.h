// HttpConnection: one accepted socket of an HttpServer, from accept to close
// (internal to http_server.cc). It reads bytes, feeds a RequestReader, hands
// each complete request to the handler pool and writes the answer, one
// request at a time (pipelined requests wait in the buffer).
//
//   reading  --complete request-->  handling (pool)  --response-->  writing
//      ^                                                               |
//      +--------------------- keep-alive ------------------------------+
//
// One timer per connection. While reading, the earliest deadline that
// applies: header_timeout from accept for a fresh connection, idle_timeout
// for a keep-alive one waiting for its next request's first byte; from that
// byte, header_timeout until the header is whole and request_timeout until
// the last byte. A connection that sent nothing is then closed quietly, one
// in the middle of a request is answered 408. idle_timeout is also the
// deadline of a write; a response not taken by the client within
// header_timeout makes its connection displaceable (waiting) until then.
//
// Waiting connections (connection_table.h) can be displaced by a new one
// (Displace()) when the server is at its connection limits.
//
// Buffers: nothing is read into the connection until bytes are there (it
// waits for readability, then reads into the I/O thread's one read buffer),
// so an idle connection holds no read buffer; what it keeps is only the
// unparsed part of a request (at most the header limit plus one read), and
// the buffers of a request and response are released once it is answered.
//
// A response that ends the connection is followed by a lingering close: our
// side is shut for sending and input is read and dropped until the client
// closes, kMaxDrainBytes have come or request_timeout passes. Closing with
// unread input (a 413 while the body is still arriving) would make the
// kernel reset the connection and could destroy the response before the
// client reads it.
//
// Thread contract: every method runs on the server's I/O thread, except the
// task given to the pool, which only runs the handler and posts back.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "web/http/connection_table.h"
#include "web/http/handler_pool.h"
#include "web/http/http_server.h"
#include "web/http/request_parse.h"

namespace spindle::web {

class HttpConnection;

struct HttpServer::Shared {
  // Bytes taken from a socket at once.
  static constexpr size_t kReadChunk = 16384;

  Shared(HttpServerOptions o, HttpHandler h)
      : options(std::move(o)),
        handler(std::move(h)),
        table(options.max_connections, options.max_connections_per_address) {}

  const HttpServerOptions options;
  const HttpHandler handler;

  std::atomic<int64_t> requests_served{0};
  std::atomic<int64_t> rejected_busy{0};
  std::atomic<int64_t> timed_out{0};
  std::atomic<int64_t> too_large{0};
  std::atomic<int64_t> bad_requests{0};
  std::atomic<int64_t> handler_errors{0};
  std::atomic<int64_t> refused_connections{0};
  std::atomic<int64_t> displaced_connections{0};
  std::atomic<int64_t> idle_closed{0};
  std::atomic<int64_t> open_connections{0};
  std::atomic<int64_t> requests_in_pool{0};

  // Declared before io: connections that die with io's queued handlers
  // still update the counters above and use the pool.
  std::unique_ptr<HandlerPool> pool;
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor{io};
  boost::asio::steady_timer accept_retry{io};
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work;
  // I/O thread only.
  std::unordered_map<uint64_t, std::weak_ptr<HttpConnection>> connections;
  ConnectionTable table;
  uint64_t next_connection_id = 0;
  bool stopping = false;
  // Every connection reads into this, then keeps what it could not parse.
  std::array<char, kReadChunk> read_buffer;
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  // `remote_address`: the peer's address, as the connection table knows it.
  HttpConnection(HttpServer::Shared* shared, boost::asio::ip::tcp::socket socket, uint64_t id,
                 std::string remote_address);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Starts waiting for the first request.
  void Start();
  // The server is stopping: close now if waiting for a request, else after
  // the response in progress.
  void Shutdown();
  // The server needs the slot for a new connection: close now (counted).
  void Displace();
  // Whether bytes the client sent wait in the kernel, not yet read (the
  // request may be whole): such a connection is not idle, and the server
  // picks another to displace.
  bool HasUnreadInput();

 private:
  enum class Phase { kReading, kHandling, kWriting, kDraining, kClosed };
  using SteadyClock = std::chrono::steady_clock;
  enum class TimerKind { kRead, kWriteStalled, kWrite, kDrain };
  static constexpr size_t kMaxDrainBytes = size_t{1} << 20;

  // Parses what is buffered; reads more, dispatches, or answers an error.
  void Process();
  // Waits for bytes, then reads what is there (OnReadable).
  void DoRead();
  void OnReadable(const boost::system::error_code& ec);
  // Reads what the (readable, non-blocking) socket holds into the shared
  // buffer; would_block if nothing after all.
  size_t ReadAvailable(boost::system::error_code* ec);
  void OnEof();
  // Arms the timer for the deadline that applies while reading (see above).
  void UpdateReadTimer();
  void Dispatch();
  void OnHandled(HttpResponse response, bool head, bool keep_alive);
  // A response the server makes itself (errors, 503).
  void RespondError(int status, const std::string& text, bool keep_alive);
  void Write(const HttpResponse& response, bool head, bool keep_alive);
  // Writes outbound_ (after an interim 100 Continue, if one is in flight).
  void StartWrite(bool keep_alive);
  void SendContinue();
  void OnWrite(const boost::system::error_code& ec, bool keep_alive);
  void NextRequest();
  // The lingering close (see above).
  void Linger();
  void DrainRead();
  void OnDrainReadable(const boost::system::error_code& ec);
  void ArmTimer(SteadyClock::time_point at, TimerKind kind);
  void CancelTimer();
  void OnTimer(TimerKind kind);
  void Close();

  HttpServer::Shared* const shared_;
  boost::asio::ip::tcp::socket socket_;
  const uint64_t id_;
  const std::string remote_address_;
  boost::asio::steady_timer timer_;
  uint64_t timer_generation_ = 0;
  std::optional<SteadyClock::time_point> read_deadline_;  // armed for kRead
  const SteadyClock::time_point accepted_at_;
  // No response written yet: the first request's header is due
  // header_timeout after accept.
  bool fresh_ = true;
  SteadyClock::time_point idle_since_;                    // last response written
  std::optional<SteadyClock::time_point> first_byte_at_;  // of the current request
  SteadyClock::time_point write_deadline_;                // of the response being written
  Phase phase_ = Phase::kReading;
  bool read_outstanding_ = false;
  bool closing_ = false;
  size_t drained_bytes_ = 0;
  // "100 Continue" sent for the current request / still being written; a
  // response made meanwhile waits for it (deferred_write_, its keep-alive).
  bool continue_sent_ = false;
  bool continue_in_flight_ = false;
  std::optional<bool> deferred_write_;
  RequestReader reader_;
  std::string inbound_;  // bytes read and not yet consumed by reader_
  std::string outbound_;
};

}  // namespace spindle::web
