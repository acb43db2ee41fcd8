#include "cmd/command_line.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

CommandLine Parse(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  auto cl = CommandLine::Parse(static_cast<int>(argv.size()), argv.data(), 0);
  CHECK(cl.ok()) << cl.status().ToString();
  return *std::move(cl);
}

TEST(CommandLineTest, FormsAndPositionals) {
  const CommandLine cl = Parse({"--a=1", "--b", "two", "--c", "pos"});
  EXPECT_EQ(cl.GetString("a", ""), "1");
  EXPECT_EQ(cl.GetString("b", ""), "two");
  EXPECT_TRUE(cl.Has("c"));
  EXPECT_EQ(*cl.GetInt("a", 0), 1);
  EXPECT_FALSE(cl.GetInt("b", 0).ok());
  EXPECT_EQ(*cl.GetInt("missing", 7), 7);
  EXPECT_FALSE(cl.CheckKnown({"a", "b"}).ok());
  EXPECT_TRUE(cl.CheckKnown({"a", "b", "c"}).ok());
}

TEST(CommandLineTest, DoublesAreCheckedAgainstTheirRange) {
  const CommandLine cl = Parse({"--speed=2.5", "--bad=x", "--big=1e9", "--inf=inf"});
  EXPECT_DOUBLE_EQ(*cl.GetDouble("speed", 1, 0.001, 1000), 2.5);
  EXPECT_DOUBLE_EQ(*cl.GetDouble("absent", 1, 0.001, 1000), 1);
  const auto bad = cl.GetDouble("bad", 1, 0, 10);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("--bad wants a number, got 'x'"), std::string::npos);
  EXPECT_FALSE(cl.GetDouble("big", 1, 0, 10).ok());
  EXPECT_FALSE(cl.GetDouble("inf", 1, 0, 1e308).ok());
}

TEST(CommandLineTest, ListsDropEmptyItems) {
  const CommandLine cl = Parse({"--modes=parsync:adaptive,,statesync,"});
  EXPECT_EQ(cl.GetList("modes"), (std::vector<std::string>{"parsync:adaptive", "statesync"}));
  EXPECT_EQ(cl.GetList("other", {"x"}), (std::vector<std::string>{"x"}));
}

}  // namespace
}  // namespace spindle
