// The staging cell against an HA pair, its active killed mid-replay: a real
// ZooKeeper (MiniZooKeeper), two `spindle rm` (rm-ids rm1 and rm2, the
// cell's own RM files plus HA: the embedded elector, ZKRMStateStore with
// work-preserving recovery, zk-timeout-ms 2000), and `replay --mode cell`
// driving them by a Hadoop client's configuration (`--rm-conf`: the rm-ids,
// each one's addresses, RMProxy's failover sleeps). Once rm1 holds a few of
// the trace's applications with one RUNNING, it is SIGKILLed. Checked
// (counts, never times):
//  - every job of the trace finished and every task ran exactly once, on a
//    node of the cell, after its parents (no container counted twice);
//  - nothing acknowledged was lost: rm2 holds every job's application,
//    FINISHED, one per job, and refused none;
//  - the cell's clients and AMs failed over to rm2, the AMs running at the
//    kill registered again with it, and the report says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "base/child_process.h"
#include "integration/cell_support.h"
#include "integration/ha_probe.h"
#include "integration/mapreduce_trace_job.h"
#include "integration/wait_for.h"
#include "replay/cell/cell_config.h"
#include "replay/cell/staging_cell.h"
#include "replay/report/replay_recorder.h"
#include "replay/report/replay_writers.h"
#include "replay/trace/job_list_reader.h"
#include "rm/config/configuration.h"
#include "tests/support/mini_zookeeper.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::replay {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;

constexpr char kZkStore[] = "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore";
const std::vector<std::string> kRmIds = {"rm1", "rm2"};

struct Rm {
  ChildProcess process;
  std::map<std::string, uint16_t> ports;  // client, scheduler, resource-tracker
};

class ReplayCellFailoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = testing::MiniZooKeeper::MissingComponent();
    if (!missing.empty()) GTEST_SKIP() << "ZooKeeper server not installed: " << missing;
    work_ = ::testing::TempDir() + "/replay-cell-failover-test-" + std::to_string(getpid());
    std::filesystem::remove_all(work_);
    std::filesystem::create_directories(work_ + "/zk");
    testing::MiniZooKeeperOptions zk;
    zk.work_dir = work_ + "/zk";
    auto started = testing::MiniZooKeeper::Start(zk);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    zk_ = std::move(*started);
    ipc::RpcClientOptions client;
    client.connect_timeout = 1s;
    client.call_timeout = 5s;
    client_ = std::make_unique<ipc::RpcClient>(client);
  }

  void TearDown() override {
    for (Rm& rm : rms_) rm.process.Stop(SIGTERM, 10s);
    client_.reset();
    zk_.reset();
    if (HasFailure() || std::getenv("SPINDLE_KEEP_TEST_DIRS") != nullptr) {
      std::printf("[ failover ] test files kept in %s\n", work_.c_str());
    } else {
      std::filesystem::remove_all(work_);
    }
  }

  // The HA properties of `rm_id` over the cell's own RM files.
  std::map<std::string, std::string> HaProperties(const std::string& rm_id) const {
    std::map<std::string, std::string> p;
    p["yarn.resourcemanager.ha.enabled"] = "true";
    p["yarn.resourcemanager.ha.rm-ids"] = "rm1,rm2";
    p["yarn.resourcemanager.ha.id"] = rm_id;
    p["yarn.resourcemanager.cluster-id"] = "replay-cell-failover";
    p["hadoop.zk.address"] = zk_->connect_string();
    p["yarn.resourcemanager.zk-timeout-ms"] = "2000";
    for (const std::string& id : kRmIds) {
      for (const char* key : cell::kRmAddressKeys) p[std::string(key) + "." + id] = "127.0.0.1:0";
    }
    p["yarn.resourcemanager.store.class"] = kZkStore;
    p["yarn.resourcemanager.recovery.enabled"] = "true";
    p["yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms"] = "1000";
    p["spindle.scheduler.count"] = "1";
    p["spindle.scheduler.partitions"] = "1";
    return p;
  }

  // Writes rm-id `index`'s files (the cell's, with HA) and starts it.
  void StartRm(const CellOptions& cell, size_t index) {
    CellOptions options = cell;
    options.extra_rm_config = HaProperties(kRmIds[index]);
    const CellLayout layout(work_ + "/" + kRmIds[index]);
    ASSERT_TRUE(WriteCellConfig(options, layout, SplitNodes(options.nodes, 1)).ok());
    Rm& rm = rms_[index];
    rm.process = cell::StartListeningRm(SPINDLE_BINARY, layout.rm_conf(), layout.rm_ports(),
                                        layout.rm_log(), 60s);
    ASSERT_TRUE(rm.process.running()) << kRmIds[index] << " did not start:\n"
                                      << cell::Tail(layout.rm_log(), 30);
    for (const std::string& line : cell::Lines(layout.rm_ports())) {
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      rm.ports[line.substr(0, eq)] = static_cast<uint16_t>(std::atoi(line.c_str() + eq + 1));
    }
    ASSERT_NE(rm.ports["client"], 0);
    ASSERT_NE(rm.ports["scheduler"], 0);
    ASSERT_NE(rm.ports["resource-tracker"], 0);
  }

  cell::HaAnswer Ask(size_t index) {
    return cell::AskHaState(*client_, rms_[index].ports["client"]);
  }

  // A Hadoop client's yarn-site.xml for the pair: the rm-ids, each one's
  // addresses, and failover sleeps short enough for a test.
  std::string WriteClientConf() {
    std::map<std::string, std::string> p;
    p["yarn.resourcemanager.ha.enabled"] = "true";
    p["yarn.resourcemanager.ha.rm-ids"] = "rm1,rm2";
    for (size_t i = 0; i < kRmIds.size(); ++i) {
      auto address = [&](const char* port) {
        return "127.0.0.1:" + std::to_string(rms_[i].ports[port]);
      };
      p["yarn.resourcemanager.address." + kRmIds[i]] = address("client");
      p["yarn.resourcemanager.scheduler.address." + kRmIds[i]] = address("scheduler");
      p["yarn.resourcemanager.resource-tracker.address." + kRmIds[i]] = address("resource-tracker");
    }
    p["yarn.client.failover-sleep-base-ms"] = "200";
    p["yarn.client.failover-sleep-max-ms"] = "1000";
    const std::string path = work_ + "/client-yarn-site.xml";
    cell::WriteSite(path, p);
    return path;
  }

  // The cell's applications `rm_id` index holds (every state).
  std::vector<y::ApplicationReportProto> Applications(size_t index) {
    y::GetApplicationsRequestProto request;
    request.add_application_types("SPINDLE-REPLAY");
    y::GetApplicationsResponseProto response;
    const Status s = client_->Call(
        {"127.0.0.1", rms_[index].ports["client"], cell::kClient, "spindle", std::nullopt},
        "getApplications", request, &response);
    if (!s.ok()) return {};
    return {response.applications().begin(), response.applications().end()};
  }

  std::string work_;
  std::unique_ptr<testing::MiniZooKeeper> zk_;
  std::unique_ptr<ipc::RpcClient> client_;
  Rm rms_[2];
};

TEST_F(ReplayCellFailoverTest, ActiveKilledMidReplayEveryJobFinishesOnTheStandby) {
  CellOptions options;
  options.spindle_binary = SPINDLE_BINARY;
  options.work_dir = work_ + "/cell";
  options.nodes = {
      {"node1", "/rack1", 4096, 4},
      {"node2", "/rack1", 4096, 4},
      {"node3", "/rack2", 4096, 4},
      {"node4", "/rack2", 4096, 4},
  };
  options.speed = 2;
  options.heartbeat_interval = 100ms;
  options.queue_sample_interval = 200ms;
  options.start_timeout = 60s;
  options.run_timeout = 180s;

  // rm1 first, until active; rm2 joins as standby.
  ASSERT_NO_FATAL_FAILURE(StartRm(options, 0));
  ASSERT_TRUE(WaitFor([&] { return Ask(0) == cell::HaAnswer::kActive; }, 60s))
      << cell::Tail(work_ + "/rm1/rm.log", 30);
  ASSERT_NO_FATAL_FAILURE(StartRm(options, 1));
  ASSERT_TRUE(WaitFor([&] { return Ask(1) == cell::HaAnswer::kStandby; }, 60s))
      << cell::Tail(work_ + "/rm2/rm.log", 30);

  // The cell reaches the pair as a Hadoop client configured for it does.
  rm::Configuration client_conf;
  ASSERT_TRUE(client_conf.AddResourceFile(WriteClientConf()).ok());
  auto rms = ExternalRmsFromConfiguration(client_conf);
  ASSERT_TRUE(rms.ok()) << rms.status().ToString();
  ASSERT_EQ(rms->rms.size(), 2u);
  options.external_rms = rms->rms;
  options.rm_retry = rms->policy;

  std::vector<TraceJob> jobs;
  const char* users[] = {"alice", "bob", "carol"};
  for (int i = 0; i < 10; ++i) {
    jobs.push_back(MapReduceTraceJob("job_" + std::to_string(i + 1), 1500L * i, "default",
                                     users[i % 3], 3 + i % 3, 1));
  }

  // Kills rm1 once it holds four of the cell's applications, one RUNNING.
  std::atomic<bool> stop{false};
  std::atomic<bool> killed{false};
  std::thread killer([&] {
    while (!stop.load()) {
      const auto apps = Applications(0);
      int running = 0;
      for (const auto& app : apps) running += app.yarn_application_state() == y::RUNNING ? 1 : 0;
      if (apps.size() >= 4 && running >= 1) {
        rms_[0].process.Kill();
        killed = true;
        std::printf("[ failover ] rm1 SIGKILLed holding %zu applications, %d running\n",
                    apps.size(), running);
        return;
      }
      std::this_thread::sleep_for(100ms);
    }
  });
  JobListReader reader(jobs);
  ReplayRecorder recorder(CellRecorderOptions(options));
  CellRunLog log;
  auto result = RunStagingCell(options, &reader, &recorder, &log);
  stop = true;
  killer.join();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_TRUE(killed.load()) << "the replay ended before rm1 held four applications";

  // Every job finished, no task ran twice, none was refused.
  for (const std::string& v : result->violations) ADD_FAILURE() << "violation: " << v;
  EXPECT_TRUE(result->rejections.empty());
  EXPECT_EQ(result->jobs_submitted, static_cast<int64_t>(jobs.size()));
  EXPECT_EQ(result->jobs_finished, static_cast<int64_t>(jobs.size()));
  int64_t total_tasks = 0;
  for (const TraceJob& j : jobs) total_tasks += j.task_count();
  std::map<std::tuple<int64_t, int32_t, int32_t>, int> runs;
  std::set<std::string> containers;
  for (const CellTaskRun& r : log.runs) {
    ++runs[{r.job, r.task.stage, r.task.task}];
    EXPECT_TRUE(containers.insert(r.container).second) << r.container << " counted twice";
    EXPECT_GE(r.ended.count(), r.started.count()) << r.container << " never ended";
  }
  EXPECT_EQ(static_cast<int64_t>(runs.size()), total_tasks);
  for (const auto& [task, count] : runs) EXPECT_EQ(count, 1);
  EXPECT_EQ(result->tasks_ended, total_tasks);

  // rm2 is active and holds every job's application, finished, once.
  EXPECT_EQ(Ask(1), cell::HaAnswer::kActive);
  std::map<std::string, int> by_name;
  for (const auto& app : Applications(1)) {
    ++by_name[app.name()];
    EXPECT_EQ(app.yarn_application_state(), y::FINISHED) << app.name();
  }
  for (const TraceJob& j : jobs) EXPECT_EQ(by_name[j.id], 1) << j.id;
  EXPECT_EQ(by_name.size(), jobs.size());

  // What the cell saw of the pair, and the report saying it.
  const RmFailoverSummary& f = result->failover;
  EXPECT_TRUE(f.ha);
  EXPECT_EQ(f.rm_ids, "rm1,rm2");
  EXPECT_GE(f.first_failover_s, 0);
  EXPECT_GT(f.client_failovers + f.am_failovers, 0);
  EXPECT_GT(f.am_resyncs, 0) << "the AM running at the kill registered again with rm2";
  EXPECT_EQ(f.serving_at_end, "rm2");
  ReplayReport report;
  report.title = "replay cell failover";
  report.modes = {*result};
  const std::string summary = ToSummaryTable(report);
  std::printf("%s", summary.c_str());
  EXPECT_NE(summary.find("failover cell: RMs rm1,rm2; first at "), std::string::npos) << summary;
  EXPECT_NE(summary.find("serving at the end: rm2"), std::string::npos) << summary;
  EXPECT_NE(ToJson(report).find("\"rm_failover\""), std::string::npos);
  EXPECT_NE(ToJson(report).find("\"finishes_seen_in_report\""), std::string::npos);
}

}  // namespace
}  // namespace spindle::replay
