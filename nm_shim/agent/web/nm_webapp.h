// NmWebApp: `spindle nm`'s HTTP side on yarn.nodemanager.webapp.address
// (default ${yarn.nodemanager.hostname}:8042; the host replaced by
// yarn.nodemanager.bind-host when set, as Hadoop's WebAppUtils.
// getWebAppBindURL does): the container log pages (container_logs_routes.h),
// the REST log endpoints (container_logs_rest.h) and /ws/v1/node/info
// (node_info_route.h) behind the same bounded HttpServer the RM's web app
// uses (web/http). The agent registers the bound port with the RM, so the
// log links in the RM's reports and UI reach it even when the configured
// port is 0.
//
// Thread contract: construction, Start() and Stop() from the agent's
// controlling thread; the routes run on the server's handler threads.
#pragma once

#include <memory>

#include "base/result.h"
#include "nm_shim/agent/web/container_logs_routes.h"
#include "nm_shim/agent/web/node_info_route.h"
#include "web/http/http_options.h"
#include "web/http/http_server.h"
#include "web/http/router.h"

namespace spindle::nm {

struct NmWebAppOptions {
  // Bind address, port and limits (hadoop.http.* keys, http_options.h).
  web::HttpServerOptions server;
  ContainerLogsOptions logs;
  NodeWebInfo info;
};

class NmWebApp {
 public:
  explicit NmWebApp(const NmWebAppOptions& options);
  ~NmWebApp();  // Stop()
  NmWebApp(const NmWebApp&) = delete;
  NmWebApp& operator=(const NmWebApp&) = delete;

  // IoError if the address cannot be bound.
  Status Start();
  // Idempotent.
  void Stop();
  // The bound port, after Start().
  uint16_t port() const { return server_->port(); }

 private:
  std::unique_ptr<web::Router> router_;
  std::unique_ptr<web::HttpServer> server_;
};

}  // namespace spindle::nm
