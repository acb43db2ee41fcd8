// The built `spindle` binary as an operator meets it: every command's --help,
// a bad flag, --version, and `spindle shell` against an RM that is not there.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/child_process.h"
#include "base/net/free_port.h"
#include "cmd/subcommands.h"

namespace spindle {
namespace {

struct Ran {
  bool ended = false;
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

class CliTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("spindle-cli-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs the binary to its end (killed after `limit`: ended is then false).
  Ran Spindle(const std::vector<std::string>& args,
              std::chrono::milliseconds limit = std::chrono::seconds(60)) {
    const std::string log = (dir_ / ("run" + std::to_string(++runs_) + ".log")).string();
    ChildOptions options;
    options.binary = SPINDLE_BINARY;
    options.args = args;
    options.log_path = log;
    // No configuration from the machine running the test.
    options.extra_env = {"HADOOP_CONF_DIR=" + dir_.string(), "YARN_CONF_DIR=" + dir_.string()};
    auto child = ChildProcess::Spawn(options);
    Ran run;
    if (!child.ok()) {
      ADD_FAILURE() << child.status().ToString();
      return run;
    }
    run.ended = child->WaitExit(limit);
    if (!run.ended) child->Kill();
    if (run.ended && WIFEXITED(child->wait_status())) {
      run.exit_code = WEXITSTATUS(child->wait_status());
    }
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    run.output = text.str();
    return run;
  }

  std::filesystem::path dir_;
  int runs_ = 0;
};

std::vector<std::string> Words(const std::string& name) {
  std::vector<std::string> words;
  std::istringstream in(name);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

TEST_F(CliTest, EveryCommandsHelpExitsZeroAndNamesEachFlag) {
  const Ran top = Spindle({"--help"});
  EXPECT_EQ(top.exit_code, 0) << top.output;
  for (const Subcommand& c : Subcommands()) {
    const CommandSpec& spec = c.spec();
    EXPECT_NE(top.output.find(spec.name), std::string::npos) << spec.name;
    std::vector<std::string> args = Words(spec.name);
    args.push_back("--help");
    const Ran help = Spindle(args);
    EXPECT_EQ(help.exit_code, 0) << spec.name << "\n" << help.output;
    EXPECT_NE(help.output.find("usage: spindle " + spec.name), std::string::npos) << help.output;
    for (const FlagSpec& f : spec.flags) {
      EXPECT_NE(help.output.find("--" + f.name), std::string::npos)
          << spec.name << " --" << f.name << "\n"
          << help.output;
    }
  }
}

TEST_F(CliTest, ABadFlagExitsTwoWithASuggestion) {
  const Ran rm = Spindle({"rm", "--hlep"});
  EXPECT_EQ(rm.exit_code, 2) << rm.output;
  EXPECT_NE(rm.output.find("unknown flag --hlep (did you mean --help?)"), std::string::npos)
      << rm.output;
  EXPECT_EQ(rm.output.find("InvalidArgument"), std::string::npos) << rm.output;
  const Ran replay = Spindle({"replay", "--format", "phases", "--nodes", "ten"});
  EXPECT_EQ(replay.exit_code, 2) << replay.output;
  EXPECT_NE(replay.output.find("--nodes wants an integer, got 'ten'"), std::string::npos)
      << replay.output;
  const Ran command = Spindle({"shel"});
  EXPECT_EQ(command.exit_code, 2) << command.output;
  EXPECT_NE(command.output.find("did you mean 'shell'?"), std::string::npos) << command.output;
}

TEST_F(CliTest, VersionNamesTheHadoopLine) {
  const Ran v = Spindle({"--version"});
  EXPECT_EQ(v.exit_code, 0) << v.output;
  EXPECT_EQ(v.output.rfind("spindle ", 0), 0u) << v.output;
  EXPECT_NE(v.output.find("\ngit revision: "), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("\nHadoop line: 3.3 (default; spindle.compat.hadoop-version)\n"),
            std::string::npos)
      << v.output;
}

// --timeout-seconds bounds the whole command, reaching the RM included
// (Hadoop's default retry budget for an unreachable RM is 15 minutes).
TEST_F(CliTest, ShellGivesUpOnAnUnreachableRmAtItsTimeout) {
  // A port nothing listens on: picked free, then released.
  const std::string rm = "127.0.0.1:" + std::to_string(net::PickFreeLoopbackPort().value());
  const Ran shell = Spindle({"shell", "--timeout-seconds", "2", "--rm", rm, "--command", "true"});
  ASSERT_TRUE(shell.ended) << "still running after 60 s\n" << shell.output;
  EXPECT_EQ(shell.exit_code, 1) << shell.output;
  EXPECT_NE(shell.output.find("the RM at " + rm + " was not reachable"), std::string::npos)
      << shell.output;
  EXPECT_EQ(shell.output.find("IOError"), std::string::npos) << shell.output;
}

}  // namespace
}  // namespace spindle
