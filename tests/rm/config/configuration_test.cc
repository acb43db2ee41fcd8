#include "rm/config/configuration.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace spindle::rm {
namespace {

std::string Xml(const std::string& properties) {
  return "<?xml version=\"1.0\"?>\n<!-- comment -->\n<configuration>\n" + properties +
         "</configuration>\n";
}

std::string Property(const std::string& name, const std::string& value, bool final = false) {
  return "  <property><name>" + name + "</name><value>" + value + "</value>" +
         (final ? "<final>true</final>" : "") + "<description>d</description></property>\n";
}

TEST(ConfigurationTest, LaterResourcesOverrideEarlierOnes) {
  Configuration conf;
  ASSERT_TRUE(
      conf.AddResourceString(Xml(Property("a", "1") + Property("b", "2")), "core-site.xml").ok());
  ASSERT_TRUE(conf.AddResourceString(Xml(Property("a", "10")), "yarn-site.xml").ok());
  EXPECT_EQ(conf.Get("a"), "10");
  EXPECT_EQ(conf.Get("b"), "2");
  EXPECT_EQ(conf.SourceOf("a"), "yarn-site.xml");
  EXPECT_EQ(conf.SourceOf("b"), "core-site.xml");
  EXPECT_EQ(conf.SourceOf("missing"), "built-in default (not set in the configuration)");
  EXPECT_FALSE(conf.Get("missing").has_value());
  EXPECT_EQ(conf.Get("missing", "dflt"), "dflt");
}

TEST(ConfigurationTest, FinalPropertiesKeepTheirFirstValue) {
  Configuration conf;
  ASSERT_TRUE(conf.AddResourceString(Xml(Property("a", "1", true)), "core-site.xml").ok());
  ASSERT_TRUE(conf.AddResourceString(Xml(Property("a", "2")), "yarn-site.xml").ok());
  conf.Set("a", "3");
  EXPECT_EQ(conf.Get("a"), "1");
  EXPECT_TRUE(conf.IsFinal("a"));
}

TEST(ConfigurationTest, SubstitutesVariables) {
  Configuration conf;
  conf.SetSystemProperty("user.name", "alice");
  ::setenv("SPINDLE_TEST_ENV", "from-env", 1);
  ASSERT_TRUE(conf.AddResourceString(
                      Xml(Property("yarn.resourcemanager.hostname", "rm.example") +
                          Property("yarn.resourcemanager.address",
                                   "${yarn.resourcemanager.hostname}:8032") +
                          Property("hadoop.tmp.dir", "/tmp/hadoop-${user.name}") +
                          Property("e", "${env.SPINDLE_TEST_ENV}") +
                          Property("unresolved", "${no.such.key}/x") + Property("loop", "${loop}")),
                      "yarn-site.xml")
                  .ok());
  EXPECT_EQ(conf.Get("yarn.resourcemanager.address"), "rm.example:8032");
  EXPECT_EQ(conf.GetRaw("yarn.resourcemanager.address"), "${yarn.resourcemanager.hostname}:8032");
  EXPECT_EQ(conf.Get("hadoop.tmp.dir"), "/tmp/hadoop-alice");
  EXPECT_EQ(conf.Get("e"), "from-env");
  EXPECT_EQ(conf.Get("unresolved"), "${no.such.key}/x");
  EXPECT_FALSE(conf.Substitute("${loop}").ok());
}

TEST(ConfigurationTest, TypedGettersNameFileKeyAndValue) {
  Configuration conf;
  ASSERT_TRUE(
      conf.AddResourceString(
              Xml(Property("i", " 42 ") + Property("hex", "0x10") + Property("neg", "-7") +
                  Property("bad", "4x2") + Property("d", "0.5") + Property("bt", "TRUE") +
                  Property("bb", "yes") + Property("empty", "") + Property("list", " a, b ,,c ")),
              "yarn-site.xml")
          .ok());
  EXPECT_EQ(*conf.GetInt("i", 0), 42);
  EXPECT_EQ(*conf.GetInt("hex", 0), 16);
  EXPECT_EQ(*conf.GetInt("neg", 0), -7);
  EXPECT_EQ(*conf.GetInt("missing", 9), 9);
  EXPECT_EQ(*conf.GetInt("empty", 9), 9);
  auto bad = conf.GetInt("bad", 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "yarn-site.xml: bad = '4x2' is not an integer");
  EXPECT_DOUBLE_EQ(*conf.GetDouble("d", 0), 0.5);
  EXPECT_FALSE(conf.GetDouble("bad", 0).ok());
  EXPECT_TRUE(*conf.GetBool("bt", false));
  EXPECT_FALSE(conf.GetBool("bb", false).ok());
  EXPECT_EQ(conf.GetTrimmedStrings("list"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(conf.GetTrimmedStrings("missing").empty());
}

// host:port as NetUtils.createSocketAddr reads it: the port follows the last
// ':' (so a bracketed IPv6 host keeps its colons), 0..65535, host not empty.
TEST(ConfigurationTest, SocketAddresses) {
  struct Case {
    std::string text;
    std::optional<SocketAddress> want;
  };
  const std::vector<Case> cases = {
      {"rm.example:8032", SocketAddress{"rm.example", 8032}},
      {"0.0.0.0:0", SocketAddress{"0.0.0.0", 0}},
      {"[::1]:65535", SocketAddress{"[::1]", 65535}},
      {"rm.example", std::nullopt},
      {":8032", std::nullopt},
      {"rm.example:", std::nullopt},
      {"rm.example:65536", std::nullopt},
      {"rm.example:-1", std::nullopt},
      {"rm.example:80x", std::nullopt},
      {"rm.example: 80", std::nullopt},
  };
  for (const Case& c : cases) {
    const std::optional<SocketAddress> got = ParseSocketAddress(c.text);
    ASSERT_EQ(got.has_value(), c.want.has_value()) << c.text;
    if (got.has_value()) {
      EXPECT_EQ(got->host, c.want->host) << c.text;
      EXPECT_EQ(got->port, c.want->port) << c.text;
      EXPECT_EQ(got->ToString(), c.text);
    }
  }
  Configuration conf;
  ASSERT_TRUE(conf.AddResourceString(Xml(Property("a", " rm:8030 ") + Property("bad", "rm")),
                                     "yarn-site.xml")
                  .ok());
  EXPECT_EQ(conf.GetSocketAddress("a", "x:1")->port, 8030);
  EXPECT_EQ(conf.GetSocketAddress("missing", "fallback:8088")->host, "fallback");
  auto bad = conf.GetSocketAddress("bad", "x:1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "yarn-site.xml: bad = 'rm' is not host:port");
}

TEST(ConfigurationTest, RejectsBadFilesAndAppliesNothingFromThem) {
  Configuration conf;
  auto s = conf.AddResourceString("<configuration><property><name>a</name>", "broken.xml");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("broken.xml: not well-formed XML at line"), std::string::npos);
  EXPECT_FALSE(conf.AddResourceString("<conf></conf>", "wrong-root.xml").ok());
  EXPECT_FALSE(
      conf.AddResourceString(Xml(Property("a", "1") + "<property><value>v</value></property>"),
                             "noname.xml")
          .ok());
  EXPECT_FALSE(conf.Get("a").has_value()) << "nothing from a rejected file applies";
  EXPECT_FALSE(conf.AddResourceString(Xml("<bogus/>"), "bogus.xml").ok());
  // A property without <value> is skipped, as Hadoop does.
  ASSERT_TRUE(
      conf.AddResourceString(Xml("<property><name>novalue</name></property>"), "ok.xml").ok());
  EXPECT_FALSE(conf.Get("novalue").has_value());
}

TEST(ConfigurationTest, ReadsFilesAndReportsMissingOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "spindle_configuration_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "yarn-site.xml").string();
  {
    std::ofstream out(path);
    out << Xml(Property("yarn.resourcemanager.address", "127.0.0.1:8032") +
               Property("x", "a &amp; b"));
  }
  Configuration conf;
  ASSERT_TRUE(conf.AddResourceFile(path).ok());
  EXPECT_EQ(conf.Get("yarn.resourcemanager.address"), "127.0.0.1:8032");
  EXPECT_EQ(conf.Get("x"), "a & b");
  EXPECT_EQ(conf.SourceOf("x"), path);
  auto missing = conf.AddResourceFile((dir / "nope.xml").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("nope.xml"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(ConfigurationTest, ReadsTheCapturedHadoopConfig) {
  Configuration conf;
  const std::string dir =
      std::string(SPINDLE_SHARED_DIR) + "/captures/hadoop-2.6.0/distributedshell/conf/";
  for (const char* file : {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"}) {
    ASSERT_TRUE(conf.AddResourceFile(dir + file).ok()) << file;
  }
  EXPECT_EQ(conf.GetTrimmedStrings("yarn.scheduler.capacity.root.queues"),
            std::vector<std::string>{"default"});
  EXPECT_FALSE(conf.KeysWithPrefix("yarn.scheduler.capacity.root.").empty());
}

}  // namespace
}  // namespace spindle::rm
