// HttpServerOptions: the limits and threads of the RM's HTTP server
// (http_server.h), with their defaults, and how an operator sets them in
// Hadoop's configuration. Bind host and port are not read here: the RM takes
// them from yarn.resourcemanager.webapp.address / bind-host and passes them in.
//
// Thread-safety: a value.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::web {

struct HttpServerOptions {
  // Handler threads used when hadoop.http.max.threads is -1 (Hadoop's "the
  // server's default"): small on purpose, so the HTTP side never takes more
  // than a few threads from the RPC side.
  static constexpr int kDefaultWorkerThreads = 4;

  // Address to bind. Default: 127.0.0.1.
  std::string bind_host = "127.0.0.1";
  // Port to bind; 0 picks a free one (HttpServer::port()). Default: 0.
  uint16_t port = 0;
  // Threads that run handlers (hadoop.http.max.threads; -1 there means
  // kDefaultWorkerThreads). Default: 4.
  int worker_threads = kDefaultWorkerThreads;
  // Complete requests waiting for a free handler thread; one more is answered
  // 503 with Retry-After (spindle.http.max-queued-requests). 0 = a request is
  // taken only if a handler thread is idle. Default: 64.
  int64_t max_queued_requests = 64;
  // Request line plus header fields, in bytes; more is answered 431
  // (hadoop.http.max.request.header.size). Default: 65536.
  int64_t max_request_header_bytes = 65536;
  // Request body, in bytes; more is answered 413, from Content-Length before
  // the body is read, or while a chunked body is read
  // (spindle.http.max-request-body-bytes). Default: 1 MiB.
  int64_t max_request_body_bytes = 1 << 20;
  // Open connections, a soft limit: a new connection beyond it closes the
  // connection that has waited longest for a request (one that has not
  // sent a whole request: idle keep-alive, silent or slow, or lingering
  // after its last response), so a client holding sockets open cannot lock
  // others out (nor a client that stops reading a response for longer than
  // header_timeout). Only when every connection is busy (a request being
  // handled or answered) is the new one closed at accept
  // (spindle.http.max-connections). Default: 256.
  int64_t max_connections = 256;
  // The same limit per client address, applied first: a client at its
  // limit displaces its own oldest waiting connection, never another
  // client's (spindle.http.max-connections-per-address; 0 = no per-address
  // limit). Default: 64.
  int64_t max_connections_per_address = 64;
  // Pending connections the kernel queues for accept (listen(2) backlog,
  // capped by net.core.somaxconn): hadoop.http.socket.backlog.size, with
  // Hadoop 3.3's HttpServer2 default (2.6 and 2.7 fix Jetty's accept queue
  // at the same 128). The queue only has to absorb bursts: accept never
  // waits for a connection slot, it makes one. Default: 128.
  int listen_backlog = 128;
  // A connection must send a whole request header this long after it was
  // accepted (or, between keep-alive requests, after the next request's
  // first byte); a connection that sent nothing is then closed quietly, one
  // that sent part of a header is answered 408 and closed. Also how long a
  // response may sit unread by its client before that connection may be
  // displaced (max_connections). Hadoop 2.6/2.7's Jetty closed idle
  // connections after 10 s when short of threads
  // (HttpServer2.createDefaultChannelConnector, lowResourceMaxIdleTime)
  // (spindle.http.header-timeout-ms). Default: 10 s.
  std::chrono::milliseconds header_timeout{10000};
  // A keep-alive connection waiting for its next request's first byte this
  // long is closed; also the deadline for writing a response
  // (hadoop.http.idle_timeout.ms). Default: 60 s.
  std::chrono::milliseconds idle_timeout{60000};
  // Time from a request's first byte to its last; a slower client is answered
  // 408 and closed (spindle.http.request-timeout-ms). Default: 30 s.
  std::chrono::milliseconds request_timeout{30000};
  // Added to the handler threads' nice value (Linux schedules threads, so
  // only they are lowered): when the CPU is short, the RPC handlers run first
  // and a dashboard scraping the REST lists waits instead
  // (spindle.http.handler-nice, 0..19). Default: 10.
  int handler_nice = 10;
  // Seconds sent in Retry-After with a 503. Default: 1.
  int retry_after_seconds = 1;

  // Reads the keys above from `conf` (unset keys keep the defaults). A value
  // out of range or not a number is an InvalidArgument naming the file, key
  // and value.
  static Result<HttpServerOptions> FromConfiguration(const rm::Configuration& conf,
                                                     std::string bind_host, uint16_t port);
};

}  // namespace spindle::web
