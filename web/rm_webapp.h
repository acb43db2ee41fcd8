// RmWebApp: the RM's HTTP side on yarn.resourcemanager.webapp.address
// (8088): one Router with every web module's routes (REST API, metrics,
// UI) behind one bounded HttpServer, so the web never takes more than its
// own threads from the RPC side.
//
// Thread contract: Create(), Start() and Stop() from the daemon's
// controlling thread; the routes run on the server's handler threads and
// read the RM through its thread-safe objects.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"
#include "base/clock.h"
#include "base/result.h"
#include "rm/apps/app_manager.h"
#include "rm/config/configuration.h"
#include "web/http/http_server.h"
#include "web/http/router.h"
#include "web/metrics/metrics_deps.h"
#include "web/rest/cluster_web_deps.h"

namespace spindle::web {

// What the web modules read and drive. Pointers must outlive the RmWebApp.
struct RmWebAppDeps {
  // Required.
  rm::ApplicationManager* apps = nullptr;
  client_service::ClientRmService* client = nullptr;
  const rm::NodeRegistry* nodes = nullptr;
  const rm::QueueManager* queues = nullptr;
  const pool::SchedulerPool* pool = nullptr;
  const rm::ContainerRegistry* containers = nullptr;
  const rm::Configuration* conf = nullptr;
  const Clock* clock = nullptr;
  // What clusterInfo says about this RM.
  rest::ClusterIdentity identity;
  // The RPC servers (RpcActivityForPort beans) and the admin check for
  // hadoop.security.instrumentation.requires.admin (metrics_deps.h).
  std::vector<const ipc::RpcServer*> rpc_servers;
  std::function<bool(const std::string& user)> is_admin;
};

class RmWebApp {
 public:
  // Reads the server's options from `conf` (http_options.h) and registers
  // every route; binds nothing yet. InvalidArgument names a bad key.
  static Result<std::unique_ptr<RmWebApp>> Create(const rm::Configuration& conf,
                                                  std::string bind_host, uint16_t port,
                                                  const RmWebAppDeps& deps);
  ~RmWebApp();

  // IoError if the address cannot be bound.
  Status Start();
  void Stop();
  uint16_t port() const { return server_->port(); }
  HttpServerCounters counters() const { return server_->counters(); }

 private:
  RmWebApp() = default;

  std::unique_ptr<Router> router_;
  std::unique_ptr<HttpServer> server_;
};

}  // namespace spindle::web
