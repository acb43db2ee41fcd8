#include "rm/nodes/topology_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace spindle::rm {
namespace {

TEST(TopologyTableTest, ParsesHostRackPairsAndSkipsBadLines) {
  const auto racks = ParseTopologyTable(
      "# host rack\n"
      "node1 /rack1\n"
      "node2\t/rack2/   # trailing slash dropped, as NodeBase.normalize\n"
      "\n"
      "node3 rack3\n"      // not a rack path: skipped
      "node4 /r4 extra\n"  // three columns: skipped
      "10.0.0.5 /rack1\n",
      "t");
  const std::map<std::string, std::string> want = {
      {"node1", "/rack1"}, {"node2", "/rack2"}, {"10.0.0.5", "/rack1"}};
  EXPECT_EQ(racks, want);
}

TEST(TopologyTableTest, ReadOnlyWithTableMapping) {
  const std::string path = ::testing::TempDir() + "/topology-" + std::to_string(getpid());
  {
    std::ofstream out(path);
    out << "node1 /rack1\n";
  }
  Configuration conf;
  conf.Set(kTopologyTableKey, path);
  // Without the TableMapping implementation the table is not used.
  auto racks = TopologyTableFromConfiguration(conf);
  ASSERT_TRUE(racks.ok());
  EXPECT_TRUE(racks->empty());

  conf.Set(kTopologyImplKey, kTableMappingClass);
  racks = TopologyTableFromConfiguration(conf);
  ASSERT_TRUE(racks.ok()) << racks.status().ToString();
  EXPECT_EQ(racks->at("node1"), "/rack1");

  conf.Set(kTopologyTableKey, path + ".missing");
  racks = TopologyTableFromConfiguration(conf);
  EXPECT_TRUE(racks.status().code() == Status::Code::kIoError);
  EXPECT_NE(racks.status().message().find("net.topology.table.file.name"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace spindle::rm
