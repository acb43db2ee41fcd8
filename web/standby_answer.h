// StandbyAnswer: what the RM's web app answers while its core is standby,
// as Hadoop 3.3's RMWebAppFilter.doFilter does (read from 3.3's source):
//
// - not filtered (answered as usual): /ws/v1/cluster/info (clusterInfo,
//   whose haState then says STANDBY), /cluster/cluster, /proxy/*, and the
//   servlets of NON_REDIRECTED_URIS: /conf, /stacks, /logLevel, /logs,
//   /isActive, /jmx, /prom (and Spindle's /metrics, its /prom);
// - every other path: the filter asks where the active RM is
//   (RMWebApp.getRedirectPath: RMHAUtils.findActiveRMHAId asks each rm-id's
//   admin port for getServiceStatus, then that rm-id's webapp address;
//   options.find_active_url does it). Found: status 307, "Location:
//   <active url><path>[?<query>]" and the text "This is standby RM. The
//   redirect url is: <path>[?<query>]" (HTML-quoted). None found: 3.3's
//   answer: the text "Can not find any active RM. Will retry in next N
//   seconds." and "HA Zookeeper Connection State: <state>", status 307
//   with "Refresh: N;url=<this RM's web address><path>?...&
//   next.refresh.interval=<k+1>", where k is the request's
//   next.refresh.interval (0 without) and N = 5 x 2^k x U[0.5, 1.5)
//   (calculateExponentialTime), truncated. Once N would pass 300 seconds,
//   or k is not a number, the text is "There is no active RM right now."
//   with status 200 and no Refresh (the filter then leaves the status
//   alone). Either way the request never reaches a handler, so nothing
//   reads an activation that is gone.
//
// The query Spindle sends on is the parsed parameters encoded again
// (WebAppUtils.getURLEncodedQueryString does the same), in request order.
//
// Thread-safety: the options are read-only; `uniform` must be thread-safe.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "rm/core/client_facade.h"
#include "web/http/http_message.h"

namespace spindle::web {

struct StandbyAnswerOptions {
  // This RM's web address as the filter builds it: "http://" +
  // yarn.resourcemanager.webapp.address's host and port.
  std::string self_url;
  // The second line's state (ClusterIdentity::ha_zookeeper_connection_state).
  std::string ha_zookeeper_connection_state;
  // Uniform in [0, 1) (Java's Random.nextDouble). Default: a thread-local
  // generator.
  std::function<double()> uniform;
  // "http://host:port" of the active RM's web app, or nullopt when no
  // rm-id answers ACTIVE. Called per redirected request while standby, as
  // Hadoop's filter asks per request. Default (unset): none is found.
  std::function<std::optional<std::string>()> find_active_url;
};

// True if the filter lets `path` through while standby.
bool AnsweredWhileStandby(const std::string& path);

// The standby answer for `request`, or nullopt when the core is active or
// the path is let through.
std::optional<HttpResponse> StandbyAnswer(const HttpRequest& request, const rm::ClientFacade& core,
                                          const StandbyAnswerOptions& options);

}  // namespace spindle::web
