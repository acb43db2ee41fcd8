// CellServiceServer: what serves the scheduler pool's cell-state service
// (scheduler_pool/remote) to `spindle scheduler` processes while the RM is
// active. The RM core opens no socket: the daemon supplies a factory
// (cmd/rm_daemon: a Thrift server on spindle.scheduler.remote.address),
// and each activation builds one once its pool places, and destroys it
// first when it deactivates (standby or shutdown), so that no member
// commits into a pool that is going away.
//
// Thread-safety: port() from any thread; destruction stops serving and
// returns once no call is in flight.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/result.h"

namespace spindle::pool::remote {
class CellStateService;
}  // namespace spindle::pool::remote

namespace spindle::rm {

class CellServiceServer {
 public:
  virtual ~CellServiceServer() = default;
  // The port it listens on (the one bound, for a configured port 0).
  virtual int port() const = 0;
};

// Serves `service` (which outlives the server) on `address` (HOST:PORT, as
// spindle.scheduler.remote.address holds it). IoError if it cannot listen.
using CellServiceServerFactory = std::function<Result<std::unique_ptr<CellServiceServer>>(
    pool::remote::CellStateService* service, const std::string& address)>;

}  // namespace spindle::rm
