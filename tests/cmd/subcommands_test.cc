#include "cmd/subcommands.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "cmd/version.h"

namespace spindle {
namespace {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

Outcome Spindle(const std::vector<std::string>& args) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = SpindleMain(args);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  return {code, std::move(out), std::move(err)};
}

// The help text with its wrapped lines joined again.
std::string Unwrapped(const std::string& help) {
  std::string out;
  for (size_t i = 0; i < help.size(); ++i) {
    if (help[i] == '\n' && help.compare(i + 1, 30, std::string(30, ' ')) == 0) {
      out += ' ';
      i += 30;
    } else {
      out += help[i];
    }
  }
  return out;
}

std::vector<std::string> Words(const std::string& name) {
  std::vector<std::string> words;
  size_t start = 0;
  while (true) {
    const size_t space = name.find(' ', start);
    words.push_back(name.substr(start, space - start));
    if (space == std::string::npos) return words;
    start = space + 1;
  }
}

TEST(SubcommandsTest, EveryCommandIsListedOnceWithItsSummary) {
  const Outcome top = Spindle({"--help"});
  EXPECT_EQ(top.exit_code, kExitOk);
  std::set<std::string> names;
  for (const Subcommand& c : Subcommands()) {
    EXPECT_TRUE(names.insert(c.spec().name).second) << c.spec().name;
    EXPECT_NE(top.out.find(c.spec().name), std::string::npos) << c.spec().name;
    EXPECT_NE(top.out.find(c.spec().summary), std::string::npos) << c.spec().name;
  }
  for (const char* expected :
       {"rm", "nm", "scheduler", "shell", "shell-am", "replay", "doctor", "bench ipc",
        "bench ipc-idle", "bench pool", "bench windtunnel", "bench nm", "bench recovery",
        "bench wire", "bench sparrow", "bench carbyne"}) {
    EXPECT_EQ(names.count(expected), 1u) << expected;
  }
  EXPECT_EQ(Spindle({"help"}).out, top.out);
  for (size_t start = 0, end; start < top.out.size(); start = end + 1) {
    end = top.out.find('\n', start);
    EXPECT_LE(end - start, 100u) << top.out.substr(start, end - start);
  }
  const Outcome none = Spindle({});
  EXPECT_EQ(none.exit_code, kExitUsage);
  EXPECT_EQ(none.err, top.out);
}

// Every flag of every table: in its command's --help with its default, and
// its default a value of its own kind and range (parsing the defaults back).
TEST(SubcommandsTest, EveryHelpListsEveryFlagWithItsDefault) {
  for (const Subcommand& c : Subcommands()) {
    const CommandSpec& spec = c.spec();
    std::vector<std::string> args = Words(spec.name);
    args.push_back("--help");
    const Outcome help = Spindle(args);
    EXPECT_EQ(help.exit_code, kExitOk) << spec.name;
    EXPECT_EQ(help.out, HelpText(spec)) << spec.name;
    for (size_t start = 0, end; start < help.out.size(); start = end + 1) {
      end = help.out.find('\n', start);
      EXPECT_LE(end - start, 100u) << spec.name << ": " << help.out.substr(start, end - start);
    }
    std::vector<std::string> with_defaults;
    for (const FlagSpec& f : spec.flags) {
      EXPECT_NE(help.out.find("--" + f.name + (f.kind == FlagKind::kSwitch ? "" : " ")),
                std::string::npos)
          << spec.name << " --" << f.name;
      EXPECT_FALSE(f.help.empty()) << spec.name << " --" << f.name;
      if (f.kind != FlagKind::kSwitch && !f.default_text.empty()) {
        EXPECT_NE(Unwrapped(help.out).find("default: " + f.default_text), std::string::npos)
            << spec.name << " --" << f.name << "\n"
            << help.out;
      }
      if (f.has_default_value && f.kind != FlagKind::kSwitch) {
        with_defaults.push_back("--" + f.name + "=" + f.default_text);
      }
      if (f.required) with_defaults.push_back("--" + f.name + "=x");
    }
    auto parsed = CommandLine::Parse(spec, with_defaults);
    EXPECT_TRUE(parsed.ok()) << spec.name << ": " << parsed.status().ToString();
  }
}

TEST(SubcommandsTest, HelpCommandShowsACommandsFlags) {
  const Outcome rm = Spindle({"help", "rm"});
  EXPECT_EQ(rm.exit_code, kExitOk);
  EXPECT_NE(rm.out.find("--ports-file FILE"), std::string::npos) << rm.out;
  const Outcome wire = Spindle({"help", "bench", "wire"});
  EXPECT_EQ(wire.exit_code, kExitOk);
  EXPECT_NE(wire.out.find("--containers-per-app N"), std::string::npos) << wire.out;
  const Outcome benches = Spindle({"bench", "--help"});
  EXPECT_EQ(benches.exit_code, kExitOk);
  for (const char* b : {"ipc", "pool", "windtunnel", "nm", "recovery", "wire"}) {
    EXPECT_NE(benches.out.find("  " + std::string(b) + " "), std::string::npos) << b;
  }
  EXPECT_EQ(Spindle({"bench"}).exit_code, kExitUsage);
}

TEST(SubcommandsTest, MistypedCommandsAndFlagsExitTwoWithASuggestion) {
  const Outcome command = Spindle({"shel", "--command", "true"});
  EXPECT_EQ(command.exit_code, kExitUsage);
  EXPECT_NE(command.err.find("unknown command 'shel' (did you mean 'shell'?)"), std::string::npos)
      << command.err;
  const Outcome bench = Spindle({"bench", "wier"});
  EXPECT_EQ(bench.exit_code, kExitUsage);
  EXPECT_NE(bench.err.find("unknown benchmark 'wier' (did you mean 'bench wire'?)"),
            std::string::npos)
      << bench.err;
  const Outcome flag = Spindle({"rm", "--port-file", "/tmp/x"});
  EXPECT_EQ(flag.exit_code, kExitUsage);
  EXPECT_EQ(flag.err,
            "spindle rm: unknown flag --port-file (did you mean --ports-file?)\n"
            "run 'spindle rm --help' for its flags\n");
  const Outcome value = Spindle({"bench", "ipc", "--seconds", "soon"});
  EXPECT_EQ(value.exit_code, kExitUsage);
  EXPECT_NE(value.err.find("spindle bench ipc: --seconds wants an integer, got 'soon'"),
            std::string::npos)
      << value.err;
  const Outcome missing = Spindle({"shell"});
  EXPECT_EQ(missing.exit_code, kExitUsage);
  EXPECT_NE(missing.err.find("--command is required"), std::string::npos) << missing.err;
}

TEST(VersionTest, NamesVersionRevisionAndHadoopLine) {
  const Outcome v = Spindle({"--version"});
  EXPECT_EQ(v.exit_code, kExitOk);
  EXPECT_EQ(v.out, VersionText());
  EXPECT_TRUE(std::regex_match(
      v.out, std::regex("spindle [0-9]+\\.[0-9]+\\.[0-9]+\n"
                        "git revision: (unknown|([^ \n]+-g)?[0-9a-f]{7,40}(-dirty)?)\n"
                        "Hadoop line: 3\\.3 \\(default; spindle\\.compat\\.hadoop-version\\)\n")))
      << v.out;
  EXPECT_EQ(std::string(DefaultHadoopLine()), "3.3");
}

}  // namespace
}  // namespace spindle
