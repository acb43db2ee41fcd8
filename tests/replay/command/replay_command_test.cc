#include "replay/replay_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

}  // namespace
}  // namespace spindle::replay
