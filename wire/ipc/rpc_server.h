// RpcServer: a Hadoop IPC v9 server on one port (e.g. the RM's 8032). I/O
// threads run the connections (Boost.Asio); handlers run on a separate worker
// pool so the I/O threads never block on them (Hadoop's Listener/Reader/
// Handler split, Kudu's reactor/service-pool split).
//
// Thread contract: Start() and Stop() from one controlling thread; port() and
// the counters from any thread.
#pragma once

#include <boost/asio.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "wire/ipc/rpc_service.h"
#include "wire/ipc/server_connection.h"
#include "wire/ipc/server_session.h"

namespace spindle::ipc {

struct RpcServerOptions {
  // Name in log lines, e.g. "ApplicationClientProtocol". Default: "ipc".
  std::string name = "ipc";
  // Address to bind. Default: 127.0.0.1.
  std::string bind_host = "127.0.0.1";
  // Port to bind; 0 picks a free one (see port()). Default: 0.
  uint16_t port = 0;
  // I/O threads. Default: 1.
  int io_threads = 1;
  // Handler threads (yarn.resourcemanager.*.thread-count). Default: 4.
  int worker_threads = 4;
  // Calls queued for the workers before new ones are refused with
  // RetriableException (ipc.server.handler.queue.size x handlers). Default: 0
  // = 100 per worker thread.
  int64_t max_queued_calls = 0;
  // A connection with no traffic and no call in progress for this long is
  // closed (Hadoop: 2 x ipc.client.connection.maxidletime). Default: 20 s.
  std::chrono::milliseconds idle_timeout{20000};
  // How many connections it takes, in all and per client address; a
  // connection past a limit is closed at accept (connection_table.h).
  // Default: no limits.
  ConnectionLimits limits;
  // Authentication and frame limits.
  ServerSessionOptions session;
};

class RpcServer {
 public:
  RpcServer(RpcServerOptions options, std::shared_ptr<const ServiceRegistry> services);
  ~RpcServer();
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  // Binds and starts serving. IoError if the address cannot be bound;
  // Unauthorized if the session offers KERBEROS and the acceptor's keytab
  // cannot be used (its credential is acquired here, once). The
  // first Start() in a process also installs the folding of libprotobuf's
  // log lines (protobuf_log_folding.h).
  Status Start();
  // Stops accepting, closes every connection, waits for running handlers.
  // Idempotent.
  void Stop();

  // The bound port (after Start()).
  uint16_t port() const { return port_; }
  int64_t calls_served() const { return env_.calls_served.load(); }
  // Name from the options ("ApplicationClientProtocol").
  const std::string& name() const { return options_.name; }
  // RpcActivityForPort<port> figures (rpc_activity.h); any thread, lock-free.
  RpcActivity activity() const { return env_.activity.Snapshot(); }
  // Connections open from `ip` (an address without port); any thread.
  int64_t open_connections_from(const std::string& ip) const { return table_.open_from(ip); }

 private:
  void DoAccept();
  // Takes an accepted socket as a connection, or closes it at a limit.
  void Admit(boost::asio::ip::tcp::socket socket);

  RpcServerOptions options_;
  // Declared before io_: connections still queued in io_ when it is destroyed
  // use table_, env_ and the worker pool in their destructors.
  ConnectionTable table_;
  ServerConnectionEnv env_;
  boost::asio::thread_pool workers_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  // Keeps the I/O threads running until Stop() has closed every connection:
  // without it they return as soon as nothing is pending (acceptor closed,
  // peers gone), and the closes Stop() posts would never run.
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::vector<std::thread> io_threads_;
  uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace spindle::ipc
