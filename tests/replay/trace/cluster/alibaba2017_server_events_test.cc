#include "replay/trace/cluster/alibaba2017_server_events.h"

#include <gtest/gtest.h>

#include "tests/replay/trace/trace_files.h"

namespace spindle::replay {
namespace {

using testing_files::WriteFile;

int64_t Adjusted(const ReadStats& stats, const std::string& reason) {
  for (const auto& [r, n] : stats.adjusted) {
    if (r == reason) return n;
  }
  return 0;
}

// timestamp, machine id, event type, event detail, cpus, memory, disk: rows
// as the published server_event.csv has them.
TEST(Alibaba2017ServerEventsTest, MachinesAndTheirAvailabilityOverTheTrace) {
  const std::string path = WriteFile("server_event.csv",
                                     "0,924,add,,64,0.6899697150104833,0.09572460286727773\n"
                                     "0,925,add,,64,,\n"
                                     "0,618,add,,64,0.5,0.1\n"
                                     "0,700,add,,32,1,0.1\n"
                                     "49380,618,softerror,machine_fail,0,0,0\n"
                                     "49400,618,softerror,machine_fail,0,0,0\n"
                                     "50000,618,add,,64,0.5,0.1\n"
                                     "30000,924,harderror,disk_fail,0,0,0\n"
                                     "40000,700,remove,,,,\n"
                                     "1000,925,softerror,agent,0,0,0\n"
                                     "20000,800,add,,16,0.25,0.1\n"
                                     "-10,900,add,,8,0.125,0.1\n");
  ReadOptions read;
  read.node_memory_mb = 1000;
  ReadStats stats;
  auto t = ReadAlibaba2017ServerEvents(path, read, &stats);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->nodes.size(), 5u) << "925's add gives no capacity";
  // In time order of their addition (the file's order on a tie).
  EXPECT_EQ(t->nodes[0].host, "924");
  EXPECT_EQ(t->nodes[0].vcores, 64);
  EXPECT_EQ(t->nodes[0].memory_mb, 690);
  EXPECT_EQ(t->nodes[1].host, "618");
  EXPECT_EQ(t->nodes[2].host, "700");
  EXPECT_EQ(t->nodes[2].memory_mb, 1000);
  EXPECT_EQ(t->nodes[3].host, "900") << "negative timestamp clamped to 0";
  EXPECT_EQ(t->nodes[4].host, "800");
  EXPECT_EQ(t->nodes[4].vcores, 16);
  const std::vector<std::tuple<int64_t, size_t, bool>> expected = {
      {0, 4, false},                                   // 800: not in the cluster before its add
      {20'000'000, 4, true},  {30'000'000, 0, false},  // 924 harderror
      {40'000'000, 2, false},                          // 700 removed
      {49'380'000, 1, false},                          // 618 softerror (the repeat changes nothing)
      {50'000'000, 1, true}};                          // 618 back
  ASSERT_EQ(t->events.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(t->events[i].at_ms, std::get<0>(expected[i])) << i;
    EXPECT_EQ(t->events[i].node, std::get<1>(expected[i])) << i;
    EXPECT_EQ(t->events[i].available, std::get<2>(expected[i])) << i;
  }
  EXPECT_EQ(t->events[4].why, "softerror: machine_fail");
  EXPECT_EQ(t->events[2].why, "harderror: disk_fail");
  EXPECT_EQ(t->events[3].why, "removed");
  EXPECT_EQ(
      Adjusted(stats, "server_event.csv: machines whose add event gives no capacity: left out"), 1);
  EXPECT_EQ(Adjusted(stats, "server_event.csv: events of machines never added: ignored"), 1);
  EXPECT_EQ(
      Adjusted(stats,
               "server_event.csv: timestamp before the trace window (negative): clamped to 0"),
      1);
}

TEST(Alibaba2017ServerEventsTest, BadRowsNameTheFieldOrAreSkipped) {
  const std::string path = WriteFile("server_event.csv",
                                     "0,1,add,,64,0.5,0.1\n"
                                     "10,1,reboot,,0,0,0\n"
                                     "0,2,add,,64,1.5,0.1\n");
  auto strict = ReadAlibaba2017ServerEvents(path, ReadOptions());
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().message(),
            "server_event.csv:2: field 3 (event type): 'reboot' is not add, remove, softerror or "
            "harderror");
  ReadOptions skip;
  skip.skip_bad = true;
  ReadStats stats;
  auto skipped = ReadAlibaba2017ServerEvents(path, skip, &stats);
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(skipped->nodes.size(), 1u);
  EXPECT_EQ(stats.skipped, 2);
}

}  // namespace
}  // namespace spindle::replay
