// `spindle bench wire` for a few seconds at a tiny size against a real
// `spindle rm` child: every application the generator submitted registered,
// unregistered and ended FINISHED/SUCCEEDED; every container an AM got was
// one of its ask, released and reported completed once; no RPC failed; the
// web side answered every scrape of its REST lists and metrics.
// Rates and latencies are printed by the bench, never asserted.
#include <gtest/gtest.h>

#include "bench/wire/wire_driver.h"
#include "bench/wire/wire_report.h"

namespace spindle::bench::wire {
namespace {

WireOptions Tiny() {
  WireOptions o;
  o.binary = SPINDLE_BINARY;
  o.nodes = 20;
  o.node_memory_mb = 8192;
  o.node_vcores = 8;
  o.heartbeat_ms = 100;
  o.apps = 3;
  o.containers_per_app = 40;
  o.container_ms = 100;
  o.allocate_ms = 50;
  o.seconds = 3;
  o.warmup_seconds = 1;
  o.timeout_seconds = 60;
  return o;
}

void ExpectConsistent(const WireOptions& o, const WireResult& r) {
  Status consistent = CheckBookkeeping(o, r);
  EXPECT_TRUE(consistent.ok()) << consistent.ToString();
  // Beyond the check: the slots cycled (more apps than slots) and the work
  // was the ask, to the container.
  EXPECT_GT(r.apps_submitted, o.apps);
  EXPECT_EQ(r.containers_allocated, r.apps_submitted * o.containers_per_app);
  EXPECT_EQ(r.containers_completed, r.containers_released);
  EXPECT_EQ(r.am_launch.count, r.apps_submitted);
  EXPECT_EQ(r.first_container.count, r.apps_submitted);
  EXPECT_GT(r.heartbeat.count, 0);
  EXPECT_GT(r.allocate.count, 0);
  EXPECT_GT(r.rm_rss_mb, 0);
}

TEST(WireBenchTest, ManagedAmsThroughTheSimulatedNodes) {
  WireOptions o = Tiny();
  // Two node agents: AM containers land on either's port.
  o.tracker_connections = 2;
  // Dashboards scrape the RM's web port meanwhile: every GET answers 200.
  o.web_scrapers = 2;
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  ExpectConsistent(o, *result);
}

TEST(WireBenchTest, UnmanagedAmsWithTheTokenOfTheReport) {
  WireOptions o = Tiny();
  o.unmanaged = true;
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  ExpectConsistent(o, *result);
}

TEST(WireBenchTest, AnRmThatIsNotThereFailsTheRun) {
  WireOptions o = Tiny();
  // Nothing listens on the discard port of loopback.
  o.rm = RmAddresses{{"127.0.0.1", 9}, {"127.0.0.1", 9}, {"127.0.0.1", 9}, {"127.0.0.1", 9}};
  o.timeout_seconds = 2;
  auto result = RunWire(o);
  EXPECT_FALSE(result.ok());
}

}  // namespace
}  // namespace spindle::bench::wire
