#include "replay/trace/cluster/alibaba2018_machines.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using testing_files::WriteFile;

// machine_id, time_stamp, failure_domain_1, failure_domain_2, cpu_num,
// mem_size, status.
TEST(Alibaba2018MachinesTest, LatestRecordPerMachine) {
  const std::string path = WriteFile("machine_meta.csv",
                                     "m_1,0,65,b,96,100,USING\n"
                                     "m_2,0,7,c,64,50,USING\n"
                                     "m_1,500,66,b,32,25,USING\n"
                                     "m_1,100,67,b,48,75,USING\n"  // older: ignored
                                     "m_3,10,,d,8,10,MAINTAINING\n");
  ReadOptions read;
  read.node_memory_mb = 100'000;
  ReadStats stats;
  auto nodes = ReadAlibaba2018Machines(path, read, &stats);
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 3u);
  EXPECT_EQ((*nodes)[0].host, "m_1");
  EXPECT_EQ((*nodes)[0].rack, "/66");
  EXPECT_EQ((*nodes)[0].vcores, 32);
  EXPECT_EQ((*nodes)[0].memory_mb, 25'000);
  EXPECT_EQ((*nodes)[1].host, "m_2");
  EXPECT_EQ((*nodes)[1].memory_mb, 50'000);
  EXPECT_EQ((*nodes)[2].rack, "/default-rack");
  EXPECT_EQ(stats.lines, 5);
}

TEST(Alibaba2018MachinesTest, BadRecordsNameTheFieldOrAreSkipped) {
  const std::string path = WriteFile("machines-bad.csv",
                                     "m_1,0,65,b,96,100,USING\n"
                                     "m_2,0,7,c,sixty,50,USING\n"
                                     "m_3,0,7,c,64,150,USING\n");
  auto nodes = ReadAlibaba2018Machines(path, ReadOptions());
  ASSERT_FALSE(nodes.ok());
  EXPECT_EQ(nodes.status().message(),
            "machines-bad.csv:2: field 5 (cpu_num): 'sixty' is not an integer");
  ReadOptions read;
  read.skip_bad = true;
  ReadStats stats;
  nodes = ReadAlibaba2018Machines(path, read, &stats);
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->size(), 1u);
  EXPECT_EQ(stats.skipped, 2);
  ASSERT_EQ(stats.examples.size(), 2u);
  EXPECT_EQ(stats.examples[1], "machines-bad.csv:3: field 6 (mem_size): not within (0, 100]");
}

}  // namespace
}  // namespace spindle::replay
