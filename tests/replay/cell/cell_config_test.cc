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
}

}  // namespace
}  // namespace spindle::replay
