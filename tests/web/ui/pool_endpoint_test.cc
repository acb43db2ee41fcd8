#include "web/ui/pool_endpoint.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "base/json/json_stream.h"
#include "rm/core/registry_facade.h"
#include "web/ui/ui_routes.h"

namespace spindle::web {
namespace {

using std::chrono::milliseconds;

json::JsonValue Parse(const std::string& text) {
  auto stream = json::JsonStream::FromString("pool", text);
  json::JsonValue value;
  auto got = stream->Next(&value);
  EXPECT_TRUE(got.ok()) << got.status().ToString() << "\n" << text;
  EXPECT_TRUE(got.ok() && *got);
  return value;
}

double Num(const json::JsonValue& object, const char* key) {
  const json::JsonValue* v = object.Find(key);
  EXPECT_TRUE(v != nullptr && v->is_number()) << key;
  return v != nullptr && v->is_number() ? v->AsDouble().value_or(-1) : -1;
}

std::string Str(const json::JsonValue& object, const char* key) {
  const json::JsonValue* v = object.Find(key);
  EXPECT_TRUE(v != nullptr && v->is_string()) << key;
  return v != nullptr ? v->text() : "";
}

pool::SchedulerMetrics Scheduler(int id, int64_t placements, int64_t conflicts) {
  pool::SchedulerMetrics m;
  m.scheduler = id;
  m.steps = 10;
  m.placements = placements;
  m.conflicts = conflicts;
  m.transactions = 4;
  m.with_preference = 4;
  m.preferred = 3;
  m.backlog = 2;
  m.busy_nanos = 5'000'000;
  m.staleness_sum_ms = 30;
  m.staleness_samples = 10;
  m.max_staleness_ms = 7.5;
  m.active_strategy = pool::StrategyKind::kAdaptive;
  for (int i = 0; i < 99; ++i) m.delay.Record(milliseconds(1));
  m.delay.Record(milliseconds(1000));
  return m;
}

TEST(PoolJsonTest, WritesCumulativeCountersPerSchedulerAndTheSeries) {
  pool::PoolMetrics metrics;
  metrics.schedulers = {Scheduler(0, 100, 5), Scheduler(1, 40, 0)};
  metrics.overall = metrics.schedulers[0];
  metrics.overall.Add(metrics.schedulers[1]);
  metrics.overall.scheduler = -1;
  metrics.capacity = pool::Resource::Of(8192, 8);
  metrics.allocated = pool::Resource::Of(2048, 1);
  metrics.utilisation = 0.25;
  pool::SeriesPoint point;
  point.second = 41;
  point.placements = 12;
  point.conflicts = 3;
  point.delay_p50 = milliseconds(2);
  point.delay_p90 = milliseconds(4);
  point.delay_p99 = milliseconds(8);
  point.backlog = 6;
  point.mean_staleness_ms = 1.5;
  point.utilisation = 0.5;
  point.quality = 0.75;

  const json::JsonValue doc = Parse(PoolJson(metrics, {point}, milliseconds(42'500), "parsync"));
  const json::JsonValue* p = doc.Find("pool");
  ASSERT_TRUE(p != nullptr && p->is_object());
  EXPECT_EQ(Num(*p, "nowMs"), 42500);
  EXPECT_EQ(Str(*p, "mode"), "parsync");
  EXPECT_EQ(Num(*p, "utilisation"), 0.25);
  EXPECT_EQ(Num(*p->Find("capacity"), "memory"), 8192);
  EXPECT_EQ(Num(*p->Find("capacity"), "vCores"), 8);
  EXPECT_EQ(Num(*p->Find("allocated"), "memory"), 2048);

  const json::JsonValue* schedulers = p->Find("schedulers");
  ASSERT_TRUE(schedulers != nullptr && schedulers->is_array());
  ASSERT_EQ(schedulers->elements().size(), 2u);
  const json::JsonValue& s0 = schedulers->elements()[0];
  EXPECT_EQ(Num(s0, "id"), 0);
  EXPECT_EQ(Str(s0, "strategy"), "adaptive");
  EXPECT_EQ(Num(s0, "placements"), 100);
  EXPECT_EQ(Num(s0, "conflicts"), 5);
  EXPECT_EQ(Num(s0, "transactions"), 4);
  EXPECT_EQ(Num(s0, "steps"), 10);
  EXPECT_EQ(Num(s0, "quality"), 0.75);
  EXPECT_EQ(Num(s0, "backlog"), 2);
  EXPECT_EQ(Num(s0, "busyMs"), 5);
  EXPECT_EQ(Num(s0, "meanStalenessMs"), 3);
  EXPECT_EQ(Num(s0, "maxStalenessMs"), 7.5);
  EXPECT_EQ(Num(s0, "delayCount"), 100);
  // Log-linear buckets: within 6.25% of the true value.
  EXPECT_NEAR(Num(s0, "delayP50Ms"), 1, 0.07);
  EXPECT_NEAR(Num(s0, "delayP99Ms"), 1, 0.07);
  EXPECT_NEAR(Num(s0, "delayMaxMs"), 1000, 0.001);
  EXPECT_EQ(Num(schedulers->elements()[1], "id"), 1);
  EXPECT_EQ(Num(schedulers->elements()[1], "placements"), 40);

  const json::JsonValue* overall = p->Find("overall");
  ASSERT_TRUE(overall != nullptr);
  EXPECT_EQ(Num(*overall, "id"), -1);
  EXPECT_EQ(Num(*overall, "placements"), 140);
  EXPECT_EQ(Num(*overall, "conflicts"), 5);
  EXPECT_EQ(Num(*overall, "delayCount"), 200);

  const json::JsonValue* series = p->Find("series");
  ASSERT_TRUE(series != nullptr && series->is_array());
  ASSERT_EQ(series->elements().size(), 1u);
  const json::JsonValue& pt = series->elements()[0];
  EXPECT_EQ(Num(pt, "second"), 41);
  EXPECT_EQ(Num(pt, "placements"), 12);
  EXPECT_EQ(Num(pt, "conflicts"), 3);
  EXPECT_EQ(Num(pt, "delayP50Ms"), 2);
  EXPECT_EQ(Num(pt, "delayP90Ms"), 4);
  EXPECT_EQ(Num(pt, "delayP99Ms"), 8);
  EXPECT_EQ(Num(pt, "backlog"), 6);
  EXPECT_EQ(Num(pt, "meanStalenessMs"), 1.5);
  EXPECT_EQ(Num(pt, "utilisation"), 0.5);
  EXPECT_EQ(Num(pt, "quality"), 0.75);
}

TEST(PoolJsonTest, AnIdlePoolHasEmptyListsAndZeroDelays) {
  const json::JsonValue doc =
      Parse(PoolJson(pool::PoolMetrics{}, {}, milliseconds(0), "monolithic"));
  const json::JsonValue* p = doc.Find("pool");
  ASSERT_TRUE(p != nullptr);
  EXPECT_TRUE(p->Find("schedulers")->is_array());
  EXPECT_TRUE(p->Find("schedulers")->elements().empty());
  EXPECT_TRUE(p->Find("series")->elements().empty());
  EXPECT_EQ(Num(*p->Find("overall"), "delayP99Ms"), 0);
  EXPECT_EQ(Num(*p->Find("overall"), "quality"), 0);
}

// The route over a real pool, stepped by hand on a manual clock.
TEST(PoolEndpointTest, ServesTheLivePoolThroughTheRouter) {
  ManualClock clock;
  pool::PoolOptions options;
  options.num_schedulers = 2;
  options.num_partitions = 2;
  auto created = pool::SchedulerPool::Create(options, &clock);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  std::unique_ptr<pool::SchedulerPool> p = std::move(created).value();
  pool::QueueSpec queue;
  queue.name = "default";
  const pool::QueueId q = (*p->SetQueues({queue}))[0];
  ASSERT_TRUE(p->AddNode(pool::NodeSpec{pool::Resource::Of(8192, 8), "/r0", 1.0}).ok());
  ASSERT_TRUE(p->AddApp(pool::AppSpec{pool::AppId(1), q}).ok());
  pool::Ask ask;
  ask.capability = pool::Resource::Of(1024, 1);
  ask.count = 3;
  ASSERT_TRUE(p->SetAsks(pool::AppId(1), {ask}).ok());
  for (int i = 0; i < 30; ++i) {
    clock.Advance(milliseconds(100));
    p->RunAllOnce(clock.Now());
  }

  Router router;
  // The core seen over just its pool (rm/core/registry_facade.h).
  rm::RegistryFacadeParts parts;
  parts.pool = p.get();
  parts.clock = &clock;
  const rm::RegistryFacade core(parts);
  AddUiRoutes(&router, UiDeps{&core});
  HttpRequest request;
  request.path = "/ws/v1/spindle/pool";
  HttpResponse response = router.Dispatch(request);
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type.rfind("application/json", 0), 0u) << response.content_type;
  const json::JsonValue doc = Parse(response.body);
  const json::JsonValue* pool_doc = doc.Find("pool");
  ASSERT_TRUE(pool_doc != nullptr);
  EXPECT_EQ(Num(*pool_doc, "nowMs"), 3000);
  EXPECT_EQ(Str(*pool_doc, "mode"), "parsync");
  EXPECT_EQ(pool_doc->Find("schedulers")->elements().size(), 2u);
  EXPECT_EQ(Num(*pool_doc->Find("overall"), "placements"), 3);
  EXPECT_EQ(Num(*pool_doc->Find("allocated"), "memory"), 3072);
  // Seconds closed so far carry the placements.
  double series_placements = 0;
  for (const json::JsonValue& point : pool_doc->Find("series")->elements()) {
    series_placements += Num(point, "placements");
  }
  EXPECT_EQ(series_placements, 3);

  // ?seconds=N keeps the points of the last N seconds only.
  const size_t all_points = pool_doc->Find("series")->elements().size();
  ASSERT_GE(all_points, 2u);
  request.query = {{"seconds", "1"}};
  response = router.Dispatch(request);
  ASSERT_EQ(response.status, 200) << response.body;
  const json::JsonValue tail = Parse(response.body);
  const auto& points = tail.Find("pool")->Find("series")->elements();
  EXPECT_LT(points.size(), all_points);
  for (const json::JsonValue& point : points) EXPECT_GE(Num(point, "second"), 2);
  request.query = {{"seconds", "1000000"}};
  EXPECT_EQ(Parse(router.Dispatch(request).body).Find("pool")->Find("series")->elements().size(),
            all_points);

  for (const char* bad : {"0", "-1", "abc", "1000001", "", "1.5", "99999999999999999999"}) {
    SCOPED_TRACE(bad);
    request.query = {{"seconds", bad}};
    HttpResponse error = router.Dispatch(request);
    EXPECT_EQ(error.status, 400);
    const json::JsonValue remote = Parse(error.body);
    const json::JsonValue* exception = remote.Find("RemoteException");
    ASSERT_TRUE(exception != nullptr) << error.body;
    EXPECT_EQ(Str(*exception, "exception"), "BadRequestException");
  }
}

}  // namespace
}  // namespace spindle::web
