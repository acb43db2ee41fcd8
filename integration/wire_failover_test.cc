// `spindle bench wire --kill-active-after` at a tiny size: a real ZooKeeper
// and an HA pair of `spindle rm` children (ZKRMStateStore, the embedded
// elector, zk-timeout-ms 2000), the generator's simulated nodes and AMs on
// both rm-ids; the active is SIGKILLed mid-run. Checked (counts, never
// times): the bookkeeping adds up (every acknowledged application finished
// SUCCEEDED on the survivor, every kept container was released and either
// reported completed or released after a resync unconfirmed), no
// application lost, no container allocated twice, no application id
// handed out twice (the survivor's ids are of its own, newer cluster
// timestamp), the AMs resynced and applications were submitted on both
// sides of the failover. The failover time is printed against its goal
// (zk-timeout + 1 s), not asserted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "bench/wire/wire_driver.h"
#include "bench/wire/wire_report.h"
#include "integration/tiny_wire_options.h"
#include "tests/support/mini_zookeeper.h"

namespace spindle::bench::wire {
namespace {

TEST(WireFailoverTest, ActiveKilledUnderLoadLosesNothing) {
  const std::string missing = testing::MiniZooKeeper::MissingComponent();
  if (!missing.empty()) GTEST_SKIP() << "no ZooKeeper server: " << missing;
  WireOptions o = TinyWireOptions();
  o.apps = 4;
  o.container_ms = 200;
  o.seconds = 10;
  o.kill_active_after_seconds = 3;
  o.zk_timeout_ms = 2000;
  o.timeout_seconds = 90;
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  const FailoverResult& f = result->failover;
  std::printf("[ failover ] %.3f s from SIGKILL to the first allocate answered (goal <= %.1f s)\n",
              f.failover_seconds, o.zk_timeout_ms / 1000.0 + 1.0);
  Status consistent = CheckBookkeeping(o, *result);
  EXPECT_TRUE(consistent.ok()) << consistent.ToString();
  ASSERT_TRUE(f.ran);
  EXPECT_EQ(f.killed, "rm1");
  EXPECT_EQ(f.serving, "rm2");
  EXPECT_GE(f.failover_seconds, 0) << "no allocate was answered after the kill";
  EXPECT_EQ(f.apps_lost, 0);
  EXPECT_EQ(result->containers_duplicated, 0);
  EXPECT_EQ(f.app_ids_reused, 0);
  EXPECT_EQ(f.cluster_timestamps, 2) << "applications acknowledged by each RM, each its own";
  EXPECT_GT(f.am_resyncs, 0) << "the running AMs registered again with the new active";
  EXPECT_GT(f.client_failovers, 0);
  EXPECT_GT(result->apps_submitted, o.apps);
}

}  // namespace
}  // namespace spindle::bench::wire
