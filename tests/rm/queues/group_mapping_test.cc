#include "rm/queues/group_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "rm/queues/os_group_mapping.h"

namespace spindle::rm {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(StaticGroupMappingTest, ParsesHadoopOverrides) {
  auto mapping = StaticGroupMapping::Parse("user1=group1, group2; user2=;user3=group2;");
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  EXPECT_THAT(mapping->GroupsOf("user1"), ElementsAre("group1", "group2"));
  EXPECT_THAT(mapping->GroupsOf("user2"), IsEmpty());
  EXPECT_TRUE(mapping->Contains("user2"));
  EXPECT_THAT(mapping->GroupsOf("user3"), ElementsAre("group2"));
  EXPECT_FALSE(mapping->Contains("nobody-here"));
  EXPECT_FALSE(StaticGroupMapping::Parse("user1").ok());
  EXPECT_FALSE(StaticGroupMapping::Parse("=group").ok());
}

TEST(OsGroupMappingTest, AsksTheSystemAndHonoursOverrides) {
  ManualClock clock;
  OsGroupMappingOptions options;
  options.overrides = StaticGroupMapping(
      std::map<std::string, std::vector<std::string>>{{"root", {"wheel-override"}}});
  OsGroupMapping mapping(options, &clock);
  EXPECT_THAT(mapping.GroupsOf("root"), ElementsAre("wheel-override"));
  EXPECT_THAT(mapping.GroupsOf("no-such-user-spindle-test"), IsEmpty());
  // root exists everywhere; its primary group is gid 0 ("root" on Linux).
  std::vector<std::string> groups = OsGroupMapping::LookUp("root");
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(groups.front(), "root");
}

TEST(OsGroupMappingTest, ReadsItsOptionsFromTheConfiguration) {
  Configuration conf;
  auto defaults = OsGroupMappingOptions::FromConfiguration(conf);
  ASSERT_TRUE(defaults.ok());
  EXPECT_TRUE(defaults->overrides.Contains("dr.who"));
  EXPECT_EQ(defaults->cache_ttl, std::chrono::seconds(300));
  conf.Set("hadoop.user.group.static.mapping.overrides", "alice=eng");
  conf.Set("hadoop.security.groups.cache.secs", "5");
  auto options = OsGroupMappingOptions::FromConfiguration(conf);
  ASSERT_TRUE(options.ok());
  EXPECT_THAT(options->overrides.GroupsOf("alice"), ElementsAre("eng"));
  EXPECT_EQ(options->cache_ttl, std::chrono::seconds(5));
  conf.Set("hadoop.user.group.static.mapping.overrides", "broken");
  EXPECT_FALSE(OsGroupMappingOptions::FromConfiguration(conf).ok());
}

}  // namespace
}  // namespace spindle::rm
