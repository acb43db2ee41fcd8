// Who may read the instrumentation endpoints (/jmx, /conf, /logLevel,
// /stacks, /metrics), as Hadoop's HttpServer2.isInstrumentationAccessAllowed:
// everyone unless hadoop.security.instrumentation.requires.admin is true;
// then, if hadoop.security.authorization is true, only admins (the caller
// named by the user.name query parameter, as pseudo authentication does):
// no user -> 403 "Unauthenticated users are not authorized to access this
// page.", a non-admin -> 403 "User <u> is unauthorized to access this page.".
//
// Thread-safety: pure function of its arguments.
#pragma once

#include <optional>

#include "web/http/http_message.h"
#include "web/metrics/metrics_deps.h"

namespace spindle::web {

// nullopt when allowed; else the response to send.
std::optional<HttpResponse> CheckInstrumentationAccess(const HttpRequest& request,
                                                       const MetricsDeps& deps);

}  // namespace spindle::web
