// The elector's ZooKeeper keys as each Hadoop line reads them.
#include "rm/ha/elector_zk_settings.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

TEST(ElectorZkSettingsTest, ThreeThreePrefersHadoopZkKeysAndFallsBackToTheRmOnes) {
  Configuration conf;
  conf.Set("yarn.resourcemanager.zk-address", "old:2181");
  auto s = ReadElectorZkSettings(conf, HadoopLine::k3_3);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->connect_string, "old:2181");
  EXPECT_EQ(s->session_timeout.count(), 10000);
  EXPECT_EQ(s->acl, std::vector<zk::ZkAcl>{zk::WorldAnyone()});
  EXPECT_TRUE(s->auths.empty());
  EXPECT_EQ(s->max_retries, 3);

  conf.Set("hadoop.zk.address", "new:2181");
  conf.Set("hadoop.zk.timeout-ms", "2000");
  conf.Set("hadoop.zk.auth", "digest:u:p");
  conf.Set("yarn.resourcemanager.zk-acl", "digest:u:hash:rwcd,world:anyone:r");
  conf.Set("ha.failover-controller.active-standby-elector.zk.op.retries", "5");
  s = ReadElectorZkSettings(conf, HadoopLine::k3_3);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->connect_string, "new:2181");
  EXPECT_EQ(s->session_timeout.count(), 2000);
  ASSERT_EQ(s->auths.size(), 1u);
  EXPECT_EQ(s->auths[0].auth, "u:p");
  ASSERT_EQ(s->acl.size(), 2u);
  EXPECT_EQ(s->acl[0].id, "u:hash");
  EXPECT_EQ(s->max_retries, 5);
  conf.Set("yarn.resourcemanager.ha.failover-controller.active-standby-elector.zk.retries", "7");
  EXPECT_EQ(ReadElectorZkSettings(conf, HadoopLine::k3_3)->max_retries, 7);
}

TEST(ElectorZkSettingsTest, TwoSixReadsOnlyTheRmKeys) {
  Configuration conf;
  conf.Set("hadoop.zk.address", "new:2181");
  conf.Set("yarn.resourcemanager.ha.failover-controller.active-standby-elector.zk.retries", "7");
  auto s = ReadElectorZkSettings(conf, HadoopLine::k2_6);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "Embedded automatic failover is enabled, but yarn.resourcemanager.zk-address is not "
            "set");
  conf.Set("yarn.resourcemanager.zk-address", "old:2181");
  s = ReadElectorZkSettings(conf, HadoopLine::k2_6);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->connect_string, "old:2181");
  EXPECT_EQ(s->max_retries, 3);
}

TEST(ElectorZkSettingsTest, BadValuesNameTheKey) {
  Configuration conf;
  conf.Set("hadoop.zk.address", "zk:2181");
  conf.Set("hadoop.zk.acl", "world:anyone:xyz");
  auto s = ReadElectorZkSettings(conf, HadoopLine::k3_3);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().ToString().find("hadoop.zk.acl"), std::string::npos);
  Configuration missing;
  EXPECT_NE(ReadElectorZkSettings(missing, HadoopLine::k3_3)
                .status()
                .message()
                .find("hadoop.zk.address is not set"),
            std::string::npos);
}

}  // namespace
}  // namespace spindle::rm
