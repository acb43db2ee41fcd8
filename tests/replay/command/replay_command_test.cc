#include "replay/replay_command.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "replay/trace_catalog.h"
#include "tests/support/html_checks.h"

namespace spindle::replay {
namespace {

std::string Shared(const std::string& path) { return std::string(SPINDLE_SHARED_DIR) + "/" + path; }

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int RunReplay(std::vector<std::string> args) {
  args.insert(args.begin(), "--no-progress");
  return RunCommand(ReplayCommand(), &ReplayMain, args);
}

struct Printed {
  int code = 0;
  std::string out;
  std::string err;
};

// A replay with what it prints (progress on: stderr is no terminal here).
Printed RunPrinting(const std::vector<std::string>& args) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Printed p;
  p.code = RunCommand(ReplayCommand(), &ReplayMain, args);
  p.out = ::testing::internal::GetCapturedStdout();
  p.err = ::testing::internal::GetCapturedStderr();
  return p;
}

// A file in a fresh folder of this test's own.
std::string Write(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/" + info->name() + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + name) << text;
  return dir + "/" + name;
}

TEST(ParsePolicyTest, ModeAndStrategy) {
  auto p = ParsePolicy("parsync:adaptive");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->mode, pool::SyncMode::kParSync);
  EXPECT_EQ(p->strategy, pool::StrategyKind::kAdaptive);
  EXPECT_EQ(p->label, "parsync:adaptive");
  auto s = ParsePolicy("statesync");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->mode, pool::SyncMode::kStateSync);
  EXPECT_EQ(s->strategy, pool::StrategyKind::kLatencyFirst);
  EXPECT_FALSE(ParsePolicy("fastest").ok());
  EXPECT_FALSE(ParsePolicy("parsync:best").ok());
}

TEST(TraceCatalogTest, FormatsAreNamedOrGuessed) {
  TraceSpec spec;
  spec.paths = {"/x/task_events-part-00001-of-00500.csv.gz"};
  EXPECT_EQ(*ResolveFormat(spec), "google2011");
  spec.paths = {"/x/2jobs2min-rumen-jh.json"};
  EXPECT_EQ(*ResolveFormat(spec), "rumen");
  spec.paths = {"/x/inputsls.json"};
  EXPECT_EQ(*ResolveFormat(spec), "sls");
  spec.paths = {"/x/syn.json"};
  EXPECT_EQ(*ResolveFormat(spec), "synth");
  spec.paths = {"/x/batch_task.csv"};
  EXPECT_FALSE(ResolveFormat(spec).ok()) << "v2017 or v2018: must be said";
  spec.format = "alibaba2018";
  EXPECT_EQ(*ResolveFormat(spec), "alibaba2018");
  spec.format = "parquet";
  EXPECT_FALSE(ResolveFormat(spec).ok());
}

TEST(TraceCatalogTest, ClustersComeFromNodeFilesTracesOrFlags) {
  TraceSpec spec;
  spec.paths = {Shared("traces/hadoop-sls/inputsls.json")};
  auto from_trace = ClusterNodes(spec);
  ASSERT_TRUE(from_trace.ok()) << from_trace.status().ToString();
  EXPECT_FALSE(from_trace->empty());
  spec.nodes_path = Shared("traces/hadoop-sls/nodes.json");
  auto from_file = ClusterNodes(spec);
  ASSERT_TRUE(from_file.ok());
  EXPECT_EQ(from_file->size(), 19u);
  spec.nodes = 7;
  auto generated = ClusterNodes(spec);
  ASSERT_TRUE(generated.ok());
  EXPECT_EQ(generated->size(), 7u);
  TraceSpec google;
  google.paths = {Shared("traces/google-2011/task_events-part-00001-of-00500.csv.gz")};
  EXPECT_FALSE(ClusterNodes(google).ok()) << "Google's trace needs --nodes";
}

TEST(ReplayCommandTest, WindTunnelReplayOfTheSlsSampleWritesTheReport) {
  const std::string out = ::testing::TempDir() + "/replay_cmd_" + std::to_string(::getpid());
  ASSERT_EQ(RunReplay({"--trace", Shared("traces/hadoop-sls/inputsls.json"), "--nodes-file",
                       Shared("traces/hadoop-sls/nodes.json"), "--queues",
                       Shared("traces/hadoop-sls/capacity-scheduler.xml"), "--compare",
                       "parsync:latency-first,statesync", "--out", out}),
            0);
  const std::string summary = Slurp(out + "/summary.txt");
  EXPECT_NE(summary.find("parsync:latency-first"), std::string::npos) << summary;
  EXPECT_NE(summary.find("statesync"), std::string::npos);
  EXPECT_NE(summary.find("2 jobs"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("VIOLATION"), std::string::npos) << summary;
  const std::string html = Slurp(out + "/report.html");
  EXPECT_EQ(testing::CheckTags(html), "");
  EXPECT_NE(Slurp(out + "/report.json").find("\"tasks_ended\":"), std::string::npos);
  EXPECT_GT(Slurp(out + "/series.csv").size(), 100u);
  std::filesystem::remove_all(out);
}

TEST(ReplayCommandTest, BadFlagsAndInputsExitTwo) {
  EXPECT_EQ(RunReplay({"--trace", "/no/such/inputsls.json", "--nodes", "3"}), 2);
  EXPECT_EQ(RunReplay({"--format", "phases"}), 2) << "phases needs a cluster";
  EXPECT_EQ(RunReplay({"--format", "phases", "--nodes", "10", "--mode", "sideways"}), 2);
  EXPECT_EQ(RunReplay({"--format", "phases", "--nodes", "10", "--bogus", "1"}), 2);
  EXPECT_EQ(RunReplay({"--format", "phases", "--nodes", "10", "--compare", "parsync:nope"}), 2);
}

TEST(ReplayCommandTest, GeneratedPhasesRunInTheWindTunnel) {
  EXPECT_EQ(RunReplay({"--format", "phases", "--nodes", "200", "--node-shape", "2048,2", "--rate",
                       "100", "--phase-seconds", "2", "--tasks-per-job", "10", "--preferred-nodes",
                       "5", "--compare", "parsync:latency-first,parsync:quality-first,monolithic"}),
            0);
}

// Alibaba v2017 as published: batch_task.csv with a header, a waiting task,
// a task created before the window, a malformed row (--skip-bad), plan_cpu
// in hundredths; server_event.csv as the machine file, with an error. What
// reading took liberties with is a warning, not a violation.
TEST(ReplayCommandTest, AlibabaV2017AsPublishedReplaysWithWarnings) {
  const std::string tasks = Write("batch_task.csv",
                                  "create_timestamp,modify_timestamp,job_id,task_id,instance_num,"
                                  "status,plan_cpu,plan_mem\n"
                                  "-5,20,1,1,4,Terminated,50,0.01\n"
                                  "2,30,1,2,2,Waiting,,\n"
                                  "3,20,2,3,2,Terminated,100,0.02\n"
                                  "4,20,2,4,2,Terminated,1O0,0.02\n");
  const std::string machines = Write("server_event.csv",
                                     "0,1,add,,64,0.5,0.1\n"
                                     "0,2,add,,64,0.5,0.1\n"
                                     "5,2,softerror,machine_fail,0,0,0\n");
  const Printed p = RunPrinting({"--no-progress", "--format", "alibaba2017", "--trace", tasks,
                                 "--nodes-file", machines, "--skip-bad"});
  EXPECT_EQ(p.code, 0) << p.out << p.err;
  EXPECT_EQ(p.out.find("VIOLATION"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("WARNING: trace: 1 malformed records skipped (--skip-bad); first: "
                       "batch_task.csv:5: field 7 (plan_cpu): '1O0' is not a number"),
            std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("WARNING: trace: 1 x task with no plan_cpu/plan_mem"), std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("WARNING: trace: 1 x create_time before the trace window"),
            std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("2 jobs, 6 tasks"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("node events: 1"), std::string::npos) << p.out;
}

TEST(ReplayCommandTest, AnEmptyTraceExitsOneWithTheReason) {
  const std::string tasks = Write("batch_task.csv", "10,20,1,1,4,Waiting,,\n");
  const Printed p =
      RunPrinting({"--no-progress", "--format", "alibaba2017", "--trace", tasks, "--nodes", "2"});
  EXPECT_EQ(p.code, 1) << p.out << p.err;
  EXPECT_NE(p.err.find("nothing replayed: the trace gave no job (0 jobs, 0 tasks, 1 records read, "
                       "1 dropped (task with no plan_cpu/plan_mem"),
            std::string::npos)
      << p.err;
}

TEST(ReplayCommandTest, EveryJobRejectedExitsOneWithTheReason) {
  // plan_cpu read as whole cores: 50 vcores on 32-vcore nodes.
  const std::string tasks = Write("batch_task.csv",
                                  "0,20,1,1,4,Terminated,50,0.01\n"
                                  "1,20,2,1,4,Terminated,60,0.01\n");
  const Printed cores = RunPrinting({"--no-progress", "--format", "alibaba2017", "--trace", tasks,
                                     "--nodes", "2", "--plan-cpu-per-core", "1"});
  EXPECT_EQ(cores.code, 1) << cores.out << cores.err;
  EXPECT_NE(cores.err.find("every job (2) was rejected under parsync:latency-first; first: "),
            std::string::npos)
      << cores.err;
  EXPECT_NE(cores.err.find("--plan-cpu-per-core"), std::string::npos) << cores.err;
  // The published unit: both run.
  EXPECT_EQ(RunReplay({"--format", "alibaba2017", "--trace", tasks, "--nodes", "2"}), 0);
  // A Rumen trace whose every task is above the maximum allocation.
  const Printed rumen =
      RunPrinting({"--no-progress", "--trace", Shared("traces/hadoop-sls/2jobs2min-rumen-jh.json"),
                   "--min-allocation", "16,1", "--max-allocation", "64,1"});
  EXPECT_EQ(rumen.code, 1) << rumen.out << rumen.err;
  EXPECT_NE(rumen.err.find("every job (2) was rejected"), std::string::npos) << rumen.err;
}

// Under nohup or a pipe (stderr not a terminal): progress lines on trace time.
TEST(ReplayCommandTest, ProgressLinesWhenStderrIsNoTerminal) {
  const Printed p =
      RunPrinting({"--format", "phases", "--nodes", "20", "--rate", "20", "--phases", "50,50",
                   "--phase-seconds", "3", "--task-seconds", "1", "--progress-seconds", "0"});
  EXPECT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.err.find("replay parsync:latency-first: trace "), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("jobs submitted"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("trace s/s"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("ETA "), std::string::npos) << p.err;
  EXPECT_EQ(p.err.find("100.0%"), std::string::npos) << "never 100% before the end: " << p.err;
}

// A comparison stopped by SIGTERM keeps the policies it finished and says
// which one was cut. The replay runs in a child process on the real clock
// (six seconds of trace a policy: 30 tasks in 3 jobs of 10); the signal is
// sent once the first policy's results are written. (With 100 tasks a job
// the trace held no job at all, every policy ended at once and where the
// signal landed was a race.)
TEST(ReplayCommandTest, SigtermKeepsTheFinishedPoliciesAndNamesTheCutOne) {
  const std::string out = ::testing::TempDir() + "/replay_sigterm_" + std::to_string(::getpid());
  std::filesystem::remove_all(out);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int code = RunReplay({"--format",        "phases",
                                "--nodes",         "10",
                                "--rate",          "10",
                                "--phases",        "50,50",
                                "--phase-seconds", "3",
                                "--tasks-per-job", "10",
                                "--task-seconds",  "1",
                                "--clock",         "real",
                                "--compare",       "parsync:latency-first,monolithic,statesync",
                                "--out",           out});
    _exit(code);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(out + "/report.json") &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(std::filesystem::exists(out + "/report.json"));
  const std::string first = Slurp(out + "/summary.txt");
  EXPECT_NE(first.find("NOT RUN monolithic (not yet run)"), std::string::npos) << first;
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const std::string summary = Slurp(out + "/summary.txt");
  EXPECT_NE(summary.find("parsync:latency-first"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("CUT parsync:latency-first"), std::string::npos) << summary;
  EXPECT_EQ(first.find("trace: 0 jobs"), std::string::npos) << "the trace has jobs: " << first;
  // The signal lands while the second policy runs (cut: the usual case, it
  // replays six seconds), or, on a loaded machine, before the second policy
  // starts (both later ones are not run). Either way it is said.
  const bool cut = summary.find("CUT monolithic: stopped by a signal") != std::string::npos;
  const bool before = summary.find("NOT RUN monolithic (stopped before it)") != std::string::npos;
  EXPECT_TRUE(cut != before) << summary;
  EXPECT_NE(summary.find("NOT RUN statesync (stopped before it)"), std::string::npos) << summary;
  const std::string json = Slurp(out + "/report.json");
  const std::string not_run =
      before ? "\"not_run\":[\"monolithic (stopped before it)\",\"statesync (stopped before it)\"]"
             : "\"not_run\":[\"statesync (stopped before it)\"]";
  EXPECT_NE(json.find(not_run), std::string::npos) << json;
  EXPECT_EQ(json.find("\"cut\":true") != std::string::npos, cut);
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace spindle::replay
