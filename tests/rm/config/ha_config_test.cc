#include "rm/config/ha_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "rm/config/configuration.h"

namespace spindle::rm {
namespace {

Configuration ConfOf(const std::map<std::string, std::string>& keys) {
  std::string xml = "<configuration>";
  for (const auto& [key, value] : keys) {
    xml += "<property><name>" + key + "</name><value>" + value + "</value></property>";
  }
  Configuration conf;
  EXPECT_TRUE(conf.AddResourceString(xml + "</configuration>", "yarn-site.xml").ok());
  return conf;
}

// Two RMs by host name, as Hadoop's documented HA example sets them up.
std::map<std::string, std::string> TwoRms() {
  return {{"yarn.resourcemanager.ha.enabled", "true"},
          {"yarn.resourcemanager.ha.rm-ids", "rm1, rm2"},
          {"yarn.resourcemanager.cluster-id", "cluster1"},
          {"yarn.resourcemanager.hostname.rm1", "master1"},
          {"yarn.resourcemanager.hostname.rm2", "master2"}};
}

// Only "master2" is this machine.
bool Master2IsLocal(const std::string& host) { return host == "master2"; }

TEST(HaConfigTest, OffByDefaultWhateverTheOtherKeysSay) {
  auto keys = TwoRms();
  keys.erase("yarn.resourcemanager.ha.enabled");
  const Result<HaConfig> ha = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal);
  ASSERT_TRUE(ha.ok()) << ha.status().ToString();
  EXPECT_FALSE(ha->enabled);
  EXPECT_FALSE(ha->runs_elector());
  EXPECT_TRUE(ha->rm_id.empty());
}

TEST(HaConfigTest, FindsThisRmByItsLocalClientAddressAndKeepsTheDefaults) {
  const Result<HaConfig> ha = HaConfig::FromConfiguration(ConfOf(TwoRms()), Master2IsLocal);
  ASSERT_TRUE(ha.ok()) << ha.status().ToString();
  EXPECT_TRUE(ha->enabled);
  EXPECT_EQ(ha->rm_ids, (std::vector<std::string>{"rm1", "rm2"}));
  EXPECT_EQ(ha->rm_id, "rm2");
  EXPECT_TRUE(ha->automatic_failover);
  EXPECT_TRUE(ha->embedded_elector);
  EXPECT_TRUE(ha->runs_elector());
  EXPECT_EQ(ha->cluster_id, "cluster1");
  EXPECT_EQ(ha->zk_base_path, "/yarn-leader-election");
}

TEST(HaConfigTest, AnExplicitIdWinsOverAddressMatching) {
  auto keys = TwoRms();
  keys["yarn.resourcemanager.ha.id"] = " rm1 ";
  const Result<HaConfig> ha = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal);
  ASSERT_TRUE(ha.ok()) << ha.status().ToString();
  EXPECT_EQ(ha->rm_id, "rm1");
}

TEST(HaConfigTest, RefusesWhatHadoopRefusesWithItsMessages) {
  {  // One rm-id (TestHAUtil.testVerifyAndSetConfiguration's first case).
    auto keys = TwoRms();
    keys["yarn.resourcemanager.ha.rm-ids"] = "rm1";
    const Status s = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status();
    EXPECT_EQ(s.message(),
              "Invalid configuration! Invalid value of yarn.resourcemanager.ha.rm-ids. Current "
              "value is rm1\nHA mode requires atleast two RMs");
  }
  {  // An rm-id without an address or a host name.
    auto keys = TwoRms();
    keys.erase("yarn.resourcemanager.hostname.rm2");
    const Status s = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status();
    EXPECT_EQ(s.message(),
              "Invalid configuration! yarn.resourcemanager.hostname.rm2 or "
              "yarn.resourcemanager.address.rm2 needs to be set in an HA configuration.");
    keys["spindle.compat.hadoop-version"] = "2.6";
    EXPECT_EQ(HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status().message(),
              "Invalid configuration! yarn.resourcemanager.hostname.rm2 or "
              "yarn.resourcemanager.address.rm2 needs to be set in a HA configuration.");
  }
  {  // No id given and no address local.
    const Status s = HaConfig::FromConfiguration(ConfOf(TwoRms()), [](const std::string&) {
                       return false;
                     }).status();
    EXPECT_EQ(s.message(),
              "Invalid configuration! Can not find valid RM_HA_ID. None of "
              "yarn.resourcemanager.address.rm1 yarn.resourcemanager.address.rm2  are matching "
              "the local address OR yarn.resourcemanager.ha.id is not specified in HA "
              "Configuration");
  }
  {  // Both local.
    const Status s = HaConfig::FromConfiguration(ConfOf(TwoRms()), [](const std::string&) {
                       return true;
                     }).status();
    EXPECT_EQ(s.message(),
              "The HA Configuration has multiple addresses that match local node's address.");
  }
  {  // An id not in the list.
    auto keys = TwoRms();
    keys["yarn.resourcemanager.ha.id"] = "rm3";
    const Status s = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status();
    EXPECT_EQ(s.message(),
              "Invalid configuration! yarn.resourcemanager.ha.rm-ids([rm1, rm2]) need to contain "
              "yarn.resourcemanager.ha.id(rm3) in an HA configuration.");
  }
  {  // The embedded elector needs the cluster id.
    auto keys = TwoRms();
    keys.erase("yarn.resourcemanager.cluster-id");
    EXPECT_EQ(HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status().message(),
              "Configuration doesn't specify yarn.resourcemanager.cluster-id");
    keys["yarn.resourcemanager.ha.automatic-failover.enabled"] = "false";
    EXPECT_TRUE(HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).ok());
  }
}

TEST(HaConfigTest, AutomaticFailoverWithoutAnElectorIsRefusedOnlyBy33) {
  auto keys = TwoRms();
  keys["yarn.resourcemanager.ha.automatic-failover.embedded"] = "false";
  const Status s = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal).status();
  EXPECT_NE(s.message().find("properties are both false"), std::string::npos) << s.ToString();
  keys["spindle.compat.hadoop-version"] = "2.7";
  const Result<HaConfig> ha27 = HaConfig::FromConfiguration(ConfOf(keys), Master2IsLocal);
  ASSERT_TRUE(ha27.ok()) << ha27.status().ToString();
  EXPECT_FALSE(ha27->runs_elector());
}

TEST(HaConfigTest, ThisRmRunsWithItsOwnAddresses) {
  auto keys = TwoRms();
  keys["yarn.resourcemanager.address.rm2"] = "master2:9032";
  keys["yarn.resourcemanager.address"] = "elsewhere:1";
  const Configuration conf = ConfOf(keys);
  const Result<HaConfig> ha = HaConfig::FromConfiguration(conf, Master2IsLocal);
  ASSERT_TRUE(ha.ok()) << ha.status().ToString();
  const Result<Configuration> mine = ConfigurationForThisRm(conf, *ha);
  ASSERT_TRUE(mine.ok()) << mine.status().ToString();
  EXPECT_EQ(mine->Get("yarn.resourcemanager.address", ""), "master2:9032");
  EXPECT_EQ(mine->Get("yarn.resourcemanager.scheduler.address", ""), "master2:8030");
  EXPECT_EQ(mine->Get("yarn.resourcemanager.resource-tracker.address", ""), "master2:8031");
  EXPECT_EQ(mine->Get("yarn.resourcemanager.admin.address", ""), "master2:8033");
  EXPECT_EQ(mine->Get("yarn.resourcemanager.webapp.address", ""), "master2:8088");
  EXPECT_EQ(mine->Get("yarn.resourcemanager.ha.id", ""), "rm2");
  EXPECT_EQ(RmAddressOf(conf, "yarn.resourcemanager.admin.address", "rm1").value(), "master1:8033");
}

TEST(HaConfigTest, LoopbackAndWildcardAreLocalAndADocumentationAddressIsNot) {
  EXPECT_TRUE(IsLocalHost("127.0.0.1"));
  EXPECT_TRUE(IsLocalHost("localhost"));
  EXPECT_TRUE(IsLocalHost("0.0.0.0"));
  EXPECT_FALSE(IsLocalHost("192.0.2.1"));  // TEST-NET-1 (RFC 5737)
  EXPECT_FALSE(IsLocalHost("no-such-host.invalid"));
}

}  // namespace
}  // namespace spindle::rm
