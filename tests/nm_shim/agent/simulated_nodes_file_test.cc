#include "nm_shim/agent/simulated/simulated_nodes_file.h"

#include <gtest/gtest.h>

#include "nm_shim/agent/node_agent.h"

namespace spindle::nm {
namespace {

TEST(SimulatedNodesFileTest, ParsesNamedNodesWithTheirSizes) {
  auto nodes = ParseSimulatedNodes(
      "# host memory-mb vcores\n"
      "node1 8192 8\n"
      "node2,4096,4   # commas too\n"
      "\n",
      "f");
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 2u);
  EXPECT_EQ((*nodes)[0].host, "node1");
  EXPECT_EQ((*nodes)[0].memory_mb, 8192);
  EXPECT_EQ((*nodes)[0].vcores, 8);
  EXPECT_EQ((*nodes)[1].host, "node2");
  EXPECT_EQ((*nodes)[1].memory_mb, 4096);
}

TEST(SimulatedNodesFileTest, BadLinesNameTheLine) {
  auto expect_bad = [](const std::string& text, const std::string& words) {
    auto nodes = ParseSimulatedNodes(text, "nodes.txt");
    ASSERT_FALSE(nodes.ok()) << text;
    EXPECT_TRUE(nodes.status().code() == Status::Code::kInvalidArgument);
    EXPECT_NE(nodes.status().message().find(words), std::string::npos) << nodes.status().ToString();
  };
  expect_bad("node1 8192\n", "nodes.txt:1: expected 'host memory-mb vcores'");
  expect_bad("node1 8192 8\nnode2 x 8\n", "nodes.txt:2: memory-mb 'x'");
  expect_bad("node1 8192 0\n", "vcores '0'");
  expect_bad("node1 8192 8\nnode1 1024 1\n", "host 'node1' is listed twice");
  expect_bad("# nothing\n", "no nodes");
  EXPECT_TRUE(ReadSimulatedNodesFile("/nonexistent/nodes").status().code() ==
              Status::Code::kIoError);
}

TEST(SimulatedNodesFileTest, TheAgentTakesTheNodeCountFromTheSpecs) {
  NodeAgentOptions options;
  options.simulated_specs = {{"a", 1024, 1}, {"b", 2048, 2}};
  EXPECT_TRUE(NodeAgent::Create(options, SimulatedRuntimeFactory(options.agent)).ok());
  options.simulated_nodes = 3;
  EXPECT_TRUE(NodeAgent::Create(options, SimulatedRuntimeFactory(options.agent)).status().code() ==
              Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::nm
