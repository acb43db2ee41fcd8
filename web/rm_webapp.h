// RmWebApp: the RM's HTTP side on yarn.resourcemanager.webapp.address
// (8088): one Router with every web module's routes (REST API, metrics,
// UI) behind one bounded HttpServer, so the web never takes more than its
// own threads from the RPC side. Every module reads and drives the RM core
// through its ClientFacade, so the web app outlives any number of
// TransitionToStandby / TransitionToActive; while the core is standby,
// requests get Hadoop 3.3's standby answer (standby_answer.h) before any
// route sees them.
//
// In front of every route runs the filter chain hadoop.http.filter.
// initializers asks for (web/auth: simple ?user.name or SPNEGO, the signed
// hadoop.auth cookie, StaticUserWebFilter), before the standby answer, as
// Hadoop's authentication filter runs before RMWebAppFilter. With Kerberos
// (RMAuthenticationFilter) an RM delegation token also authenticates, checked
// by the core's secret manager (web/rest/delegation_token_verifier.h), the
// filter's ?op=GETDELEGATIONTOKEN / RENEWDELEGATIONTOKEN /
// CANCELDELEGATIONTOKEN calls run on that same manager
// (web/rest/delegation_token_operations.h), and ?doAs= goes to
// `authorize_proxy`.
//
// Thread contract: Create(), Start() and Stop() from the daemon's
// controlling thread; the routes run on the server's handler threads and
// read the RM through its thread-safe facade.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"
#include "base/clock.h"
#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/core/client_facade.h"
#include "web/auth/web_filter_chain.h"
#include "web/http/http_server.h"
#include "web/http/router.h"
#include "web/metrics/metrics_deps.h"
#include "web/rest/cluster_web_deps.h"

namespace spindle::web {

// What the web modules read and drive. Pointers must outlive the RmWebApp.
struct RmWebAppDeps {
  // Required: the RM core and its ApplicationClientProtocol service.
  rm::ClientFacade* core = nullptr;
  client_service::ClientRmService* client = nullptr;
  const rm::Configuration* conf = nullptr;
  // What clusterInfo says about this RM (its cluster timestamp and HA state
  // follow the core).
  rest::ClusterIdentity identity;
  // The line and allocation bounds the scheduler answer is shaped by.
  rest::SchedulerShape scheduler;
  // Java's Random.nextDouble for the standby answer's retry time; default a
  // thread-local generator (tests pin it).
  std::function<double()> uniform;
  // With HA on: the active RM's web address for the standby's redirect
  // (StandbyAnswerOptions::find_active_url). Default: none is found.
  std::function<std::optional<std::string>()> find_active_url;
  // The RPC servers (RpcActivityForPort beans) and the admin check for
  // hadoop.security.instrumentation.requires.admin (metrics_deps.h).
  std::vector<const ipc::RpcServer*> rpc_servers;
  std::function<bool(const std::string& user)> is_admin;
  // Who may act as whom on the web (?doAs=, hadoop.proxyuser.*); unset:
  // nobody (web/auth/authentication_filter.h).
  std::function<Status(const std::string& real_principal, const std::string& doas_user,
                       const std::string& remote_address)>
      authorize_proxy;
  // The clock cookies expire by. Default: the system clock.
  const Clock* clock = nullptr;
};

class RmWebApp {
 public:
  // Reads the server's options from `conf` (http_options.h) and its
  // authentication (web/auth/http_auth_options.h; with SPNEGO the HTTP
  // principal's credential is acquired here), and registers every route;
  // binds nothing yet. InvalidArgument names a bad key; a keytab that cannot
  // serve the principal fails with GSS-API's reason.
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
  std::unique_ptr<auth::WebFilterChain> filters_;
  std::unique_ptr<HttpServer> server_;
};

}  // namespace spindle::web
