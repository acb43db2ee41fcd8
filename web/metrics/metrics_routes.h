// The RM's instrumentation routes, for the lead to register on the RM's
// Router: GET /jmx, /metrics, /conf, /logLevel, /stacks. /jmx, /conf,
// /logLevel and /stacks are gated by instrumentation_access.h; /metrics is
// open, as Hadoop's Prometheus servlet. /conf is added only with
// deps.conf.
//
// Thread-safety: the handlers copy `deps` and may run on many threads.
#pragma once

#include "web/http/router.h"
#include "web/metrics/metrics_deps.h"

namespace spindle::web {

void AddMetricsRoutes(Router* router, const MetricsDeps& deps);

// The handlers alone (what the routes call, after the access check).
HttpResponse JmxHandler(const MetricsDeps& deps, const HttpRequest& request);
HttpResponse PrometheusHandler(const MetricsDeps& deps, const HttpRequest& request);
HttpResponse StacksHandler(const HttpRequest& request);

}  // namespace spindle::web
