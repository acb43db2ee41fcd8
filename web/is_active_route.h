// /isActive: Hadoop 3.3's IsResourceManagerActiveServlet (IsActiveServlet in
// hadoop-common), which load balancers and proxies poll to find the active
// RM: 200 "I am Active!" while the core is active, else 405 with the text
// "I am not Active!" (Java's sendError(SC_METHOD_NOT_ALLOWED); Jetty wraps
// that text in its HTML error page, Spindle sends the text alone). Hadoop
// 2.x has no such servlet. The standby answer lets the path through.
//
// Thread-safety: the handler reads the core's thread-safe ha_state().
#pragma once

#include "rm/core/client_facade.h"
#include "web/http/router.h"

namespace spindle::web {

// `core` must outlive the router.
void AddIsActiveRoute(Router* router, const rm::ClientFacade* core);

}  // namespace spindle::web
