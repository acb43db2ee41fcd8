// Node failures as Hadoop handles them, in a cell of real processes on
// 127.0.0.1 (`spindle rm` and several `spindle nm`, ports picked at run time;
// a node agent is restarted on the port it had). A SIGKILLed agent takes its
// containers' processes with it here (the test ends them by their pid files),
// as a crashed machine would.
//  - An agent restarted on its address before the RM expires it registers
//    again running nothing: every container the RM had on it is completed as
//    lost (ABORTED) and reported to its AM by the AM's next allocate, and an
//    AM that ran there starts a new attempt (ReconnectNodeTransition).
//  - On the Hadoop 2.6 line an app with maxAppAttempts=1 whose AM node dies
//    gets a second attempt on another node (the lost attempt does not count)
//    and succeeds; on 3.3 (YARN-5617) it fails.
//  - Ten agent SIGKILLs under a stream of `spindle shell` applications leave
//    no application stuck and none failed.
// The test plays the client, and the AM of the apps whose AM command only
// hands over its token; `spindle shell-am` is the AM of the others.
#include <arpa/inet.h>
#include <glog/logging.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/base64.h"
#include "base/child_process.h"
#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;
using Properties = std::map<std::string, std::string>;
using cell::IsFinal;
using cell::kAmrmTokenKind;
using cell::kAms;
using cell::kClient;
using cell::kCmp;
using cell::Lines;
using cell::ReadAll;
using cell::Spawn;
using cell::Tail;
using cell::WriteSite;

constexpr int32_t kAborted = -100;  // ContainerExitStatus.ABORTED

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Whether a listener could bind 127.0.0.1:`port` now (SO_REUSEADDR, as the
// agent's server sets it).
bool PortIsFree(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool free = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  close(fd);
  return free;
}

// A free port on 127.0.0.1 below the kernel's ephemeral range, for an agent
// that must get its port back after a restart: a port from the ephemeral
// range may meanwhile be the local end of some outgoing connection.
uint16_t PickAgentPort(std::mt19937& rng) {
  int low = 32768;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low;
  std::uniform_int_distribution<int> draw(std::min(10000, low - 1), low - 1);
  for (int tries = 0; tries < 1000; ++tries) {
    const auto port = static_cast<uint16_t>(draw(rng));
    if (PortIsFree(port)) return port;
  }
  return 0;
}

// One `spindle nm` and the port it keeps across restarts.
struct Agent {
  std::string name;
  int64_t memory_mb = 0;
  uint16_t port = 0;
  int starts = 0;
  ChildProcess process;

  rm::NodeId id() const { return rm::NodeId{"127.0.0.1", port}; }
};

// The AM of an app whose AM container hands its token over (the test plays it).
struct PlayedAm {
  rm::ApplicationId app;
  ipc::ClientToken amrm;
  int32_t response_id = 0;
  std::map<rm::NodeId, hadoop::common::TokenProto> nm_tokens;
};

class NodeFailureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = ::testing::TempDir() + "/node-failure-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(work_);
    for (const char* d : {"rm-conf", "am-conf", "am", "tok", "done"}) {
      std::filesystem::create_directories(work_ + "/" + d);
    }
    ipc::RpcClientOptions options;
    options.connect_timeout = 2s;
    options.call_timeout = 10s;
    client_ = std::make_unique<ipc::RpcClient>(options);
    // `spindle shell-am`: the RM and nodes it cannot reach are retried often.
    WriteSite(work_ + "/am-conf/yarn-site.xml",
              {{"yarn.resourcemanager.connect.retry-interval.ms", "100"},
               {"yarn.resourcemanager.connect.max-wait.ms", "30000"},
               {"yarn.client.nodemanager-connect.retry-interval-ms", "200"},
               {"yarn.client.nodemanager-connect.max-wait-ms", "30000"}});
  }

  void TearDown() override {
    for (auto& [name, agent] : agents_) {
      agent.process.Stop(SIGTERM, 5s);
      KillContainerProcesses(agent);
    }
    rm_.Stop(SIGTERM, 5s);
    client_.reset();
    if (HasFailure() || std::getenv("SPINDLE_KEEP_TEST_DIRS") != nullptr) {
      std::printf("[ nodes    ] test files kept in %s\n", work_.c_str());
    } else {
      std::filesystem::remove_all(work_);
    }
  }

  // ---- processes ------------------------------------------------------------

  Properties RmSite(const Properties& extra) {
    Properties p;
    for (const char* key : cell::kRmAddressKeys) {
      p[key] = "127.0.0.1:0";
    }
    p["yarn.scheduler.minimum-allocation-mb"] = "64";
    p["yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"] = "100";
    p["yarn.resourcemanager.am.max-attempts"] = "2";
    // The AM launcher's retries of an agent that is restarting.
    p["yarn.client.nodemanager-connect.retry-interval-ms"] = "200";
    p["yarn.client.nodemanager-connect.max-wait-ms"] = "30000";
    p["spindle.scheduler.count"] = "1";
    p["spindle.scheduler.partitions"] = "1";
    // Several AMs share these few-hundred-MB agents: Hadoop's default 10%
    // AM limit would keep all but the first pending.
    p["yarn.scheduler.capacity.root.queues"] = "default";
    p["yarn.scheduler.capacity.root.default.capacity"] = "100";
    p["yarn.scheduler.capacity.root.default.maximum-am-resource-percent"] = "1.0";
    for (const auto& [k, v] : extra) p[k] = v;
    return p;
  }

  void StartRm(const Properties& extra) {
    WriteSite(work_ + "/rm-conf/yarn-site.xml", RmSite(extra));
    const std::string ports = work_ + "/rm.ports";
    rm_ = Spawn({SPINDLE_BINARY, "rm", "--conf", work_ + "/rm-conf", "--ports-file", ports},
                work_ + "/rm.log");
    ASSERT_TRUE(rm_.running());
    ASSERT_TRUE(WaitFor([&] { return rm_.Exited() || std::filesystem::exists(ports); }, 30s) &&
                rm_.running())
        << "spindle rm did not start:\n"
        << Tail(work_ + "/rm.log", 30);
    std::map<std::string, int> listen;
    for (const auto& line : Lines(ports)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) listen[line.substr(0, eq)] = std::atoi(line.c_str() + eq + 1);
    }
    client_port_ = static_cast<uint16_t>(listen["client"]);
    scheduler_port_ = static_cast<uint16_t>(listen["scheduler"]);
    tracker_port_ = static_cast<uint16_t>(listen["resource-tracker"]);
  }

  std::string AgentDir(const Agent& agent) const { return work_ + "/nm-" + agent.name; }
  std::string AgentLog(const Agent& agent) const { return AgentDir(agent) + ".log"; }

  // Starts (or restarts, on its port) the agent and waits until it has
  // registered (again).
  void StartAgent(Agent& agent) {
    const std::string dir = AgentDir(agent);
    std::filesystem::create_directories(dir + "/conf");
    Properties p;
    p["yarn.resourcemanager.resource-tracker.address"] =
        "127.0.0.1:" + std::to_string(tracker_port_);
    p["yarn.resourcemanager.scheduler.address"] = "127.0.0.1:" + std::to_string(scheduler_port_);
    p["yarn.resourcemanager.address"] = "127.0.0.1:" + std::to_string(client_port_);
    p["yarn.nodemanager.hostname"] = "127.0.0.1";
    p["yarn.nodemanager.address"] = "127.0.0.1:" + std::to_string(agent.port);
    p["yarn.nodemanager.webapp.address"] = "127.0.0.1:0";
    p["yarn.nodemanager.resource.memory-mb"] = std::to_string(agent.memory_mb);
    p["yarn.nodemanager.resource.cpu-vcores"] = "16";
    p["yarn.nodemanager.local-dirs"] = dir + "/local";
    p["yarn.nodemanager.log-dirs"] = dir + "/logs";
    p["spindle.nm.heartbeat.initial-interval-ms"] = "100";
    p["spindle.nm.rm-retry.max-interval-ms"] = "200";
    WriteSite(dir + "/conf/yarn-site.xml", p);
    const size_t registered_before = Count(ReadAll(AgentLog(agent)), kRegistered);
    // A restart waits until the port can be listened on again.
    ASSERT_TRUE(WaitFor([&] { return PortIsFree(agent.port); }, 30s))
        << "port " << agent.port << " of agent " << agent.name << " stays in use";
    ++agent.starts;
    agent.process = Spawn({SPINDLE_BINARY, "nm", "--conf", dir + "/conf"}, AgentLog(agent),
                          {"HADOOP_CONF_DIR=" + work_ + "/am-conf"});
    ASSERT_TRUE(agent.process.running());
    ASSERT_TRUE(WaitFor(
        [&] { return Count(ReadAll(AgentLog(agent)), kRegistered) > registered_before; }, 30s))
        << "agent " << agent.name << " did not register:\n"
        << Tail(AgentLog(agent), 20);
    ASSERT_EQ(RunningNodes().count(agent.id()), 1u);
  }

  // SIGKILL, and the processes of its containers with it.
  void KillAgent(Agent& agent) {
    agent.process.Kill();
    KillContainerProcesses(agent);
  }

  void KillContainerProcesses(const Agent& agent) {
    cell::KillContainerProcesses(AgentDir(agent) + "/local/nmPrivate");
  }

  Agent& NewAgent(const std::string& name, int64_t memory_mb) {
    Agent& agent = agents_[name];
    agent.name = name;
    agent.memory_mb = memory_mb;
    agent.port = PickAgentPort(rng_);
    EXPECT_NE(agent.port, 0);
    return agent;
  }

  // ---- the client -----------------------------------------------------------

  ipc::ConnectionSpec ClientSpec() const {
    return {"127.0.0.1", client_port_, kClient, "alice", std::nullopt};
  }

  std::set<rm::NodeId> RunningNodes() {
    y::GetClusterNodesRequestProto request;
    request.add_nodestates(y::NS_RUNNING);
    y::GetClusterNodesResponseProto response;
    std::set<rm::NodeId> out;
    if (!client_->Call(ClientSpec(), "getClusterNodes", request, &response).ok()) return out;
    for (const auto& report : response.nodereports()) out.insert(rm::FromProto(report.nodeid()));
    return out;
  }

  y::ApplicationReportProto Report(const rm::ApplicationId& app) {
    y::GetApplicationReportRequestProto request;
    rm::ToProto(app, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    Status s = client_->Call(ClientSpec(), "getApplicationReport", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return response.application_report();
  }

  std::vector<y::ApplicationAttemptReportProto> Attempts(const rm::ApplicationId& app) {
    y::GetApplicationAttemptsRequestProto request;
    rm::ToProto(app, request.mutable_application_id());
    y::GetApplicationAttemptsResponseProto response;
    Status s = client_->Call(ClientSpec(), "getApplicationAttempts", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return {response.application_attempts().begin(), response.application_attempts().end()};
  }

  // Launch commands run as `bash -c "..."` unescaped: no double quotes.
  // Each AM launch appends "<container id> <node port>" to am/<app>.
  std::string RecordLaunch(const rm::ApplicationId& app) const {
    return "echo $CONTAINER_ID $NM_PORT >> " + work_ + "/am/" + app.ToString();
  }

  // An AM container that hands its AMRM token to the test and waits.
  std::string TokenAmCommand(const rm::ApplicationId& next) const {
    const std::string tok = work_ + "/tok/" + next.ToString();
    return RecordLaunch(next) + " && cp $HADOOP_TOKEN_FILE_LOCATION " + tok + ".tmp && mv " + tok +
           ".tmp " + tok + " && while [ ! -e " + work_ + "/done/" + next.ToString() +
           " ]; do sleep 0.3; done";
  }

  // `spindle shell-am` running `containers` containers of `command`.
  std::string ShellAmCommand(const rm::ApplicationId& next, int containers,
                             const std::string& command) const {
    return RecordLaunch(next) + " && exec " + SPINDLE_BINARY + " shell-am --conf " + work_ +
           "/am-conf --rm-scheduler 127.0.0.1:" + std::to_string(scheduler_port_) +
           " --num-containers " + std::to_string(containers) +
           " --memory-mb 128 --vcores 1 --timeout-seconds 100 --command-base64 " +
           Base64Encode(command) + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr";
  }

  // Submits an app whose AM command names its own id.
  // Task containers the apps' `spindle shell-am`s started so far.
  size_t TasksStarted(const std::vector<rm::ApplicationId>& apps) {
    size_t n = 0;
    for (const auto& app : apps) n += Count(ShellAmOutput(app, 100000), "] started container_");
    return n;
  }

  // The live containers the RM counts on the agent's node.
  int ContainersOn(const Agent& agent) {
    y::GetClusterNodesRequestProto request;
    y::GetClusterNodesResponseProto response;
    if (!client_->Call(ClientSpec(), "getClusterNodes", request, &response).ok()) return -1;
    for (const auto& report : response.nodereports()) {
      if (rm::FromProto(report.nodeid()) == agent.id()) return report.numcontainers();
    }
    return 0;
  }

  rm::ApplicationId SubmitNamed(const std::function<std::string(const rm::ApplicationId&)>& command,
                                int32_t max_attempts, int64_t am_memory_mb = 256) {
    y::GetNewApplicationResponseProto fresh;
    Status s = client_->Call(ClientSpec(), "getNewApplication", y::GetNewApplicationRequestProto(),
                             &fresh);
    EXPECT_TRUE(s.ok()) << s.ToString();
    const rm::ApplicationId id = rm::FromProto(fresh.application_id());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = fresh.application_id();
    context->set_application_name("node-failure-test");
    context->set_queue("default");
    context->set_maxappattempts(max_attempts);
    context->mutable_resource()->set_memory(am_memory_mb);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command(command(id));
    y::SubmitApplicationResponseProto submitted;
    s = client_->Call(ClientSpec(), "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }

  // AM launches so far: (container id, node port).
  std::vector<std::pair<std::string, int>> AmLaunches(const rm::ApplicationId& app) {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& line : Lines(work_ + "/am/" + app.ToString())) {
      const size_t space = line.find(' ');
      if (space == std::string::npos) continue;
      out.emplace_back(line.substr(0, space), std::atoi(line.c_str() + space + 1));
    }
    return out;
  }

  // ---- a played AM ----------------------------------------------------------

  PlayedAm TakeOverAm(const rm::ApplicationId& app) {
    PlayedAm am;
    am.app = app;
    const std::string path = work_ + "/tok/" + app.ToString();
    EXPECT_TRUE(WaitFor([&] { return std::filesystem::exists(path); }, 30s))
        << app.ToString() << "'s AM container did not start";
    auto credentials = rm::Credentials::Parse(ReadAll(path));
    EXPECT_TRUE(credentials.ok());
    if (credentials.ok()) {
      for (const auto& entry : credentials->tokens()) {
        if (entry.token.kind != kAmrmTokenKind) continue;
        am.amrm = ipc::ClientToken{entry.token.identifier, entry.token.password, entry.token.kind,
                                   "127.0.0.1:" + std::to_string(scheduler_port_)};
      }
    }
    y::RegisterApplicationMasterRequestProto reg;
    reg.set_host("127.0.0.1");
    y::RegisterApplicationMasterResponseProto registered;
    Status s;
    // The container may run before the RM has taken the launch's answer.
    EXPECT_TRUE(WaitFor([&] {
      s = client_->Call(AmSpec(am), "registerApplicationMaster", reg, &registered);
      return s.ok() || s.message().find("ALLOCATED") == std::string::npos;
    }));
    EXPECT_TRUE(s.ok()) << s.ToString();
    return am;
  }

  ipc::ConnectionSpec AmSpec(const PlayedAm& am) const {
    return {"127.0.0.1", scheduler_port_, kAms, "ignored", am.amrm};
  }

  y::AllocateResponseProto Allocate(PlayedAm& am, const y::AllocateRequestProto& asks = {}) {
    y::AllocateRequestProto request = asks;
    request.set_response_id(am.response_id);
    y::AllocateResponseProto response;
    Status s = client_->Call(AmSpec(am), "allocate", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    am.response_id = response.response_id();
    for (const auto& t : response.nm_tokens()) am.nm_tokens[rm::FromProto(t.nodeid())] = t.token();
    return response;
  }

  std::vector<y::ContainerProto> AllocateContainers(PlayedAm& am, int n, int64_t memory_mb) {
    const y::AllocateRequestProto ask = cell::AskAnywhere(n, memory_mb);
    std::vector<y::ContainerProto> allocated;
    bool first = true;
    EXPECT_TRUE(WaitFor([&] {
      auto response = Allocate(am, first ? ask : y::AllocateRequestProto());
      first = false;
      for (const auto& c : response.allocated_containers()) allocated.push_back(c);
      return static_cast<int>(allocated.size()) >= n;
    }));
    return allocated;
  }

  void StartTask(PlayedAm& am, const y::ContainerProto& c, const std::string& command) {
    const rm::NodeId node = rm::FromProto(c.nodeid());
    const auto& token = am.nm_tokens.at(node);
    y::StartContainersRequestProto request;
    auto* one = request.add_start_container_request();
    *one->mutable_container_token() = c.container_token();
    one->mutable_container_launch_context()->add_command(command);
    const ipc::ConnectionSpec spec{
        node.host, static_cast<uint16_t>(node.port), kCmp, "ignored",
        ipc::ClientToken{token.identifier(), token.password(), token.kind(), token.service()}};
    y::StartContainersResponseProto response;
    Status s = client_->Call(spec, "startContainers", request, &response);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(response.succeeded_requests_size(), 1);
  }

  // The tail (`lines`) of every stdout and stderr of the app's containers.
  std::string ShellAmOutput(const rm::ApplicationId& app, size_t lines = 12) {
    std::string out;
    std::error_code ec;
    for (const auto& [name, agent] : agents_) {
      const std::string dir = AgentDir(agent) + "/logs/" + app.ToString();
      if (!std::filesystem::exists(dir, ec)) continue;
      for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
        const std::string file = e.path().filename().string();
        if (file == "stdout" || file == "stderr") {
          out += e.path().string() + ":\n" + Tail(e.path().string(), lines);
        }
      }
    }
    return out.empty() ? "(no AM logs)" : out;
  }

  // On `line`, with a 3 s node expiry: a `spindle shell` app with
  // maxAppAttempts=1 runs its AM on agent "first"; agent "second" joins and
  // "first" dies for good (its AM with it).
  void LoseTheAmNodeOfASingleAttemptApp(const std::string& line, rm::ApplicationId* app) {
    StartRm({{"yarn.nm.liveness-monitor.expiry-interval-ms", "3000"},
             {"spindle.compat.hadoop-version", line}});
    Agent& first = NewAgent("first", 2048);
    ASSERT_NO_FATAL_FAILURE(StartAgent(first));
    *app = SubmitNamed(
        [&](const rm::ApplicationId& id) { return ShellAmCommand(id, 2, "sleep 1"); }, 1);
    ASSERT_TRUE(WaitFor([&] { return Report(*app).yarn_application_state() == y::RUNNING; }, 30s))
        << ShellAmOutput(*app);
    Agent& second = NewAgent("second", 2048);
    ASSERT_NO_FATAL_FAILURE(StartAgent(second));
    KillAgent(first);
  }

  static constexpr char kRegistered[] = "registered with the ResourceManager";

  std::string work_;
  std::unique_ptr<ipc::RpcClient> client_;
  ChildProcess rm_;
  uint16_t client_port_ = 0;
  uint16_t scheduler_port_ = 0;
  uint16_t tracker_port_ = 0;
  std::map<std::string, Agent> agents_;
  std::mt19937 rng_{static_cast<uint32_t>(getpid())};
};

// Issue 16 item 7: an agent SIGKILLed while it runs an AM (of app S) and three
// containers (of app T, whose AM runs on another node), restarted on its
// port well before the expiry interval.
TEST_F(NodeFailureTest, RestartedAgentsContainersAreReportedLostAtOnce) {
  StartRm({{"yarn.nm.liveness-monitor.expiry-interval-ms", "600000"}});
  // Only T's AM (256 MB) fits on `small`; everything else goes to `big`.
  Agent& small = NewAgent("small", 384);
  ASSERT_NO_FATAL_FAILURE(StartAgent(small));
  const rm::ApplicationId t =
      SubmitNamed([&](const rm::ApplicationId& id) { return TokenAmCommand(id); }, 2);
  PlayedAm am = TakeOverAm(t);
  ASSERT_EQ(AmLaunches(t).size(), 1u);
  EXPECT_EQ(AmLaunches(t)[0].second, small.port);
  Agent& big = NewAgent("big", 4096);
  ASSERT_NO_FATAL_FAILURE(StartAgent(big));
  const auto tasks = AllocateContainers(am, 3, 512);
  ASSERT_EQ(tasks.size(), 3u);
  std::set<rm::ContainerId> on_big;
  for (const auto& c : tasks) {
    ASSERT_EQ(rm::FromProto(c.nodeid()), big.id());
    ASSERT_NO_FATAL_FAILURE(StartTask(am, c, "exec sleep 600"));
    on_big.insert(rm::FromProto(c.id()));
  }
  const rm::ApplicationId s =
      SubmitNamed([&](const rm::ApplicationId& id) { return TokenAmCommand(id); }, 2);
  ASSERT_TRUE(WaitFor([&] { return AmLaunches(s).size() == 1; }, 30s));
  EXPECT_EQ(AmLaunches(s)[0].second, big.port);
  // Nothing completed yet.
  EXPECT_EQ(Allocate(am).completed_container_statuses_size(), 0);

  KillAgent(big);
  ASSERT_NO_FATAL_FAILURE(StartAgent(big));  // registered again, same port

  // The first allocate after the re-registration carries all three.
  const y::AllocateResponseProto response = Allocate(am);
  std::set<rm::ContainerId> lost;
  for (const auto& status : response.completed_container_statuses()) {
    const rm::ContainerId id = rm::FromProto(status.container_id());
    lost.insert(id);
    EXPECT_EQ(status.state(), y::C_COMPLETE) << id.ToString();
    EXPECT_EQ(status.exit_status(), kAborted) << id.ToString();
    EXPECT_EQ(status.diagnostics(), "Container released on a *lost* node") << id.ToString();
  }
  EXPECT_EQ(lost, on_big) << response.DebugString();

  // S's AM was lost with the node: its attempt failed without counting, and
  // a second attempt runs.
  ASSERT_TRUE(WaitFor([&] { return AmLaunches(s).size() == 2; }, 30s))
      << "S's AM was not relaunched:\n"
      << Tail(work_ + "/rm.log", 20);
  const auto attempts = Attempts(s);
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].yarn_application_attempt_state(), y::APP_ATTEMPT_FAILED);
  EXPECT_NE(attempts[0].diagnostics().find("exitCode: -100"), std::string::npos)
      << attempts[0].diagnostics();
  EXPECT_FALSE(IsFinal(Report(s).yarn_application_state()));
  // T, whose AM node stayed up, is untouched.
  EXPECT_EQ(Attempts(t).size(), 1u);
  std::ofstream(work_ + "/done/" + t.ToString()) << "done\n";
  std::ofstream(work_ + "/done/" + s.ToString()) << "done\n";
}

// Issue 16 item 8 on the 2.6 line: maxAppAttempts=1, the AM's node dies (and
// stays dead until the RM expires it); the lost attempt does not count, the
// second attempt runs on the other node, and the application succeeds.
TEST_F(NodeFailureTest, SingleAttemptAppOutlivesItsAmNodeOnHadoop26) {
  rm::ApplicationId app;
  ASSERT_NO_FATAL_FAILURE(LoseTheAmNodeOfASingleAttemptApp("2.6", &app));
  const Agent& first = agents_.at("first");
  const Agent& second = agents_.at("second");

  ASSERT_TRUE(WaitFor([&] { return IsFinal(Report(app).yarn_application_state()); }, 60s))
      << ShellAmOutput(app);
  const y::ApplicationReportProto report = Report(app);
  EXPECT_EQ(report.yarn_application_state(), y::FINISHED) << report.diagnostics();
  EXPECT_EQ(report.final_application_status(), y::APP_SUCCEEDED) << report.diagnostics() << "\n"
                                                                 << ShellAmOutput(app);
  const auto launches = AmLaunches(app);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].second, first.port);
  EXPECT_EQ(launches[1].second, second.port);
  const auto attempts = Attempts(app);
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_NE(attempts[0].diagnostics().find("exitCode: -100"), std::string::npos)
      << attempts[0].diagnostics();
}

// The same on the 3.3 line: YARN-5617 never retries maxAppAttempts=1.
TEST_F(NodeFailureTest, SingleAttemptAppFailsWithItsAmNodeOnHadoop33) {
  rm::ApplicationId app;
  ASSERT_NO_FATAL_FAILURE(LoseTheAmNodeOfASingleAttemptApp("3.3", &app));
  ASSERT_TRUE(WaitFor([&] { return IsFinal(Report(app).yarn_application_state()); }, 60s));
  const y::ApplicationReportProto report = Report(app);
  EXPECT_EQ(report.yarn_application_state(), y::FAILED);
  EXPECT_NE(report.diagnostics().find("failed 1 times (global limit =2; local limit is =1)"),
            std::string::npos)
      << report.diagnostics();
  EXPECT_EQ(AmLaunches(app).size(), 1u);
}

// Ten agent SIGKILLs (each agent restarted on its port) under a stream of
// `spindle shell` applications: every application still ends FINISHED /
// SUCCEEDED, none is left running.
TEST_F(NodeFailureTest, TenAgentKillsUnderLoadFailNoApplication) {
  StartRm({{"yarn.nm.liveness-monitor.expiry-interval-ms", "60000"}});
  std::vector<Agent*> agents;
  for (const char* name : {"a", "b", "c"}) {
    agents.push_back(&NewAgent(name, 2048));
    ASSERT_NO_FATAL_FAILURE(StartAgent(*agents.back()));
  }
  std::vector<rm::ApplicationId> apps;
  std::set<rm::ApplicationId> finished;
  auto live = [&] {
    int n = 0;
    for (const auto& app : apps) {
      if (finished.count(app) != 0) continue;
      if (IsFinal(Report(app).yarn_application_state())) {
        finished.insert(app);
      } else {
        ++n;
      }
    }
    return n;
  };
  auto top_up = [&] {
    while (live() < 6) {
      apps.push_back(SubmitNamed(
          [&](const rm::ApplicationId& id) { return ShellAmCommand(id, 3, "sleep 1"); }, 2));
    }
  };
  for (int kill = 1; kill <= 10; ++kill) {
    top_up();
    // Work goes on between kills: the AMs start at least six more task
    // containers.
    const size_t started = TasksStarted(apps);
    ASSERT_TRUE(WaitFor(
        [&] {
          top_up();  // apps that finish meanwhile are replaced
          return TasksStarted(apps) >= started + 6;
        },
        30s))
        << "the applications make no progress";
    // Under load: the victim, drawn among the agents running containers,
    // dies with them.
    std::vector<Agent*> busy;
    ASSERT_TRUE(WaitFor(
        [&] {
          busy.clear();
          for (Agent* agent : agents) {
            if (ContainersOn(*agent) > 0) busy.push_back(agent);
          }
          return !busy.empty();
        },
        20s))
        << "no agent runs a container";
    Agent& victim = *busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(rng_)];
    const int running = ContainersOn(victim);
    std::printf("[ nodes    ] kill %d: agent %s (port %d) running %d containers\n", kill,
                victim.name.c_str(), victim.port, running);
    KillAgent(victim);
    ASSERT_NO_FATAL_FAILURE(StartAgent(victim));
  }
  ASSERT_TRUE(WaitFor([&] { return live() == 0; }, 90s)) << "applications left running";
  int retried = 0;
  size_t lost = 0;
  for (const auto& app : apps) {
    lost += Count(ShellAmOutput(app, 10000), "lost (exit status -100");
    const y::ApplicationReportProto report = Report(app);
    EXPECT_EQ(report.yarn_application_state(), y::FINISHED) << app.ToString();
    EXPECT_EQ(report.final_application_status(), y::APP_SUCCEEDED)
        << app.ToString() << ": " << report.diagnostics() << "\n"
        << ShellAmOutput(app);
    if (AmLaunches(app).size() > 1) ++retried;
  }
  std::printf(
      "[ nodes    ] %zu applications, %d with more than one attempt, %zu containers lost and "
      "run again\n",
      apps.size(), retried, lost);
  // The kills hit work: AMs relaunched or containers run again.
  EXPECT_GT(retried + static_cast<int>(lost), 0);
}

}  // namespace
}  // namespace spindle
