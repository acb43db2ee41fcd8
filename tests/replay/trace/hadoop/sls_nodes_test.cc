#include "replay/trace/hadoop/sls_nodes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay::hadoop {
namespace {

using namespace ::spindle::replay::testing_files;  // NOLINT(google-build-using-namespace)

using ::testing::HasSubstr;

TEST(SlsNodesTest, ReadsSharedNodeFile) {
  Result<std::vector<TraceNode>> nodes = ReadSlsNodes(SharedTrace("hadoop-sls/nodes.json"));
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  // 5 racks of 4 entries; the last entry of rack5 is an empty {}.
  ASSERT_EQ(nodes->size(), 19u);
  EXPECT_EQ((*nodes)[0].host, "node1");
  EXPECT_EQ((*nodes)[0].rack, "/rack1");
  EXPECT_EQ((*nodes)[0].memory_mb, 10240);
  EXPECT_EQ((*nodes)[0].vcores, 10);
  EXPECT_EQ((*nodes)[4].host, "node5");
  EXPECT_EQ((*nodes)[4].rack, "/rack2");
  EXPECT_EQ((*nodes)[18].host, "node19");
  EXPECT_EQ((*nodes)[18].rack, "/rack5");
}

TEST(SlsNodesTest, ReadsResources) {
  SlsNodeDefaults d;
  d.memory_mb = 4096;
  d.vcores = 4;
  Result<std::vector<TraceNode>> nodes =
      ReadSlsNodes(SharedTrace("hadoop-sls/nodes-with-resources.json"), d);
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 4u);
  EXPECT_EQ((*nodes)[0].host, "node1");
  EXPECT_EQ((*nodes)[0].memory_mb, 2048);
  EXPECT_EQ((*nodes)[0].vcores, 6);
  EXPECT_EQ((*nodes)[1].memory_mb, 4096);
  EXPECT_EQ((*nodes)[1].vcores, 4);
  EXPECT_EQ((*nodes)[3].memory_mb, 6144);
  EXPECT_EQ((*nodes)[3].vcores, 12);
  EXPECT_EQ((*nodes)[3].rack, "/rack1");
}

TEST(SlsNodesTest, NodeFileErrors) {
  auto err = [](const std::string& text) {
    return ReadSlsNodes(WriteFile("nodes.json", text)).status().message();
  };
  EXPECT_THAT(err("{\"rack\": \"r\", \"nodes\": [{\"node\": \"a\"}, {\"node\": \"a\"}]}"),
              HasSubstr("host a is listed twice"));
  EXPECT_THAT(err("{\"nodes\": []}"), HasSubstr(":1: field rack: missing"));
  EXPECT_THAT(err("{\"rack\": \"r\",\n \"nodes\": [{\"node\": \"a\",\n \"vcores\": \"many\"}]}"),
              HasSubstr(":3: field nodes[0].vcores: expected an integer"));
  EXPECT_THAT(err("{\"rack\": \"r\", \"nodes\": [{\"node\": \"a\", \"memory-mb\": 0}]}"),
              HasSubstr("memory-mb: must be > 0"));
  EXPECT_THAT(err("{\"rack\": \"r\", \"nodes\": [{\"labels\": \"x\"}]}"),
              HasSubstr("field nodes[0].node: missing"));
  EXPECT_THAT(err("{\"rack\": \"r\" \"nodes\": []}"), HasSubstr(":1: bad JSON"));
  EXPECT_TRUE(ReadSlsNodes("/nonexistent/nodes.json").status().IsNotFound());
}

TEST(SlsNodesTest, FromSlsTrace) {
  Result<std::vector<TraceNode>> nodes = NodesFromSlsTrace(SharedTrace("hadoop-sls/inputsls.json"));
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 3u);
  EXPECT_EQ((*nodes)[0].host, "node1");
  EXPECT_EQ((*nodes)[1].host, "node3");
  EXPECT_EQ((*nodes)[2].host, "node2");
  for (const TraceNode& n : *nodes) EXPECT_EQ(n.rack, "/default-rack");
}

TEST(SlsNodesTest, FromRumenTrace) {
  Result<std::vector<TraceNode>> nodes =
      NodesFromRumenTrace(SharedTrace("hadoop-sls/2jobs2min-rumen-jh.json"));
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 4u);
  EXPECT_EQ((*nodes)[0].host, "a2118.smile.com");
  EXPECT_EQ((*nodes)[1].host, "a2115.smile.com");
  EXPECT_EQ((*nodes)[0].rack, "/default-rack");
}

TEST(SlsNodesTest, HostUnderTwoRacksIsAnError) {
  const std::string path = WriteFile(
      "t.json",
      "{\"job.tasks\": [{\"container.host\": \"/r1/n\"},\n {\"container.host\": \"/r2/n\"}]}");
  Result<std::vector<TraceNode>> nodes = NodesFromSlsTrace(path);
  ASSERT_FALSE(nodes.ok());
  EXPECT_THAT(nodes.status().message(),
              HasSubstr(":2: field job.tasks[1].container.host: host n is under rack /r2"));
}

TEST(SlsNodesTest, Generate) {
  std::vector<TraceNode> nodes = GenerateSlsNodes(5, 2);
  ASSERT_EQ(nodes.size(), 5u);
  EXPECT_EQ(nodes[0].host, "node0");
  EXPECT_EQ(nodes[0].rack, "/rack0");
  EXPECT_EQ(nodes[3].host, "node3");
  EXPECT_EQ(nodes[3].rack, "/rack1");
  EXPECT_EQ(nodes[4].rack, "/rack0");
  EXPECT_EQ(GenerateSlsNodes(3, 0)[2].rack, "/rack0");   // at least one rack
  EXPECT_EQ(GenerateSlsNodes(2, 10)[1].rack, "/rack1");  // at most one per node
  EXPECT_TRUE(GenerateSlsNodes(0, 1).empty());
}

}  // namespace
}  // namespace spindle::replay::hadoop
