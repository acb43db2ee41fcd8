// /logLevel on glog: the lines `hadoop daemonlog` parses, the global level
// (minloglevel and v), a module's VLOG level, and bad levels. Every test
// restores glog's flags.
#include "web/metrics/log_level.h"

#include <glog/logging.h>
#include <gtest/gtest.h>

#include <regex>

namespace spindle::web {
namespace {

class LogLevelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_min_ = FLAGS_minloglevel;
    saved_v_ = FLAGS_v;
  }
  void TearDown() override {
    FLAGS_minloglevel = saved_min_;
    FLAGS_v = saved_v_;
    google::SetVLOGLevel("log_level_test", 0);
  }

  static HttpResponse Call(std::vector<std::pair<std::string, std::string>> query) {
    HttpRequest request;
    request.path = "/logLevel";
    request.query = std::move(query);
    return HandleLogLevel(request);
  }

  // What `hadoop daemonlog` prints: the marked lines, tags stripped.
  static std::vector<std::string> CliLines(const std::string& html) {
    std::vector<std::string> out;
    std::istringstream in(html);
    const std::regex tag("<[^>]*>");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("<!-- OUTPUT -->", 0) == 0) out.push_back(std::regex_replace(line, tag, ""));
    }
    return out;
  }

  int saved_min_ = 0;
  int saved_v_ = 0;
};

TEST_F(LogLevelTest, RootLevelSetsMinLogLevelAndVerbosity) {
  HttpResponse response =
      Call({{"log", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager"},
            {"level", "DEBUG"}});
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(FLAGS_minloglevel, 0);
  EXPECT_EQ(FLAGS_v, 1);
  EXPECT_TRUE(VLOG_IS_ON(1));
  EXPECT_FALSE(VLOG_IS_ON(2));
  const std::vector<std::string> lines = CliLines(response.body);
  ASSERT_EQ(lines.size(), 5u) << response.body;
  EXPECT_EQ(lines[0],
            "Submitted Class Name: org.apache.hadoop.yarn.server.resourcemanager.ResourceManager");
  EXPECT_EQ(lines[1].rfind("Log Class: ", 0), 0u);
  EXPECT_EQ(lines[2], "Submitted Level: DEBUG");
  EXPECT_EQ(lines[3], "Setting Level to DEBUG ...");
  EXPECT_EQ(lines[4], "Effective Level: DEBUG");

  Call({{"log", "root"}, {"level", "warn"}});
  EXPECT_EQ(FLAGS_minloglevel, 1);
  EXPECT_EQ(FLAGS_v, 0);
  Call({{"log", "root"}, {"level", "ERROR"}});
  EXPECT_EQ(FLAGS_minloglevel, 2);
  Call({{"log", "root"}, {"level", "TRACE"}});
  EXPECT_EQ(FLAGS_minloglevel, 0);
  EXPECT_EQ(FLAGS_v, 2);
  EXPECT_TRUE(VLOG_IS_ON(2));
  // A get shows the effective level without changing it.
  const std::vector<std::string> get = CliLines(Call({{"log", "root"}}).body);
  ASSERT_EQ(get.size(), 3u);
  EXPECT_EQ(get[2], "Effective Level: TRACE");
  Call({{"log", "root"}, {"level", "INFO"}});
  EXPECT_EQ(FLAGS_minloglevel, 0);
  EXPECT_EQ(FLAGS_v, 0);
  EXPECT_FALSE(VLOG_IS_ON(1));
}

TEST_F(LogLevelTest, ModuleNameSetsThatModulesVlogLevel) {
  FLAGS_v = 0;
  EXPECT_FALSE(VLOG_IS_ON(2));
  const HttpResponse response = Call({{"log", "log_level_test"}, {"level", "TRACE"}});
  // This file is the module: its VLOG(2) is on, the global level unchanged.
  EXPECT_TRUE(VLOG_IS_ON(2));
  EXPECT_EQ(FLAGS_v, 0);
  const std::vector<std::string> lines = CliLines(response.body);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[4], "Effective Level: TRACE");
  Call({{"log", "log_level_test"}, {"level", "INFO"}});
  EXPECT_FALSE(VLOG_IS_ON(1));
}

TEST_F(LogLevelTest, BadLevelChangesNothing) {
  const int min = FLAGS_minloglevel;
  const int v = FLAGS_v;
  const HttpResponse response = Call({{"log", "root"}, {"level", "LOUD"}});
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(FLAGS_minloglevel, min);
  EXPECT_EQ(FLAGS_v, v);
  const std::vector<std::string> lines = CliLines(response.body);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[2], "Submitted Level: LOUD");
  EXPECT_EQ(lines[3], "Bad Level : LOUD");
  EXPECT_EQ(lines[4].rfind("Effective Level: ", 0), 0u);
  EXPECT_NE(response.body.find("<!-- OUTPUT -->Bad Level : <b>LOUD</b><br />"), std::string::npos);
}

TEST_F(LogLevelTest, NamesAndLevelsAreEscapedAndFormsShown) {
  const HttpResponse response = Call({{"log", "<script>"}, {"level", "<b>"}});
  EXPECT_EQ(response.body.find("<script>"), std::string::npos);
  EXPECT_NE(response.body.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(Call({}).body.find("<input type='submit' value='Set Log Level' />"), std::string::npos);
}

}  // namespace
}  // namespace spindle::web
