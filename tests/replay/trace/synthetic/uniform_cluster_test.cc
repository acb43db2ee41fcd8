#include "replay/trace/synthetic/uniform_cluster.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

TEST(UniformClusterTest, NamesAndRacks) {
  UniformClusterOptions o;
  o.nodes = 85;
  o.nodes_per_rack = 40;
  o.memory_mb = 4096;
  o.vcores = 4;
  auto nodes = MakeUniformNodes(o);
  ASSERT_TRUE(nodes.ok());
  ASSERT_EQ(nodes->size(), 85u);
  EXPECT_EQ((*nodes)[0].host, "node00001");
  EXPECT_EQ((*nodes)[0].rack, "/rack0001");
  EXPECT_EQ((*nodes)[39].rack, "/rack0001");
  EXPECT_EQ((*nodes)[40].host, "node00041");
  EXPECT_EQ((*nodes)[40].rack, "/rack0002");
  EXPECT_EQ((*nodes)[84].rack, "/rack0003");
  EXPECT_EQ((*nodes)[84].memory_mb, 4096);
  EXPECT_EQ((*nodes)[84].vcores, 4);
  o.nodes = 123'456;
  nodes = MakeUniformNodes(o);
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->back().host, "node123456");
}

TEST(UniformClusterTest, OptionsAreValidated) {
  UniformClusterOptions o;
  o.nodes_per_rack = 0;
  auto nodes = MakeUniformNodes(o);
  ASSERT_FALSE(nodes.ok());
  EXPECT_EQ(nodes.status().message(), "UniformClusterOptions::nodes_per_rack: must be > 0");
  o = UniformClusterOptions();
  o.nodes = 0;
  EXPECT_FALSE(MakeUniformNodes(o).ok());
}

}  // namespace
}  // namespace spindle::replay
