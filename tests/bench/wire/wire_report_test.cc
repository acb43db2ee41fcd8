#include "bench/wire/wire_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace spindle::bench::wire {
namespace {

// A run in which 3 apps of 10 containers each went through cleanly, one of
// them with 2 excess containers.
WireResult Clean(const WireOptions& o) {
  WireResult r;
  r.apps_submitted = r.apps_registered = r.apps_unregistered = r.apps_finished = 3;
  r.containers_allocated = 3 * o.containers_per_app;
  r.containers_excess = 2;
  r.containers_released = r.containers_completed = r.containers_allocated + 2;
  return r;
}

WireOptions Small() {
  WireOptions o;
  o.containers_per_app = 10;
  return o;
}

TEST(CheckBookkeepingTest, CleanRunIsConsistent) {
  const WireOptions o = Small();
  Status s = CheckBookkeeping(o, Clean(o));
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(CheckBookkeepingTest, EachInconsistencyIsReported) {
  const WireOptions o = Small();
  const std::pair<const char*, void (*)(WireResult&)> cases[] = {
      {"no application", [](WireResult& r) { r = WireResult(); }},
      {"registered", [](WireResult& r) { --r.apps_registered; }},
      {"unregistered", [](WireResult& r) { --r.apps_unregistered; }},
      {"AMs failed", [](WireResult& r) { r.apps_failed = 1; }},
      {"FINISHED", [](WireResult& r) { --r.apps_finished; }},
      {"not)", [](WireResult& r) { r.apps_not_finished = 1; }},
      {"kept", [](WireResult& r) { --r.containers_allocated; }},
      {"released", [](WireResult& r) { --r.containers_released; }},
      {"reported completed", [](WireResult& r) { --r.containers_completed; }},
      {"outstanding", [](WireResult& r) { r.containers_outstanding = 4; }},
      {"allocated twice", [](WireResult& r) { r.containers_duplicated = 1; }},
      {"not released", [](WireResult& r) { r.unexpected_completions = 1; }},
      {"ResourceTracker", [](WireResult& r) { r.heartbeat_errors = 1; }},
      {"allocate: boom", [](WireResult& r) { r.rpc_errors["allocate: boom"] = 2; }},
      {"AMs failed: why", [](WireResult& r) { r.am_failures["why"] = 1; }},
  };
  for (const auto& [needle, mutate] : cases) {
    WireResult r = Clean(o);
    mutate(r);
    Status s = CheckBookkeeping(o, r);
    EXPECT_FALSE(s.ok()) << needle;
    EXPECT_NE(s.ToString().find(needle), std::string::npos) << needle << " in " << s.ToString();
  }
}

TEST(LatencySummaryTest, PercentilesInMilliseconds) {
  pool::LatencyHistogram h;
  for (int i = 1; i <= 100; ++i) h.Record(std::chrono::milliseconds(i));
  const LatencySummary s = LatencySummary::Of(h);
  EXPECT_EQ(s.count, 100);
  EXPECT_NEAR(s.p50_ms, 50, 4);
  EXPECT_NEAR(s.p99_ms, 99, 7);
  EXPECT_NEAR(s.max_ms, 100, 0.01);
  EXPECT_EQ(LatencySummary::Of(pool::LatencyHistogram()).count, 0);
}

TEST(WriteWireJsonTest, WritesTheFiguresAndEscapesErrors) {
  const WireOptions o = Small();
  WireResult r = Clean(o);
  r.containers_per_second = 1234.5;
  r.rpc_errors["allocate: \"quoted\"\n"] = 1;
  const std::string path = ::testing::TempDir() + "/wire.json";
  ASSERT_TRUE(WriteWireJson(path, o, r).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"containers_per_second\":1234.5"), std::string::npos);
  EXPECT_NE(text.str().find("\"allocate: \\\"quoted\\\"\\u000a\":1"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\"target_heartbeats_per_second\":20000"), std::string::npos);
  EXPECT_NE(text.str().find("\"heartbeats_offered_per_second\":" +
                            std::to_string(o.nodes * 1000 / o.heartbeat_ms)),
            std::string::npos)
      << text.str();
  std::remove(path.c_str());
}

TEST(HeartbeatsOfferedTest, NodesTimesTheirRate) {
  WireOptions o;
  o.nodes = 2500;
  o.heartbeat_ms = 100;
  EXPECT_DOUBLE_EQ(HeartbeatsOfferedPerSecond(o), 25000);
  o.heartbeat_ms = 1000;
  EXPECT_DOUBLE_EQ(HeartbeatsOfferedPerSecond(o), 2500);
  // The defaults offer more than the 20,000/s goal: the figure measures
  // what the RM answers, not the offer.
  EXPECT_GT(HeartbeatsOfferedPerSecond(WireOptions()), 20000);
}

}  // namespace
}  // namespace spindle::bench::wire
