#include "rm/recovery/recovery_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace spindle::rm {
namespace {

namespace fs = std::filesystem;

TEST(RecoveryConfigTest, RecoveryIsOffByDefaultAsOnEveryHadoopLine) {
  for (const char* line : {"2.6", "2.7", "3.3"}) {
    Configuration conf;
    conf.Set(kHadoopLineKey, line);
    auto config = RecoveryConfig::FromConfiguration(conf);
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    EXPECT_FALSE(config->recovery_enabled) << line;
    EXPECT_EQ(config->kind, StoreKind::kRocksDb) << "Spindle's store when recovery is on";
  }
  Configuration on;
  on.Set("yarn.resourcemanager.recovery.enabled", "true");
  EXPECT_TRUE(RecoveryConfig::FromConfiguration(on)->recovery_enabled);
}

TEST(RecoveryConfigTest, StorePathDerivesFromHadoopTmpDir) {
  Configuration conf;
  conf.SetSystemProperty("user.name", "alice");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(conf)->store.path,
            "/tmp/hadoop-alice/yarn/system/rmstore");
  conf.Set("hadoop.tmp.dir", "/data/tmp");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(conf)->store.path, "/data/tmp/yarn/system/rmstore");
  conf.Set("yarn.resourcemanager.leveldb-state-store.path", "/var/rm/${user.name}");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(conf)->store.path, "/var/rm/alice");
  conf.Set("spindle.store.path", "/srv/spindle");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(conf)->store.path, "/srv/spindle");
}

TEST(RecoveryConfigTest, AStoreClassSpindleLacksIsRefusedNamingTheOnesItHas) {
  Configuration conf;
  conf.Set("yarn.resourcemanager.store.class", "com.example.OwnRMStateStore");
  auto refused = RecoveryConfig::FromConfiguration(conf);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("FileSystemRMStateStore"), std::string::npos)
      << refused.status().ToString();
}

constexpr char kZkStore[] = "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore";

Configuration ZkConf(const char* line) {
  Configuration conf;
  conf.Set(kHadoopLineKey, line);
  conf.Set("yarn.resourcemanager.recovery.enabled", "true");
  conf.Set("yarn.resourcemanager.store.class", kZkStore);
  return conf;
}

TEST(RecoveryConfigTest, ZkStoreWithoutAnAddressRefusesNamingTheLinesKey) {
  auto refused = RecoveryConfig::FromConfiguration(ZkConf("3.3"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("hadoop.zk.address"), std::string::npos)
      << refused.status().ToString();
  refused = RecoveryConfig::FromConfiguration(ZkConf("2.6"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("yarn.resourcemanager.zk-address"), std::string::npos);
  EXPECT_EQ(refused.status().message().find("hadoop.zk.address"), std::string::npos);
  // Without recovery the store is never built: no refusal (as Hadoop).
  Configuration off = ZkConf("3.3");
  off.Set("yarn.resourcemanager.recovery.enabled", "false");
  EXPECT_TRUE(RecoveryConfig::FromConfiguration(off).ok());
}

TEST(RecoveryConfigTest, ZkStoreSettingsFollowTheLine) {
  // 2.6: the yarn.resourcemanager.zk-* keys; hadoop.zk.* means nothing.
  Configuration old_line = ZkConf("2.6");
  old_line.Set("yarn.resourcemanager.zk-address", "zk1:2181,zk2:2181");
  old_line.Set("hadoop.zk.address", "ignored:1");
  old_line.Set("yarn.resourcemanager.zk-timeout-ms", "2000");
  old_line.Set("yarn.resourcemanager.zk-num-retries", "4");
  old_line.Set("yarn.resourcemanager.ha.enabled", "true");
  old_line.Set("yarn.resourcemanager.zk-appid-node.split-index", "2");
  auto config = RecoveryConfig::FromConfiguration(old_line);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->kind, StoreKind::kZooKeeper);
  EXPECT_EQ(config->zk.connect_string, "zk1:2181,zk2:2181");
  EXPECT_EQ(config->zk.session_timeout, std::chrono::milliseconds(2000));
  EXPECT_EQ(config->zk.num_retries, 4);
  // 2.x with HA: timeout / retries between tries.
  EXPECT_EQ(config->zk.retry_interval, std::chrono::milliseconds(500));
  EXPECT_TRUE(config->zk.ha_enabled);
  EXPECT_FALSE(config->zk.hadoop3);
  EXPECT_EQ(config->zk.version, (zkstore::StoreVersion{1, 2}));
  EXPECT_EQ(config->zk.app_split_index, 0) << "2.6 has no split index";
  EXPECT_EQ(config->zk.parent_path, "/rmstore");
  EXPECT_EQ(config->zk.acl, std::vector<zk::ZkAcl>{zk::WorldAnyone()});
  EXPECT_EQ(StoreDescription(*config),
            "the ZooKeeper state store at zk1:2181,zk2:2181/rmstore/ZKRMStateRoot");

  // 3.3: hadoop.zk.*, falling back to the deprecated names.
  Configuration new_line = ZkConf("3.3");
  new_line.Set("yarn.resourcemanager.zk-address", "old:2181");
  new_line.Set("yarn.resourcemanager.zk-retry-interval-ms", "250");
  new_line.Set("hadoop.zk.acl", "world:anyone:rwa,digest:rm:abc=:rwcda");
  new_line.Set("hadoop.zk.auth", "digest:rm:secret");
  new_line.Set("yarn.resourcemanager.zk-state-store.parent-path", "/yarn/store");
  new_line.Set("yarn.resourcemanager.zk-appid-node.split-index", "2");
  new_line.Set("yarn.resourcemanager.zk-delegation-token-node.split-index", "9");
  new_line.Set("yarn.resourcemanager.ha.enabled", "true");
  new_line.Set("yarn.resourcemanager.ha.id", "rm2");
  new_line.Set("yarn.resourcemanager.address.rm2", "rm2host:8032");
  config = RecoveryConfig::FromConfiguration(new_line);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->zk.connect_string, "old:2181");
  EXPECT_EQ(config->zk.retry_interval, std::chrono::milliseconds(250));
  EXPECT_EQ(config->zk.acl.size(), 2u);
  EXPECT_EQ(config->zk.acl[1].id, "rm:abc=");
  ASSERT_EQ(config->zk.auths.size(), 1u);
  EXPECT_EQ(config->zk.auths[0].auth, "rm:secret");
  EXPECT_EQ(config->zk.parent_path, "/yarn/store");
  EXPECT_EQ(config->zk.app_split_index, 2);
  EXPECT_EQ(config->zk.token_split_index, 0) << "out of 0..4: read as 0, as 3.3";
  EXPECT_EQ(config->zk.fencing_user, "rm2host:8032");
  EXPECT_EQ(config->zk.version, (zkstore::StoreVersion{1, 5}));
  new_line.Set("hadoop.zk.address", "new:2181");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(new_line)->zk.connect_string, "new:2181");

  // The acl through a file ("@" indirection) and a bad acl naming its key.
  const fs::path dir = fs::temp_directory_path() / ("zk_conf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  { std::ofstream(dir / "acl") << "  sasl:rm:cdrwa \n"; }
  new_line.Set("hadoop.zk.acl", "@" + (dir / "acl").string());
  config = RecoveryConfig::FromConfiguration(new_line);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->zk.acl, (std::vector<zk::ZkAcl>{{zk::kPermAll, "sasl", "rm"}}));
  fs::remove_all(dir);
  new_line.Set("hadoop.zk.acl", "world:anyone:rwxyz");
  auto bad = RecoveryConfig::FromConfiguration(new_line);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("hadoop.zk.acl"), std::string::npos);
}

TEST(RecoveryConfigTest, PrepareCreatesParentsAndAPrivateStoreDirectory) {
  const fs::path root =
      fs::path(::testing::TempDir()) / ("recovery_config_test." + std::to_string(::getpid()));
  fs::remove_all(root);
  Configuration conf;
  conf.Set("hadoop.tmp.dir", root.string() + "/hadoop-x");
  auto config = RecoveryConfig::FromConfiguration(conf);
  ASSERT_TRUE(config.ok());
  ASSERT_FALSE(fs::exists(root));
  ASSERT_TRUE(PrepareStoreDirectory(*config).ok());
  const fs::path store = root / "hadoop-x/yarn/system/rmstore";
  ASSERT_TRUE(fs::is_directory(store));
  struct stat st {};
  ASSERT_EQ(::stat(store.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u) << "as LeveldbRMStateStore's mkdirs(root, 0700)";
  // Again: nothing to do.
  EXPECT_TRUE(PrepareStoreDirectory(*config).ok());
  // A store and a store under a file: the reason is named.
  const fs::path file = root / "file";
  {
    FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  conf.Set("spindle.store.path", (file / "rmstore").string());
  auto under_file = RecoveryConfig::FromConfiguration(conf);
  ASSERT_TRUE(under_file.ok());
  Status refused = PrepareStoreDirectory(*under_file);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find((file / "rmstore").string()), std::string::npos)
      << refused.message();
  fs::remove_all(root);
}

}  // namespace
}  // namespace spindle::rm

namespace spindle::rm {
namespace {

// RMFatalEventDispatcher: 2.6 always terminates; 3.3 (and 2.7, which lists
// the key) only under yarn.resourcemanager.fail-fast, defaulting to
// yarn.fail-fast, defaulting to false.
TEST(RecoveryConfigTest, StoreFailureFollowsFailFastAsHadoop) {
  auto action = [](const std::map<std::string, std::string>& keys) {
    Configuration conf;
    for (const auto& [k, v] : keys) conf.Set(k, v);
    auto config = RecoveryConfig::FromConfiguration(conf);
    EXPECT_TRUE(config.ok()) << config.status().ToString();
    return config.ok() ? config->on_store_failure : StoreFailureAction::kExit;
  };
  EXPECT_EQ(action({}), StoreFailureAction::kRefuseWrites);
  EXPECT_EQ(action({{kHadoopLineKey, "2.7"}}), StoreFailureAction::kRefuseWrites);
  EXPECT_EQ(action({{kHadoopLineKey, "2.6"}}), StoreFailureAction::kExit);
  EXPECT_EQ(action({{"yarn.resourcemanager.fail-fast", "true"}}), StoreFailureAction::kExit);
  EXPECT_EQ(action({{"yarn.fail-fast", "true"}}), StoreFailureAction::kExit);
  EXPECT_EQ(action({{"yarn.fail-fast", "true"}, {"yarn.resourcemanager.fail-fast", "false"}}),
            StoreFailureAction::kRefuseWrites);
  Configuration bad;
  bad.Set("yarn.resourcemanager.fail-fast", "maybe");
  EXPECT_FALSE(RecoveryConfig::FromConfiguration(bad).ok());
}

}  // namespace
}  // namespace spindle::rm
