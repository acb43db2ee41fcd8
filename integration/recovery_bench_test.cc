// `spindle bench recovery` at a tiny size (M = 200, K = 2): every stored and
// submitted application and every running container comes back after the RM
// is SIGKILLed and restarted. Times are printed by the bench, never asserted.
#include "bench/recovery_bench.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace spindle::bench {
namespace {

TEST(RecoveryBenchTest, NothingIsLostAtATinySize) {
  RecoveryBenchOptions options;
  options.apps = {200};
  options.nodes = 2;
  options.live_apps = 4;
  options.binary = SPINDLE_BINARY;
  options.timeout_seconds = 60;
  auto runs = RunRecoveryBench(options);
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ASSERT_EQ(runs->size(), 1u);
  const RecoveryRun& run = runs->front();
  EXPECT_EQ(run.apps_recovered, 200);
  EXPECT_EQ(run.finished + run.failed + run.killed + run.running, 200);
  EXPECT_GT(run.running, 0);
  EXPECT_GT(run.failed, 0);
  EXPECT_TRUE(run.restarted);
  EXPECT_EQ(run.containers_before, 4);
  EXPECT_EQ(run.containers_after, 5);  // the 4 running + the new AM
  EXPECT_EQ(run.apps_after, 200 + 4 + 1);
}

TEST(RecoveryBenchTest, ReloadOnlyWithoutChildProcesses) {
  RecoveryBenchOptions options;
  options.apps = {50, 120};
  options.skip_restart = true;
  auto runs = RunRecoveryBench(options);
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].apps_recovered, 50);
  EXPECT_EQ((*runs)[1].apps_recovered, 120);
  EXPECT_FALSE((*runs)[1].restarted);
}

TEST(RecoveryBenchTest, BadOptionsAreRefused) {
  RecoveryBenchOptions options;
  options.apps = {};
  EXPECT_TRUE(RunRecoveryBench(options).status().code() == Status::Code::kInvalidArgument);
  options.apps = {10};
  options.nodes = 1;
  options.live_apps = 8;  // no room left for the new AM
  EXPECT_TRUE(RunRecoveryBench(options).status().code() == Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::bench
