#include "web/http/http_options.h"

#include <string>
#include <utility>

namespace spindle::web {
namespace {

// The integer at `key`, which must lie in [min, max]; `fallback` if unset.
Result<int64_t> IntInRange(const rm::Configuration& conf, const std::string& key, int64_t fallback,
                           int64_t min, int64_t max) {
  ASSIGN_OR_RETURN(int64_t value, conf.GetInt(key, fallback));
  if (value < min || value > max) {
    return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" +
                                   std::to_string(value) + "' must be between " +
                                   std::to_string(min) + " and " + std::to_string(max));
  }
  return value;
}

constexpr int64_t kMaxMillis = int64_t{24} * 3600 * 1000;

}  // namespace

Result<HttpServerOptions> HttpServerOptions::FromConfiguration(const rm::Configuration& conf,
                                                               std::string bind_host,
                                                               uint16_t port) {
  HttpServerOptions o;
  o.bind_host = std::move(bind_host);
  o.port = port;

  const std::string threads_key = "hadoop.http.max.threads";
  ASSIGN_OR_RETURN(int64_t threads, conf.GetInt(threads_key, -1));
  if (threads == -1) {
    o.worker_threads = kDefaultWorkerThreads;
  } else if (threads >= 1 && threads <= 1024) {
    o.worker_threads = static_cast<int>(threads);
  } else {
    return Status::InvalidArgument(conf.SourceOf(threads_key) + ": " + threads_key + " = '" +
                                   std::to_string(threads) +
                                   "' must be -1 (the default) or between 1 and 1024");
  }
  ASSIGN_OR_RETURN(o.max_request_header_bytes,
                   IntInRange(conf, "hadoop.http.max.request.header.size",
                              o.max_request_header_bytes, 256, int64_t{64} << 20));
  ASSIGN_OR_RETURN(int64_t idle_ms, IntInRange(conf, "hadoop.http.idle_timeout.ms",
                                               o.idle_timeout.count(), 1, kMaxMillis));
  o.idle_timeout = std::chrono::milliseconds(idle_ms);
  ASSIGN_OR_RETURN(o.max_request_body_bytes,
                   IntInRange(conf, "spindle.http.max-request-body-bytes", o.max_request_body_bytes,
                              0, int64_t{1} << 40));
  ASSIGN_OR_RETURN(o.max_queued_requests, IntInRange(conf, "spindle.http.max-queued-requests",
                                                     o.max_queued_requests, 0, 1 << 20));
  ASSIGN_OR_RETURN(o.max_connections,
                   IntInRange(conf, "spindle.http.max-connections", o.max_connections, 1, 1 << 20));
  ASSIGN_OR_RETURN(o.max_connections_per_address,
                   IntInRange(conf, "spindle.http.max-connections-per-address",
                              o.max_connections_per_address, 0, 1 << 20));
  ASSIGN_OR_RETURN(int64_t backlog, IntInRange(conf, "hadoop.http.socket.backlog.size",
                                               o.listen_backlog, 1, 1 << 20));
  o.listen_backlog = static_cast<int>(backlog);
  ASSIGN_OR_RETURN(int64_t header_ms, IntInRange(conf, "spindle.http.header-timeout-ms",
                                                 o.header_timeout.count(), 1, kMaxMillis));
  o.header_timeout = std::chrono::milliseconds(header_ms);
  ASSIGN_OR_RETURN(int64_t request_ms, IntInRange(conf, "spindle.http.request-timeout-ms",
                                                  o.request_timeout.count(), 1, kMaxMillis));
  o.request_timeout = std::chrono::milliseconds(request_ms);
  ASSIGN_OR_RETURN(int64_t nice,
                   IntInRange(conf, "spindle.http.handler-nice", o.handler_nice, 0, 19));
  o.handler_nice = static_cast<int>(nice);
  return o;
}

}  // namespace spindle::web
