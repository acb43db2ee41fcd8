// ThriftCellServer: the RM serving its CellStateService over Thrift
// (cell_state.thrift; TFramedTransport + TCompactProtocol, README.md) for
// `spindle scheduler` processes: one thread per connection (a member keeps
// one), each call decoded (thrift_codec), handed to the service, encoded.
// A service error goes back as CellStateError; a malformed request gets
// INVALID_ARGUMENT and the server keeps serving. Thrift's exceptions stay
// inside this file's implementation.
//
// Thread-safety: Start/Stop from one thread; the service is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "base/result.h"
#include "scheduler_pool/remote/cell_state_service.h"

namespace apache::thrift::server {
class TThreadedServer;
}

namespace spindle::pool::remote {

class ThriftCellServer {
 public:
  // Listens on host:port (port 0: one the kernel picks; port() says which)
  // and serves `service` (which outlives the server) until Stop().
  // IoError if it cannot listen.
  static Result<std::unique_ptr<ThriftCellServer>> Start(CellStateService* service,
                                                         const std::string& host, int port);
  ~ThriftCellServer();  // Stop()s
  ThriftCellServer(const ThriftCellServer&) = delete;
  ThriftCellServer& operator=(const ThriftCellServer&) = delete;

  int port() const { return port_; }
  // Stops accepting, closes the members' connections, joins the threads.
  void Stop();

 private:
  ThriftCellServer() = default;

  std::shared_ptr<apache::thrift::server::TThreadedServer> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace spindle::pool::remote
