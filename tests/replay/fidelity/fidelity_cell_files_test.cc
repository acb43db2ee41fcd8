// The staging-cell side of the fidelity figure: the files a cell run reads
// say exactly what the wind tunnel runs, and a cell report is read back into
// the scenario's checks.
#include "replay/fidelity/fidelity_cell_files.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "replay/fidelity/fidelity_scenarios.h"
#include "replay/fidelity/fidelity_table.h"
#include "replay/trace/hadoop/sls_nodes.h"
#include "replay/trace/hadoop/sls_reader.h"
#include "rm/config/configuration.h"
#include "rm/queues/queue_tree.h"

namespace spindle::replay {
namespace {

TEST(FidelityCellFilesTest, FilesSayWhatTheTunnelRuns) {
  for (const FidelityScenario& s : FidelityScenarios()) {
    const std::string dir = ::testing::TempDir() + "/fidelity_files/" + s.name;
    ASSERT_TRUE(WriteFidelityCellFiles(s, dir).ok()) << s.name;

    auto reader = hadoop::SlsReader::Open(dir + "/trace.json");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const std::vector<TraceJob> want = s.TraceJobs();
    size_t n = 0;
    TraceJob got;
    while (true) {
      auto more = (*reader)->Next(&got);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      ASSERT_LT(n, want.size());
      const TraceJob& w = want[n++];
      EXPECT_EQ(got.id, w.id);
      EXPECT_EQ(got.queue, w.queue);
      EXPECT_EQ(got.user, w.user);
      EXPECT_EQ(got.arrival_ms, w.arrival_ms);
      ASSERT_EQ(got.stages.size(), 1u) << got.id;
      EXPECT_EQ(got.stages[0].priority, w.stages[0].priority);
      ASSERT_EQ(got.stages[0].tasks.size(), w.stages[0].tasks.size()) << got.id;
      EXPECT_EQ(got.stages[0].tasks[0].memory_mb, w.stages[0].tasks[0].memory_mb);
      EXPECT_EQ(got.stages[0].tasks[0].vcores, w.stages[0].tasks[0].vcores);
      EXPECT_EQ(got.stages[0].tasks[0].duration_ms, w.stages[0].tasks[0].duration_ms);
      EXPECT_TRUE(got.stages[0].tasks[0].preferred_nodes.empty());
    }
    EXPECT_EQ(n, want.size()) << s.name;

    auto nodes = hadoop::ReadSlsNodes(dir + "/nodes.json");
    ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
    const std::vector<TraceNode> want_nodes = s.Nodes();
    ASSERT_EQ(nodes->size(), want_nodes.size());
    for (size_t i = 0; i < want_nodes.size(); ++i) {
      EXPECT_EQ((*nodes)[i].host, want_nodes[i].host);
      EXPECT_EQ((*nodes)[i].rack, want_nodes[i].rack);
      EXPECT_EQ((*nodes)[i].memory_mb, want_nodes[i].memory_mb);
      EXPECT_EQ((*nodes)[i].vcores, want_nodes[i].vcores);
    }

    rm::Configuration conf;
    ASSERT_TRUE(conf.AddResourceFile(dir + "/capacity-scheduler.xml").ok());
    for (const auto& [key, value] : s.capacity_scheduler) EXPECT_EQ(conf.Get(key, ""), value);
    EXPECT_TRUE(rm::QueueTree::Parse(conf).ok()) << s.name;
  }
}

TEST(FidelityCellFilesTest, CommandNamesTheFilesTheLineAndTheRm) {
  const FidelityScenario& s = *FindFidelityScenario("am-limit");
  const std::string java = FidelityCellCommand(s, "d", "d/java", "2.6", "rm:8032,rm:8030,rm:8031");
  EXPECT_NE(java.find("--mode cell"), std::string::npos);
  EXPECT_NE(java.find("--trace d/trace.json"), std::string::npos);
  EXPECT_NE(java.find("--nodes-file d/nodes.json"), std::string::npos);
  EXPECT_NE(java.find("--queues d/capacity-scheduler.xml"), std::string::npos);
  EXPECT_NE(java.find("--min-allocation 1024,1"), std::string::npos);
  EXPECT_NE(java.find("--hadoop-line 2.6"), std::string::npos);
  EXPECT_NE(java.find("--rm rm:8032,rm:8030,rm:8031"), std::string::npos);
  EXPECT_EQ(FidelityCellCommand(s, "d", "d/spindle", "3.3", "").find("--rm"), std::string::npos);
}

// --write-cell: a scenario is written only for a line it has an
// expectation for (fair ordering is a 3.3 scenario), with both runs'
// commands and the table's.
TEST(FidelityCellFilesTest, WritesTheScenariosOfTheLineOnly) {
  std::vector<const FidelityScenario*> all;
  for (const FidelityScenario& s : FidelityScenarios()) all.push_back(&s);
  const std::string dir26 = ::testing::TempDir() + "/fidelity_cell_26";
  const std::string dir33 = ::testing::TempDir() + "/fidelity_cell_33";
  std::filesystem::remove_all(dir26);
  std::filesystem::remove_all(dir33);
  auto text26 = WriteFidelityCell(all, rm::HadoopLine::k2_6, dir26);
  auto text33 = WriteFidelityCell(all, rm::HadoopLine::k3_3, dir33);
  ASSERT_TRUE(text26.ok()) << text26.status().ToString();
  ASSERT_TRUE(text33.ok()) << text33.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(dir26 + "/ordering-fair"));
  EXPECT_EQ(text26->find("ordering-fair"), std::string::npos) << *text26;
  EXPECT_TRUE(std::filesystem::exists(dir33 + "/ordering-fair/trace.json"));
  for (const FidelityScenario& s : FidelityScenarios()) {
    EXPECT_EQ(std::filesystem::exists(dir26 + "/" + s.name + "/trace.json"),
              s.AppliesTo(rm::HadoopLine::k2_6))
        << s.name;
  }
  EXPECT_NE(
      text26->find("--hadoop-line 2.6 --speed 2 --out " + dir26 + "/am-limit/java --rm RMHOST"),
      std::string::npos)
      << *text26;
  EXPECT_NE(text26->find("--out " + dir26 + "/am-limit/spindle\n"), std::string::npos) << *text26;
  EXPECT_NE(text26->find("--cell-dir " + dir26 + " --hadoop-line 2.6 --cell-run java,spindle"),
            std::string::npos)
      << *text26;
}

TenantRow Row(const std::string& queue, const std::string& user, int64_t mb) {
  TenantRow r;
  r.queue = queue;
  r.user = user;
  r.memory_mb = mb;
  return r;
}

// A cell's census at and after each check's second: queue rows by leaf name
// (a 3.3 RM reports the path), users, the scheduler's app counts when the RM
// reports them, per-app memory never (not in the census).
TEST(FidelityCellFilesTest, ReadsTheCensusAtEachChecksSecond) {
  const FidelityScenario& s = *FindFidelityScenario("am-limit");
  TenantRun run;
  TenantSample early;
  early.at_s = 9.5;  // before the 10 s checks: not read
  early.rows = {Row("root.default", "", 99)};
  TenantSample at10;
  at10.at_s = 10.2;
  TenantRow q = Row("root.default", "", 4096);
  q.scheduler_apps_running = 2;
  q.scheduler_apps_pending = 3;
  at10.rows = {q, Row("root.default", "alice", 4096)};
  TenantSample at60;
  at60.at_s = 60.4;
  TenantRow q60 = Row("root.default", "", 4096);  // a 2.x RM: no counts
  at60.rows = {q60};
  at60.jobs_counted = true;
  at60.jobs = {{"j3", 2048}, {"j4", 2048}};  // j5 pending has no usage yet: absent
  run.samples = {early, at10, at60};
  const FidelityRun got = FidelityFromCellRun(s, run, "3.3", "cell test");
  ASSERT_EQ(got.observations.size(), s.checks.size());
  for (const FidelityObservation& o : got.observations) {
    const std::string what = o.check.Subject() + " " + FidelityMetricName(o.check.metric) + " @" +
                             std::to_string(o.check.at_s);
    if (o.check.metric == FidelityMetric::kJobMemoryMb && o.check.at_s == 10) {
      EXPECT_FALSE(o.observed.has_value()) << what << ": the 10 s sample counted no jobs";
    } else if (o.check.metric == FidelityMetric::kJobMemoryMb) {
      ASSERT_TRUE(o.observed.has_value()) << what;
      EXPECT_EQ(*o.observed, o.check.job == "j3" ? 2048 : 0) << what;
    } else if (o.check.at_s == 10) {
      ASSERT_TRUE(o.observed.has_value()) << what;
      EXPECT_TRUE(Matches(o, s.container_mb)) << what << " saw " << *o.observed;
    } else {
      EXPECT_FALSE(o.observed.has_value()) << what;  // pending/active unknown at 60 s
    }
  }
  // The table shows the cell beside the tunnel, n/a where it read nothing.
  FidelityRow row{&s, got, {{"cell", got}}};
  const std::string text = FidelityTableText({row});
  EXPECT_NE(text.find("cell match"), std::string::npos);
  EXPECT_NE(text.find("n/a"), std::string::npos);
  const std::string json = FidelityJson({row});
  EXPECT_NE(json.find("\"cell\":{\"value\":null"), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"am-limit\""), std::string::npos);
}

// `--cell-run java,spindle`: a column pair per cell run in the order asked
// (scenario | check | expected | ... | java | spindle), a run without a
// report for a scenario left blank, and what each RM said refusing a job
// (Hadoop's exception) under the table.
TEST(FidelityCellFilesTest, ShowsEachCellRunInItsOwnColumns) {
  const FidelityScenario& s = *FindFidelityScenario("max-applications");
  FidelityRun tunnel;
  tunnel.line = "3.3";
  FidelityRun java;
  FidelityRun spindle;
  for (const FidelityCheck& c : s.checks) {
    tunnel.observations.push_back({c, c.expected});
    java.observations.push_back({c, c.metric == FidelityMetric::kRejectedJobs ? 1 : c.expected});
    spindle.observations.push_back({c, c.expected});
  }
  java.rejections = {
      "carol-2: AccessControlException: Queue root.default already has 4 applications"};
  const FidelityRow both{&s, tunnel, {{"java", java}, {"spindle", spindle}}};
  const FidelityRow only_java{
      FindFidelityScenario("am-limit"), tunnel, {{"java", java}, {"spindle", std::nullopt}}};
  const std::string text = FidelityTableText({both});
  const size_t header_end = text.find('\n');
  const std::string header = text.substr(0, header_end);
  const size_t j = header.find("java match");
  const size_t sp = header.find("spindle match");
  ASSERT_NE(j, std::string::npos) << text;
  ASSERT_NE(sp, std::string::npos) << text;
  EXPECT_LT(j, sp) << "columns in the order asked";
  // The rejected-apps row: java saw 1 (NO), spindle 2 (yes).
  const size_t rejected = text.find("rejected apps");
  ASSERT_NE(rejected, std::string::npos) << text;
  const std::string row = text.substr(rejected, text.find('\n', rejected) - rejected);
  EXPECT_NE(row.find("NO"), std::string::npos) << row;
  EXPECT_LT(row.find("NO"), row.rfind("yes")) << row;
  EXPECT_NE(text.find("max-applications: java refused carol-2: AccessControlException"),
            std::string::npos)
      << text;

  // A run with no report for the scenario: blank cells, absent from JSON.
  const std::string partial = FidelityJson({only_java});
  EXPECT_NE(partial.find("\"java\":{\"value\":"), std::string::npos) << partial;
  EXPECT_NE(partial.find("\"cells\":{\"java\":{\"source\""), std::string::npos) << partial;
  EXPECT_EQ(partial.find("\"spindle\":{"), std::string::npos) << partial;
  const std::string json = FidelityJson({both});
  EXPECT_NE(json.find("\"spindle\":{\"value\":2,\"match\":true}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"rejections\":[\"carol-2: AccessControlException"), std::string::npos)
      << json;
}

}  // namespace
}  // namespace spindle::replay
