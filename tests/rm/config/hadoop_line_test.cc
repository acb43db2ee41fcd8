#include "rm/config/hadoop_line.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>

#include "base/process_user.h"
#include "rm/config/configuration.h"

namespace spindle::rm {
namespace {

std::string Site(const std::string& key, const std::string& value) {
  return "<configuration><property><name>" + key + "</name><value>" + value +
         "</value></property></configuration>";
}

Configuration OnLine(const std::string& line) {
  Configuration conf;
  EXPECT_TRUE(conf.AddResourceString(Site(kHadoopLineKey, line), "yarn-site.xml").ok());
  return conf;
}

TEST(HadoopLineTest, ParsesTheThreeLines) {
  EXPECT_EQ(ParseHadoopLine("2.6"), HadoopLine::k2_6);
  EXPECT_EQ(ParseHadoopLine("2.7"), HadoopLine::k2_7);
  EXPECT_EQ(ParseHadoopLine(" 3.3\n"), HadoopLine::k3_3);
  EXPECT_EQ(ParseHadoopLine("3.3.6"), HadoopLine::k3_3);
  EXPECT_EQ(ParseHadoopLine("2.7.7"), HadoopLine::k2_7);
  for (const char* bad : {"", "3", "2.8", "v3.3", "3.4", "2.60"}) {
    EXPECT_FALSE(ParseHadoopLine(bad).has_value()) << bad;
  }
}

TEST(HadoopLineTest, DefaultIsTheNewestLine) {
  Configuration conf;
  EXPECT_EQ(HadoopLineOf(conf).value(), HadoopLine::k3_3);
  EXPECT_EQ(kDefaultHadoopLine, HadoopLine::k3_3);
  EXPECT_EQ(HadoopLineOf(OnLine("2.6")).value(), HadoopLine::k2_6);
}

TEST(HadoopLineTest, BadValueNamesFileKeyAndValue) {
  auto line = HadoopLineOf(OnLine("2.8"));
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.status().message(),
            "yarn-site.xml: spindle.compat.hadoop-version = '2.8' is not a Hadoop line Spindle "
            "follows (2.6, 2.7, 3.3)");
}

TEST(HadoopLineTest, ReportedVersionsAndRules) {
  EXPECT_EQ(TraitsOf(HadoopLine::k2_6).version, "2.6.5");
  EXPECT_EQ(TraitsOf(HadoopLine::k2_7).version, "2.7.7");
  EXPECT_EQ(TraitsOf(HadoopLine::k3_3).version, "3.3.6");
  EXPECT_EQ(TraitsOf(HadoopLine::k2_6).am_rules, AmProtocolRules::kHadoop2);
  EXPECT_EQ(TraitsOf(HadoopLine::k2_7).am_rules, AmProtocolRules::kHadoop2);
  EXPECT_EQ(TraitsOf(HadoopLine::k3_3).am_rules, AmProtocolRules::kHadoop3);
  for (auto line : {HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3}) {
    EXPECT_EQ(ParseHadoopLine(TraitsOf(line).name), line);
  }
}

TEST(HadoopLineTest, TableIsSortedAndEveryKeyHasAValueOnEveryLine) {
  const auto keys = HadoopDefaultKeys();
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  for (auto key : keys) {
    for (auto line : {HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3}) {
      auto shipped = HadoopDefault(line, key);
      ASSERT_TRUE(shipped.has_value()) << key;
      EXPECT_FALSE(shipped->value.empty()) << key;
      EXPECT_TRUE(shipped->file == "core-default.xml" || shipped->file == "yarn-default.xml");
    }
  }
  EXPECT_FALSE(HadoopDefault(HadoopLine::k3_3, "yarn.no.such.key").has_value());
  EXPECT_FALSE(HadoopDefault(HadoopLine::k3_3, "spindle.store.path").has_value());
}

TEST(HadoopLineTest, ValuesThatDifferBetweenLines) {
  // yarn-default.xml / core-default.xml at rel/release-2.6.5, -2.7.7, -3.3.0.
  struct Row {
    const char* key;
    const char* v26;
    const char* v27;
    const char* v33;
  };
  for (const Row& row : {
           Row{"yarn.scheduler.maximum-allocation-vcores", "32", "32", "4"},
           Row{"yarn.resourcemanager.max-completed-applications", "10000", "10000", "1000"},
           Row{"ipc.maximum.data.length", "67108864", "67108864", "134217728"},
       }) {
    EXPECT_EQ(HadoopDefault(HadoopLine::k2_6, row.key)->value, row.v26) << row.key;
    EXPECT_EQ(HadoopDefault(HadoopLine::k2_7, row.key)->value, row.v27) << row.key;
    EXPECT_EQ(HadoopDefault(HadoopLine::k3_3, row.key)->value, row.v33) << row.key;
  }
  EXPECT_EQ(HadoopDefault(HadoopLine::k2_7, "yarn.nodemanager.env-whitelist")->value,
            "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,HADOOP_YARN_HOME");
  EXPECT_EQ(HadoopDefault(HadoopLine::k3_3, "yarn.nodemanager.env-whitelist")->value,
            "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,"
            "CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ");
}

TEST(HadoopLineTest, ConfigurationReadsTheLinesDefaultsUnderTheFiles) {
  Configuration v26 = OnLine("2.6");
  Configuration v33 = OnLine("3.3");
  // A reader's own fallback never applies to a tabulated key.
  EXPECT_EQ(v26.GetInt("yarn.scheduler.maximum-allocation-vcores", 4).value(), 32);
  EXPECT_EQ(v33.GetInt("yarn.scheduler.maximum-allocation-vcores", 32).value(), 4);
  EXPECT_EQ(v26.SourceOf("yarn.scheduler.maximum-allocation-vcores"),
            "yarn-default.xml (Hadoop 2.6)");
  EXPECT_EQ(v33.SourceOf("ipc.maximum.data.length"), "core-default.xml (Hadoop 3.3)");
  // A file's value wins; a default is not a key of the loaded files.
  ASSERT_TRUE(
      v26.AddResourceString(Site("yarn.scheduler.maximum-allocation-vcores", "8"), "site.xml")
          .ok());
  EXPECT_EQ(v26.GetInt("yarn.scheduler.maximum-allocation-vcores", 4).value(), 8);
  EXPECT_EQ(v26.SourceOf("yarn.scheduler.maximum-allocation-vcores"), "site.xml");
  EXPECT_TRUE(v33.KeysWithPrefix("yarn.scheduler.").empty());
  // An unparsable line reads as the newest until HadoopLineOf reports it.
  EXPECT_EQ(OnLine("9.9").GetInt("yarn.scheduler.maximum-allocation-vcores", 0).value(), 4);
}

TEST(HadoopLineTest, DerivedPathsFollowHadoopTmpDir) {
  Configuration conf;
  conf.SetSystemProperty("user.name", "alice");
  EXPECT_EQ(conf.Get("hadoop.tmp.dir"), "/tmp/hadoop-alice");
  EXPECT_EQ(conf.Get("yarn.resourcemanager.leveldb-state-store.path"),
            "/tmp/hadoop-alice/yarn/system/rmstore");
  EXPECT_EQ(conf.Get("yarn.nodemanager.local-dirs"), "/tmp/hadoop-alice/nm-local-dir");
  conf.Set("hadoop.tmp.dir", "/data/h");
  EXPECT_EQ(conf.Get("yarn.resourcemanager.leveldb-state-store.path"),
            "/data/h/yarn/system/rmstore");
}

TEST(HadoopLineTest, UserNameIsThePasswdNameNotUser) {
  // Java's user.name comes from getpwuid(getuid()); $USER does not count.
  ::setenv("USER", "not-the-process-user", 1);
  Configuration conf;
  EXPECT_EQ(conf.Get("hadoop.tmp.dir"), "/tmp/hadoop-" + ProcessUserName());
  EXPECT_NE(ProcessUserName(), "not-the-process-user");
}

TEST(HadoopLineTest, ShippedCapacitySchedulerIsOneDefaultQueue) {
  Configuration conf;
  ASSERT_TRUE(
      conf.AddResourceString(ShippedCapacitySchedulerXml(), kShippedCapacitySchedulerSource).ok());
  EXPECT_EQ(conf.Get("yarn.scheduler.capacity.root.queues"), "default");
  EXPECT_EQ(conf.Get("yarn.scheduler.capacity.root.default.capacity"), "100");
  EXPECT_EQ(conf.Get("yarn.scheduler.capacity.root.default.acl_submit_applications"), "*");
  EXPECT_EQ(conf.SourceOf("yarn.scheduler.capacity.root.queues"),
            "capacity-scheduler.xml (as Hadoop ships it)");
}

}  // namespace
}  // namespace spindle::rm
