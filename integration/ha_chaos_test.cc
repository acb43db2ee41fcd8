// The HA pair under chaos, as issue 19 asks it proven: a real ZooKeeper
// (MiniZooKeeper), two `spindle rm` (rm-ids rm1 and rm2, one shared
// ZKRMStateStore, automatic failover by the embedded elector,
// zk-timeout-ms 2000), one `spindle nm` running real containers and a stream
// of `spindle shell` applications (the Hadoop configuration with both
// rm-ids is all the clients, the AMs and the node agent are given), while
//  - the active RM is SIGKILLed at seeded random moments (SPINDLE_HA_CHAOS_KILLS
//    times, default 20; seed SPINDLE_HA_CHAOS_SEED, else the clock, printed)
//    and started again each time, to rejoin as standby;
//  - every few kills an operator's manual failover and failback runs through
//    `spindle rmadmin` (-transitionToStandby / -transitionToActive with
//    --forcemanual, confirmed on stdin, as Hadoop's HAAdmin wants under
//    automatic failover; the unforced form is checked refused). The failback
//    returns the active role to the RM holding the election's lock: with
//    automatic failover on, Hadoop's AdminService changes the state but not
//    the election (ResourceManager.transitionToStandby), so a SIGKILL of a
//    manually made active would find no standby racing for the lock.
// At the end, per application whose submission `spindle shell` acknowledged
// ("Submitted application ..."):
//  - the active RM knows it, FINISHED/SUCCEEDED; or FAILED when its AM
//    container was never launched on the node (placed by an RM that died
//    before launching it: the attempt fails, at the latest at the AM expiry,
//    and an app of one attempt is not retried -- Hadoop 3.3's
//    RMAppImpl.AttemptFailedTransition), and its client's exit status agrees;
//  - node side against RM side: no task container was launched twice (each
//    launch appends its CONTAINER_ID to one file), each one launched was
//    reported completed to its AM by the RM exactly once (the AM's stdout),
//    the container directories the node made for the app are the AM
//    container the RM names in its attempt report plus those tasks, and no
//    container id belongs to two applications.
// Failover times (SIGKILL to the other RM answering as active) are printed
// as min/median/max; nothing asserts on wall-clock time.
//
// A second test fences a partitioned active: SIGSTOP past the session
// timeout (process alive, session lost), the other RM takes the store's
// root ACL over, and a submission queued on the stopped RM's socket is,
// after SIGCONT, neither acknowledged nor written; the root ACL stays the
// new active's and the old one ends standby. Both tests check that a
// standby answers org.apache.hadoop.ipc.StandbyException on all four RPC
// ports (client, scheduler, resource-tracker, admin).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "am_protocol/admin_service/admin_service.h"
#include "base/child_process.h"
#include "base/net/free_port.h"
#include "integration/cell_support.h"
#include "integration/ha_probe.h"
#include "integration/wait_for.h"
#include "persist/zk/zk_acl.h"
#include "persist/zk/zk_session.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "tests/support/mini_zookeeper.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;
using SteadyClock = std::chrono::steady_clock;

constexpr int kZkTimeoutMs = 2000;
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
constexpr char kStoreClass[] =
    "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore";
constexpr char kStoreRoot[] = "/rmstore/ZKRMStateRoot";
const char* const kRmIds[] = {"rm1", "rm2"};

using Answer = cell::HaAnswer;

std::string Other(const std::string& id) { return id == "rm1" ? "rm2" : "rm1"; }

// A znode's ACL as ZooKeeper's CLI shows it ("digest:rm:...:cd,world:anyone:rwa").
std::string AclText(const std::vector<zk::ZkAcl>& acl) {
  std::string text;
  for (const zk::ZkAcl& entry : acl) text += (text.empty() ? "" : ",") + zk::ToString(entry);
  return text;
}

// One `spindle shell` application as the test follows it.
struct ShellRun {
  int index = 0;
  ChildProcess process;
  std::string log;
  bool exited = false;
  int exit_code = -1;
};

class HaChaosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = testing::MiniZooKeeper::MissingComponent();
    if (!missing.empty()) GTEST_SKIP() << "ZooKeeper server not installed: " << missing;
    work_ = ::testing::TempDir() + "/ha-chaos-test-" + std::to_string(getpid());
    std::filesystem::remove_all(work_);
    for (const char* dir : {"zk", "conf", "rm1-conf", "rm2-conf", "nm/local", "nm/logs"}) {
      std::filesystem::create_directories(work_ + "/" + dir);
    }
    testing::MiniZooKeeperOptions zk_options;
    zk_options.work_dir = work_ + "/zk";
    auto zk = testing::MiniZooKeeper::Start(zk_options);
    ASSERT_TRUE(zk.ok()) << zk.status().ToString();
    zk_ = std::move(*zk);
    for (const char* id : kRmIds) PickPorts(id);
    ipc::RpcClientOptions options;
    options.connect_timeout = 1s;
    options.call_timeout = 3s;
    client_ = std::make_unique<ipc::RpcClient>(options);
  }

  void TearDown() override {
    for (auto& [index, shell] : shells_) shell.process.Stop(SIGTERM, 2s);
    nm_.Stop(SIGTERM, 10s);
    cell::KillContainerProcesses(work_ + "/nm/local/nmPrivate");
    for (auto& [id, rm] : rms_) {
      rm.process.Signal(SIGCONT);
      rm.process.Stop(SIGTERM, 5s);
    }
    client_.reset();
    zk_.reset();
    if (HasFailure() || std::getenv("SPINDLE_KEEP_TEST_DIRS") != nullptr) {
      std::printf("[ chaos    ] test files kept in %s\n", work_.c_str());
    } else {
      std::filesystem::remove_all(work_);
    }
  }

  // yarn-site.xml: one for the clients, the AMs and the node agent (`id`
  // empty), one per RM (yarn.resourcemanager.ha.id set).
  std::map<std::string, std::string> Site(const std::string& id) {
    std::map<std::string, std::string> p;
    p["yarn.resourcemanager.ha.enabled"] = "true";
    p["yarn.resourcemanager.ha.rm-ids"] = "rm1,rm2";
    if (!id.empty()) p["yarn.resourcemanager.ha.id"] = id;
    p["yarn.resourcemanager.cluster-id"] = "ha-chaos";
    p["hadoop.zk.address"] = zk_->connect_string();
    p["yarn.resourcemanager.zk-timeout-ms"] = std::to_string(kZkTimeoutMs);
    p["yarn.resourcemanager.recovery.enabled"] = "true";
    p["yarn.resourcemanager.work-preserving-recovery.enabled"] = "true";
    p["yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms"] = "1000";
    p["yarn.resourcemanager.store.class"] = kStoreClass;
    for (const char* rm_id : kRmIds) {
      for (const char* key : cell::kRmAddressKeys) {
        p[std::string(key) + "." + rm_id] = "127.0.0.1:" + std::to_string(ports_[rm_id][key]);
      }
    }
    p["yarn.scheduler.minimum-allocation-mb"] = "64";
    p["yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"] = "100";
    // An AM placed by an RM that died before launching it is given up
    // after this long (its app then fails: one attempt).
    p["yarn.am.liveness-monitor.expiry-interval-ms"] = "20000";
    p["spindle.scheduler.count"] = "1";
    p["spindle.scheduler.partitions"] = "1";
    // Clients (spindle shell, its AM, the node agent): RMProxy's failover,
    // quick, for as long as a failover may take on a loaded machine.
    p["yarn.client.failover-sleep-base-ms"] = "100";
    p["yarn.client.failover-sleep-max-ms"] = "500";
    p["yarn.resourcemanager.connect.retry-interval.ms"] = "100";
    p["yarn.resourcemanager.connect.max-wait.ms"] = "120000";
    // The node agent.
    p["yarn.nodemanager.hostname"] = "127.0.0.1";
    p["yarn.nodemanager.address"] = "127.0.0.1:0";
    p["yarn.nodemanager.webapp.address"] = "127.0.0.1:0";
    p["yarn.nodemanager.resource.memory-mb"] = "8192";
    p["yarn.nodemanager.resource.cpu-vcores"] = "32";
    p["yarn.nodemanager.local-dirs"] = work_ + "/nm/local";
    p["yarn.nodemanager.log-dirs"] = work_ + "/nm/logs";
    p["spindle.nm.heartbeat.initial-interval-ms"] = "100";
    p["spindle.nm.rm-retry.max-interval-ms"] = "200";
    return p;
  }

  struct Rm {
    ChildProcess process;
    int run = 0;
  };

  std::string Log(const std::string& id, int run) const {
    return work_ + "/" + id + "." + std::to_string(run) + ".log";
  }
  std::string CurrentLog(const std::string& id) { return Log(id, rms_[id].run); }

  // Picks free ports for `id`'s addresses and writes every configuration
  // (each names both RMs' addresses).
  void PickPorts(const std::string& id) {
    for (const char* key : cell::kRmAddressKeys) {
      ports_[id][key] = net::PickFreeLoopbackPort().value();
    }
    cell::WriteSite(work_ + "/conf/yarn-site.xml", Site(""));
    for (const char* rm_id : kRmIds) {
      cell::WriteSite(work_ + "/" + rm_id + "-conf/yarn-site.xml", Site(rm_id));
    }
  }

  // Starts `spindle rm` as `id` and waits until it listens. The ports are
  // picked before the RM binds them (HA names them in the configuration),
  // so another process may take one meanwhile: then new ones are picked
  // and the start tried again.
  void StartRm(const std::string& id) {
    Rm& rm = rms_[id];
    for (int attempt = 1;; ++attempt) {
      ++rm.run;
      const std::string ports = work_ + "/" + id + ".ports." + std::to_string(rm.run);
      rm.process = cell::StartListeningRm(SPINDLE_BINARY, work_ + "/" + id + "-conf", ports,
                                          Log(id, rm.run), 60s);
      if (rm.process.running()) return;
      const bool port_taken =
          cell::ReadAll(Log(id, rm.run)).find("Address already in use") != std::string::npos;
      if (!port_taken || attempt == 3) break;
      std::printf("[ ha       ] %s: a port was taken before it bound; picking new ones\n",
                  id.c_str());
      PickPorts(id);
    }
    FAIL() << "spindle rm " << id << " did not start:\n" << cell::Tail(Log(id, rm.run), 30);
  }

  ipc::ConnectionSpec Spec(const std::string& id, const char* key, const char* protocol) {
    return {"127.0.0.1", ports_[id][key], protocol, "alice", std::nullopt};
  }

  Answer Ask(const std::string& id) {
    return cell::AskHaState(*client_, ports_[id]["yarn.resourcemanager.address"]);
  }

  // The one RM answering as active while the other is standby (or down).
  std::string WaitForActive(std::chrono::milliseconds timeout) {
    std::string active;
    WaitFor(
        [&] {
          for (const char* id : kRmIds) {
            if (Ask(id) == Answer::kActive && Ask(Other(id)) != Answer::kActive) active = id;
          }
          return !active.empty();
        },
        timeout);
    return active;
  }

  // Every RPC port of the standby `id` answers StandbyException, with the
  // class name Hadoop's ConfiguredRMFailoverProxyProvider fails over on.
  void ExpectStandbyOnAllPorts(const std::string& id) {
    y::GetClusterMetricsRequestProto metrics;
    y::GetClusterMetricsResponseProto metrics_response;
    const Status client = client_->Call(Spec(id, "yarn.resourcemanager.address", cell::kClient),
                                        "getClusterMetrics", metrics, &metrics_response);
    EXPECT_EQ(client.java_class(), rm::yarn::kStandby) << "client port: " << client.ToString();

    // The AM port authenticates AMRM tokens only; a standby has no secret
    // manager to check one against and says so during SASL.
    ipc::ConnectionSpec ams = Spec(id, "yarn.resourcemanager.scheduler.address", cell::kAms);
    ams.token = ipc::ClientToken{std::string("\x0a\x02\x08\x01", 4), std::string(20, 'k'),
                                 cell::kAmrmTokenKind, "127.0.0.1:0"};
    y::RegisterApplicationMasterRequestProto register_am;
    y::RegisterApplicationMasterResponseProto registered;
    const Status scheduler =
        client_->Call(ams, "registerApplicationMaster", register_am, &registered);
    EXPECT_EQ(scheduler.java_class(), rm::yarn::kStandby)
        << "scheduler port: " << scheduler.ToString();

    y::RegisterNodeManagerRequestProto register_nm;
    register_nm.mutable_node_id()->set_host("127.0.0.1");
    register_nm.mutable_node_id()->set_port(1);
    register_nm.set_http_port(2);
    register_nm.mutable_resource()->set_memory(1024);
    register_nm.mutable_resource()->set_virtual_cores(1);
    y::RegisterNodeManagerResponseProto nm_registered;
    const Status tracker =
        client_->Call(Spec(id, "yarn.resourcemanager.resource-tracker.address", kTracker),
                      "registerNodeManager", register_nm, &nm_registered);
    EXPECT_EQ(tracker.java_class(), rm::yarn::kStandby)
        << "resource-tracker port: " << tracker.ToString();

    y::RefreshQueuesRequestProto refresh;
    y::RefreshQueuesResponseProto refreshed;
    const Status admin =
        client_->Call(Spec(id, "yarn.resourcemanager.admin.address", am_protocol::kAdminProtocol),
                      "refreshQueues", refresh, &refreshed);
    EXPECT_EQ(admin.java_class(), rm::yarn::kStandby) << "admin port: " << admin.ToString();
  }

  // `spindle rmadmin <args>` with `answer` on its stdin; its exit status
  // (output appended to rmadmin.log).
  int RmAdmin(const std::string& args, const std::string& answer = "") {
    const std::string log = work_ + "/rmadmin.log";
    const std::string command = "printf '" + answer + "' | " + SPINDLE_BINARY + " rmadmin --conf " +
                                work_ + "/conf " + args + " >> " + log + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  void StartNm() {
    nm_ = cell::Spawn({SPINDLE_BINARY, "nm", "--conf", work_ + "/conf"}, work_ + "/nm.log",
                      {"HADOOP_CONF_DIR=" + work_ + "/conf"});
    ASSERT_TRUE(nm_.running());
  }

  // A `spindle shell` app: two short task containers, each recording its
  // launch.
  void StartShell() {
    ShellRun run;
    run.index = static_cast<int>(shells_.size());
    run.log = work_ + "/shell." + std::to_string(run.index) + ".log";
    run.process =
        cell::Spawn({SPINDLE_BINARY, "shell", "--conf", work_ + "/conf", "--command",
                     "echo $CONTAINER_ID >> " + work_ + "/launches; sleep 0.3", "--num-containers",
                     "2", "--memory-mb", "64", "--am-memory-mb", "128", "--name",
                     "ha-chaos-" + std::to_string(run.index), "--timeout-seconds", "400"},
                    run.log);
    ASSERT_TRUE(run.process.running());
    shells_.emplace(run.index, std::move(run));
  }

  // Reaps finished shells; keeps `live` of them running while `submitting`.
  void TendShells(int live, bool submitting) {
    int running = 0;
    for (auto& [index, shell] : shells_) {
      if (shell.exited) continue;
      if (shell.process.Exited()) {
        shell.exited = true;
        const int status = shell.process.wait_status();
        shell.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      } else {
        ++running;
      }
    }
    while (submitting && running < live) {
      StartShell();
      ++running;
    }
  }

  int RunningShells() {
    TendShells(0, false);
    int running = 0;
    for (auto& [index, shell] : shells_) running += shell.exited ? 0 : 1;
    return running;
  }

  // The app id a shell's client printed once its submission was acknowledged.
  std::optional<rm::ApplicationId> AcknowledgedApp(const ShellRun& shell) {
    for (const std::string& line : cell::Lines(shell.log)) {
      constexpr char kSubmitted[] = "Submitted application ";
      if (line.rfind(kSubmitted, 0) != 0) continue;
      auto id = rm::ApplicationId::Parse(line.substr(sizeof(kSubmitted) - 1));
      if (id.ok()) return *id;
    }
    return std::nullopt;
  }

  void CheckApplications(const std::string& active);

  std::string work_;
  std::unique_ptr<testing::MiniZooKeeper> zk_;
  std::unique_ptr<ipc::RpcClient> client_;
  std::map<std::string, std::map<std::string, uint16_t>> ports_;
  std::map<std::string, Rm> rms_;
  ChildProcess nm_;
  std::map<int, ShellRun> shells_;
};

void HaChaosTest::CheckApplications(const std::string& active) {
  // Node side: every task launch, and the containers the node made a
  // directory for, per application.
  std::map<std::string, int> launches;
  for (const std::string& line : cell::Lines(work_ + "/launches")) ++launches[line];
  std::map<std::string, std::set<std::string>> node_containers;  // app -> container dirs
  std::error_code ec;
  for (const auto& app_dir : std::filesystem::directory_iterator(work_ + "/nm/logs", ec)) {
    for (const auto& c : std::filesystem::directory_iterator(app_dir.path(), ec)) {
      node_containers[app_dir.path().filename().string()].insert(c.path().filename().string());
    }
  }
  for (const auto& [container, times] : launches) {
    EXPECT_EQ(times, 1) << "task container " << container << " launched " << times << " times";
  }

  std::set<std::string> acknowledged;
  int succeeded = 0;
  int failed_unlaunched = 0;
  for (auto& [index, shell] : shells_) {
    const std::optional<rm::ApplicationId> id = AcknowledgedApp(shell);
    if (!id.has_value()) {
      // Never acknowledged: a client that could not submit (none should).
      ADD_FAILURE() << "shell " << index << " never got its submission acknowledged:\n"
                    << cell::Tail(shell.log, 10);
      continue;
    }
    const std::string app = id->ToString();
    acknowledged.insert(app);
    y::GetApplicationReportRequestProto request;
    rm::ToProto(*id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    const Status s = client_->Call(Spec(active, "yarn.resourcemanager.address", cell::kClient),
                                   "getApplicationReport", request, &response);
    ASSERT_TRUE(s.ok()) << app << " unknown to the active RM " << active << ": " << s.ToString();
    const y::ApplicationReportProto& report = response.application_report();
    const std::set<std::string>& dirs = node_containers[app];
    if (report.yarn_application_state() == y::FAILED && dirs.empty()) {
      // Its AM was placed by an RM that died before launching it.
      ++failed_unlaunched;
      EXPECT_EQ(shell.exit_code, 1) << app;
      continue;
    }
    EXPECT_EQ(report.yarn_application_state(), y::FINISHED)
        << app << ": " << report.diagnostics() << "\n"
        << cell::Tail(shell.log, 10);
    EXPECT_EQ(report.final_application_status(), y::APP_SUCCEEDED) << app;
    EXPECT_EQ(shell.exit_code, 0) << app << "\n" << cell::Tail(shell.log, 10);
    if (report.final_application_status() == y::APP_SUCCEEDED) ++succeeded;

    // RM side: the AM container its (only) attempt names, and the task
    // completions the RM reported to the AM.
    y::GetApplicationAttemptReportRequestProto attempt_request;
    *attempt_request.mutable_application_attempt_id() = report.currentapplicationattemptid();
    y::GetApplicationAttemptReportResponseProto attempt;
    ASSERT_TRUE(client_
                    ->Call(Spec(active, "yarn.resourcemanager.address", cell::kClient),
                           "getApplicationAttemptReport", attempt_request, &attempt)
                    .ok())
        << app;
    const std::string am_container =
        rm::FromProto(attempt.application_attempt_report().am_container_id()).ToString();
    EXPECT_EQ(dirs.count(am_container), 1u)
        << app << ": the node never ran the AM container " << am_container;
    std::map<std::string, int> reported;  // container -> completions the AM heard of
    for (const std::string& line :
         cell::Lines(work_ + "/nm/logs/" + app + "/" + am_container + "/stdout")) {
      constexpr char kContainer[] = "container ";
      if (line.rfind(kContainer, 0) != 0) continue;
      const std::string rest = line.substr(sizeof(kContainer) - 1);
      const std::string container = rest.substr(0, rest.find(' '));
      if (rest.find(" completed, ") != std::string::npos ||
          rest.find(" lost ") != std::string::npos) {
        ++reported[container];
      }
    }
    for (const std::string& dir : dirs) {
      if (dir == am_container) continue;
      EXPECT_EQ(launches.count(dir), 1u)
          << app << ": the node made " << dir << ", neither its AM nor a task it launched";
      EXPECT_EQ(reported[dir], 1) << app << ": task " << dir << " launched on the node, reported "
                                  << reported[dir] << " times by the RM to its AM";
    }
    for (const auto& [container, times] : reported) {
      EXPECT_EQ(dirs.count(container), 1u)
          << app << ": the RM reported " << container << " completed, the node never ran it";
    }
  }
  // Every launched task belongs to an acknowledged application.
  for (const auto& [container, times] : launches) {
    auto id = rm::ContainerId::Parse(container);
    ASSERT_TRUE(id.ok()) << container;
    EXPECT_EQ(acknowledged.count(id->attempt.app.ToString()), 1u)
        << container << " ran for an application no client saw acknowledged";
  }
  std::printf(
      "[ chaos    ] %zu applications acknowledged: %d FINISHED/SUCCEEDED, %d FAILED with their "
      "AM never launched; %zu task containers launched once each\n",
      acknowledged.size(), succeeded, failed_unlaunched, launches.size());
}

TEST_F(HaChaosTest, KillsAndManualFailoversLoseNoApplicationAndRunNoContainerTwice) {
  const char* kills_env = std::getenv("SPINDLE_HA_CHAOS_KILLS");
  const int kills = kills_env != nullptr ? std::max(1, std::atoi(kills_env)) : 20;
  const char* seed_env = std::getenv("SPINDLE_HA_CHAOS_SEED");
  const uint64_t seed = seed_env != nullptr
                            ? std::strtoull(seed_env, nullptr, 10)
                            : static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count());
  std::printf("[ chaos    ] seed %llu (SPINDLE_HA_CHAOS_SEED), %d kills\n",
              static_cast<unsigned long long>(seed), kills);
  std::mt19937_64 random(seed);
  auto uniform_ms = [&](int lo, int hi) {
    return std::chrono::milliseconds(std::uniform_int_distribution<int>(lo, hi)(random));
  };

  ASSERT_NO_FATAL_FAILURE(StartRm("rm1"));
  ASSERT_NO_FATAL_FAILURE(StartRm("rm2"));
  std::string active = WaitForActive(60s);
  ASSERT_FALSE(active.empty()) << "no single active RM:\n"
                               << cell::Tail(CurrentLog("rm1"), 20)
                               << cell::Tail(CurrentLog("rm2"), 20);
  ASSERT_TRUE(WaitFor([&] { return Ask(Other(active)) == Answer::kStandby; }, 30s));
  ExpectStandbyOnAllPorts(Other(active));
  ASSERT_NO_FATAL_FAILURE(StartNm());

  constexpr int kLiveShells = 3;
  std::vector<int64_t> failover_ms;
  int manual_round_trips = 0;
  int unplanned_failovers = 0;
  for (int k = 0; k < kills; ++k) {
    // Let the cell work a while: submissions, AMs, containers in flight.
    const auto until = SteadyClock::now() + uniform_ms(300, 2500);
    while (SteadyClock::now() < until) {
      TendShells(kLiveShells, true);
      std::this_thread::sleep_for(50ms);
    }

    // Which RM is active now: under load a session may expire on its own
    // (the elector then hands over without a kill), so it is asked, not assumed.
    const std::string current = WaitForActive(60s);
    ASSERT_FALSE(current.empty()) << "no single active RM before kill " << k + 1 << ":\n"
                                  << cell::Tail(CurrentLog("rm1"), 20)
                                  << cell::Tail(CurrentLog("rm2"), 20);
    if (current != active) {
      ++unplanned_failovers;
      std::printf("[ chaos    ] %s took over from %s without a kill (a session expired)\n",
                  current.c_str(), active.c_str());
    }
    active = current;
    ASSERT_TRUE(WaitFor([&] { return Ask(Other(active)) == Answer::kStandby; }, 60s))
        << Other(active) << " not standby:\n"
        << cell::Tail(CurrentLog(Other(active)), 30);

    if (k % 5 == 2) {
      // An operator's manual failover and failback with rmadmin. Unforced,
      // HAAdmin refuses under automatic failover.
      const std::string standby = Other(active);
      EXPECT_EQ(RmAdmin("-transitionToStandby " + active), 255);
      EXPECT_EQ(RmAdmin("-transitionToStandby --forcemanual " + active, "y\\n"), 0)
          << cell::Tail(work_ + "/rmadmin.log", 10);
      EXPECT_EQ(RmAdmin("-transitionToActive --forcemanual " + standby, "y\\n"), 0)
          << cell::Tail(work_ + "/rmadmin.log", 10);
      EXPECT_TRUE(WaitFor([&] { return Ask(standby) == Answer::kActive; }, 30s))
          << cell::Tail(CurrentLog(standby), 30);
      ExpectStandbyOnAllPorts(active);
      const auto serve_until = SteadyClock::now() + uniform_ms(500, 2000);
      while (SteadyClock::now() < serve_until) {
        TendShells(kLiveShells, true);
        std::this_thread::sleep_for(50ms);
      }
      EXPECT_EQ(RmAdmin("-transitionToStandby --forcemanual " + standby, "y\\n"), 0)
          << cell::Tail(work_ + "/rmadmin.log", 10);
      EXPECT_EQ(RmAdmin("-transitionToActive --forcemanual " + active, "y\\n"), 0)
          << cell::Tail(work_ + "/rmadmin.log", 10);
      ASSERT_TRUE(WaitFor([&] { return Ask(active) == Answer::kActive; }, 30s))
          << cell::Tail(CurrentLog(active), 30);
      ASSERT_TRUE(WaitFor([&] { return Ask(standby) == Answer::kStandby; }, 30s));
      ++manual_round_trips;
    }

    // SIGKILL the active; the standby's elector wins once the dead RM's
    // session expires on the server.
    const std::string standby = Other(active);
    ASSERT_TRUE(WaitFor([&] { return Ask(standby) == Answer::kStandby; }, 60s))
        << standby << " not standby:\n"
        << cell::Tail(CurrentLog(standby), 30);
    Rm& victim = rms_[active];
    if (victim.process.Exited()) {
      FAIL() << active << " exited by itself:\n" << cell::Tail(CurrentLog(active), 30);
    }
    victim.process.Kill();
    const auto killed_at = SteadyClock::now();
    const bool took_over = WaitFor(
        [&] {
          TendShells(kLiveShells, true);
          return Ask(standby) == Answer::kActive;
        },
        std::chrono::milliseconds(kZkTimeoutMs) + 60s);
    ASSERT_TRUE(took_over) << standby << " did not become active after kill " << k + 1 << ":\n"
                           << cell::Tail(CurrentLog(standby), 40);
    failover_ms.push_back(
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - killed_at)
            .count());
    std::printf("[ chaos    ] kill %d: %s killed, %s serving after %lld ms\n", k + 1,
                active.c_str(), standby.c_str(), static_cast<long long>(failover_ms.back()));
    std::fflush(stdout);
    const std::string restarted = active;
    ASSERT_NO_FATAL_FAILURE(StartRm(restarted));
    ASSERT_TRUE(WaitFor([&] { return Ask(restarted) == Answer::kStandby; }, 60s))
        << restarted << " did not come back standby:\n"
        << cell::Tail(CurrentLog(restarted), 30);
    active = standby;
  }

  // No more submissions: every application runs to its end.
  const bool drained = WaitFor([&] { return RunningShells() == 0; }, 240s);
  for (auto& [index, shell] : shells_) {
    if (!shell.exited) {
      ADD_FAILURE() << "shell " << index << " still running:\n" << cell::Tail(shell.log, 15);
    }
  }
  ASSERT_TRUE(drained);
  ASSERT_EQ(WaitForActive(30s), active);
  ASSERT_NO_FATAL_FAILURE(CheckApplications(active));

  std::sort(failover_ms.begin(), failover_ms.end());
  std::printf(
      "[ chaos    ] failover (SIGKILL to the other RM serving), zk-timeout-ms %d, %zu kills, %d "
      "manual failover round trips, %d failovers without a kill: min %lld ms, median %lld ms, "
      "max %lld ms\n",
      kZkTimeoutMs, failover_ms.size(), manual_round_trips, unplanned_failovers,
      static_cast<long long>(failover_ms.front()),
      static_cast<long long>(failover_ms[failover_ms.size() / 2]),
      static_cast<long long>(failover_ms.back()));
}

TEST_F(HaChaosTest, APartitionedActiveIsFencedAndNeverWritesAgain) {
  ASSERT_NO_FATAL_FAILURE(StartRm("rm1"));
  ASSERT_TRUE(WaitFor([&] { return Ask("rm1") == Answer::kActive; }, 60s))
      << cell::Tail(CurrentLog("rm1"), 30);
  ASSERT_NO_FATAL_FAILURE(StartRm("rm2"));
  ASSERT_TRUE(WaitFor([&] { return Ask("rm2") == Answer::kStandby; }, 60s));
  ExpectStandbyOnAllPorts("rm2");

  zk::ZkSessionOptions zk_options;
  zk_options.connect_string = zk_->connect_string();
  auto zk = zk::ZkSession::Open(zk_options);
  ASSERT_TRUE(zk.ok()) << zk.status().ToString();
  auto acl_before = (*zk)->GetAcl(kStoreRoot);
  ASSERT_TRUE(acl_before.ok()) << acl_before.status().ToString();

  // An application id from rm1, then rm1 partitioned: stopped, its session
  // left to expire.
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_app;
  ASSERT_TRUE(client_
                  ->Call(Spec("rm1", "yarn.resourcemanager.address", cell::kClient),
                         "getNewApplication", new_request, &new_app)
                  .ok());
  const rm::ApplicationId app = rm::FromProto(new_app.application_id());
  rms_["rm1"].process.Signal(SIGSTOP);
  const auto stopped_at = SteadyClock::now();

  // A submission queued on the stopped RM's socket, answered after SIGCONT.
  std::atomic<bool> answered{false};
  Status submitted;
  std::thread submitter([&] {
    ipc::RpcClientOptions options;
    options.call_timeout = 120s;
    ipc::RpcClient slow(options);
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_app.application_id();
    context->set_application_name("fenced");
    context->set_queue("default");
    context->mutable_resource()->set_memory(128);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command("true");
    y::SubmitApplicationResponseProto response;
    submitted = slow.Call(Spec("rm1", "yarn.resourcemanager.address", cell::kClient),
                          "submitApplication", submit, &response);
    answered.store(true);
  });

  const bool took_over = WaitFor([&] { return Ask("rm2") == Answer::kActive; }, 60s);
  const int64_t takeover_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - stopped_at)
          .count();
  EXPECT_TRUE(took_over) << cell::Tail(CurrentLog("rm2"), 30);
  auto acl_taken = (*zk)->GetAcl(kStoreRoot);
  ASSERT_TRUE(acl_taken.ok());
  EXPECT_NE(AclText(acl_taken->acl), AclText(acl_before->acl))
      << "rm2 active without taking the store's root over";

  rms_["rm1"].process.Signal(SIGCONT);
  submitter.join();
  EXPECT_FALSE(submitted.ok()) << "the fenced RM acknowledged a submission";
  std::printf(
      "[ chaos    ] partitioned rm1: rm2 serving %lld ms after SIGSTOP; the submission "
      "queued on rm1 answered: %s\n",
      static_cast<long long>(takeover_ms), submitted.ToString().c_str());
  EXPECT_TRUE(WaitFor([&] { return Ask("rm1") == Answer::kStandby; }, 60s))
      << "rm1 did not go standby:\n"
      << cell::Tail(CurrentLog("rm1"), 30);
  EXPECT_TRUE(rms_["rm1"].process.running() && !rms_["rm1"].process.Exited());
  ExpectStandbyOnAllPorts("rm1");

  // Through the store: nothing of rm1's submission, the root still rm2's.
  auto app_node = (*zk)->Exists(std::string(kStoreRoot) + "/RMAppRoot/" + app.ToString());
  ASSERT_TRUE(app_node.ok());
  EXPECT_FALSE(app_node->has_value()) << "the fenced RM wrote " << app.ToString();
  auto acl_after = (*zk)->GetAcl(kStoreRoot);
  ASSERT_TRUE(acl_after.ok());
  EXPECT_EQ(AclText(acl_after->acl), AclText(acl_taken->acl))
      << "the deposed RM took the store's root back";
  EXPECT_EQ(acl_after->stat.aversion, acl_taken->stat.aversion);
  y::GetApplicationReportRequestProto report_request;
  *report_request.mutable_application_id() = new_app.application_id();
  y::GetApplicationReportResponseProto report;
  const Status unknown = client_->Call(Spec("rm2", "yarn.resourcemanager.address", cell::kClient),
                                       "getApplicationReport", report_request, &report);
  EXPECT_EQ(unknown.java_class(), rm::yarn::kApplicationNotFound) << unknown.ToString();
  EXPECT_EQ(Ask("rm2"), Answer::kActive);
}

}  // namespace
}  // namespace spindle
