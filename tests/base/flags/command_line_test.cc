#include "base/flags/command_line.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

const CommandSpec& TestSpec() {
  static const CommandSpec kSpec{
      "test",
      "a command for the parser's tests",
      {FlagSpec::String("conf", "DIR", "/etc/x", "where the configuration is"),
       FlagSpec::Int("nodes", 2000, "simulated nodes").InRange(1, 10000),
       FlagSpec::Double("speed", 1.5, "times faster").InRange(0.001, 1000),
       FlagSpec::Switch("keep", "keep the files"),
       FlagSpec::List("modes", "MODE,...", "parsync,statesync", "modes to run"),
       FlagSpec::Int("live-apps", 0, "running applications").ComputedDefault("2 x --nodes"),
       FlagSpec::String("json", "FILE", "", "write JSON here")},
      "exit status: 0 or 1"};
  return kSpec;
}

Result<CommandLine> Parse(const std::vector<std::string>& args) {
  return CommandLine::Parse(TestSpec(), args);
}

std::string Error(const std::vector<std::string>& args) {
  auto cl = Parse(args);
  return cl.ok() ? "parsed" : cl.status().message();
}

TEST(CommandLineTest, FormsAndDefaults) {
  auto cl = Parse({"--conf=/a", "--nodes", "12", "--keep", "--speed=2.5"});
  ASSERT_TRUE(cl.ok()) << cl.status().ToString();
  EXPECT_EQ(cl->GetString("conf"), "/a");
  EXPECT_EQ(cl->GetInt("nodes"), 12);
  EXPECT_DOUBLE_EQ(cl->GetDouble("speed"), 2.5);
  EXPECT_TRUE(cl->GetBool("keep"));
  EXPECT_TRUE(cl->Has("keep"));
  EXPECT_FALSE(cl->Has("modes"));
  EXPECT_EQ(cl->GetList("modes"), (std::vector<std::string>{"parsync", "statesync"}));
  EXPECT_EQ(cl->GetString("json"), "");

  auto defaults = Parse({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->GetString("conf"), "/etc/x");
  EXPECT_EQ(defaults->GetInt("nodes"), 2000);
  EXPECT_DOUBLE_EQ(defaults->GetDouble("speed"), 1.5);
  EXPECT_FALSE(defaults->GetBool("keep"));
  EXPECT_FALSE(defaults->Has("live-apps"));
  EXPECT_EQ(defaults->GetString("live-apps", "computed"), "computed");
}

TEST(CommandLineTest, SwitchesTakeTrueOrFalseOnly) {
  auto off = Parse({"--keep=false"});
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->GetBool("keep"));
  // A switch never swallows the next word, and a value flag never takes a flag as its value.
  EXPECT_EQ(Error({"--keep", "yes"}),
            "unexpected argument 'yes' (flags are --name value or "
            "--name=value)");
  EXPECT_EQ(Error({"--keep=maybe"}),
            "--keep is a switch: give it alone, or =true or =false, not 'maybe'");
  EXPECT_EQ(Error({"--json", "--keep"}),
            "--json needs a value (FILE); for one that starts with --, write --json=VALUE");
  auto dashes = Parse({"--json=--keep"});
  ASSERT_TRUE(dashes.ok());
  EXPECT_EQ(dashes->GetString("json"), "--keep");
  EXPECT_FALSE(dashes->GetBool("keep"));
}

TEST(CommandLineTest, ValuesAreCheckedAgainstTheirKindAndRange) {
  EXPECT_EQ(Error({"--nodes", "x"}), "--nodes wants an integer, got 'x'");
  EXPECT_EQ(Error({"--nodes", "0"}), "--nodes must be 1 to 10000, got '0'");
  EXPECT_EQ(Error({"--speed=fast"}), "--speed wants a number, got 'fast'");
  EXPECT_EQ(Error({"--speed=inf"}), "--speed wants a number, got 'inf'");
  EXPECT_EQ(Error({"--speed=1e9"}), "--speed must be 0.001 to 1000, got '1e9'");
  EXPECT_EQ(Error({"--nodes"}),
            "--nodes needs a value (N); for one that starts with --, write --nodes=VALUE");
}

TEST(CommandLineTest, UnknownFlagsAreRefusedWithASuggestion) {
  EXPECT_EQ(Error({"--nodse", "3"}), "unknown flag --nodse (did you mean --nodes?)");
  EXPECT_EQ(Error({"--spede=3"}), "unknown flag --spede (did you mean --speed?)");
  EXPECT_EQ(Error({"--hlep"}), "unknown flag --hlep (did you mean --help?)");
  EXPECT_EQ(Error({"--live"}), "unknown flag --live (did you mean --live-apps?)");
  EXPECT_EQ(Error({"--zzzzzzzz"}), "unknown flag --zzzzzzzz");
  EXPECT_EQ(Error({"stray"}),
            "unexpected argument 'stray' (flags are --name value or "
            "--name=value)");
}

TEST(CommandLineTest, RequiredFlagsMustBeGiven) {
  const CommandSpec spec{"req", "", {FlagSpec::String("command", "CMD", "", "what").Required()}};
  auto missing = CommandLine::Parse(spec, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "--command is required (what)");
  EXPECT_TRUE(CommandLine::Parse(spec, {"--command", "true"}).ok());
  EXPECT_NE(HelpText(spec).find("(required)"), std::string::npos) << HelpText(spec);
}

TEST(CommandLineTest, TheLastOfARepeatedFlagWins) {
  auto cl = Parse({"--nodes", "3", "--nodes=4"});
  ASSERT_TRUE(cl.ok());
  EXPECT_EQ(cl->GetInt("nodes"), 4);
}

TEST(CommandLineTest, HelpIsAskedByHelpOrHBeforeADoubleDash) {
  EXPECT_TRUE(CommandLine::HelpRequested({"--nodes", "3", "--help"}));
  EXPECT_TRUE(CommandLine::HelpRequested({"-h"}));
  EXPECT_FALSE(CommandLine::HelpRequested({"--", "--help"}));
  EXPECT_FALSE(CommandLine::HelpRequested({"--helpful"}));
}

TEST(HelpTextTest, ListsEveryFlagWithItsDefaultAndRange) {
  const std::string help = HelpText(TestSpec());
  EXPECT_EQ(help.rfind("usage: spindle test [flags]\na command for the parser's tests\n", 0), 0u)
      << help;
  for (const FlagSpec& f : TestSpec().flags) {
    EXPECT_NE(help.find("--" + f.name), std::string::npos) << f.name << "\n" << help;
    if (f.kind != FlagKind::kSwitch && !f.default_text.empty()) {
      EXPECT_NE(help.find("default: " + f.default_text), std::string::npos) << f.name << help;
    }
  }
  EXPECT_NE(help.find("  --nodes N"), std::string::npos) << help;
  EXPECT_NE(help.find("1 to 10000; default: 2000"), std::string::npos) << help;
  EXPECT_NE(help.find("default: 2 x --nodes"), std::string::npos) << help;
  EXPECT_NE(help.find("--help"), std::string::npos);
  EXPECT_NE(help.find("exit status: 0 or 1"), std::string::npos);
  for (size_t start = 0, end; start < help.size(); start = end + 1) {
    end = help.find('\n', start);
    EXPECT_LE(end - start, 100u) << help.substr(start, end - start);
  }
}

TEST(ClosestMatchTest, SuggestsOnlyNearMisses) {
  const std::vector<std::string> commands = {"rm", "nm", "shell", "shell-am", "replay", "bench"};
  EXPECT_EQ(ClosestMatch("shel", commands), "shell");
  EXPECT_EQ(ClosestMatch("repaly", commands), "replay");
  EXPECT_EQ(ClosestMatch("rn", commands), "rm");
  EXPECT_EQ(ClosestMatch("kubernetes", commands), "");
}

TEST(RunCommandTest, UsageErrorsExitTwoAndNameTheCommand) {
  static int ran = 0;
  const CommandMain run = [](const CommandLine& flags) {
    ran = static_cast<int>(flags.GetInt("nodes"));
    return 0;
  };
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunCommand(TestSpec(), run, {"--nodse=3"}), kExitUsage);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "spindle test: unknown flag --nodse (did you mean --nodes?)\n"
            "run 'spindle test --help' for its flags\n");
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(RunCommand(TestSpec(), run, {"--nodes=3"}), kExitOk);
  EXPECT_EQ(ran, 3);
  testing::internal::CaptureStdout();
  EXPECT_EQ(RunCommand(TestSpec(), run, {"--nodse=4", "--help"}), kExitOk);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), HelpText(TestSpec()));
  EXPECT_EQ(ran, 3) << "--help does not run the command";
}

TEST(ReportTest, StatusesArePrintedWithoutTheirCodeNames) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(ReportFailure("rm", Status::Corruption("the store holds a bad record")), kExitFailure);
  EXPECT_EQ(ReportFailure("shell", Status::Remote("org.apache.hadoop.yarn.exceptions.YarnException",
                                                  "queue nope does not exist")),
            kExitFailure);
  EXPECT_EQ(ReportUsageError("nm", Status::InvalidArgument("--simulate wants an integer")),
            kExitUsage);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "spindle rm: the store holds a bad record\n"
            "spindle shell: org.apache.hadoop.yarn.exceptions.YarnException: queue nope does not "
            "exist\n"
            "spindle nm: --simulate wants an integer\n"
            "run 'spindle nm --help' for its flags\n");
  for (const char* code : {"Corruption", "InvalidArgument", "RemoteError", "NotFound"}) {
    EXPECT_EQ(err.find(code), std::string::npos) << code;
  }
}

}  // namespace
}  // namespace spindle
