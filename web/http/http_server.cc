#include "web/http/http_server.h"

#include <glog/logging.h>
#include <poll.h>

#include <cerrno>
#include <string>
#include <utility>

#include "web/http/http_connection.h"

namespace spindle::web {
namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// Closes the connection `id` to make room (it was displaced from the table).
void DisplaceConnection(HttpServer::Shared* s, uint64_t id) {
  const auto it = s->connections.find(id);
  if (it == s->connections.end()) return;
  if (auto connection = it->second.lock()) connection->Displace();
}

void DoAccept(HttpServer::Shared* s);

// Whether a connection waits in the listen queue. Linux's accept() reserves a
// descriptor before it looks at the queue, so EMFILE does not mean anyone is
// waiting: Asio tries accept() as soon as the previous one is handled.
bool ConnectionWaiting(tcp::acceptor& acceptor) {
  pollfd listening{acceptor.native_handle(), POLLIN, 0};
  return poll(&listening, 1, 0) > 0 && (listening.revents & POLLIN) != 0;
}

// Takes an accepted socket under the connection limits (connection_table.h).
void Admit(HttpServer::Shared* s, tcp::socket socket) {
  boost::system::error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) {  // already gone
    socket.close(ec);
    return;
  }
  std::string address = peer.address().to_string();
  const uint64_t id = s->next_connection_id++;
  const auto admission = s->table.Admit(id, address, [s](uint64_t waiting) {
    const auto it = s->connections.find(waiting);
    if (it == s->connections.end()) return false;
    const auto connection = it->second.lock();
    return connection != nullptr && connection->HasUnreadInput();
  });
  for (uint64_t displaced : admission.displaced) DisplaceConnection(s, displaced);
  if (!admission.admitted) {
    // Every connection (of this address, or of all) is busy with a request.
    s->refused_connections.fetch_add(1);
    LOG_EVERY_N(WARNING, 100) << "HTTP connection from " << address
                              << " refused: every connection is busy ("
                              << s->table.OpenFrom(address) << " from that address, "
                              << s->table.size() << " in all)";
    socket.close(ec);
    return;
  }
  auto connection = std::make_shared<HttpConnection>(s, std::move(socket), id, std::move(address));
  s->connections.emplace(id, connection);
  connection->Start();
}

void OnAccept(HttpServer::Shared* s, const boost::system::error_code& ec, tcp::socket socket) {
  if (s->stopping || !s->acceptor.is_open()) return;
  if (!ec) {
    Admit(s, std::move(socket));
    DoAccept(s);
    return;
  }
  // Out of descriptors: a waiting connection gives up its own, and the
  // connection queued behind it is taken at once.
  if (ec == asio::error::no_descriptors || ec.value() == ENFILE) {
    if (!ConnectionWaiting(s->acceptor)) {
      // Nobody to make room for yet: wait for a connection, then try again.
      s->acceptor.async_wait(tcp::acceptor::wait_read,
                             [s](const boost::system::error_code& wait_ec) {
                               if (!wait_ec && !s->stopping) DoAccept(s);
                             });
      return;
    }
    if (auto oldest = s->table.TakeOldestWaiting()) {
      LOG_EVERY_N(WARNING, 100) << "HTTP accept is out of file descriptors (" << ec.message()
                                << "): closing the connection that waited longest";
      DisplaceConnection(s, *oldest);
      DoAccept(s);
      return;
    }
  }
  // Otherwise retry shortly rather than spin.
  LOG_EVERY_N(WARNING, 100) << "HTTP accept failed: " << ec.message();
  s->accept_retry.expires_after(std::chrono::milliseconds(100));
  s->accept_retry.async_wait([s](const boost::system::error_code& wait_ec) {
    if (!wait_ec) DoAccept(s);
  });
}

void DoAccept(HttpServer::Shared* s) {
  s->acceptor.async_accept([s](const boost::system::error_code& ec, tcp::socket socket) {
    OnAccept(s, ec, std::move(socket));
  });
}

}  // namespace

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler)
    : shared_(std::make_unique<Shared>(std::move(options), std::move(handler))) {}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Start() {
  if (started_) return Status::InvalidArgument("HTTP server already started");
  Shared* s = shared_.get();
  const auto& o = s->options;
  const std::string where = o.bind_host + ":" + std::to_string(o.port);
  boost::system::error_code ec;
  tcp::resolver resolver(s->io);
  auto endpoints = resolver.resolve(o.bind_host, std::to_string(o.port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) {
    return Status::IoError("cannot resolve HTTP bind address " + where + ": " + ec.message());
  }
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  s->acceptor.open(endpoint.protocol(), ec);
  if (!ec) s->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) s->acceptor.bind(endpoint, ec);
  if (!ec) s->acceptor.listen(o.listen_backlog, ec);
  if (ec) {
    boost::system::error_code ignored;
    s->acceptor.close(ignored);
    return Status::IoError("cannot bind HTTP server to " + where + ": " + ec.message());
  }
  port_.store(s->acceptor.local_endpoint(ec).port());
  started_ = true;
  s->pool = std::make_unique<HandlerPool>(o.worker_threads, o.max_queued_requests, o.handler_nice);
  s->work.emplace(asio::make_work_guard(s->io));
  DoAccept(s);
  io_thread_ = std::thread([s] { s->io.run(); });
  LOG(INFO) << "HTTP server listening on " << o.bind_host << ":" << port_.load() << " with "
            << o.worker_threads << " handler threads, at most " << o.max_connections
            << " connections (" << o.max_connections_per_address << " per client address)";
  return Status::OK();
}

void HttpServer::Stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  Shared* s = shared_.get();
  asio::post(s->io, [s] {
    s->stopping = true;
    boost::system::error_code ignored;
    s->acceptor.close(ignored);
    s->accept_retry.cancel();
    // Shutdown() may erase from the map: walk a copy.
    const auto connections = s->connections;
    for (const auto& [id, weak] : connections) {
      if (auto connection = weak.lock()) connection->Shutdown();
    }
  });
  // Handlers running or queued finish; each posts its response to io first.
  s->pool->Shutdown();
  // io.run() returns once the last response is written and its socket closed.
  s->work.reset();
  io_thread_.join();
  LOG(INFO) << "HTTP server on port " << port_.load() << " stopped";
}

HttpServerCounters HttpServer::counters() const {
  const Shared* s = shared_.get();
  HttpServerCounters c;
  c.requests_served = s->requests_served.load();
  c.rejected_busy = s->rejected_busy.load();
  c.timed_out = s->timed_out.load();
  c.too_large = s->too_large.load();
  c.bad_requests = s->bad_requests.load();
  c.handler_errors = s->handler_errors.load();
  c.refused_connections = s->refused_connections.load();
  c.displaced_connections = s->displaced_connections.load();
  c.idle_closed = s->idle_closed.load();
  c.open_connections = s->open_connections.load();
  c.requests_in_pool = s->requests_in_pool.load();
  return c;
}

}  // namespace spindle::web
