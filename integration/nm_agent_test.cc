// The node agent end to end: a `spindle rm` daemon and `spindle nm` agents
// (in-process NodeAgents, and a child `spindle nm` process for the SIGKILL
// case) on 127.0.0.1 ports picked at run time, with Spindle's IPC client as
// the submitter and the ApplicationMaster. The AM's containers are started on
// the agents with the NMTokens and container tokens the RM handed out.
//
// NmAgentTest's agents use the simulated runtime (containers hold their
// resources for what their command says); NmAgentProcessTest's run their
// containers as child processes (nm_shim/agent/process): shell commands
// writing files, the memory limit, a SIGKILLed agent with containers.
#include <glog/logging.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "base/crypto.h"
#include "cmd/rm_daemon.h"
#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "nm_shim/agent/node_agent.h"
#include "nm_shim/agent/simulated/simulated_runtime.h"
#include "rm/security/credentials.h"
#include "rm/security/token_identifiers.h"
#include "rm/security/yarn_id_protos.h"
#include "tests/support/http_get.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_security_token.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kAms[] = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
constexpr char kCmp[] = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";

// The simulated runtime, remembering every launch context (the test reads
// the AM's AMRM token from it, as an AM reads its token file).
class RecordingRuntime : public nm::ContainerRuntime {
 public:
  RecordingRuntime(std::unique_ptr<nm::ContainerRuntime> inner,
                   std::function<void(const nm::ContainerLaunchSpec&)> record)
      : inner_(std::move(inner)), record_(std::move(record)) {}
  void Launch(const nm::ContainerLaunchSpec& spec) override {
    record_(spec);
    inner_->Launch(spec);
  }
  void Kill(const rm::ContainerId& id, int32_t status, const std::string& diag) override {
    inner_->Kill(id, status, diag);
  }
  void CleanupApplication(const rm::ApplicationId& app) override {
    inner_->CleanupApplication(app);
  }
  void Shutdown() override { inner_->Shutdown(); }

 private:
  std::unique_ptr<nm::ContainerRuntime> inner_;
  std::function<void(const nm::ContainerLaunchSpec&)> record_;
};

class NmAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_dir_ = ::testing::TempDir() + "/nm-agent-test-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(work_dir_);
    StartRm(0);
    for (int i = 0; i < 2; ++i) agents_.push_back(StartAgent());
    ASSERT_TRUE(WaitFor([&] { return rm_->nodes().Counts().active == 2; }))
        << "both agents registered";
  }
  void TearDown() override {
    for (auto& a : agents_) a->Stop();
    if (rm_) rm_->Stop();
    if (std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) std::filesystem::remove_all(work_dir_);
  }

  rm::Configuration RmConf(uint16_t tracker_port) {
    rm::Configuration conf;
    for (const char* key :
         {"yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
          "yarn.resourcemanager.admin.address", "yarn.resourcemanager.webapp.address"}) {
      conf.Set(key, "127.0.0.1:0");
    }
    conf.Set("yarn.resourcemanager.resource-tracker.address",
             "127.0.0.1:" + std::to_string(tracker_port));
    conf.Set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.Set("yarn.scheduler.capacity.root.queues", "default");
    conf.Set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.Set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "100");
    conf.Set("yarn.nm.liveness-monitor.expiry-interval-ms", "2000");
    conf.Set("spindle.scheduler.count", "1");
    // The state store in memory: tests run side by side (recovery is off by
    // default; these tests ran with it on).
    conf.Set("yarn.resourcemanager.recovery.enabled", "true");
    conf.Set("yarn.resourcemanager.store.class", "memory");
    conf.Set("spindle.scheduler.partitions", "1");
    return conf;
  }

  void StartRm(uint16_t tracker_port) {
    auto daemon = RmDaemon::Create(RmConf(tracker_port));
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    rm_ = std::move(daemon).value();
    ASSERT_TRUE(rm_->Start().ok());
  }

  rm::Configuration AgentConf() {
    rm::Configuration conf;
    conf.Set("yarn.resourcemanager.resource-tracker.address",
             "127.0.0.1:" + std::to_string(rm_->resource_tracker_port()));
    conf.Set("yarn.nodemanager.address", "127.0.0.1:0");
    conf.Set("yarn.nodemanager.webapp.address", "127.0.0.1:0");
    conf.Set("yarn.nodemanager.resource.memory-mb", "4096");
    conf.Set("yarn.nodemanager.resource.cpu-vcores", "4");
    conf.Set("spindle.nm.heartbeat.initial-interval-ms", "100");
    conf.Set("spindle.nm.rm-retry.max-interval-ms", "200");
    conf.Set("yarn.nodemanager.local-dirs", work_dir_ + "/local");
    conf.Set("yarn.nodemanager.log-dirs", work_dir_ + "/logs");
    conf.Set("yarn.nodemanager.container-monitor.interval-ms", "200");
    return conf;
  }

  // An in-process agent: one node, or `simulated_nodes` virtual ones.
  std::unique_ptr<nm::NodeAgent> StartAgent(int64_t simulated_nodes = 0) {
    auto agent_options = nm::AgentOptionsFromConfiguration(AgentConf());
    EXPECT_TRUE(agent_options.ok()) << agent_options.status().ToString();
    nm::NodeAgentOptions options;
    options.agent = *agent_options;
    options.simulated_nodes = simulated_nodes;
    nm::RuntimeFactory inner_factory = processes_ ? nm::ProcessRuntimeFactory(options.agent)
                                                  : nm::SimulatedRuntimeFactory(options.agent);
    auto factory =
        [this, inner_factory](
            const nm::NodeEnvironment& env, nm::EventLoop* loop,
            nm::ContainerListener listener) -> Result<std::unique_ptr<nm::ContainerRuntime>> {
      ASSIGN_OR_RETURN(auto inner, inner_factory(env, loop, std::move(listener)));
      return std::unique_ptr<nm::ContainerRuntime>(std::make_unique<RecordingRuntime>(
          std::move(inner),
          [this, node = rm::NodeId{env.nm_host, env.nm_port}](const nm::ContainerLaunchSpec& spec) {
            std::lock_guard<std::mutex> lock(mu_);
            launched_.push_back(spec);
            launched_on_[spec.container] = node;
          }));
    };
    auto agent = nm::NodeAgent::Create(options, factory);
    EXPECT_TRUE(agent.ok());
    EXPECT_TRUE((*agent)->Start().ok());
    return std::move(agent).value();
  }

  std::vector<nm::ContainerLaunchSpec> Launched() {
    std::lock_guard<std::mutex> lock(mu_);
    return launched_;
  }

  ipc::ConnectionSpec ClientSpec() {
    return {"127.0.0.1", rm_->client_port(), kClient, "alice", std::nullopt};
  }

  rm::ApplicationId Submit(const std::string& am_command) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    EXPECT_TRUE(client_.Call(ClientSpec(), "getNewApplication", new_request, &new_response).ok());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name("agent-test");
    context->set_queue("default");
    context->set_maxappattempts(1);
    context->mutable_resource()->set_memory(256);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command(am_command);
    y::SubmitApplicationResponseProto submitted;
    Status s = client_.Call(ClientSpec(), "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return rm::FromProto(new_response.application_id());
  }

  y::YarnApplicationStateProto StateOf(const rm::ApplicationId& id) {
    y::GetApplicationReportRequestProto request;
    rm::ToProto(id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    EXPECT_TRUE(client_.Call(ClientSpec(), "getApplicationReport", request, &response).ok());
    return response.application_report().yarn_application_state();
  }

  // The AM of `app`: waits for its launch on an agent, registers it with
  // the AMRM token from its launch context.
  void StartAm(const rm::ApplicationId& app) {
    ASSERT_TRUE(WaitFor([&] {
      for (const auto& spec : Launched()) {
        if (spec.container.attempt.app == app && spec.container.sequence() == 1) return true;
      }
      return false;
    })) << "the AM container is launched on an agent";
    for (const auto& spec : Launched()) {
      if (spec.container.attempt.app != app || spec.container.sequence() != 1) continue;
      auto credentials = rm::Credentials::Parse(spec.credentials);
      ASSERT_TRUE(credentials.ok());
      const rm::Token* token = credentials->FindToken("");
      ASSERT_NE(token, nullptr);
      amrm_ = ipc::ClientToken{token->identifier, token->password, token->kind,
                               "127.0.0.1:" + std::to_string(rm_->scheduler_port())};
    }
    y::RegisterApplicationMasterRequestProto reg;
    reg.set_host("am-host");
    y::RegisterApplicationMasterResponseProto reg_response;
    // The agent may run the container before the RM has taken the launch's
    // answer (the attempt still ALLOCATED): a real AM is slower to start;
    // this one retries, as the wire bench's SimulatedAm does.
    Status s;
    EXPECT_TRUE(WaitFor([&] {
      s = client_.Call(AmSpec(), "registerApplicationMaster", reg, &reg_response);
      return s.ok() || s.message().find("cannot register in ALLOCATED state") == std::string::npos;
    }));
    ASSERT_TRUE(s.ok()) << s.ToString();
    response_id_ = 0;
  }

  ipc::ConnectionSpec AmSpec() {
    return {"127.0.0.1", rm_->scheduler_port(), kAms, "ignored", amrm_};
  }

  y::AllocateResponseProto Allocate(const y::AllocateRequestProto& asks = {}) {
    y::AllocateRequestProto request = asks;
    request.set_response_id(response_id_);
    y::AllocateResponseProto response;
    Status s = client_.Call(AmSpec(), "allocate", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    response_id_ = response.response_id();
    for (const auto& t : response.nm_tokens()) nm_tokens_[rm::FromProto(t.nodeid())] = t.token();
    for (const auto& c : response.completed_container_statuses()) {
      completed_[rm::FromProto(c.container_id())] = c;
    }
    return response;
  }

  // Allocates `n` task containers of 256 MB.
  std::vector<y::ContainerProto> AllocateContainers(int n, int64_t memory_mb = 256) {
    const y::AllocateRequestProto ask = cell::AskAnywhere(n, memory_mb);
    std::vector<y::ContainerProto> allocated;
    bool first = true;
    EXPECT_TRUE(WaitFor([&] {
      auto response = Allocate(first ? ask : y::AllocateRequestProto());
      first = false;
      for (const auto& c : response.allocated_containers()) allocated.push_back(c);
      return static_cast<int>(allocated.size()) >= n;
    }));
    return allocated;
  }

  // A ContainerManagementProtocol connection to the container's node with
  // the AM's NMToken for it.
  ipc::ConnectionSpec NmSpec(const y::NodeIdProto& node_proto) {
    const rm::NodeId node = rm::FromProto(node_proto);
    const auto& token = nm_tokens_.at(node);
    return {node.host, static_cast<uint16_t>(node.port), kCmp, "ignored",
            ipc::ClientToken{token.identifier(), token.password(), token.kind(), token.service()}};
  }

  y::StartContainersResponseProto StartOn(const y::ContainerProto& c, const std::string& command,
                                          const hadoop::common::TokenProto* token = nullptr) {
    y::StartContainersRequestProto request;
    auto* one = request.add_start_container_request();
    *one->mutable_container_token() = token != nullptr ? *token : c.container_token();
    one->mutable_container_launch_context()->add_command(command);
    y::StartContainersResponseProto response;
    Status s = client_.Call(NmSpec(c.nodeid()), "startContainers", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return response;
  }

  size_t AgentOf(const y::ContainerProto& c) {
    for (size_t i = 0; i < agents_.size(); ++i) {
      if (agents_[i]->node_id(0) == rm::FromProto(c.nodeid())) return i;
    }
    ADD_FAILURE() << "no agent hosts " << c.nodeid().host();
    return 0;
  }

  bool processes_ = false;  // agents run containers as processes
  std::string work_dir_;
  std::unique_ptr<RmDaemon> rm_;
  std::vector<std::unique_ptr<nm::NodeAgent>> agents_;
  ipc::RpcClient client_;
  std::mutex mu_;
  std::vector<nm::ContainerLaunchSpec> launched_;
  std::map<rm::ContainerId, rm::NodeId> launched_on_;  // which node's runtime ran it
  std::optional<ipc::ClientToken> amrm_;
  int32_t response_id_ = 0;
  std::map<rm::NodeId, hadoop::common::TokenProto> nm_tokens_;
  std::map<rm::ContainerId, y::ContainerStatusProto> completed_;

  // Submits an app (its AM container runs `sleep 600`), registers its AM and
  // starts one container of `memory_mb` running `command`.
  y::ContainerProto StartOne(const std::string& command, int64_t memory_mb = 256) {
    const rm::ApplicationId app = Submit("sleep 600");
    StartAm(app);
    const auto containers = AllocateContainers(1, memory_mb);
    EXPECT_EQ(containers.size(), 1u);
    if (containers.empty()) return {};
    EXPECT_EQ(StartOn(containers[0], command).succeeded_requests_size(), 1);
    return containers[0];
  }

  // Allocates until the RM reports `id` completed; its status.
  y::ContainerStatusProto WaitForCompletion(const rm::ContainerId& id) {
    EXPECT_TRUE(WaitFor([&] {
      Allocate();
      return completed_.count(id) > 0;
    })) << id.ToString();
    return completed_.count(id) > 0 ? completed_.at(id) : y::ContainerStatusProto();
  }

  // The AM stops a running container; the RM reports KILLED_BY_APPMASTER.
  void TheAmKillsARunningContainer() {
    const y::ContainerProto c = StartOne("sleep 600");
    ASSERT_TRUE(WaitFor([&] {
      y::GetContainerStatusesRequestProto query;
      *query.add_container_id() = c.id();
      y::GetContainerStatusesResponseProto statuses;
      EXPECT_TRUE(client_.Call(NmSpec(c.nodeid()), "getContainerStatuses", query, &statuses).ok());
      return statuses.status_size() == 1 && statuses.status(0).state() == y::C_RUNNING;
    }));
    y::StopContainersRequestProto stop;
    *stop.add_container_id() = c.id();
    y::StopContainersResponseProto stopped;
    ASSERT_TRUE(client_.Call(NmSpec(c.nodeid()), "stopContainers", stop, &stopped).ok());
    EXPECT_EQ(stopped.succeeded_requests_size(), 1);
    EXPECT_EQ(WaitForCompletion(rm::FromProto(c.id())).exit_status(), nm::kExitKilledByAppMaster);
  }

  // `spindle nm` as a child process (real mode) with `memory_mb`.
  pid_t SpawnAgentProcess(int64_t memory_mb) {
    const std::string dir = work_dir_ + "/child-conf";
    std::filesystem::create_directories(dir);
    {
      std::ofstream site(dir + "/yarn-site.xml");
      site << "<configuration>\n";
      auto property = [&](const std::string& k, const std::string& v) {
        site << "<property><name>" << k << "</name><value>" << v << "</value></property>\n";
      };
      property("yarn.resourcemanager.resource-tracker.address",
               "127.0.0.1:" + std::to_string(rm_->resource_tracker_port()));
      property("yarn.nodemanager.address", "127.0.0.1:0");
      property("yarn.nodemanager.webapp.address", "127.0.0.1:0");
      property("yarn.nodemanager.resource.memory-mb", std::to_string(memory_mb));
      property("yarn.nodemanager.local-dirs", work_dir_ + "/child-local");
      property("yarn.nodemanager.log-dirs", work_dir_ + "/child-logs");
      site << "</configuration>\n";
    }
    const pid_t child = fork();
    if (child == 0) {
      execl(SPINDLE_BINARY, SPINDLE_BINARY, "nm", "--conf", dir.c_str(), nullptr);
      _exit(127);
    }
    return child;
  }
};

TEST_F(NmAgentTest, AnApplicationRunsItsContainersOnTheAgents) {
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  const auto containers = AllocateContainers(2);
  ASSERT_EQ(containers.size(), 2u);
  for (const auto& c : containers) {
    auto started = StartOn(c, "sleep 0.3");
    ASSERT_EQ(started.succeeded_requests_size(), 1)
        << (started.failed_requests_size() > 0 ? started.failed_requests(0).exception().message()
                                               : "");
    y::GetContainerStatusesRequestProto query;
    *query.add_container_id() = c.id();
    y::GetContainerStatusesResponseProto statuses;
    // The launch is asynchronous (a Java NM's container is NEW until its
    // launch event is handled too): the agent must move it on by itself.
    ASSERT_TRUE(WaitFor([&] {
      statuses.Clear();
      return client_.Call(NmSpec(c.nodeid()), "getContainerStatuses", query, &statuses).ok() &&
             statuses.status_size() == 1 && statuses.status(0).state() != y::C_NEW;
    })) << statuses.DebugString();
    EXPECT_EQ(statuses.status(0).capability().memory(), 256);
  }
  // The agents report the completions; the RM tells the AM.
  ASSERT_TRUE(WaitFor([&] {
    Allocate();
    return completed_.size() == 2;
  }));
  for (const auto& [id, status] : completed_) {
    EXPECT_EQ(status.exit_status(), 0) << id.ToString();
    EXPECT_EQ(status.state(), y::C_COMPLETE);
  }
  y::FinishApplicationMasterRequestProto finish;
  finish.set_final_application_status(y::APP_SUCCEEDED);
  y::FinishApplicationMasterResponseProto finished;
  ASSERT_TRUE(client_.Call(AmSpec(), "finishApplicationMaster", finish, &finished).ok());
  // The AM process exits 0 (the test plays the AM, so it ends the simulated
  // container itself); the agent reports it and the app finishes.
  for (auto& a : agents_) {
    a->runtime(0).Kill(rm::ContainerId{{app, 1}, 1}, 0, "");
  }
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::FINISHED; }));
  ASSERT_TRUE(WaitFor([&] { return rm_->pool().Metrics().allocated == pool::Resource(); }));
  EXPECT_EQ(
      agents_[0]->containers(0).live_containers() + agents_[1]->containers(0).live_containers(),
      0u);
}

TEST_F(NmAgentTest, SimulatedNodesShareOnePortAndEachGetsItsOwnContainers) {
  // Only virtual nodes this time.
  for (auto& a : agents_) a->Stop();
  ASSERT_TRUE(WaitFor([&] { return rm_->nodes().Counts().active == 0; }));
  agents_.push_back(StartAgent(/*simulated_nodes=*/3));
  nm::NodeAgent& sim = *agents_.back();
  ASSERT_TRUE(WaitFor([&] { return rm_->nodes().Counts().active == 3; }));
  EXPECT_EQ(sim.node_id(0), (rm::NodeId{"127.1.0.1", sim.port()}));
  EXPECT_EQ(sim.node_id(2), (rm::NodeId{"127.1.0.3", sim.port()}));

  // The RM launches the AM on a virtual node through the shared port.
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  const auto containers = AllocateContainers(6);
  ASSERT_EQ(containers.size(), 6u);
  std::set<rm::NodeId> nodes;
  for (const auto& c : containers) {
    nodes.insert(rm::FromProto(c.nodeid()));
    ASSERT_EQ(StartOn(c, "sleep 0.2").succeeded_requests_size(), 1);
  }
  EXPECT_GE(nodes.size(), 2u) << "6 x 256 MB spread over 4 GB nodes";
  for (const auto& c : containers) {
    EXPECT_EQ(WaitForCompletion(rm::FromProto(c.id())).exit_status(), 0);
  }
  // Each container ran on the virtual node its token names.
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& c : containers) {
    EXPECT_EQ(launched_on_.at(rm::FromProto(c.id())), rm::FromProto(c.nodeid()));
  }
}

TEST_F(NmAgentTest, TheAmKillsAContainer) { TheAmKillsARunningContainer(); }

// The RM's web port is configured 0: reports (RPC and REST) name the port it
// bound, and each node registered the port its own web server bound.
TEST_F(NmAgentTest, TrackingUrlsAndNodeAddressesNameTheBoundWebPorts) {
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::RUNNING; }));
  const std::string proxy_url =
      "http://127.0.0.1:" + std::to_string(rm_->web_port()) + "/proxy/" + app.ToString() + "/";
  y::GetApplicationReportRequestProto request;
  rm::ToProto(app, request.mutable_application_id());
  y::GetApplicationReportResponseProto response;
  ASSERT_TRUE(client_.Call(ClientSpec(), "getApplicationReport", request, &response).ok());
  EXPECT_EQ(response.application_report().trackingurl(), proxy_url);
  auto rest =
      testing::HttpGet("127.0.0.1", rm_->web_port(), "/ws/v1/cluster/apps/" + app.ToString(),
                       {{"Accept", "application/json"}});
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_NE(rest->body.find("\"trackingUrl\":\"" +
                            [&] {
                              std::string escaped;  // Jersey writes "/" as "\/"
                              for (char c : proxy_url)
                                escaped += c == '/' ? std::string("\\/") : std::string(1, c);
                              return escaped;
                            }() +
                            "\""),
            std::string::npos)
      << rest->body;
  for (const auto& agent : agents_) {
    ASSERT_NE(agent->http_port(), 0);
    const auto node = rm_->nodes().Get(agent->node_id(0));
    ASSERT_TRUE(node.has_value());
    EXPECT_EQ(node->info.http_address, "127.0.0.1:" + std::to_string(agent->http_port()));
    auto info = testing::HttpGet("127.0.0.1", static_cast<uint16_t>(agent->http_port()),
                                 "/ws/v1/node/info", {{"Accept", "application/json"}});
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    EXPECT_EQ(info->status, 200);
    EXPECT_NE(info->body.find("\"id\":\"" + agent->node_id(0).ToString() + "\""), std::string::npos)
        << info->body;
  }
}

TEST_F(NmAgentTest, ForgedExpiredAndForeignContainerTokensAreRejected) {
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  const auto containers = AllocateContainers(1);
  ASSERT_EQ(containers.size(), 1u);
  const auto& c = containers[0];
  const size_t agent = AgentOf(c);

  hadoop::common::TokenProto forged = c.container_token();
  forged.set_password("forged-password-bytes");
  auto response = StartOn(c, "sleep 1", &forged);
  ASSERT_EQ(response.failed_requests_size(), 1);
  EXPECT_EQ(response.failed_requests(0).exception().class_name(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken");

  // Well signed (with the node's own current key) but expired.
  y::ContainerTokenIdentifierProto id;
  ASSERT_TRUE(id.ParseFromString(c.container_token().identifier()));
  id.set_expirytimestamp(SystemClock::Get()->WallMillis() - 1000);
  hadoop::common::TokenProto expired = c.container_token();
  expired.set_identifier(id.SerializeAsString());
  const auto key = agents_[agent]->keys(0).Current(nm::NodeTokenKeys::Family::kContainerTokens);
  ASSERT_TRUE(key.has_value());
  ASSERT_EQ(key->key_id, id.masterkeyid());
  expired.set_password(HmacSha1(key->bytes, expired.identifier()));
  response = StartOn(c, "sleep 1", &expired);
  ASSERT_EQ(response.failed_requests_size(), 1);
  EXPECT_NE(response.failed_requests(0).exception().message().find("This token is expired"),
            std::string::npos);

  // A token for this node used on the other agent (with an NMToken minted
  // for it as the RM would): wrong node.
  const size_t other = 1 - agent;
  y::ContainerProto elsewhere = c;
  rm::ToProto(agents_[other]->node_id(0), elsewhere.mutable_nodeid());
  const auto nm_key = agents_[other]->keys(0).Current(nm::NodeTokenKeys::Family::kNmTokens);
  const std::string nm_id = rm::EncodeNmTokenIdentifier(
      rm::FromProto(c.id()).attempt, agents_[other]->node_id(0), "alice", nm_key->key_id);
  hadoop::common::TokenProto nm_token;
  nm_token.set_identifier(nm_id);
  nm_token.set_password(HmacSha1(nm_key->bytes, nm_id));
  nm_token.set_kind("NMToken");
  nm_token.set_service(agents_[other]->node_id(0).ToString());
  nm_tokens_[agents_[other]->node_id(0)] = nm_token;
  response = StartOn(elsewhere, "sleep 1");
  ASSERT_EQ(response.failed_requests_size(), 1);
  EXPECT_NE(response.failed_requests(0).exception().message().find("not valid for current Node"),
            std::string::npos);

  // A forged NMToken does not even authenticate.
  nm_tokens_[agents_[other]->node_id(0)].set_password("forged");
  y::StartContainersRequestProto request;
  y::StartContainersResponseProto ignored;
  ipc::RpcClient fresh;  // client_ would reuse its authenticated connection
  Status s = fresh.Call(NmSpec(elsewhere.nodeid()), "startContainers", request, &ignored);
  EXPECT_TRUE(s.IsUnauthorized()) << s.ToString();

  // The genuine token still works after all that, once.
  EXPECT_EQ(StartOn(c, "sleep 1").succeeded_requests_size(), 1);
  response = StartOn(c, "sleep 1");
  ASSERT_EQ(response.failed_requests_size(), 1);
  EXPECT_NE(response.failed_requests(0).exception().message().find("relaunch"), std::string::npos);
}

// A node that has not had its registration answer (here: the RM is down)
// has no keys: an NMToken connection is told to retry (RetriableException,
// which the RM's AM launcher and Hadoop's NMProxy retry), not that its token
// is invalid.
TEST_F(NmAgentTest, AnAgentNotYetRegisteredTellsCallersToRetry) {
  rm_->Stop();
  std::unique_ptr<nm::NodeAgent> early = StartAgent();
  const rm::NodeId node = early->node_id(0);
  const std::string id = rm::EncodeNmTokenIdentifier({{1, 1}, 1}, node, "alice", 1);
  const ipc::ConnectionSpec spec{node.host, static_cast<uint16_t>(node.port), kCmp, "ignored",
                                 ipc::ClientToken{id, "no key yet", "NMToken", node.ToString()}};
  ipc::RpcClient fresh;
  y::StartContainersRequestProto request;
  y::StartContainersResponseProto response;
  const Status s = fresh.Call(spec, "startContainers", request, &response);
  EXPECT_EQ(s.java_class(), "org.apache.hadoop.ipc.RetriableException") << s.ToString();
  EXPECT_EQ(early->registered_nodes(), 0u);
  early->Stop();
}

TEST_F(NmAgentTest, AgentsResyncWithARestartedRm) {
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  const uint16_t tracker_port = rm_->resource_tracker_port();
  rm_->Stop();
  rm_.reset();
  std::this_thread::sleep_for(300ms);  // the agents notice the RM is gone
  StartRm(tracker_port);
  ASSERT_TRUE(WaitFor([&] {
    return agents_[0]->updater(0).registrations() == 2 &&
           agents_[1]->updater(0).registrations() == 2;
  })) << "both agents registered again";
  ASSERT_TRUE(WaitFor([&] { return rm_->nodes().Counts().active == 2; }));
  // The agent reported the AM container at re-registration; this RM did not
  // recover the application, so it has the orphan killed.
  const rm::ContainerId am{{app, 1}, 1};
  ASSERT_TRUE(WaitFor([&] {
    for (auto& a : agents_) {
      for (const auto& s : a->containers(0).RegistrationStatuses()) {
        if (rm::FromProto(s.container_id()) == am && s.container_state() == y::C_COMPLETE) {
          return s.container_exit_status() == nm::kExitKilledByResourceManager;
        }
      }
    }
    return false;
  }));
}

class NmAgentProcessTest : public NmAgentTest {
 protected:
  NmAgentProcessTest() { processes_ = true; }
};

TEST_F(NmAgentTest, ASigkilledAgentProcessIsLost) {
  const pid_t child = SpawnAgentProcess(2048);
  ASSERT_GT(child, 0);
  const bool joined = WaitFor([&] { return rm_->nodes().Counts().active == 3; });
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(joined) << "the spindle nm process registered";
  ASSERT_TRUE(WaitFor([&] { return rm_->nodes().Counts().lost == 1; }))
      << "the RM marks the silent node LOST";
  EXPECT_EQ(rm_->nodes().Counts().active, 2);
}

TEST_F(NmAgentProcessTest, ContainersRunShellCommandsThatWriteFiles) {
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  const auto containers = AllocateContainers(2);
  ASSERT_EQ(containers.size(), 2u);
  const std::string out = work_dir_ + "/out";
  std::filesystem::create_directories(out);
  for (const auto& c : containers) {
    // Launch commands go into `bash -c "..."` unescaped, as Hadoop's
    // launch script has them: no double quotes inside.
    auto started = StartOn(c, "echo $CONTAINER_ID on $NM_HOST:$NM_PORT > " + out +
                                  "/$CONTAINER_ID.txt && pwd >> " + out + "/$CONTAINER_ID.txt");
    ASSERT_EQ(started.succeeded_requests_size(), 1);
  }
  ASSERT_TRUE(WaitFor([&] {
    Allocate();
    return completed_.size() == 2;
  }));
  for (const auto& c : containers) {
    const rm::ContainerId id = rm::FromProto(c.id());
    EXPECT_EQ(completed_.at(id).exit_status(), 0) << completed_.at(id).diagnostics();
    std::ifstream in(out + "/" + id.ToString() + ".txt");
    std::string line;
    ASSERT_TRUE(std::getline(in, line)) << "the container wrote its file; " << [&] {
      std::string names;
      for (const auto& e : std::filesystem::directory_iterator(out))
        names += e.path().string() + " ";
      return names;
    }();
    EXPECT_EQ(line, id.ToString() + " on " + rm::FromProto(c.nodeid()).ToString());
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_NE(line.find(id.ToString()), std::string::npos) << "runs in its own work dir: " << line;
  }
}

// A container's stdout and stderr, fetched as a person would: from the log
// link the RM builds (the node's registered http address), over HTTP.
TEST_F(NmAgentProcessTest, AContainersLogsAreServedOverTheNodesHttp) {
  const y::ContainerProto c = StartOne(
      "echo hello-from-stdout; echo complaint-on-stderr >&2; "
      "test -d tmp && echo tmp-exists");
  const rm::ContainerId id = rm::FromProto(c.id());
  const y::ContainerStatusProto status = WaitForCompletion(id);
  ASSERT_EQ(status.exit_status(), 0) << status.diagnostics();
  const auto node = rm_->nodes().Get(rm::FromProto(c.nodeid()));
  ASSERT_TRUE(node.has_value());
  const std::string http = node->info.http_address;
  const size_t colon = http.rfind(':');
  ASSERT_NE(colon, std::string::npos) << http;
  const auto port = static_cast<uint16_t>(std::stoi(http.substr(colon + 1)));
  ASSERT_EQ(port, agents_[AgentOf(c)]->http_port());
  const std::string page = "/node/containerlogs/" + id.ToString() + "/alice";
  auto list = testing::HttpGet(http.substr(0, colon), port, page);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(list->status, 200) << list->body;
  for (const char* file : {"stdout", "stderr"}) {
    EXPECT_NE(list->body.find(page + "/" + file + "?start=-4096"), std::string::npos) << list->body;
  }
  auto out = testing::HttpGet(http.substr(0, colon), port, page + "/stdout?start=0");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->status, 200);
  EXPECT_NE(out->body.find("<pre>hello-from-stdout\ntmp-exists\n</pre>"), std::string::npos)
      << out->body;
  // The REST form the 3.3 `yarn logs` CLI reads.
  auto rest = testing::HttpGet(http.substr(0, colon), port,
                               "/ws/v1/node/containerlogs/" + id.ToString() + "/stdout");
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->status, 200);
  EXPECT_NE(rest->body.find("Container: " + id.ToString() + " on " +
                            rm::FromProto(c.nodeid()).ToString()),
            std::string::npos)
      << rest->body;
  EXPECT_NE(
      rest->body.find("LogContents:\nhello-from-stdout\ntmp-exists\nEnd of LogType:stdout.\n"),
      std::string::npos)
      << rest->body;
  auto err = testing::HttpGet(http.substr(0, colon), port, page + "/stderr");
  ASSERT_TRUE(err.ok());
  EXPECT_NE(err->body.find("complaint-on-stderr"), std::string::npos) << err->body;
  auto unknown = testing::HttpGet(
      http.substr(0, colon), port,
      "/node/containerlogs/" + rm::ContainerId{id.attempt, 999}.ToString() + "/alice");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->status, 404);
}

TEST_F(NmAgentProcessTest, AContainerOverItsMemoryLimitIsKilled) {
  const y::ContainerProto c =
      StartOne("python3 -c 'b = bytearray(400 << 20); import time; time.sleep(60)'", 128);
  const y::ContainerStatusProto status = WaitForCompletion(rm::FromProto(c.id()));
  EXPECT_EQ(status.exit_status(), nm::kExitKilledExceededPmem) << status.diagnostics();
}

TEST_F(NmAgentProcessTest, TheAmKillsARunningProcess) { TheAmKillsARunningContainer(); }

TEST_F(NmAgentProcessTest, ContainersOfASigkilledAgentCompleteAsAborted) {
  const pid_t child = SpawnAgentProcess(8192);
  ASSERT_GT(child, 0);
  bool joined = WaitFor([&] { return rm_->nodes().Counts().active == 3; });
  if (!joined) kill(child, SIGKILL);
  ASSERT_TRUE(joined);
  const rm::ApplicationId app = Submit("sleep 600");
  StartAm(app);
  // 6 GB fits only the child agent (the in-process ones have 4 GB).
  const auto containers = AllocateContainers(1, 6144);
  if (containers.size() != 1u) kill(child, SIGKILL);
  ASSERT_EQ(containers.size(), 1u);
  const auto& c = containers[0];
  const auto started = StartOn(c, "sleep 20");
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_EQ(started.succeeded_requests_size(), 1);
  const rm::ContainerId id = rm::FromProto(c.id());
  ASSERT_TRUE(WaitFor([&] {
    Allocate();
    return completed_.count(id) > 0;
  })) << "the RM completes the lost node's container";
  EXPECT_EQ(rm_->nodes().Counts().lost, 1);
  EXPECT_EQ(completed_.at(id).exit_status(), nm::kExitAborted) << completed_.at(id).diagnostics();
  // The killed agent's container (its own session) is an orphan now: end it.
  std::ifstream pid_file(work_dir_ + "/child-local/nmPrivate/" + app.ToString() + "/" +
                         id.ToString() + "/" + id.ToString() + ".pid");
  pid_t orphan = 0;
  if (pid_file >> orphan && orphan > 1) kill(-orphan, SIGKILL);
}

}  // namespace
}  // namespace spindle
