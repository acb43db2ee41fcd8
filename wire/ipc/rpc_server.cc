#include "wire/ipc/rpc_server.h"

#include <glog/logging.h>

#include <atomic>
#include <future>

#include "wire/ipc/protobuf_log_folding.h"

namespace spindle::ipc {

namespace asio = boost::asio;
using boost::system::error_code;

RpcServer::RpcServer(RpcServerOptions options, std::shared_ptr<const ServiceRegistry> services)
    : options_(std::move(options)),
      table_(options_.limits),
      workers_(static_cast<size_t>(std::max(1, options_.worker_threads))),
      acceptor_(io_) {
  env_.server_name = options_.name;
  env_.session_options = options_.session;
  env_.services = std::move(services);
  env_.workers = &workers_;
  env_.idle_timeout = options_.idle_timeout;
  env_.table = &table_;
  env_.max_queued_calls = options_.max_queued_calls > 0
                              ? options_.max_queued_calls
                              : int64_t{100} * std::max(1, options_.worker_threads);
}

RpcServer::~RpcServer() { Stop(); }

Status RpcServer::Start() {
  CHECK(!started_) << "RpcServer started twice";
  // A peer must not be able to flood the log through libprotobuf.
  InstallProtobufLogFolding();
  // The Kerberos acceptor's key is read once, here, not by each
  // connection on an I/O thread; a keytab that cannot be used stops the
  // server before it listens.
  ServerSessionOptions& session = env_.session_options;
  if (session.kerberos != nullptr && session.kerberos_credential == nullptr) {
    Result<std::shared_ptr<const GssapiAcceptorCredential>> credential =
        GssapiAcceptorCredential::Acquire({session.kerberos->principal, session.kerberos->keytab});
    if (!credential.ok()) {
      return Status::Unauthorized("IPC server " + options_.name +
                                  " cannot accept Kerberos: " + credential.status().message());
    }
    session.kerberos_credential = std::move(credential).value();
  }
  error_code ec;
  const auto address = asio::ip::make_address(options_.bind_host, ec);
  if (ec) return Status::InvalidArgument("bad bind address " + options_.bind_host);
  const asio::ip::tcp::endpoint endpoint(address, options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::IoError("cannot listen on " + options_.bind_host + ":" +
                           std::to_string(options_.port) + ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
  started_ = true;
  work_.emplace(io_.get_executor());
  DoAccept();
  for (int i = 0; i < std::max(1, options_.io_threads); ++i) {
    io_threads_.emplace_back([this] { io_.run(); });
  }
  LOG(INFO) << "IPC server " << options_.name << " listening on " << options_.bind_host << ":"
            << port_;
  return Status::OK();
}

void RpcServer::DoAccept() {
  acceptor_.async_accept(
      asio::make_strand(io_), [this](const error_code& ec, asio::ip::tcp::socket socket) {
        if (ec) {
          if (ec == asio::error::operation_aborted) return;  // Stop()
          LOG(WARNING) << "IPC server " << options_.name << " accept failed: " << ec.message();
        } else {
          Admit(std::move(socket));
        }
        if (acceptor_.is_open()) DoAccept();
      });
}

void RpcServer::Admit(asio::ip::tcp::socket socket) {
  error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) return;  // already gone; the socket closes here
  std::string ip = peer.address().to_string();
  const Admission admission = table_.Admit(ip);
  if (admission != Admission::kAdmitted) {
    // Hadoop closes the channel without a word and counts it as dropped.
    RpcActivityCounters::Add(env_.activity.dropped_connections, 1);
    LOG_EVERY_T(WARNING, 10) << "IPC server " << options_.name << " refused a connection from "
                             << ip << ": "
                             << (admission == Admission::kServerFull
                                     ? "ipc.server.max.connections (" +
                                           std::to_string(table_.limits().max_connections) +
                                           ") reached"
                                     : "spindle.ipc.server.max-connections-per-address (" +
                                           std::to_string(table_.limits().max_per_address) +
                                           ") reached")
                             << " (logged at most every 10 s; "
                             << env_.activity.dropped_connections.load() << " dropped so far)";
    socket.close(ec);
    return;
  }
  auto connection = std::make_shared<ServerConnection>(std::move(socket), &env_, std::move(ip));
  table_.Add(connection);
  connection->Start();
}

void RpcServer::Stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  // Close the acceptor on the I/O threads (it has an accept in flight) and
  // wait: once Stop() returns, new connections must be refused.
  std::promise<void> closed;
  asio::post(io_, [this, &closed] {
    error_code ignored;
    acceptor_.close(ignored);
    closed.set_value();
  });
  closed.get_future().wait();
  std::vector<std::shared_ptr<ServerConnection>> open = table_.LiveConnections();
  // Wait for every close to run before the I/O threads stop, so that peers
  // see their connections end now (as Hadoop's Server.stop closes them), not
  // when this object is destroyed.
  auto remaining = std::make_shared<std::atomic<size_t>>(open.size());
  std::promise<void> all_closed;
  if (open.empty()) all_closed.set_value();
  for (auto& connection : open) {
    connection->Close([remaining, &all_closed] {
      if (remaining->fetch_sub(1) == 1) all_closed.set_value();
    });
  }
  all_closed.get_future().wait();
  open.clear();
  workers_.join();
  work_.reset();
  io_.stop();
  for (auto& t : io_threads_) t.join();
  io_threads_.clear();
  LOG(INFO) << "IPC server " << options_.name << " stopped";
}

}  // namespace spindle::ipc
