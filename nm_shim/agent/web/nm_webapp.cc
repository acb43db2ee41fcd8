#include "nm_shim/agent/web/nm_webapp.h"

#include "nm_shim/agent/web/container_logs_rest.h"

namespace spindle::nm {

NmWebApp::NmWebApp(const NmWebAppOptions& options) : router_(std::make_unique<web::Router>()) {
  AddContainerLogRoutes(router_.get(), options.logs);
  AddContainerLogRestRoutes(router_.get(), options.logs);
  AddNodeInfoRoute(router_.get(), options.info);
  const web::Router* router = router_.get();
  server_ = std::make_unique<web::HttpServer>(
      options.server,
      [router](const web::HttpRequest& request) { return router->Dispatch(request); });
}

NmWebApp::~NmWebApp() { Stop(); }

Status NmWebApp::Start() { return server_->Start(); }

void NmWebApp::Stop() { server_->Stop(); }

}  // namespace spindle::nm
