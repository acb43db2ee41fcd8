#include "base/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace spindle {
namespace {

using namespace std::chrono_literals;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ChildProcessTest, RunsWithArgsEnvAndLog) {
  const std::string log = ::testing::TempDir() + "/child-" + std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  ChildOptions o;
  o.binary = "/bin/sh";
  o.argv0 = "sh";
  o.args = {"-c", "echo out $CHILD_TEST_VAR; echo err >&2; exit 3"};
  o.extra_env = {"CHILD_TEST_VAR=42"};
  o.log_path = log;
  auto child = ChildProcess::Spawn(o);
  ASSERT_TRUE(child.ok()) << child.status().ToString();
  EXPECT_GT(child->pid(), 0);
  ASSERT_TRUE(child->WaitExit(10s));
  EXPECT_EQ(child->pid(), -1);
  EXPECT_TRUE(WIFEXITED(child->wait_status()));
  EXPECT_EQ(WEXITSTATUS(child->wait_status()), 3);
  EXPECT_EQ(ReadAll(log), "out 42\nerr\n");
  std::remove(log.c_str());
}

TEST(ChildProcessTest, StopEndsALongRunningChild) {
  ChildOptions o;
  o.binary = "/bin/sleep";
  o.args = {"600"};
  auto child = ChildProcess::Spawn(o);
  ASSERT_TRUE(child.ok());
  EXPECT_FALSE(child->Exited());
  auto usage = ReadProcessUsage(child->pid());
  EXPECT_TRUE(usage.ok());
  child->Stop(SIGTERM, 10s);
  EXPECT_FALSE(child->running());
  EXPECT_TRUE(WIFSIGNALED(child->wait_status()));
  child->Stop(SIGTERM, 10s);  // idempotent
}

TEST(ChildProcessTest, AMissingBinaryExits127) {
  ChildOptions o;
  o.binary = "/nonexistent/binary";
  auto child = ChildProcess::Spawn(o);
  ASSERT_TRUE(child.ok());
  ASSERT_TRUE(child->WaitExit(10s));
  EXPECT_EQ(WEXITSTATUS(child->wait_status()), 127);
}

TEST(ChildProcessTest, ReadProcessUsageOfThisProcess) {
  auto usage = ReadProcessUsage(getpid());
  ASSERT_TRUE(usage.ok());
  EXPECT_GT(usage->rss_mb, 0);
  EXPECT_GE(usage->peak_rss_mb, usage->rss_mb);
  EXPECT_GE(usage->cpu_seconds, 0);
  EXPECT_TRUE(ReadProcessUsage(999999999).status().IsNotFound());
}

}  // namespace
}  // namespace spindle
