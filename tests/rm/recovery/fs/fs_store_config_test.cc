#include "rm/recovery/fs/fs_store_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rm/config/hadoop_line.h"
#include "rm/recovery/recovery_config.h"

namespace spindle::rm {
namespace {

constexpr char kFsStore[] =
    "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore";

Configuration FsConf(const char* line, const std::string& uri) {
  Configuration conf;
  conf.Set(kHadoopLineKey, line);
  conf.Set("yarn.resourcemanager.recovery.enabled", "true");
  conf.Set("yarn.resourcemanager.store.class", kFsStore);
  if (!uri.empty()) conf.Set(kFsStoreUriKey, uri);
  return conf;
}

TEST(FsStoreConfigTest, TheStoreClassSelectsItWithTheLinesVersion) {
  for (const char* line : {"2.6", "2.7", "3.3"}) {
    auto config = RecoveryConfig::FromConfiguration(FsConf(line, "file:///data/rm"));
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    EXPECT_EQ(config->kind, StoreKind::kFileSystem);
    EXPECT_EQ(config->fs.directory, "/data/rm");
    const bool hadoop3 = std::string(line) == "3.3";
    EXPECT_EQ(config->fs.hadoop3, hadoop3);
    EXPECT_EQ(config->fs.version,
              (hadoop3 ? zkstore::StoreVersion{1, 3} : zkstore::StoreVersion{1, 2}));
    EXPECT_EQ(StoreDescription(*config), "the FileSystem state store at /data/rm/FSRMStateRoot");
    EXPECT_NE(MakeStateStore(*config), nullptr);
  }
  Configuration short_name = FsConf("3.3", "/x");
  short_name.Set("yarn.resourcemanager.store.class", "filesystem");
  EXPECT_EQ(RecoveryConfig::FromConfiguration(short_name)->kind, StoreKind::kFileSystem);
}

TEST(FsStoreConfigTest, TheDefaultUriIsUnderHadoopTmpDir) {
  Configuration conf = FsConf("3.3", "");
  conf.Set("hadoop.tmp.dir", "/data/tmp");
  auto options = FsStoreOptionsFromConfiguration(conf);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->directory, "/data/tmp/yarn/system/rmstore");
}

TEST(FsStoreConfigTest, LocalUrisNameTheirDirectory) {
  EXPECT_EQ(*LocalDirectoryOfStoreUri("/a/b/", "file:///"), "/a/b/");
  EXPECT_EQ(*LocalDirectoryOfStoreUri("file:///a/b", "file:///"), "/a/b");
  EXPECT_EQ(*LocalDirectoryOfStoreUri("file:/a/b", "hdfs://nn:8020"), "/a/b");
  EXPECT_EQ(*LocalDirectoryOfStoreUri("FILE://localhost/a/./b", "file:///"), "/a/b");
  EXPECT_EQ(*LocalDirectoryOfStoreUri("rel/dir", ""),
            (std::filesystem::current_path() / "rel/dir").string());
}

TEST(FsStoreConfigTest, RemoteUrisAreRefusedNamingTheKey) {
  for (const char* uri : {"hdfs://nn:8020/rmstore", "s3a://bucket/rmstore", "viewfs://c/rm"}) {
    auto refused = RecoveryConfig::FromConfiguration(FsConf("3.3", uri));
    ASSERT_FALSE(refused.ok()) << uri;
    EXPECT_EQ(refused.status().code(), Status::Code::kInvalidArgument);
    const std::string& message = refused.status().message();
    EXPECT_NE(message.find(kFsStoreUriKey), std::string::npos) << message;
    EXPECT_NE(message.find(uri), std::string::npos) << message;
    EXPECT_NE(message.find("local file system"), std::string::npos) << message;
  }
  EXPECT_NE(RecoveryConfig::FromConfiguration(FsConf("2.6", "hdfs://nn/rm"))
                .status()
                .message()
                .find("no HDFS client"),
            std::string::npos);
  // A path without a scheme lives on fs.defaultFS.
  Configuration on_hdfs = FsConf("3.3", "/rmstore");
  on_hdfs.Set("fs.defaultFS", "hdfs://nn:8020");
  auto refused = RecoveryConfig::FromConfiguration(on_hdfs);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("fs.defaultFS = 'hdfs://nn:8020'"), std::string::npos)
      << refused.status().message();
  EXPECT_FALSE(RecoveryConfig::FromConfiguration(FsConf("3.3", "file://otherhost/rm")).ok());
  // Without recovery the RM builds no store, and refuses nothing (as Hadoop).
  Configuration off = FsConf("3.3", "hdfs://nn/rm");
  off.Set("yarn.resourcemanager.recovery.enabled", "false");
  EXPECT_TRUE(RecoveryConfig::FromConfiguration(off).ok());
}

TEST(FsStoreConfigTest, RetriesAreReadOnTheLinesThatHaveThem) {
  for (const char* line : {"2.6", "2.7", "3.3"}) {
    Configuration conf = FsConf(line, "/x");
    conf.Set("yarn.resourcemanager.fs.state-store.num-retries", "3");
    conf.Set("yarn.resourcemanager.fs.state-store.retry-interval-ms", "20");
    auto options = FsStoreOptionsFromConfiguration(conf);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    const bool has_keys = std::string(line) != "2.6";
    EXPECT_EQ(options->num_retries, has_keys ? 3 : 0) << line;
    EXPECT_EQ(options->retry_interval.count(), has_keys ? 20 : 1000) << line;
  }
  Configuration negative = FsConf("3.3", "/x");
  negative.Set("yarn.resourcemanager.fs.state-store.num-retries", "-1");
  EXPECT_FALSE(FsStoreOptionsFromConfiguration(negative).ok());
}

}  // namespace
}  // namespace spindle::rm
