#include "web/rm_webapp.h"

#include <glog/logging.h>

#include "web/metrics/metrics_routes.h"
#include "web/rest/app_timeout_routes.h"
#include "web/rest/app_write_routes.h"
#include "web/rest/cluster_read_routes.h"
#include "web/rest/scheduler_conf_routes.h"
#include "web/ui/ui_routes.h"

namespace spindle::web {

Result<std::unique_ptr<RmWebApp>> RmWebApp::Create(const rm::Configuration& conf,
                                                   std::string bind_host, uint16_t port,
                                                   const RmWebAppDeps& deps) {
  CHECK(deps.apps != nullptr && deps.client != nullptr && deps.nodes != nullptr &&
        deps.queues != nullptr && deps.pool != nullptr && deps.containers != nullptr &&
        deps.conf != nullptr && deps.clock != nullptr)
      << "RmWebAppDeps: every dependency is required";
  ASSIGN_OR_RETURN(HttpServerOptions options,
                   HttpServerOptions::FromConfiguration(conf, std::move(bind_host), port));
  std::unique_ptr<RmWebApp> app(new RmWebApp());
  app->router_ = std::make_unique<Router>();
  rest::AppWriteDeps writes;
  writes.apps = deps.apps;
  writes.client = deps.client;
  writes.callers = rest::WebCallerOptions::FromConfiguration(conf);
  rest::AddAppWriteRoutes(app->router_.get(), writes);
  rest::AddAppTimeoutRoutes(app->router_.get(), writes);
  rest::SchedulerConfDeps scheduler_conf;
  scheduler_conf.client = deps.client;
  scheduler_conf.callers = writes.callers;
  scheduler_conf.is_admin = deps.is_admin;
  rest::AddSchedulerConfRoutes(app->router_.get(), scheduler_conf);
  rest::ClusterWebDeps cluster;
  cluster.client = deps.client;
  cluster.apps = deps.apps;
  cluster.nodes = deps.nodes;
  cluster.queues = deps.queues;
  cluster.pool = deps.pool;
  cluster.containers = deps.containers;
  cluster.clock = deps.clock;
  cluster.identity = deps.identity;
  rest::AddClusterReadRoutes(app->router_.get(), writes.callers, cluster);
  AddUiRoutes(app->router_.get(), UiDeps{deps.pool, deps.clock});
  MetricsDeps metrics;
  metrics.conf = deps.conf;
  metrics.apps = deps.apps;
  metrics.nodes = deps.nodes;
  metrics.queues = deps.queues;
  metrics.containers = deps.containers;
  metrics.pool = deps.pool;
  metrics.rpc_servers = deps.rpc_servers;
  metrics.clock = deps.clock;
  metrics.is_admin = deps.is_admin;
  AddMetricsRoutes(app->router_.get(), metrics);
  const Router* router = app->router_.get();
  app->server_ = std::make_unique<HttpServer>(
      options, [router](const HttpRequest& request) { return router->Dispatch(request); });
  return app;
}

RmWebApp::~RmWebApp() { Stop(); }

Status RmWebApp::Start() { return server_->Start(); }

void RmWebApp::Stop() {
  if (server_ != nullptr) server_->Stop();
}

}  // namespace spindle::web
