#include "web/rm_webapp.h"

#include <glog/logging.h>

#include "security/auth_to_local.h"
#include "security/kerberos_credentials.h"
#include "web/is_active_route.h"
#include "web/metrics/metrics_routes.h"
#include "web/rest/app_timeout_routes.h"
#include "web/rest/app_write_routes.h"
#include "web/rest/cluster_read_routes.h"
#include "web/rest/delegation_token_operations.h"
#include "web/rest/delegation_token_routes.h"
#include "web/rest/delegation_token_verifier.h"
#include "web/rest/scheduler_conf_routes.h"
#include "web/standby_answer.h"
#include "web/ui/ui_routes.h"

namespace spindle::web {

Result<std::unique_ptr<RmWebApp>> RmWebApp::Create(const rm::Configuration& conf,
                                                   std::string bind_host, uint16_t port,
                                                   const RmWebAppDeps& deps) {
  CHECK(deps.core != nullptr && deps.client != nullptr && deps.conf != nullptr)
      << "RmWebAppDeps: core, client and conf are required";
  ASSIGN_OR_RETURN(HttpServerOptions options,
                   HttpServerOptions::FromConfiguration(conf, std::move(bind_host), port));
  ASSIGN_OR_RETURN(const security::AuthenticationMethod method,
                   security::AuthenticationMethodFromConfiguration(conf));
  ASSIGN_OR_RETURN(auth::HttpAuthOptions auth_options,
                   auth::HttpAuthOptions::FromConfiguration(conf, method, options.bind_host));
  auth::AuthenticationFilterDeps auth_deps;
  auth_deps.clock = deps.clock != nullptr ? deps.clock : SystemClock::Get();
  auth_deps.authorize_proxy = deps.authorize_proxy;
  // REST calls authenticated by an RM delegation token: Hadoop 3.3 hands
  // the RM's RMDelegationTokenSecretManager to RMAuthenticationFilter when
  // it swaps AuthenticationFilterInitializer for it, i.e. with Kerberos on
  // and hadoop.http.authentication.type=kerberos
  // (RMWebAppUtil.setupSecurityAndFilters); the core reads that manager.
  if (auth_options.filter == auth::AuthFilterKind::kResourceManager &&
      auth_options.type == auth::AuthType::kKerberos) {
    auth_deps.verify_delegation_token = [core = deps.core](std::string_view url_string) {
      return rest::VerifyDelegationTokenUrlString(*core, url_string);
    };
    // The handler's ?op= management calls over the same secret manager.
    auth_deps.token_operations = rest::FilterTokenOperations(deps.core);
  }
  const Result<std::string> realm = security::DefaultKerberosRealm();
  ASSIGN_OR_RETURN(
      security::AuthToLocal auth_to_local,
      security::AuthToLocal::FromConfiguration(conf, method, realm.ok() ? *realm : ""));
  auth_deps.auth_to_local = auth_to_local;
  std::unique_ptr<RmWebApp> app(new RmWebApp());
  ASSIGN_OR_RETURN(app->filters_,
                   auth::WebFilterChain::Create(std::move(auth_options), std::move(auth_deps)));
  app->router_ = std::make_unique<Router>();
  rest::AppWriteDeps writes;
  writes.core = deps.core;
  writes.client = deps.client;
  writes.callers = rest::WebCallerOptions::FromConfiguration(conf);
  rest::AddAppWriteRoutes(app->router_.get(), writes);
  rest::AddAppTimeoutRoutes(app->router_.get(), writes);
  rest::DelegationTokenRouteDeps tokens;
  tokens.core = deps.core;
  tokens.callers = writes.callers;
  tokens.security_enabled = method == security::AuthenticationMethod::kKerberos;
  tokens.short_name = [rules = std::move(auth_to_local)](const std::string& principal) {
    return rules.ShortName(principal);
  };
  rest::AddDelegationTokenRoutes(app->router_.get(), tokens);
  rest::SchedulerConfDeps scheduler_conf;
  scheduler_conf.client = deps.client;
  scheduler_conf.callers = writes.callers;
  scheduler_conf.is_admin = deps.is_admin;
  rest::AddSchedulerConfRoutes(app->router_.get(), scheduler_conf);
  rest::ClusterWebDeps cluster;
  cluster.client = deps.client;
  cluster.core = deps.core;
  cluster.identity = deps.identity;
  cluster.scheduler = deps.scheduler;
  rest::AddClusterReadRoutes(app->router_.get(), writes.callers, cluster);
  AddUiRoutes(app->router_.get(), UiDeps{deps.core});
  AddIsActiveRoute(app->router_.get(), deps.core);
  MetricsDeps metrics;
  metrics.conf = deps.conf;
  metrics.core = deps.core;
  metrics.rpc_servers = deps.rpc_servers;
  metrics.is_admin = deps.is_admin;
  AddMetricsRoutes(app->router_.get(), metrics);
  // RMWebAppFilter's path: yarn.resourcemanager.webapp.address's host and
  // port (the configured ones, as Hadoop's getSocketAddr reads them).
  StandbyAnswerOptions standby;
  standby.self_url =
      "http://" +
      conf.GetTrimmed("yarn.resourcemanager.webapp.address")
          .value_or(conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0") + ":8088");
  standby.ha_zookeeper_connection_state = deps.identity.ha_zookeeper_connection_state;
  standby.uniform = deps.uniform;
  standby.find_active_url = deps.find_active_url;
  const Router* router = app->router_.get();
  const rm::ClientFacade* core = deps.core;
  HttpHandler routes = [router, core, standby = std::move(standby)](const HttpRequest& request) {
    if (std::optional<HttpResponse> answer = StandbyAnswer(request, *core, standby)) {
      return std::move(*answer);
    }
    return router->Dispatch(request);
  };
  const auth::WebFilterChain* filters = app->filters_.get();
  app->server_ = std::make_unique<HttpServer>(
      options, [filters, routes = std::move(routes)](const HttpRequest& request) {
        return filters->Handle(request, routes);
      });
  return app;
}

RmWebApp::~RmWebApp() { Stop(); }

Status RmWebApp::Start() { return server_->Start(); }

void RmWebApp::Stop() {
  if (server_ != nullptr) server_->Stop();
}

}  // namespace spindle::web
