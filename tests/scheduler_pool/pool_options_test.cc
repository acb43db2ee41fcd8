#include "scheduler_pool/pool_options.h"

#include <gtest/gtest.h>

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;

// The wind tunnel's emulated decision cost: off by default, never negative.
TEST(PoolOptionsTest, EmulatedDecisionCostIsOffByDefaultAndChecked) {
  PoolOptions o;
  EXPECT_EQ(o.emulated_decision_cost, Duration(0));
  EXPECT_EQ(o.emulated_quality_cost_factor, 1.0);
  o.emulated_decision_cost = std::chrono::microseconds(250);
  o.emulated_quality_cost_factor = 1.5;
  EXPECT_TRUE(o.Validate().ok());
  o.emulated_decision_cost = Duration(-1);
  EXPECT_FALSE(o.Validate().ok());
  o.emulated_decision_cost = Duration(0);
  o.emulated_quality_cost_factor = 0;
  EXPECT_FALSE(o.Validate().ok());
  EXPECT_EQ(ParseStrategy("score-sampling").value(), StrategyKind::kScoreSampling);
  EXPECT_FALSE(ParseStrategy("scores").ok());
}

TEST(PoolOptionsTest, DefaultsValidate) {
  PoolOptions o;
  EXPECT_TRUE(o.Validate().ok());
  EXPECT_EQ(o.num_schedulers, 20);
  EXPECT_EQ(o.num_partitions, 20);
  EXPECT_EQ(o.sync_gap, milliseconds(500));
  EXPECT_EQ(o.mode, SyncMode::kParSync);
  EXPECT_EQ(o.strategy, StrategyKind::kLatencyFirst);
  EXPECT_EQ(o.transaction, TransactionMode::kIncremental);
  EXPECT_EQ(o.conflict, ConflictMode::kFineGrained);
  EXPECT_EQ(o.effective_schedulers(), 20);
  o.mode = SyncMode::kMonolithic;
  EXPECT_EQ(o.effective_schedulers(), 1);
}

TEST(PoolOptionsTest, FromMapReadsEveryKey) {
  auto o = PoolOptions::FromMap({
      {"spindle.scheduler.count", "8"},
      {"spindle.scheduler.partitions", "32"},
      {"spindle.scheduler.sync-gap-ms", "250"},
      {"spindle.scheduler.mode", "statesync"},
      {"spindle.scheduler.strategy", "adaptive"},
      {"spindle.scheduler.adaptive.tau-ms", "1500"},
      {"spindle.scheduler.adaptive.ema-alpha", "0.2"},
      {"spindle.scheduler.transaction", "all-or-nothing"},
      {"spindle.scheduler.conflict-detection", "coarse-grained"},
      {"spindle.scheduler.max-tasks-per-step", "100"},
      {"spindle.scheduler.max-retries", "0"},
      {"spindle.scheduler.pinning", "queue-groups"},
      {"spindle.scheduler.queue-group.root.batch", "0-5"},
      {"spindle.scheduler.queue-group.root.service", "7"},
      {"spindle.scheduler.min-unit.memory-mb", "512"},
      {"spindle.scheduler.min-unit.vcores", "1"},
      {"spindle.scheduler.resource-types", "yarn.io/gpu, yarn.io/fpga"},
      {"spindle.scheduler.change-log-entries", "1024"},
      {"spindle.scheduler.metrics.series-seconds", "60"},
      {"spindle.scheduler.seed", "99"},
      {"yarn.resourcemanager.address", "ignored:8032"},
  });
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->num_schedulers, 8);
  EXPECT_EQ(o->num_partitions, 32);
  EXPECT_EQ(o->sync_gap, milliseconds(250));
  EXPECT_EQ(o->mode, SyncMode::kStateSync);
  EXPECT_EQ(o->strategy, StrategyKind::kAdaptive);
  EXPECT_EQ(o->tau, milliseconds(1500));
  EXPECT_DOUBLE_EQ(o->ema_alpha, 0.2);
  EXPECT_EQ(o->transaction, TransactionMode::kAllOrNothing);
  EXPECT_EQ(o->conflict, ConflictMode::kCoarseGrained);
  EXPECT_EQ(o->max_tasks_per_step, 100);
  EXPECT_EQ(o->max_retries, 0);
  EXPECT_EQ(o->pinning, PinningMode::kQueueGroups);
  EXPECT_EQ(o->queue_groups.at("root.batch"), std::make_pair(0, 5));
  EXPECT_EQ(o->queue_groups.at("root.service"), std::make_pair(7, 7));
  EXPECT_EQ(o->min_unit, Resource::Of(512, 1));
  EXPECT_EQ(o->resource_types, (std::vector<std::string>{"yarn.io/gpu", "yarn.io/fpga"}));
  EXPECT_EQ(o->change_log_entries, 1024);
  EXPECT_EQ(o->series_seconds, 60);
  EXPECT_EQ(o->seed, 99u);
}

// Each error names the key and the value.
TEST(PoolOptionsTest, ErrorsNameTheKeyAndTheValue) {
  const std::vector<std::pair<std::map<std::string, std::string>, std::string>> cases = {
      {{{"spindle.scheduler.count", "many"}}, "spindle.scheduler.count: 'many'"},
      {{{"spindle.scheduler.count", "0"}}, "spindle.scheduler.count: '0'"},
      {{{"spindle.scheduler.mode", "paxos"}}, "spindle.scheduler.mode: 'paxos'"},
      {{{"spindle.scheduler.strategy", "best"}}, "spindle.scheduler.strategy: 'best'"},
      {{{"spindle.scheduler.transaction", "gang"}}, "spindle.scheduler.transaction: 'gang'"},
      {{{"spindle.scheduler.conflict-detection", "x"}},
       "spindle.scheduler.conflict-detection: 'x'"},
      {{{"spindle.scheduler.adaptive.ema-alpha", "1.5"}}, "spindle.scheduler.adaptive.ema-alpha"},
      {{{"spindle.scheduler.sync-gap-ms", "-3"}}, "spindle.scheduler.sync-gap-ms: '-3'"},
      {{{"spindle.scheduler.queue-group.q", "a-b"}}, "spindle.scheduler.queue-group.q: 'a-b'"},
      {{{"spindle.scheduler.queue-group.q", "3-40"}}, "spindle.scheduler.queue-group.q: '3-40'"},
      {{{"spindle.scheduler.count", "30"}}, "spindle.scheduler.partitions: '20'"},
      {{{"spindle.scheduler.resource-types", "a,b,c,d,e"}}, "spindle.scheduler.resource-types"},
      {{{"spindle.scheduler.bogus", "1"}}, "unknown configuration key spindle.scheduler.bogus"},
  };
  for (const auto& [config, needle] : cases) {
    auto o = PoolOptions::FromMap(config);
    ASSERT_FALSE(o.ok()) << needle;
    EXPECT_EQ(o.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(o.status().message().find(needle), std::string::npos) << o.status().ToString();
  }
  // Monolithic needs no N <= P.
  EXPECT_TRUE(PoolOptions::FromMap(
                  {{"spindle.scheduler.count", "30"}, {"spindle.scheduler.mode", "monolithic"}})
                  .ok());
}

// spindle.scheduler.remote.*: the address turns the service on (one remote
// slot unless .count says more); slots without an address are refused, as
// their apps would wait for members nobody can reach.
TEST(PoolOptionsTest, RemoteKeys) {
  Result<PoolOptions> none = PoolOptions::FromMap({});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->remote_address, "");
  EXPECT_EQ(none->remote_schedulers, 0);
  EXPECT_EQ(none->remote_lease, milliseconds(3000));

  Result<PoolOptions> served =
      PoolOptions::FromMap({{"spindle.scheduler.remote.address", "0.0.0.0:0"}});
  ASSERT_TRUE(served.ok()) << served.status().ToString();
  EXPECT_EQ(served->remote_address, "0.0.0.0:0");
  EXPECT_EQ(served->remote_schedulers, 1);

  Result<PoolOptions> three = PoolOptions::FromMap({{"spindle.scheduler.remote.address", "h:9190"},
                                                    {"spindle.scheduler.remote.count", "3"},
                                                    {"spindle.scheduler.remote.lease-ms", "1500"}});
  ASSERT_TRUE(three.ok()) << three.status().ToString();
  EXPECT_EQ(three->remote_schedulers, 3);
  EXPECT_EQ(three->remote_lease, milliseconds(1500));

  const auto refused = [](const std::map<std::string, std::string>& keys) {
    Result<PoolOptions> o = PoolOptions::FromMap(keys);
    EXPECT_FALSE(o.ok());
    return o.ok() ? std::string() : o.status().message();
  };
  EXPECT_EQ(refused({{"spindle.scheduler.remote.count", "2"}}),
            "spindle.scheduler.remote.count: '2' needs spindle.scheduler.remote.address (no "
            "cell-state service to serve its apps)");
  EXPECT_EQ(refused({{"spindle.scheduler.remote.address", "h:1"},
                     {"spindle.scheduler.remote.count", "0"}}),
            "spindle.scheduler.remote.count: '0' must be >= 1 with "
            "spindle.scheduler.remote.address");
  for (const char* bad : {"nohost", ":80", "h:", "h:65536", "h:8o", "h:123456"}) {
    EXPECT_EQ(refused({{"spindle.scheduler.remote.address", bad}}),
              std::string("spindle.scheduler.remote.address: '") + bad +
                  "' is not HOST:PORT (port 0..65535)");
  }
  EXPECT_FALSE(PoolOptions::FromMap({{"spindle.scheduler.remote.lease-ms", "0"}}).ok());
  // A queue group may name the remote slots, which follow the N in-process ones.
  const std::map<std::string, std::string> group = {{"spindle.scheduler.count", "2"},
                                                    {"spindle.scheduler.pinning", "queue-groups"},
                                                    {"spindle.scheduler.queue-group.far", "2-3"},
                                                    {"spindle.scheduler.remote.address", "h:0"},
                                                    {"spindle.scheduler.remote.count", "2"}};
  Result<PoolOptions> grouped = PoolOptions::FromMap(group);
  ASSERT_TRUE(grouped.ok()) << grouped.status().ToString();
  EXPECT_EQ(grouped->queue_groups.at("far"), std::make_pair(2, 3));
  std::map<std::string, std::string> beyond = group;
  beyond["spindle.scheduler.queue-group.far"] = "2-4";
  EXPECT_EQ(refused(beyond), "spindle.scheduler.queue-group.far: '2-4' must be a range within 0-3");
}

}  // namespace
}  // namespace spindle::pool
