// HttpConnection: one accepted socket of an HttpServer, from accept to close
// (internal to http_server.cc). It reads bytes, feeds a RequestReader, hands
// each complete request to the handler pool and writes the answer, one
// request at a time (pipelined requests wait in the buffer).
//
//   reading  --complete request-->  handling (pool)  --response-->  writing
//      ^                                                               |
//      +--------------------- keep-alive ------------------------------+
//
// One timer per connection: idle_timeout while waiting for a request's first
// byte (then closed quietly), request_timeout from that byte to the last
// (then 408 and close), idle_timeout again as the deadline of a write.
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
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "web/http/handler_pool.h"
#include "web/http/http_server.h"
#include "web/http/request_parse.h"

namespace spindle::web {

class HttpConnection;

struct HttpServer::Shared {
  Shared(HttpServerOptions o, HttpHandler h) : options(std::move(o)), handler(std::move(h)) {}

  const HttpServerOptions options;
  const HttpHandler handler;

  std::atomic<int64_t> requests_served{0};
  std::atomic<int64_t> rejected_busy{0};
  std::atomic<int64_t> timed_out{0};
  std::atomic<int64_t> too_large{0};
  std::atomic<int64_t> bad_requests{0};
  std::atomic<int64_t> handler_errors{0};
  std::atomic<int64_t> refused_connections{0};
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
  uint64_t next_connection_id = 0;
  bool stopping = false;
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(HttpServer::Shared* shared, boost::asio::ip::tcp::socket socket, uint64_t id);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Starts waiting for the first request.
  void Start();
  // The server is stopping: close now if waiting for a request, else after
  // the response in progress.
  void Shutdown();

 private:
  enum class Phase { kReading, kHandling, kWriting, kDraining, kClosed };
  enum class TimerKind { kIdle, kRequest, kWrite, kDrain };
  static constexpr size_t kMaxDrainBytes = size_t{1} << 20;

  // Parses what is buffered; reads more, dispatches, or answers an error.
  void Process();
  void DoRead();
  void OnRead(const boost::system::error_code& ec, size_t n);
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
  void ArmTimer(std::chrono::milliseconds after, TimerKind kind);
  void CancelTimer();
  void OnTimer(TimerKind kind);
  void Close();

  HttpServer::Shared* const shared_;
  boost::asio::ip::tcp::socket socket_;
  const uint64_t id_;
  std::string remote_address_;
  boost::asio::steady_timer timer_;
  uint64_t timer_generation_ = 0;
  bool request_timer_armed_ = false;
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
  std::array<char, 16384> read_buffer_;
};

}  // namespace spindle::web
