#include "web/ui/pool_endpoint.h"

#include <chrono>
#include <optional>

#include "base/json/json_writer.h"
#include "scheduler_pool/strategies/placement_strategy.h"
#include "scheduler_pool/sync_schedule.h"
#include "web/rest/rest_response.h"

namespace spindle::web {

namespace {

double Millis(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

void WriteResource(json::JsonWriter* w, const std::string& key, const pool::Resource& r) {
  w->Key(key);
  w->BeginObject();
  w->Field("memory", r.memory_mb());
  w->Field("vCores", r.vcores());
  w->EndObject();
}

void WriteScheduler(json::JsonWriter* w, const pool::SchedulerMetrics& m) {
  w->BeginObject();
  w->Field("id", m.scheduler);
  w->Field("strategy", pool::StrategyKindName(m.active_strategy));
  w->Field("steps", m.steps);
  w->Field("placements", m.placements);
  w->Field("conflicts", m.conflicts);
  w->Field("transactions", m.transactions);
  w->Field("partitionSyncs", m.partition_syncs);
  w->Field("fullSyncs", m.full_syncs);
  w->Field("withPreference", m.with_preference);
  w->Field("preferred", m.preferred);
  w->Field("quality", m.quality());
  w->Field("meanScore", m.mean_score());
  w->Field("backlog", m.backlog);
  w->Field("busyMs", static_cast<double>(m.busy_nanos) / 1e6);
  w->Field("meanStalenessMs", m.mean_staleness_ms());
  w->Field("maxStalenessMs", m.max_staleness_ms);
  w->Field("delayCount", m.delay.count());
  w->Field("delayP50Ms", Millis(m.delay.Percentile(0.5)));
  w->Field("delayP90Ms", Millis(m.delay.Percentile(0.9)));
  w->Field("delayP99Ms", Millis(m.delay.Percentile(0.99)));
  w->Field("delayMeanMs", Millis(m.delay.mean()));
  w->Field("delayMaxMs", Millis(m.delay.max()));
  w->EndObject();
}

// The "seconds" parameter: a whole number in [1, kMaxSeconds].
constexpr int64_t kMaxSeconds = 1'000'000;
std::optional<int64_t> ParseSeconds(const std::string& text) {
  if (text.empty() || text.size() > 7) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < 1 || v > kMaxSeconds) return std::nullopt;
  return v;
}

}  // namespace

std::string PoolJson(const pool::PoolMetrics& metrics, const std::vector<pool::SeriesPoint>& series,
                     Duration since_epoch, const std::string& mode) {
  json::JsonWriter w;
  w.BeginObject();
  w.Key("pool");
  w.BeginObject();
  w.Field("nowMs", std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count());
  w.Field("mode", mode);
  w.Field("utilisation", metrics.utilisation);
  WriteResource(&w, "capacity", metrics.capacity);
  WriteResource(&w, "allocated", metrics.allocated);
  w.Key("overall");
  WriteScheduler(&w, metrics.overall);
  w.Key("schedulers");
  w.BeginArray();
  for (const pool::SchedulerMetrics& m : metrics.schedulers) WriteScheduler(&w, m);
  w.EndArray();
  w.Key("series");
  w.BeginArray();
  for (const pool::SeriesPoint& p : series) {
    w.BeginObject();
    w.Field("second", p.second);
    w.Field("placements", p.placements);
    w.Field("conflicts", p.conflicts);
    w.Field("delayP50Ms", Millis(p.delay_p50));
    w.Field("delayP90Ms", Millis(p.delay_p90));
    w.Field("delayP99Ms", Millis(p.delay_p99));
    w.Field("backlog", p.backlog);
    w.Field("meanStalenessMs", p.mean_staleness_ms);
    w.Field("utilisation", p.utilisation);
    w.Field("quality", p.quality);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return w.Take();
}

HttpResponse ServePool(const HttpRequest& request, const rm::ClientFacade& core) {
  std::optional<int64_t> seconds;
  if (std::optional<std::string> text = request.Query("seconds")) {
    seconds = ParseSeconds(*text);
    if (!seconds) {
      return rest::RenderError(request, rest::RestError::BadRequest(
                                            "seconds must be a whole number from 1 to " +
                                            std::to_string(kMaxSeconds) + ", not '" + *text + "'"));
    }
  }
  std::optional<rm::PoolReport> report = core.PoolStatus();
  if (!report.has_value()) {
    return HttpResponse::Text(503, "the ResourceManager is standby: it runs no scheduler pool\n");
  }
  std::vector<pool::SeriesPoint>& series = report->series;
  const Duration since_epoch = report->since_epoch;
  if (seconds) {
    const int64_t now_second =
        std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
    std::erase_if(series,
                  [&](const pool::SeriesPoint& p) { return p.second < now_second - *seconds; });
  }
  HttpResponse response =
      HttpResponse::Json(200, PoolJson(report->metrics, series, since_epoch, report->mode));
  response.headers.emplace_back("Cache-Control", "no-cache");
  return response;
}

}  // namespace spindle::web
