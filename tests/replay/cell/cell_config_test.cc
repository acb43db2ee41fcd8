#include "replay/cell/cell_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "nm_shim/agent/agent_options.h"
#include "nm_shim/agent/simulated/simulated_nodes_file.h"
#include "rm/config/configuration.h"
#include "rm/nodes/topology_table.h"

namespace spindle::replay {
namespace {

std::vector<TraceNode> Nodes(int n) {
  std::vector<TraceNode> nodes;
  for (int i = 1; i <= n; ++i) {
    nodes.push_back({"node" + std::to_string(i), i % 2 == 0 ? "/rack2" : "/rack1", 1024L * i, i});
  }
  return nodes;
}

TEST(SplitNodesTest, ContiguousBalancedGroups) {
  const auto nodes = Nodes(7);
  const auto groups = SplitNodes(nodes, 3);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].size(), 3u);
  EXPECT_EQ(groups[1].size(), 2u);
  EXPECT_EQ(groups[2].size(), 2u);
  EXPECT_EQ(groups[0][0].host, "node1");
  EXPECT_EQ(groups[1][0].host, "node4");
  EXPECT_EQ(groups[2][1].host, "node7");
  // Never an empty group; fewer parts than asked when nodes are few.
  EXPECT_EQ(SplitNodes(Nodes(2), 5).size(), 2u);
  EXPECT_EQ(SplitNodes(Nodes(3), 0).size(), 1u);
}

TEST(ResolveQueuesTest, SharesWhatIsLeftEquallyAndSumsTo100) {
  auto q = ResolveQueues({});
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].name, "default");
  EXPECT_DOUBLE_EQ(q[0].capacity, 100);

  q = ResolveQueues({{"a", 0, 100}, {"b", 0, 100}, {"c", 0, 100}});
  double sum = 0;
  for (const auto& x : q) sum += x.capacity;
  EXPECT_NEAR(sum, 100, 1e-9);
  EXPECT_NEAR(q[0].capacity, 33.333, 1e-9);

  q = ResolveQueues({{"a", 40, 60}, {"b", 0, 100}});
  EXPECT_DOUBLE_EQ(q[1].capacity, 60);
  EXPECT_DOUBLE_EQ(q[0].maximum_capacity, 60);
}

TEST(CellConfigTest, CapacitySchedulerIsAValidQueueTree) {
  const auto p = CapacitySchedulerProperties({{"sls_queue_1", 0, 100}, {"sls_queue_2", 0, 70}});
  EXPECT_EQ(p.at("yarn.scheduler.capacity.root.queues"), "sls_queue_1,sls_queue_2");
  EXPECT_EQ(p.at("yarn.scheduler.capacity.root.sls_queue_1.capacity"), "50.000");
  EXPECT_EQ(p.at("yarn.scheduler.capacity.root.sls_queue_2.maximum-capacity"), "70.000");
  // One user may grow to the maximum.
  EXPECT_EQ(p.at("yarn.scheduler.capacity.root.sls_queue_1.user-limit-factor"), "2.000");
  EXPECT_EQ(p.at("yarn.scheduler.capacity.root.sls_queue_2.user-limit-factor"), "1.400");
}

TEST(CellConfigTest, RmSiteListensOnPickedPortsAndDoesNotRoundAsks) {
  CellOptions options;
  options.nodes = Nodes(3);
  options.heartbeat_interval = std::chrono::milliseconds(150);
  options.extra_rm_config = {{"spindle.scheduler.count", "2"},
                             {"yarn.scheduler.minimum-allocation-mb", "512"}};
  const CellLayout layout("/w");
  auto p = RmSiteProperties(options, layout);
  EXPECT_EQ(p.at("yarn.resourcemanager.address"), "127.0.0.1:0");
  EXPECT_EQ(p.at("yarn.resourcemanager.scheduler.address"), "127.0.0.1:0");
  EXPECT_EQ(p.at("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"), "150");
  EXPECT_EQ(p.at("yarn.scheduler.maximum-allocation-mb"), "3072");
  EXPECT_EQ(p.at("yarn.scheduler.maximum-allocation-vcores"), "3");
  EXPECT_EQ(p.at("yarn.resourcemanager.store.class"), "memory");
  // Extra keys come last and win.
  EXPECT_EQ(p.at("spindle.scheduler.count"), "2");
  EXPECT_EQ(p.at("yarn.scheduler.minimum-allocation-mb"), "512");

  // The Spindle child stands in for the configured Hadoop line.
  EXPECT_EQ(p.at("spindle.compat.hadoop-version"), "3.3");

  options.store = CellStore::kRocksDb;
  p = RmSiteProperties(options, layout);
  EXPECT_EQ(p.at("yarn.resourcemanager.store.class"), "rocksdb");
  EXPECT_EQ(p.at("spindle.store.path"), "/w/rm-store");
}

TEST(CellConfigTest, WrittenFilesReadBackAsTheDaemonsReadThem) {
  const std::string work = ::testing::TempDir() + "/cell-config-test-" + std::to_string(getpid());
  std::filesystem::remove_all(work);
  CellOptions options;
  options.spindle_binary = "/bin/true";
  options.work_dir = work;
  options.nodes = Nodes(5);
  options.queues = {{"a", 0, 100}, {"b", 0, 100}};
  ASSERT_TRUE(options.Validate().ok());
  const CellLayout layout(work);
  const auto agents = SplitNodes(options.nodes, 2);
  ASSERT_TRUE(WriteCellConfig(options, layout, agents).ok());

  // The RM's configuration, as `spindle rm` loads it.
  rm::Configuration conf;
  for (const char* f : {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"}) {
    ASSERT_TRUE(conf.AddResourceFile(layout.rm_conf() + "/" + f).ok()) << f;
  }
  EXPECT_EQ(conf.Get("yarn.scheduler.capacity.root.queues", ""), "a,b");
  auto racks = rm::TopologyTableFromConfiguration(conf);
  ASSERT_TRUE(racks.ok()) << racks.status().ToString();
  EXPECT_EQ(racks->size(), 5u);
  EXPECT_EQ(racks->at("node2"), "/rack2");
  EXPECT_EQ(racks->at("node5"), "/rack1");

  // Each agent's nodes file, as `spindle nm --nodes-file` reads it.
  for (size_t i = 0; i < agents.size(); ++i) {
    auto specs = nm::ReadSimulatedNodesFile(layout.nodes_file(static_cast<int>(i)));
    ASSERT_TRUE(specs.ok()) << specs.status().ToString();
    ASSERT_EQ(specs->size(), agents[i].size());
    EXPECT_EQ((*specs)[0].host, agents[i][0].host);
    EXPECT_EQ((*specs)[0].memory_mb, agents[i][0].memory_mb);
    EXPECT_EQ((*specs)[0].vcores, agents[i][0].vcores);
  }
  std::filesystem::remove_all(work);
}

TEST(CellConfigTest, NodesUseOnlyWhatTheRmsLineOffers) {
  CellOptions options;
  options.nodes = Nodes(2);
  const CellLayout layout("/w");
  EXPECT_EQ(NmSiteProperties(options, layout).at("spindle.compat.hadoop-version"), "3.3");
  options.hadoop_line = "2.6.0";
  const auto p = NmSiteProperties(options, layout);
  EXPECT_EQ(p.at("spindle.compat.hadoop-version"), "2.6.0");
  // As `spindle nm` reads it: a 2.6 node does not call unRegisterNodeManager.
  rm::Configuration conf;
  for (const auto& [key, value] : p) conf.Set(key, value);
  auto agent = nm::AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(agent.ok()) << agent.status().ToString();
  EXPECT_FALSE(agent->unregister_on_stop);
  EXPECT_EQ(agent->nm_version, "2.6.5");
}

TEST(ExternalRmTest, ParsesThreeAddressesOrAHost) {
  auto rm = ParseExternalRm("rm1:18032,rm1:18030,rm2:18031");
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  EXPECT_EQ(rm->client.ToString(), "rm1:18032");
  EXPECT_EQ(rm->scheduler.ToString(), "rm1:18030");
  EXPECT_EQ(rm->tracker.ToString(), "rm2:18031");
  rm = ParseExternalRm("rmhost");
  ASSERT_TRUE(rm.ok());
  EXPECT_EQ(rm->client.port, 8032);
  EXPECT_EQ(rm->scheduler.port, 8030);
  EXPECT_EQ(rm->tracker.port, 8031);
  for (const char* bad : {"", "a:1,b:2", "a:1,b:2,c", "a:1,b:2,c:0", "a:1,b:2,c:3,d:4"}) {
    EXPECT_EQ(ParseExternalRm(bad).status().code(), Status::Code::kInvalidArgument) << bad;
  }
}

TEST(ExternalRmTest, ParsesAnHaPairAsHostsOrAddressTriples) {
  auto rms = ParseExternalRms("rmA,rmB");
  ASSERT_TRUE(rms.ok()) << rms.status().ToString();
  ASSERT_EQ(rms->size(), 2u);
  EXPECT_EQ((*rms)[0].rm_id, "rm1");
  EXPECT_EQ((*rms)[0].client.ToString(), "rmA:8032");
  EXPECT_EQ((*rms)[1].rm_id, "rm2");
  EXPECT_EQ((*rms)[1].tracker.ToString(), "rmB:8031");
  rms = ParseExternalRms("a:1,a:2,a:3;b:4,b:5,b:6");
  ASSERT_TRUE(rms.ok()) << rms.status().ToString();
  ASSERT_EQ(rms->size(), 2u);
  EXPECT_EQ((*rms)[1].ToString(), "rm2 b:4,b:5,b:6");
  // One RM, either form, keeps no rm-id (the single-RM form as before).
  for (const char* one : {"rmhost", "a:1,a:2,a:3"}) {
    rms = ParseExternalRms(one);
    ASSERT_TRUE(rms.ok()) << one;
    ASSERT_EQ(rms->size(), 1u);
    EXPECT_EQ((*rms)[0].rm_id, "") << one;
  }
  for (const char* bad : {"", "a:1,a:2,a:3;", "a:1,a:2,a:3;b:4,b:5", "rmA,,rmB"}) {
    EXPECT_EQ(ParseExternalRms(bad).status().code(), Status::Code::kInvalidArgument) << bad;
  }
}

TEST(ExternalRmTest, ReadsAnHaClientConfigurationAsConfiguredRMFailoverProxyProvider) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.ha.enabled", "true");
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rmx, rmy");
  conf.Set("yarn.resourcemanager.address.rmx", "h1:1");
  conf.Set("yarn.resourcemanager.scheduler.address.rmx", "h1:2");
  conf.Set("yarn.resourcemanager.resource-tracker.address.rmx", "h1:3");
  // rmy by its host name: Hadoop's default ports.
  conf.Set("yarn.resourcemanager.hostname.rmy", "h2");
  conf.Set("yarn.client.failover-sleep-base-ms", "100");
  conf.Set("yarn.client.failover-sleep-max-ms", "400");
  auto set = ExternalRmsFromConfiguration(conf);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->rms.size(), 2u);
  EXPECT_EQ(set->rms[0].ToString(), "rmx h1:1,h1:2,h1:3");
  EXPECT_EQ(set->rms[1].ToString(), "rmy h2:8032,h2:8030,h2:8031");
  EXPECT_TRUE(set->policy.ha);
  EXPECT_EQ(set->policy.failover_sleep_base_ms, 100);
  EXPECT_EQ(set->policy.failover_sleep_max_ms, 400);
  // 900000 ms of yarn.resourcemanager.connect.max-wait.ms / 100 ms.
  EXPECT_EQ(set->policy.max_failovers, 9000);

  // An rm-id with neither its address nor its host name: Hadoop's words.
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rmx,rmz");
  set = ExternalRmsFromConfiguration(conf);
  ASSERT_EQ(set.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(set.status().message().find("yarn.resourcemanager.hostname.rmz or"), std::string::npos)
      << set.status().ToString();

  // Without HA: the three keys, a policy that is not HA's.
  rm::Configuration single;
  single.Set("yarn.resourcemanager.hostname", "rmhost");
  set = ExternalRmsFromConfiguration(single);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->rms.size(), 1u);
  EXPECT_EQ(set->rms[0].ToString(), "rmhost:8032,rmhost:8030,rmhost:8031");
  EXPECT_FALSE(set->policy.ha);
  // No address a client can reach.
  EXPECT_EQ(ExternalRmsFromConfiguration(rm::Configuration()).status().code(),
            Status::Code::kInvalidArgument);
}

TEST(NmSitePropertiesTest, AnHaPairNamesEveryRmIdsTrackerAsNodeManagersReadThem) {
  CellOptions options;
  options.nodes = Nodes(1);
  options.external_rms = {
      ExternalRm{{"h1", 1}, {"h1", 2}, {"h1", 3}, "rm1"},
      ExternalRm{{"h2", 4}, {"h2", 5}, {"h2", 6}, "rm2"},
  };
  const auto p = NmSiteProperties(options, CellLayout("/tmp/cell"));
  EXPECT_EQ(p.at("yarn.resourcemanager.ha.enabled"), "true");
  EXPECT_EQ(p.at("yarn.resourcemanager.ha.rm-ids"), "rm1,rm2");
  // As `spindle nm` reads it, with the flag's tracker address.
  rm::Configuration conf;
  for (const auto& [key, value] : p) conf.Set(key, value);
  conf.Set("yarn.resourcemanager.resource-tracker.address", "h1:3");
  auto agent = nm::AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(agent.ok()) << agent.status().ToString();
  ASSERT_EQ(agent->resource_trackers_ha.size(), 2u);
  EXPECT_EQ(agent->resource_trackers_ha[0].ToString(), "h1:3");
  EXPECT_EQ(agent->resource_trackers_ha[1].ToString(), "h2:6");
  // One external RM: no HA keys.
  options.external_rms.pop_back();
  EXPECT_EQ(
      NmSiteProperties(options, CellLayout("/tmp/cell")).count("yarn.resourcemanager.ha.enabled"),
      0u);
}

TEST(CellOptionsTest, ValidateNamesTheProblem) {
  CellOptions ok;
  ok.spindle_binary = "/bin/true";
  ok.work_dir = "/tmp/x";
  ok.nodes = Nodes(2);
  EXPECT_TRUE(ok.Validate().ok());

  auto bad = [&](auto change, const std::string& words) {
    CellOptions o = ok;
    change(o);
    const Status s = o.Validate();
    EXPECT_TRUE(s.code() == Status::Code::kInvalidArgument) << words;
    EXPECT_NE(s.message().find(words), std::string::npos) << s.ToString();
  };
  bad([](CellOptions& o) { o.spindle_binary.clear(); }, "spindle_binary");
  bad([](CellOptions& o) { o.hadoop_line = "2.5"; }, "hadoop_line");
  bad([](CellOptions& o) { o.nodes.clear(); }, "no nodes");
  bad([](CellOptions& o) { o.nodes[1].host = "node1"; }, "twice");
  bad([](CellOptions& o) { o.nodes[0].rack = "rack"; }, "does not start with '/'");
  bad([](CellOptions& o) { o.speed = 0; }, "speed");
  bad([](CellOptions& o) { o.queues = {{"a.b", 0, 100}}; }, "without '.'");
  bad([](CellOptions& o) { o.queues = {{"a", 60, 100}, {"b", 50, 100}}; }, "more than 100");
  bad(
      [](CellOptions& o) {
        o.external_rms = {ExternalRm{{"h1", 1}, {"h1", 2}, {"h1", 3}, "rm1"},
                          ExternalRm{{"h2", 1}, {"h2", 2}, {"h2", 3}, "rm1"}};
      },
      "distinct rm-ids");
}

}  // namespace
}  // namespace spindle::replay
