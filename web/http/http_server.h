// HttpServer: the RM's HTTP server (Boost.Beast's parser on Boost.Asio).
//
// One I/O thread owns every socket: it accepts, reads and parses requests,
// enforces the limits of HttpServerOptions and writes responses. Complete
// requests run on a bounded HandlerPool, so a slow handler never stalls I/O
// and the HTTP side never takes more than its threads. When the pool is full
// the I/O thread answers 503 with Retry-After at once.
//
// Statuses the server answers itself: 400 (malformed request or framing,
// bad percent-escape; connection closed), 408 (header not complete within
// header_timeout or request within request_timeout; closed), 413 (body over
// the limit; closed), 431 (header over the limit; closed), 500 (the handler
// threw; connection kept), 501 (a transfer coding other than chunked;
// closed, and nothing after the header is read as a request), 503 (pool
// full; kept). A connection that sends nothing is closed quietly after
// header_timeout, an idle keep-alive one after idle_timeout. At
// max_connections (or max_connections_per_address) a new connection
// displaces the one that has waited longest for a request (or for its client
// to read a response stalled past header_timeout); it is refused at accept
// only when none is waiting (connection_table.h).
// "Expect: 100-continue" gets an interim 100 once the header passes the
// limits. A connection that ends after a response is closed lingering
// (http_connection.h), so an error response is not lost to a reset.
//
// Thread contract: Start() and Stop() from one controlling thread (never from
// a handler); port() and counters() from any thread. The handler runs on
// pool threads, several at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "base/status.h"
#include "web/http/http_message.h"
#include "web/http/http_options.h"

namespace spindle::web {

// Monotonic counts since Start() (for /jmx), plus the connections open now.
struct HttpServerCounters {
  int64_t requests_served = 0;        // responses from the handler (incl. 500s)
  int64_t rejected_busy = 0;          // 503: the handler pool was full
  int64_t timed_out = 0;              // 408: request not complete in time
  int64_t too_large = 0;              // 413 and 431
  int64_t bad_requests = 0;           // 400, and 501 (unknown transfer coding)
  int64_t handler_errors = 0;         // 500: the handler threw
  int64_t refused_connections = 0;    // closed at accept: at a limit, none waiting
  int64_t displaced_connections = 0;  // waiting ones closed to make room for a new one
  int64_t idle_closed = 0;            // keep-alive connections closed idle
  int64_t open_connections = 0;       // now
  int64_t requests_in_pool = 0;       // now: running or queued for a handler
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();  // Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds options.bind_host:options.port and starts the I/O thread and the
  // handler pool. IoError if the address cannot be bound or resolved;
  // InvalidArgument if already started.
  Status Start();
  // Stops accepting; connections waiting for a request close now; handlers
  // running or queued finish and their responses are written (then those
  // connections close); threads are joined. Idempotent. A client that does
  // not read its response can hold Stop() up to idle_timeout (the write
  // deadline).
  void Stop();

  // The bound port, after Start().
  uint16_t port() const { return port_.load(); }
  HttpServerCounters counters() const;

  // Internal: the state connections share (http_connection.h).
  struct Shared;

 private:
  std::unique_ptr<Shared> shared_;
  std::thread io_thread_;
  std::atomic<uint16_t> port_{0};
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace spindle::web
