// ParSync schedulers as separate processes (issue 22): a `spindle rm` child
// serving its pool's cell-state service (spindle.scheduler.remote.address,
// port 0, read from its --ports-file), two `spindle scheduler --rm` children
// that place every application of the cell's queue (queue-groups pinning
// sends it to the remote slot), and the staging cell (replay/cell: `spindle
// nm --nodes-file` agents, unmanaged MapReduce-shaped AMs in this process)
// driving that RM by its addresses. One scheduler is SIGKILLed while the
// jobs run. Checks, from the cell's own audit and the RM's log (never
// wall-clock times):
//  - every job finished and every task ran exactly once, on a node of the
//    cell (a container placed twice shows as one no task matches: a
//    violation); queues stayed within their maximum;
//  - the dead member's applications went to the survivor (the service's
//    lease expiry, logged with how many moved), and nothing leaked: the RM
//    reports no memory allocated once every job has ended;
//  - the survivor stops cleanly on SIGTERM.
// Variants: the schedulers in network namespaces of their own, each joined
// to the RM's by a veth pair (root), with and without `tc netem` delay of
// 0.25 ms each way; skipped, saying what was missing, where the kernel or
// the tools do not allow it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/child_process.h"
#include "integration/cell_support.h"
#include "replay/cell/cell_config.h"
#include "replay/cell/staging_cell.h"
#include "replay/report/replay_recorder.h"
#include "replay/trace/job_list_reader.h"
#include "tests/support/http_get.h"

namespace spindle::replay {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr char kQueue[] = "far";
constexpr int kSchedulers = 2;

// A job of `maps` map tasks of `task_ms` (trace time) each, then one reduce
// of twice their memory once they have all ended.
TraceJob Job(int index, int64_t arrival_ms, const std::string& user, int maps, int64_t task_ms) {
  TraceJob job;
  job.id = "job_" + std::to_string(index);
  job.arrival_ms = arrival_ms;
  job.queue = kQueue;
  job.user = user;
  TraceTask task;
  task.vcores = 1;
  task.duration_ms = task_ms;
  for (const bool reduce : {false, true}) {
    TraceStage& stage = job.stages.emplace_back();
    stage.name = reduce ? "reduce" : "map";
    stage.priority = reduce ? 10 : 20;
    if (reduce) stage.parents = {0};
    task.memory_mb = reduce ? 2048 : 1024;
    stage.tasks.assign(reduce ? 1 : static_cast<size_t>(maps), task);
  }
  return job;
}

// "name=port" lines of a --ports-file.
std::map<std::string, int> ReadPorts(const std::string& path) {
  std::map<std::string, int> ports;
  for (const std::string& line : cell::Lines(path)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) ports[line.substr(0, eq)] = std::atoi(line.c_str() + eq + 1);
  }
  return ports;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Waits (polling, with a deadline) until `done` holds.
template <typename Pred>
bool Eventually(Pred done, std::chrono::seconds limit) {
  const auto deadline = steady_clock::now() + limit;
  while (steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return done();
}

// The `ip` and `tc` tools, wherever the system keeps them ("" if absent).
std::string Tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"}) {
    const std::string path = dir + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

// Runs a tool to its end; its output goes to `log`. OK if it exited 0.
Status RunTool(const std::vector<std::string>& args, const std::string& log) {
  ChildOptions options;
  options.binary = args.front();
  options.argv0 = args.front();
  options.args.assign(args.begin() + 1, args.end());
  options.log_path = log;
  ASSIGN_OR_RETURN(ChildProcess child, ChildProcess::Spawn(options));
  if (!child.WaitExit(milliseconds(10000))) {
    child.Kill();
    return Status::IoError(args[0] + " did not finish");
  }
  const int status = child.wait_status();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string line;
    for (const auto& a : args) line += a + " ";
    return Status::IoError(line + "failed: " + cell::Tail(log, 2));
  }
  return Status::OK();
}

// Network namespaces, each joined to this process's namespace by a veth
// pair: 10.231.<i>.1 on this side, 10.231.<i>.2 in namespace i. Deleted
// (with their pairs) on destruction.
class Namespaces {
 public:
  explicit Namespaces(std::string log) : log_(std::move(log)), ip_(Tool("ip")), tc_(Tool("tc")) {}
  ~Namespaces() {
    for (const std::string& ns : made_) RunTool({ip_, "netns", "del", ns}, log_).PermitUnchecked();
  }
  Namespaces(const Namespaces&) = delete;
  Namespaces& operator=(const Namespaces&) = delete;

  // What is missing for namespaces here, or "" if they can be made.
  std::string Create(int count) {
    if (::geteuid() != 0) return "not root (`ip netns` needs CAP_SYS_ADMIN)";
    if (ip_.empty()) return "no `ip` tool (iproute2)";
    const std::string tag = std::to_string(::getpid() % 100000);
    for (int i = 0; i < count; ++i) {
      const std::string ns = "spindle-t" + tag + "-" + std::to_string(i);
      const std::string here = "sp" + tag + "h" + std::to_string(i);
      const std::string there = "sp" + tag + "n" + std::to_string(i);
      const std::string net = "10.231." + std::to_string(i);
      if (Status s = RunTool({ip_, "netns", "add", ns}, log_); !s.ok()) {
        return "`ip netns add` is not allowed here: " + s.message();
      }
      made_.push_back(ns);
      for (const auto& args : std::vector<std::vector<std::string>>{
               {ip_, "link", "add", here, "type", "veth", "peer", "name", there},
               {ip_, "link", "set", there, "netns", ns},
               {ip_, "addr", "add", net + ".1/24", "dev", here},
               {ip_, "link", "set", here, "up"},
               {ip_, "-n", ns, "addr", "add", net + ".2/24", "dev", there},
               {ip_, "-n", ns, "link", "set", there, "up"},
               {ip_, "-n", ns, "link", "set", "lo", "up"}}) {
        if (Status s = RunTool(args, log_); !s.ok()) return "a veth pair: " + s.message();
      }
      names_.push_back(ns);
      links_.emplace_back(here, there);
    }
    return "";
  }

  // Adds `tc netem delay` on both ends of every pair; what is missing, or "".
  std::string Delay(const std::string& delay) {
    if (tc_.empty()) return "no `tc` tool (iproute2)";
    for (size_t i = 0; i < names_.size(); ++i) {
      const auto& [here, there] = links_[i];
      for (const auto& args : std::vector<std::vector<std::string>>{
               {tc_, "qdisc", "add", "dev", here, "root", "netem", "delay", delay},
               {ip_, "netns", "exec", names_[i], tc_, "qdisc", "add", "dev", there, "root", "netem",
                "delay", delay}}) {
        if (Status s = RunTool(args, log_); !s.ok()) {
          return "`tc qdisc ... netem` is not available (the kernel lacks sch_netem?): " +
                 s.message();
        }
      }
    }
    return "";
  }

  const std::string& name(int i) const { return names_[static_cast<size_t>(i)]; }
  // This side's address of pair i, which namespace i reaches the RM at.
  static std::string HostAddress(int i) { return "10.231." + std::to_string(i) + ".1"; }
  const std::string& ip() const { return ip_; }

 private:
  const std::string log_;
  const std::string ip_;
  const std::string tc_;
  std::vector<std::string> made_;
  std::vector<std::string> names_;
  std::vector<std::pair<std::string, std::string>> links_;
};

class RemoteSchedulersCellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = ::testing::TempDir() + "/remote-schedulers-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
            std::to_string(::getpid());
    std::filesystem::remove_all(work_);
    std::filesystem::create_directories(work_);
  }
  void TearDown() override {
    for (ChildProcess& s : schedulers_) s.Stop(SIGTERM, std::chrono::seconds(5));
    rm_.Stop(SIGTERM, std::chrono::seconds(10));
    if (!HasFailure() && std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) {
      std::filesystem::remove_all(work_);
    } else {
      std::printf("[ remote   ] files kept in %s\n", work_.c_str());
    }
  }

  CellOptions Options(const std::string& service_host) {
    CellOptions options;
    options.spindle_binary = SPINDLE_BINARY;
    options.work_dir = work_ + "/cell";
    // Four 4-slot nodes on two racks.
    for (int n = 1; n <= 4; ++n) {
      options.nodes.push_back(
          TraceNode{"node" + std::to_string(n), n <= 2 ? "/rack1" : "/rack2", 4096, 4});
    }
    options.queues = {{kQueue, 100, 100}};
    options.speed = 10;
    options.heartbeat_interval = milliseconds(100);
    options.queue_sample_interval = milliseconds(100);
    options.run_timeout = std::chrono::seconds(40);
    // One in-process scheduler, one remote slot that every app of the
    // queue goes to: the two `spindle scheduler` processes place them all.
    options.extra_rm_config = {
        {"spindle.scheduler.count", "1"},
        {"spindle.scheduler.partitions", "2"},
        {"spindle.scheduler.sync-gap-ms", "100"},
        {"spindle.scheduler.pinning", "queue-groups"},
        {std::string("spindle.scheduler.queue-group.") + kQueue, "1"},
        {"spindle.scheduler.remote.address", service_host + ":0"},
        {"spindle.scheduler.remote.count", "1"},
        {"spindle.scheduler.remote.lease-ms", "1000"},
    };
    return options;
  }

  // Starts the RM from the cell's own RM files; OK once it listens,
  // cell-state port included.
  Status StartRm(const CellOptions& options) {
    const CellLayout layout(work_ + "/rm");
    RETURN_NOT_OK(WriteCellConfig(options, layout, SplitNodes(options.nodes, 1)));
    rm_log_ = layout.rm_log();
    rm_ = cell::Spawn(
        {SPINDLE_BINARY, "rm", "--conf", layout.rm_conf(), "--ports-file", layout.rm_ports()},
        rm_log_);
    std::map<std::string, int> ports;
    const bool up = Eventually(
        [&] {
          ports = ReadPorts(layout.rm_ports());
          return ports.contains("web") || rm_.Exited();
        },
        std::chrono::seconds(60));
    if (!up || !ports.contains("cell-state")) {
      return Status::IoError("the RM does not serve its cell-state service: " +
                             cell::Tail(rm_log_, 5));
    }
    external_ = ExternalRm{{"127.0.0.1", static_cast<uint16_t>(ports["client"])},
                           {"127.0.0.1", static_cast<uint16_t>(ports["scheduler"])},
                           {"127.0.0.1", static_cast<uint16_t>(ports["resource-tracker"])},
                           ""};
    web_port_ = ports["web"];
    cell_state_port_ = ports["cell-state"];
    return Status::OK();
  }

  // Starts scheduler i of kSchedulers, reaching the service at `host`;
  // inside namespace `ns` when given.
  void StartScheduler(int i, const std::string& host, const Namespaces* ns) {
    std::vector<std::string> args;
    if (ns != nullptr) args = {ns->ip(), "netns", "exec", ns->name(i)};
    for (const std::string& a :
         {std::string(SPINDLE_BINARY), std::string("scheduler"), std::string("--rm"),
          host + ":" + std::to_string(cell_state_port_), std::string("--name"), Name(i),
          std::string("--schedulers"), std::to_string(kSchedulers), std::string("--index"),
          std::to_string(i), std::string("--sync-gap-ms"), std::string("100")}) {
      args.push_back(a);
    }
    schedulers_.push_back(cell::Spawn(args, work_ + "/" + Name(i) + ".log"));
  }
  static std::string Name(int i) { return "scheduler-" + std::to_string(i); }

  // The whole scenario; the schedulers reach the RM's service at
  // host(i), inside `ns` when given.
  void Run(const std::string& service_host, const std::function<std::string(int)>& host,
           const Namespaces* ns) {
    const CellOptions options = Options(service_host);
    ASSERT_TRUE(StartRm(options).ok()) << cell::Tail(rm_log_, 10);
    for (int i = 0; i < kSchedulers; ++i) StartScheduler(i, host(i), ns);
    // Both members joined the service.
    ASSERT_TRUE(Eventually(
        [&] {
          const std::string log = cell::ReadAll(rm_log_);
          return Count(log, "(" + Name(0) + ") joined") == 1 &&
                 Count(log, "(" + Name(1) + ") joined") == 1;
        },
        std::chrono::seconds(30)))
        << cell::Tail(rm_log_, 10) << cell::Tail(work_ + "/" + Name(0) + ".log", 5);

    // Ten jobs of 12 maps (16 slots in the cell: several waves each).
    std::vector<TraceJob> jobs;
    for (int j = 0; j < 10; ++j) {
      jobs.push_back(Job(j + 1, 300 * j, j % 2 == 0 ? "alice" : "bob", 12, 3000));
    }
    // Scheduler 0 dies once a few applications run (each asking for
    // more than the cell holds at once): it holds some of them then.
    std::atomic<bool> stop_killer{false};
    std::atomic<bool> killed{false};
    std::thread killer([&] {
      while (!stop_killer.load()) {
        if (Count(cell::ReadAll(rm_log_), "AM registered for") >= 3) {
          schedulers_[0].Signal(SIGKILL);
          killed = true;
          return;
        }
        std::this_thread::sleep_for(milliseconds(10));
      }
    });
    CellOptions driven = options;
    driven.external_rms = {external_};
    JobListReader reader(jobs);
    ReplayRecorder recorder(CellRecorderOptions(driven));
    CellRunLog log;
    auto result = RunStagingCell(driven, &reader, &recorder, &log);
    stop_killer = true;
    killer.join();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ASSERT_TRUE(killed.load()) << "scheduler 0 was never killed";

    // Every task exactly once, every job finished, no violation.
    int64_t total_tasks = 0;
    for (const TraceJob& j : jobs) total_tasks += j.task_count();
    for (const std::string& v : result->violations) ADD_FAILURE() << "violation: " << v;
    std::map<std::tuple<int64_t, int32_t, int32_t>, int> runs;
    for (const CellTaskRun& r : log.runs) ++runs[{r.job, r.task.stage, r.task.task}];
    EXPECT_EQ(static_cast<int64_t>(runs.size()), total_tasks);
    for (const auto& [task, count] : runs) EXPECT_EQ(count, 1);
    EXPECT_EQ(result->jobs_finished, static_cast<int64_t>(jobs.size()));
    EXPECT_EQ(result->tasks_placed, total_tasks);
    EXPECT_EQ(result->tasks_ended, total_tasks);
    EXPECT_GT(log.queue_samples, 0);
    for (const auto& [queue, peak] : log.queue_peak_mb) EXPECT_LE(peak.first, peak.second) << queue;

    // The dead member's applications went to the survivor.
    const std::string rm_log = cell::ReadAll(rm_log_);
    std::smatch moved;
    const std::regex expired("\\(" + Name(0) +
                             "\\) did not renew its lease; its ([0-9]+) application");
    ASSERT_TRUE(std::regex_search(rm_log, moved, expired)) << cell::Tail(rm_log_, 20);
    EXPECT_GE(std::stoi(moved[1].str()), 1) << "scheduler 0 held no application when killed";
    EXPECT_EQ(Count(rm_log, "(" + Name(1) + ") did not renew"), 0u);

    // Nothing leaked: once the nodes have reported every container's end,
    // the RM holds no memory for anyone.
    const std::regex none("\"allocatedMB\"\\s*:\\s*0[,}]");
    std::string metrics;
    EXPECT_TRUE(Eventually(
        [&] {
          auto got = testing::HttpGet("127.0.0.1", static_cast<uint16_t>(web_port_),
                                      "/ws/v1/cluster/metrics");
          metrics = got.ok() ? got->body : got.status().ToString();
          return got.ok() && std::regex_search(metrics, none);
        },
        std::chrono::seconds(15)))
        << metrics;

    // The killed one died of SIGKILL; the survivor leaves on SIGTERM.
    ASSERT_TRUE(schedulers_[0].WaitExit(milliseconds(5000)));
    EXPECT_TRUE(WIFSIGNALED(schedulers_[0].wait_status()));
    schedulers_[1].Signal(SIGTERM);
    ASSERT_TRUE(schedulers_[1].WaitExit(milliseconds(10000)));
    EXPECT_TRUE(WIFEXITED(schedulers_[1].wait_status()) &&
                WEXITSTATUS(schedulers_[1].wait_status()) == 0)
        << cell::Tail(work_ + "/" + Name(1) + ".log", 5);
    std::printf(
        "[ remote   ] %lld tasks of %zu jobs placed by remote schedulers, delay p50 %.0f ms "
        "p99 %.0f ms (trace time); %s application(s) moved from the killed one\n",
        static_cast<long long>(result->tasks_placed), jobs.size(), result->delay_ms.p50,
        result->delay_ms.p99, moved[1].str().c_str());
  }

  std::string work_;
  ChildProcess rm_;
  std::string rm_log_;
  ExternalRm external_;
  int web_port_ = 0;
  int cell_state_port_ = 0;
  std::vector<ChildProcess> schedulers_;
};

TEST_F(RemoteSchedulersCellTest, OnLoopbackOneKilledMidRun) {
  Run(
      "127.0.0.1", [](int) { return std::string("127.0.0.1"); }, nullptr);
}

TEST_F(RemoteSchedulersCellTest, AcrossNetworkNamespacesOneKilledMidRun) {
  Namespaces ns(work_ + "/netns.log");
  const std::string missing = ns.Create(kSchedulers);
  if (!missing.empty()) GTEST_SKIP() << "network namespaces: " << missing;
  Run("0.0.0.0", &Namespaces::HostAddress, &ns);
}

TEST_F(RemoteSchedulersCellTest, AcrossNetworkNamespacesWithNetemDelay) {
  Namespaces ns(work_ + "/netns.log");
  std::string missing = ns.Create(kSchedulers);
  if (!missing.empty()) GTEST_SKIP() << "network namespaces: " << missing;
  missing = ns.Delay("250us");
  if (!missing.empty()) GTEST_SKIP() << "netem delay of 0.25 ms each way: " << missing;
  Run("0.0.0.0", &Namespaces::HostAddress, &ns);
}

}  // namespace
}  // namespace spindle::replay
