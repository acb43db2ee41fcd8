#include "web/metrics/metrics_routes.h"

#include <optional>

#include "web/metrics/conf_servlet.h"
#include "web/metrics/instrumentation_access.h"
#include "web/metrics/jmx_servlet.h"
#include "web/metrics/log_level.h"
#include "web/metrics/process_stats.h"
#include "web/metrics/prometheus.h"
#include "web/metrics/rm_beans.h"
#include "web/metrics/thread_dump.h"

namespace spindle::web {

HttpResponse JmxHandler(const MetricsDeps& deps, const HttpRequest& request) {
  return HandleJmx(request, CollectBeans(deps));
}

HttpResponse PrometheusHandler(const MetricsDeps& deps, const HttpRequest&) {
  std::optional<pool::PoolMetrics> pool;
  if (deps.core != nullptr) {
    if (std::optional<rm::PoolReport> report = deps.core->PoolStatus()) pool = report->metrics;
  }
  auto process = ReadProcessStats();
  return PrometheusResponse(RenderPrometheus(CollectBeans(deps), pool ? &*pool : nullptr,
                                             process.ok() ? &*process : nullptr));
}

HttpResponse StacksHandler(const HttpRequest&) {
  HttpResponse response = HttpResponse::Text(200, FormatThreadDump("", CaptureThreads()));
  response.content_type = "text/plain; charset=UTF-8";
  return response;
}

void AddMetricsRoutes(Router* router, const MetricsDeps& deps) {
  auto gated = [deps](HttpResponse (*handler)(const MetricsDeps&, const HttpRequest&)) {
    return [deps, handler](const HttpRequest& request) {
      if (auto denied = CheckInstrumentationAccess(request, deps)) return *denied;
      return handler(deps, request);
    };
  };
  router->Add(HttpMethod::kGet, "/jmx", gated(&JmxHandler));
  router->Add(HttpMethod::kGet, "/metrics",
              [deps](const HttpRequest& request) { return PrometheusHandler(deps, request); });
  if (deps.conf != nullptr) {
    router->Add(HttpMethod::kGet, "/conf", gated([](const MetricsDeps& d, const HttpRequest& r) {
                  return HandleConf(r, *d.conf);
                }));
  }
  router->Add(HttpMethod::kGet, "/logLevel",
              gated([](const MetricsDeps&, const HttpRequest& r) { return HandleLogLevel(r); }));
  router->Add(HttpMethod::kGet, "/stacks",
              gated([](const MetricsDeps&, const HttpRequest& r) { return StacksHandler(r); }));
}

}  // namespace spindle::web
