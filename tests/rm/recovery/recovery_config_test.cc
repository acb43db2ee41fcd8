#include "rm/recovery/recovery_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
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

TEST(RecoveryConfigTest, HadoopsFileSystemStoreIsRefusedByName) {
  Configuration conf;
  conf.Set("yarn.resourcemanager.store.class",
           "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
  EXPECT_FALSE(RecoveryConfig::FromConfiguration(conf).ok());
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
