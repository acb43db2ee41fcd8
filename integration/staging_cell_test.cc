// The staging cell end to end: `spindle rm` and two `spindle nm
// --nodes-file` agents as child processes on 127.0.0.1 (ports picked at run
// time), a handful of named nodes on two racks, and a few MapReduce-shaped
// jobs (maps -> reduces, some with locality preferences) in two queues,
// replayed at speed 10 through RunStagingCell. Checks, from the run log and
// the recorder's figures (never wall-clock times):
//  - every job finished and every task ran exactly once, on a node of the
//    cell; no reduce started before all of its job's maps had ended;
//  - the cell's own checks found nothing (queues within their maximum);
//  - the recorder's counts agree with the trace and with each other.
// The replay of Hadoop's SLS sample also writes its report files and checks
// they are well-formed: the JSON parses (with the replay's own strict JSON
// reader) and carries the run, the CSV has a row per second with every
// field, the HTML's tags balance and it draws its charts.
#include "replay/cell/staging_cell.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/child_process.h"
#include "base/json/json_stream.h"
#include "integration/mapreduce_trace_job.h"
#include "replay/cell/cell_config.h"
#include "replay/report/replay_recorder.h"
#include "replay/report/replay_writers.h"
#include "replay/report/tenant_compare.h"
#include "replay/trace/hadoop/sls_nodes.h"
#include "replay/trace/hadoop/sls_reader.h"
#include "replay/trace/job_list_reader.h"
#include "tests/support/html_checks.h"

namespace spindle::replay {
namespace {

// The checks every staging cell run must pass, whatever its trace.
void CheckRun(const CellOptions& options, const std::vector<TraceJob>& jobs,
              const ReplayModeResult& result, const CellRunLog& log) {
  int64_t total_tasks = 0;
  for (const TraceJob& j : jobs) total_tasks += j.task_count();
  std::printf(
      "[ cell     ] %lld jobs, %lld tasks placed, delay p50 %.0f ms p99 %.0f ms, JCT p50 %.1f s, "
      "quality %.2f, memory utilisation %.2f, makespan %.1f s (trace), %.1f s wall, %lld queue "
      "samples\n",
      static_cast<long long>(result.jobs_finished), static_cast<long long>(result.tasks_placed),
      result.delay_ms.p50, result.delay_ms.p99, result.jct_s.p50, result.quality,
      result.utilisation_memory, result.makespan_s, result.wall_seconds,
      static_cast<long long>(log.queue_samples));
  for (const std::string& v : result.violations) ADD_FAILURE() << "violation: " << v;
  EXPECT_TRUE(result.rejections.empty());
  EXPECT_EQ(result.driver, "cell");

  // Every task exactly once, on a node of the cell, and ended.
  std::set<std::string> hosts;
  for (const TraceNode& n : options.nodes) hosts.insert(n.host);
  std::map<std::tuple<int64_t, int32_t, int32_t>, int> runs;
  for (const CellTaskRun& r : log.runs) {
    ++runs[{r.job, r.task.stage, r.task.task}];
    EXPECT_EQ(hosts.count(r.host), 1u) << r.host;
    EXPECT_GE(r.ended.count(), r.started.count()) << r.container << " never ended";
  }
  EXPECT_EQ(static_cast<int64_t>(runs.size()), total_tasks);
  for (const auto& [task, count] : runs) EXPECT_EQ(count, 1);

  // DAG order: no task started before every task of its parent stages ended.
  std::map<std::pair<int64_t, int32_t>, Duration> stage_end;
  for (const CellTaskRun& r : log.runs) {
    Duration& end = stage_end[{r.job, r.task.stage}];
    end = std::max(end, r.ended);
  }
  for (const CellTaskRun& r : log.runs) {
    const TraceJob& job = jobs[static_cast<size_t>(r.job)];
    for (int32_t parent : job.stages[static_cast<size_t>(r.task.stage)].parents) {
      const Duration parent_end = stage_end[std::make_pair(r.job, parent)];
      EXPECT_GE(r.started.count(), parent_end.count())
          << job.id << " " << job.stages[static_cast<size_t>(r.task.stage)].name << "["
          << r.task.task << "] started before stage " << parent << " ended";
    }
  }

  // Queue limits were sampled, and held.
  EXPECT_GT(log.queue_samples, 0);
  for (const auto& [queue, peak] : log.queue_peak_mb) {
    EXPECT_LE(peak.first, peak.second) << queue;
  }

  // The recorder's figures agree with the trace and the log.
  EXPECT_EQ(result.jobs_submitted, static_cast<int64_t>(jobs.size()));
  EXPECT_EQ(result.jobs_finished, static_cast<int64_t>(jobs.size()));
  EXPECT_EQ(result.tasks_asked, total_tasks);
  EXPECT_EQ(result.tasks_placed, total_tasks);
  EXPECT_EQ(result.tasks_ended, total_tasks);
  EXPECT_EQ(result.delay_ms.count, total_tasks);
  EXPECT_EQ(result.jct_s.count, static_cast<int64_t>(jobs.size()));
  EXPECT_GT(result.makespan_s, 0);
  EXPECT_GT(result.utilisation_memory, 0);
  EXPECT_LE(result.utilisation_memory, 1);
  EXPECT_FALSE(result.series.empty());
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes the run's report files into `dir` and checks each is well-formed.
void CheckReportFiles(const std::string& dir, const ReplayModeResult& result) {
  ReplayReport report;
  report.title = "spindle replay: inputsls.json (staging cell)";
  report.settings = {{"mode", "cell"}};
  report.modes = {result};
  ASSERT_TRUE(WriteReportFiles(dir, report).ok());
  // JSON: one object, strictly parsed, with the run's figures.
  auto json = json::JsonStream::Open(dir + "/report.json");
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  json::JsonValue doc;
  auto got = (*json)->Next(&doc);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(*got);
  json::JsonValue rest;
  auto more = (*json)->Next(&rest);
  ASSERT_TRUE(more.ok() && !*more) << "one JSON document";
  const json::JsonValue* modes = doc.Find("modes");
  ASSERT_NE(modes, nullptr);
  ASSERT_TRUE(modes->is_array());
  ASSERT_EQ(modes->elements().size(), 1u);
  const json::JsonValue* ended = modes->elements()[0].Find("tasks_ended");
  ASSERT_NE(ended, nullptr);
  EXPECT_EQ(ended->text(), std::to_string(result.tasks_ended));
  // CSV: a header and a row per second, each with the header's fields.
  std::istringstream csv(Slurp(dir + "/series.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  const auto fields = std::count(line.begin(), line.end(), ',');
  size_t rows = 0;
  while (std::getline(csv, line)) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), fields) << line;
    ++rows;
  }
  EXPECT_EQ(rows, result.series.size());
  // HTML: balanced, self-contained, with its charts.
  const std::string html = Slurp(dir + "/report.html");
  EXPECT_EQ(testing::CheckTags(html), "");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_GE(std::count(html.begin(), html.end(), '\n'), 10);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_FALSE(Slurp(dir + "/summary.txt").empty());
}

std::string WorkDir(const std::string& name) {
  const std::string work = ::testing::TempDir() + "/" + name + "-" + std::to_string(getpid());
  std::filesystem::remove_all(work);
  return work;
}

void CleanUp(const std::string& work) {
  if (!::testing::Test::HasFailure() && std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) {
    std::filesystem::remove_all(work);
  } else {
    std::printf("[ cell     ] files kept in %s\n", work.c_str());
  }
}

TEST(StagingCellTest, ReplaysMapReduceJobsThroughRealDaemons) {
  const std::string work = WorkDir("staging-cell-test");

  CellOptions options;
  options.spindle_binary = SPINDLE_BINARY;
  options.work_dir = work;
  options.nodes = {
      {"node1", "/rack1", 4096, 4},
      {"node2", "/rack1", 4096, 4},
      {"node3", "/rack2", 4096, 4},
      {"node4", "/rack2", 8192, 8},
  };
  options.queues = {{"sls_queue_1", 50, 100}, {"sls_queue_2", 50, 70}};
  options.speed = 10;
  options.nm_processes = 2;
  options.heartbeat_interval = std::chrono::milliseconds(100);
  options.queue_sample_interval = std::chrono::milliseconds(100);
  options.start_timeout = std::chrono::seconds(60);
  options.run_timeout = std::chrono::seconds(120);

  std::vector<TraceJob> jobs = {
      MapReduceTraceJob("job_1", 0, "sls_queue_1", "alice", 4, 2, {"node1", "node2", "node3"}),
      MapReduceTraceJob("job_2", 2000, "sls_queue_2", "bob", 6, 1, {"node4"}),
      MapReduceTraceJob("job_3", 5000, "sls_queue_1", "alice", 3, 2, {}),
      MapReduceTraceJob("job_4", 6000, "sls_queue_2", "carol", 8, 3, {"node3"}),
  };
  // Rack-only preferences too.
  jobs[2].stages[0].tasks[0].preferred_racks = {"/rack2"};
  JobListReader reader(jobs);
  ReplayRecorder recorder(CellRecorderOptions(options));
  CellRunLog log;
  auto result = RunStagingCell(options, &reader, &recorder, &log);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  CheckRun(options, jobs, *result, log);
  // Tasks with preferences were placed, some on them.
  EXPECT_GE(result->quality, 0);
  EXPECT_LE(result->quality, 1);
  CleanUp(work);
}

// A `spindle rm` started by the test from the cell's own RM files, standing
// in for an operator's RM that `--rm` drives: the cell starts no RM, its
// node agents register with this one.
class OutsideRm {
 public:
  // Writes `options`' RM configuration under `dir` and starts the RM.
  Status Start(const CellOptions& options, const std::string& dir) {
    const CellLayout layout(dir);
    RETURN_NOT_OK(WriteCellConfig(options, layout, SplitNodes(options.nodes, 1)));
    ChildOptions rm;
    rm.binary = SPINDLE_BINARY;
    rm.args = {"rm", "--conf", layout.rm_conf(), "--ports-file", layout.rm_ports()};
    rm.log_path = layout.rm_log();
    ASSIGN_OR_RETURN(child_, ChildProcess::Spawn(rm));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && !child_.Exited()) {
      std::map<std::string, uint16_t> ports;
      std::istringstream in(Slurp(layout.rm_ports()));
      for (std::string line; std::getline(in, line);) {
        const size_t eq = line.find('=');
        if (eq != std::string::npos) {
          ports[line.substr(0, eq)] = static_cast<uint16_t>(std::atoi(line.c_str() + eq + 1));
        }
      }
      if (ports["client"] != 0 && ports["scheduler"] != 0 && ports["resource-tracker"] != 0) {
        rm_ = ExternalRm{{"127.0.0.1", ports["client"]},
                         {"127.0.0.1", ports["scheduler"]},
                         {"127.0.0.1", ports["resource-tracker"]},
                         ""};
        return Status::OK();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return Status::IoError("the outside spindle rm did not listen (see " + layout.rm_log() + ")");
  }
  ~OutsideRm() { child_.Stop(SIGTERM, std::chrono::seconds(10)); }
  const ExternalRm& rm() const { return rm_; }

 private:
  ChildProcess child_;
  ExternalRm rm_;
};

// Each user's rows are in every run's samples, with their memory at some
// point above zero, and a queue row sums its users.
void CheckTenants(const std::vector<TenantSample>& samples,
                  const std::set<std::pair<std::string, std::string>>& users) {
  ASSERT_FALSE(samples.empty());
  std::set<std::pair<std::string, std::string>> held;
  for (const TenantSample& s : samples) {
    std::map<std::string, int64_t> queue_mb;
    std::map<std::string, int64_t> users_mb;
    for (const TenantRow& r : s.rows) {
      (r.user.empty() ? queue_mb : users_mb)[r.queue] += r.memory_mb;
      if (!r.user.empty() && r.memory_mb > 0) held.insert({r.queue, r.user});
      EXPECT_GE(r.apps_running, 0);
      EXPECT_GE(r.apps_pending, 0);
    }
    EXPECT_EQ(queue_mb, users_mb) << "at " << s.at_s << " s";
  }
  EXPECT_EQ(held, users);
}

// `replay --mode cell --rm`: the same jobs against an RM the cell did not
// start (by its three addresses, its nodes on the Hadoop 2.6 line: no
// unRegisterNodeManager) and against the cell's own Spindle; both runs hold
// per-queue and per-user samples over time, their report.json files read
// back, and the comparison lists every tenant of both.
TEST(StagingCellTest, DrivesAnRmByItsAddressesAndComparesTheRuns) {
  const std::string work = WorkDir("staging-cell-external");
  CellOptions options;
  options.spindle_binary = SPINDLE_BINARY;
  options.nodes = {
      {"node1", "/rack1", 4096, 4},
      {"node2", "/rack1", 4096, 4},
      {"node3", "/rack2", 4096, 4},
  };
  options.queues = {{"a", 60, 100}, {"b", 40, 100}};
  options.speed = 10;
  options.heartbeat_interval = std::chrono::milliseconds(100);
  options.queue_sample_interval = std::chrono::milliseconds(100);
  options.run_timeout = std::chrono::seconds(120);
  const std::vector<TraceJob> jobs = {
      MapReduceTraceJob("job_1", 0, "a", "alice", 6, 1, {}),
      MapReduceTraceJob("job_2", 0, "a", "bob", 6, 1, {}),
      MapReduceTraceJob("job_3", 1000, "b", "carol", 4, 1, {"node3"}),
  };
  const std::set<std::pair<std::string, std::string>> users = {
      {"a", "alice"}, {"a", "bob"}, {"b", "carol"}};

  ReplayModeResult outside;
  {
    OutsideRm rm;
    ASSERT_TRUE(rm.Start(options, work + "/outside-rm").ok());
    CellOptions cell = options;
    cell.work_dir = work + "/external";
    cell.external_rms = {rm.rm()};
    cell.hadoop_line = "2.6";
    JobListReader reader(jobs);
    ReplayRecorder recorder(CellRecorderOptions(cell));
    CellRunLog log;
    auto result = RunStagingCell(cell, &reader, &recorder, &log);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    CheckRun(cell, jobs, *result, log);
    EXPECT_EQ(result->rm.rfind("--rm 127.0.0.1:", 0), 0u) << result->rm;
    EXPECT_NE(result->rm.find("(Hadoop 2.6)"), std::string::npos) << result->rm;
    CheckTenants(result->tenants, users);
    // The 2.6 nodes did not unregister: a second cell on the same host
    // names is refused until the RM forgets them.
    CellOptions again = cell;
    again.work_dir = work + "/again";
    JobListReader more(jobs);
    ReplayRecorder recorder2(CellRecorderOptions(again));
    auto refused = RunStagingCell(again, &more, &recorder2);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("already has a running node node"), std::string::npos)
        << refused.status().ToString();
    outside = *std::move(result);
  }

  CellOptions own = options;
  own.work_dir = work + "/own";
  JobListReader reader(jobs);
  ReplayRecorder recorder(CellRecorderOptions(own));
  CellRunLog log;
  auto inside = RunStagingCell(own, &reader, &recorder, &log);
  ASSERT_TRUE(inside.ok()) << inside.status().ToString();
  CheckRun(own, jobs, *inside, log);
  EXPECT_EQ(inside->rm.rfind("spindle rm started by the cell", 0), 0u) << inside->rm;
  CheckTenants(inside->tenants, users);
  for (const TenantSample& s : inside->tenants) {
    for (const TenantRow& r : s.rows) {
      if (r.user.empty()) {
        EXPECT_GE(r.scheduler_apps_pending, 0) << "Spindle reports QueueStatistics";
      }
    }
  }

  // Both report.json files, compared.
  std::vector<TenantRun> runs;
  for (const auto& [name, result] :
       {std::make_pair("outside", &outside), std::make_pair("inside", &*inside)}) {
    ReplayReport report;
    report.title = name;
    report.modes = {*result};
    ASSERT_TRUE(WriteReportFiles(work + "/" + name, report).ok());
    auto run = ReadTenantRun(work + "/" + name + "/report.json");
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    EXPECT_EQ(run->samples.size(), result->tenants.size());
    runs.push_back(*std::move(run));
  }
  const auto rows = CompareTenants(runs[0], runs[1]);
  std::set<std::pair<std::string, std::string>> compared;
  for (const TenantComparison& c : rows) {
    if (c.user.empty()) continue;
    compared.insert({c.queue, c.user});
    EXPECT_GT(c.a.peak_memory_mb, 0) << c.user;
    EXPECT_GT(c.b.peak_memory_mb, 0) << c.user;
    EXPECT_GE(c.a.max_apps_running, 1) << c.user;
    EXPECT_GE(c.b.max_apps_running, 1) << c.user;
  }
  EXPECT_EQ(compared, users);
  std::printf("%s", ToCompareTable(runs[0], runs[1], rows).c_str());
  CleanUp(work);
}

// Hadoop's own SLS sample (sample-data/inputsls.json: two MapReduce jobs in
// sls_queue_1 and sls_queue_2, on node1..node3 of /default-rack), with
// SLS's capacity-scheduler.xml, at speed 20.
TEST(StagingCellTest, ReplaysInputSls) {
  const std::string dir = std::string(SPINDLE_SHARED_DIR) + "/traces/hadoop-sls";
  const std::string trace = dir + "/inputsls.json";
  if (!std::filesystem::exists(trace)) GTEST_SKIP() << "no " << trace;
  const std::string work = WorkDir("staging-cell-sls");

  CellOptions options;
  options.spindle_binary = SPINDLE_BINARY;
  options.work_dir = work;
  auto nodes = hadoop::NodesFromSlsTrace(trace);
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  options.nodes = *nodes;
  options.capacity_scheduler_xml = dir + "/capacity-scheduler.xml";
  options.queues = {{"sls_queue_1", 25, 100}, {"sls_queue_2", 25, 100}, {"sls_queue_3", 50, 100}};
  options.speed = 20;
  options.heartbeat_interval = std::chrono::milliseconds(100);
  options.queue_sample_interval = std::chrono::milliseconds(100);
  options.run_timeout = std::chrono::seconds(120);

  // The jobs as the driver will read them, for the checks.
  std::vector<TraceJob> jobs;
  {
    auto reader = hadoop::SlsReader::Open(trace);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    TraceJob job;
    while (true) {
      auto more = (*reader)->Next(&job);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      jobs.push_back(job);
    }
  }
  ASSERT_EQ(jobs.size(), 2u);

  auto reader = hadoop::SlsReader::Open(trace);
  ASSERT_TRUE(reader.ok());
  ReplayRecorder recorder(CellRecorderOptions(options));
  CellRunLog log;
  auto result = RunStagingCell(options, reader->get(), &recorder, &log);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  CheckRun(options, jobs, *result, log);
  // Every SLS task names its host: quality is defined.
  EXPECT_GE(result->quality, 0);
  CheckReportFiles(work + "/report", *result);
  CleanUp(work);
}

// `spindle replay --mode cell` as an operator runs it: two policies
// compared (each its own cell, the policy passed to the RM as its
// spindle.scheduler.* keys, which the RM refuses if misspelt), a RocksDB
// store, the report written.
TEST(StagingCellTest, ReplayCommandComparesPoliciesInCells) {
  const std::string dir = std::string(SPINDLE_SHARED_DIR) + "/traces/hadoop-sls";
  if (!std::filesystem::exists(dir + "/inputsls.json")) GTEST_SKIP() << "no " << dir;
  const std::string work = WorkDir("staging-cell-command");
  const std::string command = std::string(SPINDLE_BINARY) + " replay --mode cell --trace " + dir +
                              "/inputsls.json --nodes-file " + dir + "/nodes.json --queues " + dir +
                              "/capacity-scheduler.xml --speed 20 --heartbeat-ms 20" +
                              " --store rocksdb --compare parsync:adaptive,monolithic" +
                              " --work-dir " + work + "/cells --out " + work + "/report" +
                              " --no-progress >" + work + ".out 2>&1";
  std::filesystem::create_directories(work);
  const int status = std::system(command.c_str());
  const std::string out = Slurp(work + ".out");
  ASSERT_EQ(status, 0) << out;
  const std::string summary = Slurp(work + "/report/summary.txt");
  EXPECT_NE(summary.find("parsync:adaptive"), std::string::npos) << summary;
  EXPECT_NE(summary.find("monolithic"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("VIOLATION"), std::string::npos) << summary;
  EXPECT_TRUE(std::filesystem::exists(work + "/report/report.html"));
  // Each policy ran in a cell of its own, with its RocksDB store.
  EXPECT_TRUE(std::filesystem::exists(work + "/cells/parsync_adaptive"));
  EXPECT_TRUE(std::filesystem::exists(work + "/cells/monolithic"));
  std::filesystem::remove(work + ".out");
  CleanUp(work);
}

}  // namespace
}  // namespace spindle::replay
