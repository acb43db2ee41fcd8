#include "bench/wire/wire_options.h"

#include <gtest/gtest.h>

namespace spindle::bench::wire {
namespace {

TEST(ParseRmAddressesTest, ThreeAddressesInOrder) {
  auto rm = ParseRmAddresses("10.0.0.1:8032,10.0.0.2:8030,rm.example:8031");
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  EXPECT_EQ(rm->client.ToString(), "10.0.0.1:8032");
  EXPECT_EQ(rm->scheduler.ToString(), "10.0.0.2:8030");
  EXPECT_EQ(rm->tracker.ToString(), "rm.example:8031");
  EXPECT_EQ(rm->web.port, 0);  // unknown
}

TEST(ParseRmAddressesTest, AFourthAddressIsTheWebPort) {
  auto rm = ParseRmAddresses("a:1,b:2,c:3,d:4");
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  EXPECT_EQ(rm->web.ToString(), "d:4");
}

TEST(ParseRmAddressesTest, HostAloneTakesHadoopDefaultPorts) {
  auto rm = ParseRmAddresses("rm.example");
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  EXPECT_EQ(rm->client.port, 8032);
  EXPECT_EQ(rm->scheduler.port, 8030);
  EXPECT_EQ(rm->tracker.port, 8031);
  EXPECT_EQ(rm->tracker.host, "rm.example");
  EXPECT_EQ(rm->web.port, 8088);
}

TEST(ParseRmAddressesTest, RejectsMalformedLists) {
  for (const char* bad :
       {"", "a:1,b:2", "a:1,b:2,c:3,d:4,e:5", "a:1,b:2,c:3,d:x", "a:1,b:x,c:3", "a:1,b:0,c:3",
        "a:1,b:70000,c:3", "a:1,:2,c:3", "a:1,b:,c:3", "host:8032"}) {
    EXPECT_FALSE(ParseRmAddresses(bad).ok()) << bad;
  }
}

TEST(WireOptionsTest, DefaultsAreValid) { EXPECT_TRUE(WireOptions().Validate().ok()); }

TEST(WireOptionsTest, RejectsWhatCannotRun) {
  auto invalid = [](auto mutate) {
    WireOptions o;
    mutate(o);
    return !o.Validate().ok();
  };
  EXPECT_TRUE(invalid([](WireOptions& o) { o.nodes = 0; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.apps = -1; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.heartbeat_ms = 0; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.container_ms = -1; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.warmup_seconds = o.seconds; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.memory_mb = o.node_memory_mb + 1; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.vcores = o.node_vcores + 1; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.containers_per_app = int64_t{1} << 31; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.web_scrapers = -1; }));
  EXPECT_TRUE(invalid([](WireOptions& o) { o.web_scrapers = 257; }));
  // Scraping an RM given by --rm needs its web address.
  EXPECT_TRUE(invalid([](WireOptions& o) {
    o.web_scrapers = 1;
    o.rm = RmAddresses{{"a", 1}, {"b", 2}, {"c", 3}, {}};
  }));
  EXPECT_FALSE(invalid([](WireOptions& o) { o.web_scrapers = 2; }));
  EXPECT_FALSE(invalid([](WireOptions& o) { o.container_ms = 0; }));
}

TEST(WireOptionsTest, TheRmsHadoopLineIsASupportedOne) {
  for (const char* bad : {"2.5", "", "3"}) {
    WireOptions o;
    o.hadoop_line = bad;
    EXPECT_FALSE(o.Validate().ok()) << bad;
  }
  for (const char* good : {"2.6", "2.6.0", "2.7", "3.3.6"}) {
    WireOptions o;
    o.hadoop_line = good;
    EXPECT_TRUE(o.Validate().ok()) << good;
  }
}

}  // namespace
}  // namespace spindle::bench::wire
