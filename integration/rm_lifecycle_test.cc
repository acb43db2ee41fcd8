// The ResourceManager end to end, in one process over the real wire: a
// `spindle rm` daemon on 127.0.0.1 ports picked at run time; Spindle's own
// IPC client acting as a NodeManager (ResourceTracker, plus a
// ContainerManagementProtocol server that checks NMTokens and container
// tokens with the master keys the RM gave it) and as an ApplicationMaster
// (authenticating with the AMRM token the RM put into its launch context).
#include <glog/logging.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "cmd/rm_daemon.h"
#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "nm_shim/agent/token_verifier.h"
#include "persist/zk/zk_session.h"
#include "rm/recovery/fs/hadoop_checksum_file.h"
#include "rm/security/credentials.h"
#include "rm/security/token_identifiers.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "tests/support/http_get.h"
#include "tests/support/mini_zookeeper.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_security_token.pb.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
constexpr char kAms[] = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
constexpr char kCmp[] = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";
constexpr char kAdmin[] =
    "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB";

// A NodeManager's ContainerManagementProtocol: NMTokens and container tokens
// are checked with the master keys from registration, by the node agent's
// own checks (nm_shim/agent/token_verifier.h), as a Java NM does.
class TestNodeManager : public ipc::TokenSecretProvider {
 public:
  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    ASSIGN_OR_RETURN(nm::NmTokenInfo info, nm::VerifyNmToken(identifier, node_, keys_));
    return ipc::TokenSecret{info.password, info.attempt.ToString()};
  }

  void SetKeys(const y::MasterKeyProto& nm_key, const y::MasterKeyProto& container_key,
               int64_t rm_identifier) {
    keys_.Apply(nm::NodeTokenKeys::Family::kNmTokens, {nm_key.key_id(), nm_key.bytes()});
    keys_.Apply(nm::NodeTokenKeys::Family::kContainerTokens,
                {container_key.key_id(), container_key.bytes()});
    keys_.set_rm_identifier(rm_identifier);
  }

  Status Start() {
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    auto service = std::make_unique<ipc::RpcService>(kCmp);
    service->AddMethod<y::StartContainersRequestProto, y::StartContainersResponseProto>(
        "startContainers",
        [this](const ipc::ConnectionIdentity& who, const y::StartContainersRequestProto& request,
               y::StartContainersResponseProto* response) {
          ASSIGN_OR_RETURN(nm::NmTokenInfo caller,
                           nm::VerifyNmToken(who.token_identifier, node_, keys_));
          std::lock_guard<std::mutex> lock(mu_);
          for (const auto& start : request.start_container_request()) {
            ASSIGN_OR_RETURN(
                nm::VerifiedContainerToken token,
                nm::VerifyContainerToken(start.container_token(), node_, keys_, caller.attempt,
                                         SystemClock::Get()->WallMillis()));
            started_.push_back({token.container, start.container_launch_context(), who.user});
            *response->add_succeeded_requests() = token.identifier.containerid();
          }
          return Status::OK();
        });
    service->AddMethod<y::StopContainersRequestProto, y::StopContainersResponseProto>(
        "stopContainers",
        [this](const ipc::ConnectionIdentity&, const y::StopContainersRequestProto& request,
               y::StopContainersResponseProto*) {
          std::lock_guard<std::mutex> lock(mu_);
          for (const auto& id : request.container_id()) stopped_.push_back(rm::FromProto(id));
          return Status::OK();
        });
    registry->Add(std::move(service));
    ipc::RpcServerOptions options;
    options.name = "test-nm";
    options.session.simple_enabled = false;
    options.session.token_provider = this;
    server_ = std::make_unique<ipc::RpcServer>(options, registry);
    RETURN_NOT_OK(server_->Start());
    node_ = rm::NodeId{"127.0.0.1", server_->port()};
    return Status::OK();
  }
  uint16_t port() const { return server_->port(); }

  struct Started {
    rm::ContainerId id;
    y::ContainerLaunchContextProto clc;
    std::string caller;
  };
  std::vector<Started> started() const {
    std::lock_guard<std::mutex> lock(mu_);
    return started_;
  }
  std::vector<rm::ContainerId> stopped() const {
    std::lock_guard<std::mutex> lock(mu_);
    return stopped_;
  }

 private:
  mutable std::mutex mu_;
  rm::NodeId node_;
  nm::NodeTokenKeys keys_;
  std::vector<Started> started_;
  std::vector<rm::ContainerId> stopped_;
  std::unique_ptr<ipc::RpcServer> server_;
};

class RmLifecycleTest : public ::testing::Test {
 protected:
  // Settings of a fixture's own, applied last.
  virtual void Configure(rm::Configuration*) {}

  void SetUp() override {
    rm::Configuration conf;
    for (const char* key : cell::kRmAddressKeys) {
      conf.Set(key, "127.0.0.1:0");
    }
    conf.Set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.Set("yarn.scheduler.capacity.root.queues", "default");
    conf.Set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.Set("spindle.scheduler.count", "2");
    // The state store in memory: tests run side by side. Recovery is off by
    // default (as in Hadoop); these tests ran with it on.
    conf.Set("yarn.resourcemanager.recovery.enabled", "true");
    conf.Set("yarn.resourcemanager.store.class", "memory");
    conf.Set("yarn.admin.acl", "admin");
    conf.Set("spindle.scheduler.partitions", "2");
    Configure(&conf);
    conf_ = conf;
    auto daemon = RmDaemon::Create(std::move(conf));
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(daemon).value();
    ASSERT_TRUE(daemon_->Start().ok());
    ASSERT_TRUE(nm_.Start().ok());
    node_id_.set_host("127.0.0.1");
    node_id_.set_port(nm_.port());
  }
  void TearDown() override {
    if (daemon_) daemon_->Stop();
  }

  ipc::ConnectionSpec TrackerSpec() {
    return {"127.0.0.1", daemon_->resource_tracker_port(), kTracker, "yarn", std::nullopt};
  }

  void RegisterNode() {
    y::RegisterNodeManagerRequestProto request;
    *request.mutable_node_id() = node_id_;
    request.set_http_port(8042);
    request.mutable_resource()->set_memory(8192);
    request.mutable_resource()->set_virtual_cores(8);
    request.set_nm_version("2.6.0");
    y::RegisterNodeManagerResponseProto response;
    ASSERT_TRUE(client_.Call(TrackerSpec(), "registerNodeManager", request, &response).ok());
    ASSERT_EQ(response.nodeaction(), y::NORMAL);
    ASSERT_TRUE(response.has_nm_token_master_key());
    ASSERT_TRUE(response.has_container_token_master_key());
    EXPECT_EQ(response.rm_identifier(), daemon_->apps().cluster_timestamp());
    nm_.SetKeys(response.nm_token_master_key(), response.container_token_master_key(),
                response.rm_identifier());
  }

  // One heartbeat reporting `statuses`; returns the response.
  y::NodeHeartbeatResponseProto Heartbeat(const std::vector<y::ContainerStatusProto>& statuses) {
    y::NodeHeartbeatRequestProto request;
    auto* status = request.mutable_node_status();
    *status->mutable_node_id() = node_id_;
    status->set_response_id(nm_response_id_);
    status->mutable_nodehealthstatus()->set_is_node_healthy(true);
    for (const auto& s : statuses) *status->add_containersstatuses() = s;
    y::NodeHeartbeatResponseProto response;
    Status s = client_.Call(TrackerSpec(), "nodeHeartbeat", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    nm_response_id_ = response.response_id();
    return response;
  }

  static y::ContainerStatusProto Complete(const rm::ContainerId& id, int32_t exit_status) {
    y::ContainerStatusProto s;
    rm::ToProto(id, s.mutable_container_id());
    s.set_state(y::C_COMPLETE);
    s.set_exit_status(exit_status);
    s.set_diagnostics("exited");
    return s;
  }

  ipc::ConnectionSpec ClientSpec(const std::string& user = "alice") {
    return {"127.0.0.1", daemon_->client_port(), kClient, user, std::nullopt};
  }

  // getNewApplication + submitApplication over the wire, as YarnClient does.
  rm::ApplicationId Submit(int32_t max_attempts = 2) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    EXPECT_TRUE(client_.Call(ClientSpec(), "getNewApplication", new_request, &new_response).ok());
    EXPECT_EQ(new_response.maximumcapability().memory(), 8192);
    const rm::ApplicationId id = rm::FromProto(new_response.application_id());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name("lifecycle");
    context->set_queue("default");
    context->set_maxappattempts(max_attempts);
    context->mutable_resource()->set_memory(256);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command("/bin/true");
    y::SubmitApplicationResponseProto submitted;
    Status s = client_.Call(ClientSpec(), "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }

  y::ApplicationReportProto Report(const rm::ApplicationId& id) {
    y::GetApplicationReportRequestProto request;
    rm::ToProto(id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    Status s = client_.Call(ClientSpec(), "getApplicationReport", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return response.application_report();
  }

  // The AMRM token the RM put into the AM's launch context.
  ipc::ClientToken AmrmTokenOf(const TestNodeManager::Started& am) {
    auto credentials = rm::Credentials::Parse(am.clc.tokens());
    EXPECT_TRUE(credentials.ok()) << credentials.status().ToString();
    const rm::Token* token = credentials->FindToken("");
    EXPECT_NE(token, nullptr);
    return ipc::ClientToken{token->identifier, token->password, token->kind,
                            "127.0.0.1:" + std::to_string(daemon_->scheduler_port())};
  }

  ipc::ConnectionSpec AmSpec(const ipc::ClientToken& token) {
    return {"127.0.0.1", daemon_->scheduler_port(), kAms, "ignored", token};
  }

  y::YarnApplicationStateProto StateOf(const rm::ApplicationId& id) {
    return Report(id).yarn_application_state();
  }

  rm::Configuration conf_;
  std::unique_ptr<RmDaemon> daemon_;
  TestNodeManager nm_;
  ipc::RpcClient client_;
  y::NodeIdProto node_id_;
  int32_t nm_response_id_ = 0;
};

TEST_F(RmLifecycleTest, SubmitLaunchRegisterAllocateFinish) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; })) << "the AM is launched";
  const auto am = nm_.started()[0];
  EXPECT_EQ(am.id.sequence(), 1);
  EXPECT_EQ(am.caller, (rm::ApplicationAttemptId{app, 1}).ToString()) << "NMToken identity";
  bool has_submit_time = false;
  for (const auto& env : am.clc.environment()) {
    if (env.key() == "APP_SUBMIT_TIME_ENV") has_submit_time = true;
  }
  EXPECT_TRUE(has_submit_time);
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::ACCEPTED; }));

  const ipc::ClientToken amrm = AmrmTokenOf(am);
  y::RegisterApplicationMasterRequestProto reg;
  reg.set_host("am-host");
  reg.set_rpc_port(4321);
  y::RegisterApplicationMasterResponseProto reg_response;
  ASSERT_TRUE(client_.Call(AmSpec(amrm), "registerApplicationMaster", reg, &reg_response).ok());
  EXPECT_EQ(reg_response.maximumcapability().memory(), 8192);
  EXPECT_EQ(reg_response.queue(), "default");
  EXPECT_EQ(StateOf(app), y::RUNNING);

  // Ask for two containers with locality on our node.
  int32_t response_id = 0;
  std::vector<y::ContainerProto> allocated;
  y::AllocateRequestProto ask;
  for (const std::string name : {"*", "127.0.0.1"}) {
    auto* r = ask.add_ask();
    r->mutable_priority()->set_priority(1);
    r->set_resource_name(name);
    r->mutable_capability()->set_memory(512);
    r->mutable_capability()->set_virtual_cores(1);
    r->set_num_containers(2);
  }
  bool saw_nm_token = false;
  ASSERT_TRUE(WaitFor([&] {
    y::AllocateRequestProto request = response_id == 0 ? ask : y::AllocateRequestProto();
    request.set_response_id(response_id);
    request.set_progress(0.5f);
    y::AllocateResponseProto response;
    Status s = client_.Call(AmSpec(amrm), "allocate", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    response_id = response.response_id();
    for (const auto& c : response.allocated_containers()) allocated.push_back(c);
    saw_nm_token |= response.nm_tokens_size() > 0;
    EXPECT_EQ(response.num_cluster_nodes(), 1);
    return allocated.size() >= 2;
  }));
  ASSERT_EQ(allocated.size(), 2u) << "exactly the two asked for";
  EXPECT_TRUE(saw_nm_token) << "an NMToken for the first container on the node";
  for (const auto& c : allocated) {
    EXPECT_EQ(c.resource().memory(), 512);
    EXPECT_EQ(c.nodeid().port(), nm_.port());
    EXPECT_EQ(c.container_token().kind(), "ContainerToken");
  }
  // A duplicate allocate (lost answer) gets the same response again.
  {
    y::AllocateRequestProto request;
    request.set_response_id(response_id - 1);
    y::AllocateResponseProto response;
    ASSERT_TRUE(client_.Call(AmSpec(amrm), "allocate", request, &response).ok());
    EXPECT_EQ(response.response_id(), response_id);
    y::AllocateRequestProto stale;
    stale.set_response_id(response_id + 5);
    Status s = client_.Call(AmSpec(amrm), "allocate", stale, &response);
    EXPECT_EQ(s.java_class(),
              "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException");
  }

  // The node reports both task containers complete; the AM hears of them.
  Heartbeat({Complete(rm::FromProto(allocated[0].id()), 0),
             Complete(rm::FromProto(allocated[1].id()), 0)});
  int completed = 0;
  ASSERT_TRUE(WaitFor([&] {
    y::AllocateRequestProto request;
    request.set_response_id(response_id);
    y::AllocateResponseProto response;
    EXPECT_TRUE(client_.Call(AmSpec(amrm), "allocate", request, &response).ok());
    response_id = response.response_id();
    completed += response.completed_container_statuses_size();
    EXPECT_EQ(response.allocated_containers_size(), 0) << "nothing more was asked for";
    return completed == 2;
  }));

  y::FinishApplicationMasterRequestProto finish;
  finish.set_final_application_status(y::APP_SUCCEEDED);
  finish.set_diagnostics("done");
  y::FinishApplicationMasterResponseProto finish_response;
  ASSERT_TRUE(client_.Call(AmSpec(amrm), "finishApplicationMaster", finish, &finish_response).ok());
  EXPECT_TRUE(finish_response.isunregistered());
  // The AM container exits; the app is FINISHED and the node cleans it up.
  auto response = Heartbeat({Complete(am.id, 0)});
  ASSERT_TRUE(
      WaitFor([&] { return daemon_->apps().GetApp(app)->state == rm::AppState::kFinished; }));
  EXPECT_EQ(daemon_->apps().GetApp(app)->final_status, rm::FinalStatus::kSucceeded);
  bool app_cleaned = false;
  ASSERT_TRUE(WaitFor([&] {
    const auto beat = Heartbeat({});
    for (const auto& a : beat.applications_to_cleanup()) {
      app_cleaned |= rm::FromProto(a) == app;
    }
    return app_cleaned;
  }));
  EXPECT_EQ(daemon_->pool().Metrics().allocated, pool::Resource()) << "all resources returned";
}

// spindle.compat.hadoop-version = 2.7: the AM port answers as a 2.7 RM
// (ApplicationMasterService.allocate at rel/release-2.7.7) and the 2.7
// yarn-default.xml applies.
class Hadoop27LineTest : public RmLifecycleTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    conf->Set("spindle.compat.hadoop-version", "2.7");
  }
};

TEST_F(Hadoop27LineTest, AllocateAheadIsAnsweredAndLineDefaultsApply) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; })) << "the AM is launched";
  const ipc::ClientToken amrm = AmrmTokenOf(nm_.started()[0]);
  y::RegisterApplicationMasterRequestProto reg;
  reg.set_host("am-host");
  y::RegisterApplicationMasterResponseProto reg_response;
  ASSERT_TRUE(client_.Call(AmSpec(amrm), "registerApplicationMaster", reg, &reg_response).ok());
  EXPECT_EQ(reg_response.maximumcapability().virtual_cores(), 32) << "2.7's yarn-default.xml";

  y::AllocateResponseProto response;
  y::AllocateRequestProto first;
  first.set_response_id(0);
  ASSERT_TRUE(client_.Call(AmSpec(amrm), "allocate", first, &response).ok());
  ASSERT_EQ(response.response_id(), 1);
  // One ahead (the 2 after 1) and far ahead: answered, each numbered
  // after the last answer; the ask in it is taken.
  y::AllocateRequestProto ahead;
  ahead.set_response_id(2);
  auto* r = ahead.add_ask();
  r->mutable_priority()->set_priority(1);
  r->set_resource_name("*");
  r->mutable_capability()->set_memory(512);
  r->mutable_capability()->set_virtual_cores(1);
  r->set_num_containers(1);
  Status s = client_.Call(AmSpec(amrm), "allocate", ahead, &response);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(response.response_id(), 2);
  int32_t response_id = response.response_id();
  int allocated = response.allocated_containers_size();
  ASSERT_TRUE(WaitFor([&] {
    y::AllocateRequestProto request;
    request.set_response_id(response_id + 100);
    y::AllocateResponseProto answer;
    EXPECT_TRUE(client_.Call(AmSpec(amrm), "allocate", request, &answer).ok());
    EXPECT_EQ(answer.response_id(), response_id + 1);
    response_id = answer.response_id();
    allocated += answer.allocated_containers_size();
    return allocated == 1;
  }));
  // Further behind than one: refused with 2.7's words.
  y::AllocateRequestProto behind;
  behind.set_response_id(response_id - 2);
  s = client_.Call(AmSpec(amrm), "allocate", behind, &response);
  EXPECT_EQ(s.java_class(),
            "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException");
  const rm::ApplicationAttemptId attempt{app, 1};
  EXPECT_EQ(s.message(), "Invalid responseId in AllocateRequest from application attempt: " +
                             attempt.ToString() + ", expect responseId to be " +
                             std::to_string(response_id + 1));
}

TEST_F(RmLifecycleTest, BlacklistedHostsGetNoContainersUntilRemoved) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  const ipc::ClientToken amrm = AmrmTokenOf(nm_.started()[0]);
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto reg_response;
  ASSERT_TRUE(client_.Call(AmSpec(amrm), "registerApplicationMaster", reg, &reg_response).ok());

  int32_t response_id = 0;
  y::ContainerIdProto last_allocated;
  auto allocate = [&](y::AllocateRequestProto request, y::AllocateResponseProto* response) {
    request.set_response_id(response_id);
    Status s = client_.Call(AmSpec(amrm), "allocate", request, response);
    if (s.ok()) response_id = response->response_id();
    for (const auto& c : response->allocated_containers()) last_allocated = c.id();
    return s;
  };
  y::AllocateRequestProto any;
  any.mutable_blacklist_request()->add_blacklist_additions("*");
  y::AllocateResponseProto response;
  Status s = allocate(any, &response);
  EXPECT_EQ(s.java_class(), rm::yarn::kInvalidResourceBlacklistRequest) << s.ToString();
  EXPECT_EQ(s.message(), "Cannot add * to the blacklist!");

  // The only host is blacklisted: the ask waits.
  y::AllocateRequestProto ask;
  ask.mutable_blacklist_request()->add_blacklist_additions("127.0.0.1");
  auto* r = ask.add_ask();
  r->mutable_priority()->set_priority(1);
  r->set_resource_name("*");
  r->mutable_capability()->set_memory(512);
  r->mutable_capability()->set_virtual_cores(1);
  r->set_num_containers(1);
  ASSERT_TRUE(allocate(ask, &response).ok());
  int allocated = response.allocated_containers_size();
  for (int i = 0; i < 10; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_TRUE(allocate(y::AllocateRequestProto(), &response).ok());
    allocated += response.allocated_containers_size();
  }
  EXPECT_EQ(allocated, 0);
  // Lifting it lets the pool place the ask there.
  y::AllocateRequestProto lift;
  lift.mutable_blacklist_request()->add_blacklist_removals("127.0.0.1");
  ASSERT_TRUE(allocate(lift, &response).ok());
  allocated += response.allocated_containers_size();
  ASSERT_TRUE(WaitFor([&] {
    EXPECT_TRUE(allocate(y::AllocateRequestProto(), &response).ok());
    allocated += response.allocated_containers_size();
    return allocated == 1;
  }));

  // Container updates are answered with an error per request, not dropped.
  y::AllocateRequestProto update;
  auto* resize = update.add_update_requests();
  resize->set_container_version(0);
  *resize->mutable_container_id() = last_allocated;
  resize->set_update_type(y::INCREASE_RESOURCE);
  auto* unknown = update.add_update_requests();
  unknown->set_container_version(0);
  rm::ToProto(rm::ContainerId{{app, 1}, 999}, unknown->mutable_container_id());
  unknown->set_update_type(y::INCREASE_RESOURCE);
  ASSERT_TRUE(allocate(update, &response).ok());
  ASSERT_EQ(response.update_errors_size(), 2);
  EXPECT_EQ(response.update_errors(0).reason().rfind("UPDATE_NOT_SUPPORTED", 0), 0u)
      << response.update_errors(0).reason();
  EXPECT_EQ(response.update_errors(1).reason(), "INVALID_CONTAINER_ID");
}

TEST_F(RmLifecycleTest, AmExitRetriesWithANewAttemptAndTheOldTokenStopsWorking) {
  RegisterNode();
  const rm::ApplicationId app = Submit(/*max_attempts=*/2);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  const auto first = nm_.started()[0];
  const ipc::ClientToken first_token = AmrmTokenOf(first);
  Heartbeat({Complete(first.id, 1)});
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 2; })) << "a second AM container";
  EXPECT_EQ(nm_.started()[1].id.attempt.attempt, 2);
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto reg_response;
  Status old = client_.Call(AmSpec(first_token), "registerApplicationMaster", reg, &reg_response);
  EXPECT_TRUE(old.IsUnauthorized()) << old.ToString();
  Heartbeat({Complete(nm_.started()[1].id, 1)});
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::FAILED; }));
}

TEST_F(RmLifecycleTest, WrongOrForeignTokensAreRejected) {
  RegisterNode();
  const rm::ApplicationId a = Submit();
  const rm::ApplicationId b = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 2; }));
  ipc::ClientToken forged = AmrmTokenOf(nm_.started()[0]);
  forged.password = "forged";
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto response;
  Status s = client_.Call(AmSpec(forged), "registerApplicationMaster", reg, &response);
  EXPECT_TRUE(s.IsUnauthorized()) << s.ToString();
  // Each AM acts only as its own attempt: a's token registers a's attempt.
  const auto& started = nm_.started();
  for (const auto& am : started) {
    ASSERT_TRUE(
        client_.Call(AmSpec(AmrmTokenOf(am)), "registerApplicationMaster", reg, &response).ok());
  }
  EXPECT_EQ(StateOf(a), y::RUNNING);
  EXPECT_EQ(StateOf(b), y::RUNNING);
  // Plain SIMPLE callers are refused on the scheduler port.
  ipc::ConnectionSpec simple{"127.0.0.1", daemon_->scheduler_port(), kAms, "mallory", std::nullopt};
  s = client_.Call(simple, "registerApplicationMaster", reg, &response);
  EXPECT_EQ(s.java_class(), "org.apache.hadoop.security.AccessControlException");
}

// An unmanaged AM (YarnClient's UnmanagedAMLauncher, the staging cell's
// AMs): no AM container is launched; the submitter, and only it, finds the
// attempt's AMRMToken in the application report and registers with it.
TEST_F(RmLifecycleTest, AnUnmanagedAmTakesItsTokenFromTheReport) {
  RegisterNode();
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  ASSERT_TRUE(client_.Call(ClientSpec(), "getNewApplication", new_request, &new_response).ok());
  const rm::ApplicationId id = rm::FromProto(new_response.application_id());
  y::SubmitApplicationRequestProto submit;
  auto* context = submit.mutable_application_submission_context();
  *context->mutable_application_id() = new_response.application_id();
  context->set_queue("default");
  context->set_unmanaged_am(true);
  context->mutable_resource()->set_memory(256);
  context->mutable_resource()->set_virtual_cores(1);
  context->mutable_am_container_spec();
  y::SubmitApplicationResponseProto submitted;
  ASSERT_TRUE(client_.Call(ClientSpec(), "submitApplication", submit, &submitted).ok());

  y::ApplicationReportProto report;
  ASSERT_TRUE(WaitFor([&] {
    report = Report(id);
    return report.has_am_rm_token();
  })) << y::YarnApplicationStateProto_Name(report.yarn_application_state());
  EXPECT_TRUE(report.unmanaged_application());
  EXPECT_TRUE(nm_.started().empty());
  // Another user sees no token.
  y::GetApplicationReportRequestProto request;
  rm::ToProto(id, request.mutable_application_id());
  y::GetApplicationReportResponseProto other;
  ASSERT_TRUE(client_.Call(ClientSpec("bob"), "getApplicationReport", request, &other).ok());
  EXPECT_FALSE(other.application_report().has_am_rm_token());

  const auto& t = report.am_rm_token();
  const ipc::ClientToken token{t.identifier(), t.password(), t.kind(),
                               "127.0.0.1:" + std::to_string(daemon_->scheduler_port())};
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto registered;
  Status s = client_.Call(AmSpec(token), "registerApplicationMaster", reg, &registered);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(StateOf(id), y::RUNNING);
  y::FinishApplicationMasterRequestProto finish;
  finish.set_final_application_status(y::APP_SUCCEEDED);
  y::FinishApplicationMasterResponseProto finished;
  ASSERT_TRUE(client_.Call(AmSpec(token), "finishApplicationMaster", finish, &finished).ok());
  EXPECT_TRUE(WaitFor([&] { return StateOf(id) == y::FINISHED; }));
}

TEST_F(RmLifecycleTest, KillStopsTheAmContainer) {
  RegisterNode();
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::ACCEPTED; }));
  y::KillApplicationRequestProto kill;
  rm::ToProto(app, kill.mutable_application_id());
  y::KillApplicationResponseProto killed;
  ASSERT_TRUE(client_.Call(ClientSpec(), "forceKillApplication", kill, &killed).ok());
  EXPECT_TRUE(killed.is_kill_completed());
  EXPECT_EQ(StateOf(app), y::KILLED);
  ASSERT_TRUE(WaitFor([&] { return !nm_.stopped().empty(); })) << "stopContainers sent";
  auto response = Heartbeat({});
  bool cleanup = false;
  for (const auto& id : response.containers_to_cleanup()) {
    cleanup |= rm::FromProto(id) == nm_.started()[0].id;
  }
  for (const auto& id : response.applications_to_cleanup()) cleanup |= rm::FromProto(id) == app;
  EXPECT_TRUE(cleanup);
}

TEST_F(RmLifecycleTest, UnknownNodesResyncAndSmallNodesAreRefused) {
  y::NodeHeartbeatRequestProto request;
  *request.mutable_node_status()->mutable_node_id() = node_id_;
  y::NodeHeartbeatResponseProto response;
  ASSERT_TRUE(client_.Call(TrackerSpec(), "nodeHeartbeat", request, &response).ok());
  EXPECT_EQ(response.nodeaction(), y::RESYNC);
  y::RegisterNodeManagerRequestProto small;
  small.mutable_node_id()->set_host("tiny");
  small.mutable_node_id()->set_port(1);
  small.mutable_resource()->set_memory(64);
  small.mutable_resource()->set_virtual_cores(1);
  y::RegisterNodeManagerResponseProto small_response;
  ASSERT_TRUE(client_.Call(TrackerSpec(), "registerNodeManager", small, &small_response).ok());
  EXPECT_EQ(small_response.nodeaction(), y::SHUTDOWN);
}

TEST_F(RmLifecycleTest, AdminProtocolEnforcesTheAdminAcl) {
  ipc::ConnectionSpec admin{"127.0.0.1", daemon_->admin_port(), kAdmin, "admin", std::nullopt};
  ipc::ConnectionSpec mallory{"127.0.0.1", daemon_->admin_port(), kAdmin, "mallory", std::nullopt};
  y::RefreshQueuesRequestProto request;
  y::RefreshQueuesResponseProto response;
  Status s = client_.Call(admin, "refreshQueues", request, &response);
  EXPECT_TRUE(s.ok()) << s.ToString();
  // AdminService.checkAcls: the AccessControlException wrapped in a
  // YarnException (RPCUtil.getRemoteException), as `yarn rmadmin` prints it.
  s = client_.Call(mallory, "refreshQueues", request, &response);
  EXPECT_EQ(s.java_class(), "org.apache.hadoop.yarn.exceptions.YarnException");
  EXPECT_EQ(s.message(),
            "org.apache.hadoop.security.AccessControlException: User mallory doesn't have "
            "permission to call 'refreshQueues'");
  y::RefreshNodesRequestProto nodes;
  y::RefreshNodesResponseProto nodes_response;
  EXPECT_TRUE(client_.Call(admin, "refreshNodes", nodes, &nodes_response).ok());
  y::GetGroupsForUserRequestProto groups;
  groups.set_user("root");
  y::GetGroupsForUserResponseProto groups_response;
  ASSERT_TRUE(client_.Call(mallory, "getGroupsForUser", groups, &groups_response).ok());
  EXPECT_GT(groups_response.groups_size(), 0) << "root has at least its primary group";
}

// AMs that go silent, or never register, time out like Hadoop's
// AMLivelinessMonitor says (yarn.am.liveness-monitor.expiry-interval-ms).
// AM limits and the per-user application maximum in the running daemon
// (rm/apps/am_activation.h): maximum-am-resource-percent 10% of the one
// 8 GB node is 819 MB, rounded up to the 128 MB minimum: 896 MB. The first
// 1 GB AM starts over it (Hadoop always lets one start); the next ones stay
// ACCEPTED, with no AM container, until the AM before them finishes.
// maximum-applications 4 x minimum-user-limit-percent 50% = 2 apps per user.
class AmLimitCellTest : public RmLifecycleTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    conf->Set("yarn.scheduler.capacity.root.default.maximum-am-resource-percent", "0.1");
    conf->Set("yarn.scheduler.capacity.root.default.maximum-applications", "4");
    conf->Set("yarn.scheduler.capacity.root.default.minimum-user-limit-percent", "50");
  }

  rm::ApplicationId SubmitAs(const std::string& user, int64_t am_memory_mb) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    EXPECT_TRUE(
        client_.Call(ClientSpec(user), "getNewApplication", new_request, &new_response).ok());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name("am-limit");
    context->set_queue("default");
    context->mutable_resource()->set_memory(am_memory_mb);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command("/bin/true");
    y::SubmitApplicationResponseProto submitted;
    Status s = client_.Call(ClientSpec(user), "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return rm::FromProto(new_response.application_id());
  }

  // The AM of `started` registers and unregisters, then its container exits.
  void RunAmToItsEnd(const TestNodeManager::Started& started) {
    const ipc::ClientToken amrm = AmrmTokenOf(started);
    y::RegisterApplicationMasterRequestProto reg;
    y::RegisterApplicationMasterResponseProto reg_response;
    ASSERT_TRUE(client_.Call(AmSpec(amrm), "registerApplicationMaster", reg, &reg_response).ok());
    y::FinishApplicationMasterRequestProto finish;
    finish.set_final_application_status(y::APP_SUCCEEDED);
    y::FinishApplicationMasterResponseProto finished;
    ASSERT_TRUE(WaitFor([&] {
      EXPECT_TRUE(client_.Call(AmSpec(amrm), "finishApplicationMaster", finish, &finished).ok());
      return finished.isunregistered();
    }));
    Heartbeat({Complete(started.id, 0)});
  }

  bool HasAmContainer(const rm::ApplicationId& id) {
    auto app = daemon_->apps().GetApp(id);
    return app.ok() && app->current_attempt() != nullptr &&
           app->current_attempt()->am_container.has_value();
  }
};

TEST_F(AmLimitCellTest, LaterAmsWaitForTheFirstToFinish) {
  RegisterNode();
  Heartbeat({});
  // The limits follow the cluster once the node is counted.
  ASSERT_TRUE(WaitFor([&] {
    return daemon_->apps().AmReport("default").limits.queue_am_limit.memory_mb() == 896;
  }));
  const rm::ApplicationId first = SubmitAs("alice", 1024);
  const rm::ApplicationId second = SubmitAs("alice", 1024);
  const rm::ApplicationId third = SubmitAs("bob", 1024);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; })) << "the first AM starts";
  EXPECT_EQ(nm_.started()[0].id.attempt.app, first);
  // The others are pending apps: accepted, no AM container asked for.
  rm::QueueAmReport report = daemon_->apps().AmReport("default");
  EXPECT_EQ(report.active_apps, 1);
  EXPECT_EQ(report.pending_apps, 2);
  EXPECT_EQ(report.am_used.memory_mb(), 1024);
  for (const rm::ApplicationId& id : {second, third}) {
    EXPECT_EQ(StateOf(id), y::ACCEPTED);
    EXPECT_FALSE(HasAmContainer(id));
    EXPECT_THAT(daemon_->apps().GetApp(id)->current_attempt()->am_launch_diagnostics,
                ::testing::HasSubstr("Queue's AM resource limit exceeded."));
  }
  // The client reads why over RPC (RMAppImpl.getDiagnostics falls back to
  // the attempt's AM launch diagnostics).
  y::GetApplicationReportRequestProto report_request;
  ToProto(third, report_request.mutable_application_id());
  y::GetApplicationReportResponseProto app_report;
  ASSERT_TRUE(
      client_.Call(ClientSpec("bob"), "getApplicationReport", report_request, &app_report).ok());
  EXPECT_THAT(app_report.application_report().diagnostics(),
              ::testing::HasSubstr("Queue's AM resource limit exceeded."));
  // The web side reports LeafQueue's activation as 3.3's
  // CapacitySchedulerLeafQueueInfo does.
  auto scheduler = testing::HttpGet("127.0.0.1", daemon_->web_port(), "/ws/v1/cluster/scheduler",
                                    {{"Accept", "application/json"}});
  ASSERT_TRUE(scheduler.ok()) << scheduler.status().ToString();
  EXPECT_THAT(scheduler->body, ::testing::HasSubstr("\"numActiveApplications\":1,"
                                                    "\"numPendingApplications\":2,"));
  EXPECT_THAT(scheduler->body, ::testing::HasSubstr("\"AMResourceLimit\":{\"memory\":896,"));
  EXPECT_THAT(scheduler->body, ::testing::HasSubstr("\"usedAMResource\":{\"memory\":1024,"));
  EXPECT_THAT(scheduler->body, ::testing::HasSubstr("{\"username\":\"bob\","
                                                    "\"numPendingApplications\":1,"
                                                    "\"numActiveApplications\":0,"));

  RunAmToItsEnd(nm_.started()[0]);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 2; })) << "the second AM starts";
  EXPECT_EQ(nm_.started()[1].id.attempt.app, second);
  EXPECT_EQ(StateOf(first), y::FINISHED);
  EXPECT_FALSE(HasAmContainer(third));
  EXPECT_EQ(daemon_->apps().AmReport("default").pending_apps, 1);

  RunAmToItsEnd(nm_.started()[1]);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 3; })) << "then the third";
  EXPECT_EQ(nm_.started()[2].id.attempt.app, third);
  EXPECT_EQ(daemon_->apps().AmReport("default").pending_apps, 0);
}

// LeafQueue.validateSubmitApplication through CapacityScheduler.addApplication:
// the submission succeeds, the app is rejected and FAILED with the
// AccessControlException's text as its diagnostics.
TEST_F(AmLimitCellTest, PerUserMaximumApplicationsFailsTheThirdApp) {
  RegisterNode();
  Heartbeat({});
  SubmitAs("alice", 256);
  SubmitAs("alice", 256);
  const rm::ApplicationId third = SubmitAs("alice", 256);
  ASSERT_TRUE(WaitFor([&] { return StateOf(third) == y::FAILED; }));
  EXPECT_EQ(Report(third).diagnostics(),
            "org.apache.hadoop.security.AccessControlException: Queue root.default already has 2 "
            "applications from user alice cannot accept submission of application: " +
                third.ToString());
  // Another user still has room.
  EXPECT_EQ(StateOf(SubmitAs("bob", 256)), y::ACCEPTED);
}

// User limits in the running daemon (scheduler_pool/user_limit.h): one
// queue, minimum-user-limit-percent 33, three users each with an AM asking
// for 100 containers of 1 GB, far more than a third. The AMs run on a
// 3 GB node; the users' work lands on a second node of 45312 MB that joins
// once all three have asked (so no user is alone in the queue when room
// appears; a user alone may take everything, in Hadoop as here). The queue
// is then 48384 MB, a third 16128 MB. 3.3 (UsersManager): the limit is the
// MULP part, ceil(floor(48384 x 33) / 100) rounded up to 128 MB = 16000 MB,
// so a user stops at 16 GB (15 GB <= 16000 gets one more); 2.7 (LeafQueue):
// ceil(48384 / 3) = 16128 MB, the same 16 GB. Two users reach 16 GB, the
// third has the 15 GB left: each within one container of a third, where
// without the limit the first user would take the whole node.
class UserLimitCellTest : public AmLimitCellTest {
 protected:
  static constexpr int64_t kAmNodeMb = 3072;
  static constexpr int64_t kWorkNodeMb = 45312;
  static constexpr int64_t kContainerMb = 1024;

  void Configure(rm::Configuration* conf) override {
    conf->Set("yarn.scheduler.capacity.root.default.minimum-user-limit-percent", "33");
    conf->Set("yarn.scheduler.capacity.root.default.user-limit-factor", "3");
    conf->Set("yarn.scheduler.capacity.root.default.maximum-am-resource-percent", "1.0");
    // The default pool (ParSync): the three users' apps sit on different
    // schedulers, and each user counts as active from the moment its asks
    // reach the pool, whichever scheduler steps first.
  }

  // registerNodeManager for `id` with `memory_mb`; returns the answer.
  y::RegisterNodeManagerResponseProto RegisterNodeOf(const y::NodeIdProto& id, int64_t memory_mb,
                                                     int32_t vcores) {
    y::RegisterNodeManagerRequestProto request;
    *request.mutable_node_id() = id;
    request.set_http_port(8042);
    request.mutable_resource()->set_memory(memory_mb);
    request.mutable_resource()->set_virtual_cores(vcores);
    request.set_nm_version("2.6.0");
    y::RegisterNodeManagerResponseProto response;
    EXPECT_TRUE(client_.Call(TrackerSpec(), "registerNodeManager", request, &response).ok());
    EXPECT_EQ(response.nodeaction(), y::NORMAL);
    return response;
  }

  // The AMs' node: its containers are started on the test NodeManager.
  void RegisterAmNode() {
    const auto response = RegisterNodeOf(node_id_, kAmNodeMb, 8);
    nm_.SetKeys(response.nm_token_master_key(), response.container_token_master_key(),
                response.rm_identifier());
  }

  // A node that only hosts allocations (these AMs start no containers).
  void RegisterWorkNode(const std::string& host) {
    y::NodeIdProto id;
    id.set_host(host);
    id.set_port(nm_.port());
    RegisterNodeOf(id, kWorkNodeMb, 64);
  }

  struct RunningAm {
    ipc::ClientToken token;
    int32_t response_id = 0;
    int64_t allocated_mb = 0;
  };

  // One allocate call; `ask` containers are asked for on the first.
  void Allocate(RunningAm& am, int32_t ask) {
    y::AllocateRequestProto request;
    if (ask > 0) {
      auto* r = request.add_ask();
      r->mutable_priority()->set_priority(1);
      r->set_resource_name("*");
      r->mutable_capability()->set_memory(kContainerMb);
      r->mutable_capability()->set_virtual_cores(1);
      r->set_num_containers(ask);
    }
    request.set_response_id(am.response_id);
    y::AllocateResponseProto response;
    Status s = client_.Call(AmSpec(am.token), "allocate", request, &response);
    ASSERT_TRUE(s.ok()) << s.ToString();
    am.response_id = response.response_id();
    for (const auto& c : response.allocated_containers()) am.allocated_mb += c.resource().memory();
  }

  void ThreeUsersConvergeToAThird() {
    RegisterAmNode();
    Heartbeat({});
    const std::vector<std::string> users = {"alice", "bob", "carol"};
    for (const std::string& user : users) SubmitAs(user, kContainerMb);
    ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 3; })) << "the three AMs start";
    std::vector<RunningAm> ams;
    for (const auto& started : nm_.started()) {
      RunningAm am;
      am.token = AmrmTokenOf(started);
      y::RegisterApplicationMasterRequestProto reg;
      y::RegisterApplicationMasterResponseProto reg_response;
      ASSERT_TRUE(
          client_.Call(AmSpec(am.token), "registerApplicationMaster", reg, &reg_response).ok());
      ams.push_back(am);
    }
    for (RunningAm& am : ams) Allocate(am, 100);
    // The asks reach the schedulers: three active users, nothing placed
    // (the AM node is full).
    auto queue = daemon_->pool().FindQueue("default");
    ASSERT_TRUE(queue.ok());
    ASSERT_TRUE(WaitFor([&] {
      return daemon_->pool().queues().User(*queue, pool::UserId(), {}).active_users == 3;
    }));
    RegisterWorkNode("127.0.0.2");
    // Steady state: the work node holds 44 containers (256 MB stay free).
    int64_t allocated = 0;
    ASSERT_TRUE(WaitFor([&] {
      allocated = 0;
      for (RunningAm& am : ams) {
        Allocate(am, 0);
        allocated += am.allocated_mb;
      }
      return allocated == 44 * kContainerMb;
    })) << "allocated "
        << allocated << " MB";
    const int64_t queue_mb = kAmNodeMb + kWorkNodeMb;
    const int64_t third_mb = queue_mb / 3;
    int64_t total = 0;
    for (const std::string& user : users) {
      const pool::Resource used =
          daemon_->pool().queues().User(*queue, daemon_->pool().InternUser(user), {}).used;
      EXPECT_LE(std::abs(used.memory_mb() - third_mb), kContainerMb)
          << user << " holds " << used.memory_mb() << " MB of a " << queue_mb << " MB queue";
      total += used.memory_mb();
    }
    EXPECT_EQ(total, 47 * kContainerMb) << "the AMs and the work, all the room there is";
    EXPECT_EQ(daemon_->pool().queues().Usage(*queue).memory_mb(), 47 * kContainerMb);
  }
};

TEST_F(UserLimitCellTest, ThreeUsersWithMulp33EachConvergeToAThird) {
  ThreeUsersConvergeToAThird();
}

class UserLimitCell27Test : public UserLimitCellTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    UserLimitCellTest::Configure(conf);
    conf->Set("spindle.compat.hadoop-version", "2.7");
  }
};

TEST_F(UserLimitCell27Test, ThreeUsersWithMulp33EachConvergeToAThird) {
  ThreeUsersConvergeToAThird();
}

class RmAmExpiryTest : public RmLifecycleTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    conf->Set("yarn.am.liveness-monitor.expiry-interval-ms", "1000");
  }
};

TEST_F(RmAmExpiryTest, SilentAmsExpireAndTheAppFailsAfterItsAttempts) {
  RegisterNode();
  const rm::ApplicationId app = Submit(/*max_attempts=*/2);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  const ipc::ClientToken first = AmrmTokenOf(nm_.started()[0]);
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto reg_response;
  ASSERT_TRUE(client_.Call(AmSpec(first), "registerApplicationMaster", reg, &reg_response).ok());
  // The first AM registers and then goes silent: a second attempt starts.
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 2; })) << "a second AM container";
  EXPECT_EQ(nm_.started()[1].id.attempt.attempt, 2);
  // The second never registers at all: it times out too, and that was the last attempt.
  ASSERT_TRUE(WaitFor([&] { return StateOf(app) == y::FAILED; }));
  EXPECT_THAT(Report(app).diagnostics(), ::testing::HasSubstr("failed 2 times due to "
                                                              "ApplicationMaster for attempt"));
  EXPECT_THAT(Report(app).diagnostics(), ::testing::HasSubstr("timed out"));
}

// spindle.ipc.server.max-connections-per-address, read by the daemon for each
// RPC port: the connection past it is closed at accept (as Hadoop does at
// ipc.server.max.connections) and the RM serves every other connection.
class RmConnectionLimitTest : public RmLifecycleTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    conf->Set("spindle.ipc.server.max-connections-per-address", "2");
  }
};

TEST_F(RmConnectionLimitTest, TheConnectionPastThePerAddressLimitIsDroppedAndOthersServed) {
  auto as = [&](const char* user) {
    return ipc::ConnectionSpec{"127.0.0.1", daemon_->client_port(), kClient, user, std::nullopt};
  };
  y::GetClusterMetricsRequestProto request;
  y::GetClusterMetricsResponseProto response;
  ASSERT_TRUE(client_.Call(as("alice"), "getClusterMetrics", request, &response).ok());
  ASSERT_TRUE(client_.Call(as("bob"), "getClusterMetrics", request, &response).ok());
  // A third connection from 127.0.0.1 to the client port is closed unanswered.
  const Status refused = client_.Call(as("carol"), "getClusterMetrics", request, &response);
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(refused.java_class().empty()) << refused.ToString();
  // The two admitted connections, and the other ports, are still served.
  EXPECT_TRUE(client_.Call(as("alice"), "getClusterMetrics", request, &response).ok());
  EXPECT_TRUE(client_.Call(as("bob"), "getClusterMetrics", request, &response).ok());
  RegisterNode();
}

// RM restart on a RocksDB store: a new RmDaemon (new ports) on the store the
// previous one left, as after a crash: only what the store holds survives.
class RmRestartTest : public RmLifecycleTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    char dir[] = "/tmp/spindle-restart-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    store_dir_ = dir;
    conf->Set("yarn.resourcemanager.recovery.enabled", "true");
    conf->Set("yarn.resourcemanager.store.class", "rocksdb");
    conf->Set("spindle.store.path", store_dir_ + "/rmstore");
    conf->Set("spindle.store.sync-writes", "false");
    conf->Set("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "30000");
    // Schedulers see released room within 20 ms, so a drain of a few hundred
    // ms shows every container the pool would hand out.
    conf->Set("spindle.scheduler.sync-gap-ms", "20");
  }
  void TearDown() override {
    RmLifecycleTest::TearDown();
    daemon_.reset();
    std::filesystem::remove_all(store_dir_);
  }

  void Restart() {
    daemon_->Stop();
    daemon_.reset();  // closes the store
    auto daemon = RmDaemon::Create(conf_);
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(daemon).value();
    ASSERT_TRUE(daemon_->Start().ok());
    nm_response_id_ = 0;
  }

  static y::NMContainerStatusProto Running(const rm::ContainerId& id, int64_t memory,
                                           int32_t priority) {
    y::NMContainerStatusProto s;
    rm::ToProto(id, s.mutable_container_id());
    s.set_container_state(y::C_RUNNING);
    s.mutable_resource()->set_memory(memory);
    s.mutable_resource()->set_virtual_cores(1);
    s.mutable_priority()->set_priority(priority);
    return s;
  }

  // The node registers again after the RM's RESYNC, reporting what it runs.
  void ReRegisterNode(const std::vector<y::NMContainerStatusProto>& running) {
    y::NodeHeartbeatResponseProto beat = Heartbeat({});
    ASSERT_EQ(beat.nodeaction(), y::RESYNC) << "a restarted RM does not know the node yet";
    y::RegisterNodeManagerRequestProto request;
    *request.mutable_node_id() = node_id_;
    request.set_http_port(8042);
    request.mutable_resource()->set_memory(8192);
    request.mutable_resource()->set_virtual_cores(8);
    request.set_nm_version("2.6.0");
    for (const auto& c : running) *request.add_container_statuses() = c;
    y::RegisterNodeManagerResponseProto response;
    ASSERT_TRUE(client_.Call(TrackerSpec(), "registerNodeManager", request, &response).ok());
    ASSERT_EQ(response.nodeaction(), y::NORMAL);
  }

  // An AM at the RM: register, then allocate as AMRMClient does.
  struct Am {
    ipc::ClientToken token;
    int32_t response_id = 0;
  };
  Status Allocate(Am* am, const y::AllocateRequestProto& request_in,
                  std::vector<y::ContainerProto>* allocated) {
    y::AllocateRequestProto request = request_in;
    request.set_response_id(am->response_id);
    y::AllocateResponseProto response;
    RETURN_NOT_OK(client_.Call(AmSpec(am->token), "allocate", request, &response));
    am->response_id = response.response_id();
    for (const auto& c : response.allocated_containers()) allocated->push_back(c);
    return Status::OK();
  }
  // Allocates with an empty request for a while; returns what arrived.
  std::vector<y::ContainerProto> Drain(Am* am, std::chrono::milliseconds how_long) {
    std::vector<y::ContainerProto> allocated;
    const auto end = std::chrono::steady_clock::now() + how_long;
    while (std::chrono::steady_clock::now() < end) {
      EXPECT_TRUE(Allocate(am, y::AllocateRequestProto(), &allocated).ok());
      std::this_thread::sleep_for(20ms);
    }
    return allocated;
  }

  static y::AllocateRequestProto Ask(int32_t priority, int64_t memory, int32_t count) {
    y::AllocateRequestProto request;
    auto* r = request.add_ask();
    r->mutable_priority()->set_priority(priority);
    r->set_resource_name("*");
    r->mutable_capability()->set_memory(memory);
    r->mutable_capability()->set_virtual_cores(1);
    r->set_num_containers(count);
    return request;
  }

  // An app whose AM asked for 4 x 2 GB on the one 8 GB node: 3 fit beside
  // the AM, 1 is outstanding. Then the RM restarts and the node comes back.
  void RunThenRestart(Am* am, rm::ApplicationId* app, std::vector<y::ContainerProto>* tasks,
                      rm::ContainerId* am_container) {
    RegisterNode();
    Heartbeat({});
    *app = Submit();
    ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
    *am_container = nm_.started()[0].id;
    am->token = AmrmTokenOf(nm_.started()[0]);
    // The RM takes note of the launch just after the node accepted it.
    ASSERT_TRUE(WaitFor([&] {
      auto report = daemon_->apps().GetApp(*app);
      return report.ok() && report->current_attempt() != nullptr &&
             report->current_attempt()->state == rm::AttemptState::kLaunched;
    }));
    y::RegisterApplicationMasterRequestProto reg;
    y::RegisterApplicationMasterResponseProto reg_response;
    ASSERT_TRUE(
        client_.Call(AmSpec(am->token), "registerApplicationMaster", reg, &reg_response).ok());
    ASSERT_TRUE(Allocate(am, Ask(1, 2048, 4), tasks).ok());
    ASSERT_TRUE(WaitFor([&] {
      EXPECT_TRUE(Allocate(am, y::AllocateRequestProto(), tasks).ok());
      return tasks->size() >= 3;
    }));
    ASSERT_EQ(Drain(am, 200ms).size(), 0u) << "the fourth does not fit";
    ASSERT_EQ(tasks->size(), 3u);

    Restart();
    std::vector<y::NMContainerStatusProto> running = {Running(*am_container, 256, 0)};
    for (const auto& c : *tasks) running.push_back(Running(rm::FromProto(c.id()), 2048, 1));
    ReRegisterNode(running);
    ASSERT_TRUE(WaitFor([&] { return !daemon_->holding_placements(); }))
        << "placements resume once the only node of the previous run is back";
    EXPECT_EQ(daemon_->pool().Metrics().allocated, pool::Resource::Of(256 + 3 * 2048, 4))
        << "the running containers are accounted for again";

    // The AM's next allocate tells it to re-register (its token still works).
    y::AllocateResponseProto response;
    y::AllocateRequestProto beat;
    beat.set_response_id(am->response_id);
    Status s = client_.Call(AmSpec(am->token), "allocate", beat, &response);
    EXPECT_EQ(s.java_class(), rm::yarn::kApplicationMasterNotRegistered) << s.ToString();
    ASSERT_TRUE(
        client_.Call(AmSpec(am->token), "registerApplicationMaster", reg, &reg_response).ok());
    am->response_id = 0;
    EXPECT_EQ(StateOf(*app), y::RUNNING);
    EXPECT_EQ(nm_.started().size(), 1u) << "the AM was not launched again";
  }

  // The AM gives back one task container: room for exactly one more. What
  // that allocate brings (the pool may place at once) goes to `allocated`.
  void ReleaseOne(Am* am, const y::ContainerProto& task,
                  std::vector<y::ContainerProto>* allocated) {
    y::AllocateRequestProto release;
    *release.add_release() = task.id();
    ASSERT_TRUE(Allocate(am, release, allocated).ok());
  }

  // After RunThenRestart: the AM asks for the one task still outstanding; a
  // released task makes room for exactly it, in the new run's epoch.
  void ExpectTheOutstandingTaskInTheNewEpoch(Am* am, const std::vector<y::ContainerProto>& tasks) {
    std::vector<y::ContainerProto> after;
    ASSERT_TRUE(Allocate(am, Ask(1, 2048, 1), &after).ok());
    ReleaseOne(am, tasks[0], &after);
    for (const auto& c : Drain(am, 500ms)) after.push_back(c);
    ASSERT_EQ(after.size(), 1u);
    EXPECT_EQ(rm::FromProto(after[0].id()).epoch(), 1) << "the restart bumped the epoch";
  }

  std::string store_dir_;
};

TEST_F(RmRestartTest, AnAmThatResendsItsOriginalTotalGetsOnlyWhatWasOutstanding) {
  Am am;
  rm::ApplicationId app;
  std::vector<y::ContainerProto> tasks;
  rm::ContainerId am_container;
  RunThenRestart(&am, &app, &tasks, &am_container);
  // Like DistributedShell's AMRMClient table, the re-sent total is the
  // original 4: Apache's RM would grant them all again.
  std::vector<y::ContainerProto> after;
  ASSERT_TRUE(Allocate(&am, Ask(1, 2048, 4), &after).ok());
  after = Drain(&am, 300ms);
  EXPECT_EQ(after.size(), 0u) << "the node is full with the recovered containers";
  ReleaseOne(&am, tasks[0], &after);
  ASSERT_TRUE(WaitFor([&] {
    for (const auto& c : Drain(&am, 50ms)) after.push_back(c);
    return !after.empty();
  }));
  ReleaseOne(&am, tasks[1], &after);
  for (const auto& c : Drain(&am, 400ms)) after.push_back(c);
  ASSERT_EQ(after.size(), 1u) << "only the one that was outstanding before the restart";
  EXPECT_EQ(rm::FromProto(after[0].id()).epoch(), 1) << "container ids carry the new epoch";
}

TEST_F(RmRestartTest, AnAmThatResendsWhatItStillNeedsGetsIt) {
  Am am;
  rm::ApplicationId app;
  std::vector<y::ContainerProto> tasks;
  rm::ContainerId am_container;
  RunThenRestart(&am, &app, &tasks, &am_container);
  // An AM that counts what it received (MapReduce's) re-sends 1.
  std::vector<y::ContainerProto> after;
  ASSERT_TRUE(Allocate(&am, Ask(1, 2048, 1), &after).ok());
  ReleaseOne(&am, tasks[0], &after);
  ReleaseOne(&am, tasks[1], &after);
  for (const auto& c : Drain(&am, 500ms)) after.push_back(c);
  EXPECT_EQ(after.size(), 1u);
  // New asks after the re-send are taken as they come.
  ASSERT_TRUE(Allocate(&am, Ask(1, 2048, 1), &after).ok());
  for (const auto& c : Drain(&am, 500ms)) after.push_back(c);
  EXPECT_EQ(after.size(), 2u);
}

TEST_F(RmRestartTest, GrantsNoNodeRunsAreGrantedAgain) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  const rm::ContainerId am_container = nm_.started()[0].id;
  Am am;
  am.token = AmrmTokenOf(nm_.started()[0]);
  ASSERT_TRUE(WaitFor([&] {
    auto report = daemon_->apps().GetApp(app);
    return report.ok() && report->current_attempt() != nullptr &&
           report->current_attempt()->state == rm::AttemptState::kLaunched;
  }));
  y::RegisterApplicationMasterRequestProto reg;
  y::RegisterApplicationMasterResponseProto reg_response;
  ASSERT_TRUE(client_.Call(AmSpec(am.token), "registerApplicationMaster", reg, &reg_response).ok());
  std::vector<y::ContainerProto> granted;
  ASSERT_TRUE(Allocate(&am, Ask(1, 512, 2), &granted).ok());
  ASSERT_TRUE(WaitFor([&] {
    EXPECT_TRUE(Allocate(&am, y::AllocateRequestProto(), &granted).ok());
    return granted.size() >= 2;
  }));
  // The RM dies before the AM starts them (as if their allocate answer was
  // lost): the node comes back with the AM container only.
  Restart();
  ReRegisterNode({Running(am_container, 256, 0)});
  ASSERT_TRUE(WaitFor([&] { return !daemon_->holding_placements(); }));
  y::AllocateRequestProto beat;
  beat.set_response_id(am.response_id);
  y::AllocateResponseProto response;
  EXPECT_EQ(client_.Call(AmSpec(am.token), "allocate", beat, &response).java_class(),
            rm::yarn::kApplicationMasterNotRegistered);
  ASSERT_TRUE(client_.Call(AmSpec(am.token), "registerApplicationMaster", reg, &reg_response).ok());
  am.response_id = 0;
  // The AM still needs both and says so.
  std::vector<y::ContainerProto> again;
  ASSERT_TRUE(Allocate(&am, Ask(1, 512, 2), &again).ok());
  for (const auto& c : Drain(&am, 500ms)) again.push_back(c);
  ASSERT_EQ(again.size(), 2u) << "grants no node runs were lost: granted again";
  EXPECT_EQ(rm::FromProto(again[0].id()).epoch(), 1);
}

TEST_F(RmRestartTest, ApplicationsAndIdsSurviveAndACorruptStoreIsRefused) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId first = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("alice");
  hadoop::common::GetDelegationTokenResponseProto issued;
  ASSERT_TRUE(client_.Call(ClientSpec(), "getDelegationToken", get, &issued).ok());
  ASSERT_TRUE(daemon_->RefreshQueues().ok());
  EXPECT_EQ(daemon_->queue_config_version(), 1);
  Restart();
  EXPECT_EQ(daemon_->queue_config_version(), 1) << "the queue configuration version is kept";
  // The delegation token of the previous run still renews (its key and the
  // token itself were stored), and new tokens do not reuse its number.
  hadoop::common::RenewDelegationTokenRequestProto renew;
  *renew.mutable_token() = issued.token();
  hadoop::common::RenewDelegationTokenResponseProto renewed;
  Status renewal = client_.Call(ClientSpec(), "renewDelegationToken", renew, &renewed);
  EXPECT_TRUE(renewal.ok()) << renewal.ToString();
  hadoop::common::GetDelegationTokenResponseProto next;
  ASSERT_TRUE(client_.Call(ClientSpec(), "getDelegationToken", get, &next).ok());
  auto before = rm::DecodeRmDelegationTokenIdentifier(issued.token().identifier());
  auto after = rm::DecodeRmDelegationTokenIdentifier(next.token().identifier());
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_GT(after->sequence_number, before->sequence_number);
  EXPECT_EQ(Report(first).yarn_application_state(), y::ACCEPTED)
      << "its AM has until the expiry to re-register";
  const rm::ApplicationId second = Submit();
  // A restart takes a new cluster timestamp (Hadoop's startActiveServices),
  // so the new id cannot be the recovered one's.
  EXPECT_GT(second.cluster_timestamp, first.cluster_timestamp);
  EXPECT_NE(second, first);

  // A store this RM cannot read: refused with a message, and left alone.
  daemon_->Stop();
  daemon_.reset();
  const std::string path = store_dir_ + "/rmstore";
  {
    std::ofstream garbage(path + "/CURRENT", std::ios::trunc);
    garbage << "not a manifest name\n";
  }
  auto refused = RmDaemon::Create(conf_);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), ::testing::HasSubstr(path));
  EXPECT_THAT(refused.status().message(), ::testing::HasSubstr("--format-state-store"));
  std::ifstream kept(path + "/CURRENT");
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "not a manifest name") << "the data is left untouched";
  // Formatting wipes it: the RM starts empty.
  ASSERT_TRUE(RmDaemon::FormatStateStore(conf_).ok());
  auto daemon = RmDaemon::Create(conf_);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  daemon_ = std::move(daemon).value();
  ASSERT_TRUE(daemon_->Start().ok());
  EXPECT_TRUE(daemon_->apps().ListApps().empty());
}

// RM restart on the ZooKeeper store (ZKRMStateStore's znode layout) of a
// real ZooKeeper server (tests/support/mini_zookeeper.h): the same
// work-preserving restart as on RocksDB, and the tree a Java RM would read.
// Skipped only when the zookeeper package is not installed.
class RmZkRestartTest : public RmRestartTest {
 protected:
  static void TearDownTestSuite() {
    server_.reset();
    if (!server_dir_.empty()) std::filesystem::remove_all(server_dir_);
    server_dir_.clear();
  }

  void SetUp() override {
    const std::string missing = spindle::testing::MiniZooKeeper::MissingComponent();
    if (!missing.empty()) GTEST_SKIP() << "ZooKeeper server not installed: " << missing;
    if (server_ == nullptr) {
      char dir[] = "/tmp/spindle-zk-XXXXXX";
      ASSERT_NE(mkdtemp(dir), nullptr);
      server_dir_ = dir;
      spindle::testing::MiniZooKeeperOptions options;
      options.work_dir = server_dir_;
      auto started = spindle::testing::MiniZooKeeper::Start(options);
      ASSERT_TRUE(started.ok()) << started.status().ToString();
      server_ = std::move(started).value();
    }
    RmRestartTest::SetUp();
  }

  void Configure(rm::Configuration* conf) override {
    RmRestartTest::Configure(conf);
    conf->Set("yarn.resourcemanager.store.class",
              "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore");
    conf->Set("hadoop.zk.address", server_->connect_string());
    conf->Set("yarn.resourcemanager.zk-state-store.parent-path",
              std::string("/") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    conf->Set("hadoop.zk.num-retries", "20");
    conf->Set("hadoop.zk.retry-interval-ms", "200");
  }

  std::string Root() const {
    return std::string("/") + ::testing::UnitTest::GetInstance()->current_test_info()->name() +
           "/ZKRMStateRoot";
  }

  static inline std::unique_ptr<spindle::testing::MiniZooKeeper> server_;
  static inline std::string server_dir_;
};

TEST_F(RmZkRestartTest, ARunningApplicationIsRecoveredFromZooKeeper) {
  Am am;
  rm::ApplicationId app;
  std::vector<y::ContainerProto> tasks;
  rm::ContainerId am_container;
  RunThenRestart(&am, &app, &tasks, &am_container);
  ExpectTheOutstandingTaskInTheNewEpoch(&am, tasks);

  // What a Java RM would read: the app and its attempt in Hadoop's tree,
  // EpochNode holding the epoch of the next start.
  zk::ZkSessionOptions options;
  options.connect_string = server_->connect_string();
  auto session = zk::ZkSession::Open(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const std::string app_node = Root() + "/RMAppRoot/" + app.ToString();
  auto attempts = (*session)->Children(app_node);
  ASSERT_TRUE(attempts.ok()) << attempts.status().ToString();
  EXPECT_EQ(*attempts, std::vector<std::string>{am_container.attempt.ToString()});
  y::ApplicationStateDataProto stored;
  ASSERT_TRUE(stored.ParseFromString((*session)->Get(app_node)->data));
  EXPECT_EQ(stored.user(), "alice");
  y::EpochProto epoch;
  ASSERT_TRUE(epoch.ParseFromString((*session)->Get(Root() + "/EpochNode")->data));
  EXPECT_EQ(epoch.epoch(), 2);
  y::AMRMTokenSecretManagerStateProto amrm;
  ASSERT_TRUE(amrm.ParseFromString((*session)->Get(Root() + "/AMRMTokenSecretManagerRoot")->data));
  EXPECT_TRUE(amrm.has_current_master_key());

  // --format-state-store empties it.
  daemon_->Stop();
  daemon_.reset();
  ASSERT_TRUE(RmDaemon::FormatStateStore(conf_).ok());
  EXPECT_FALSE((*session)->Exists(Root())->has_value());
}

TEST_F(RmZkRestartTest, AStoreWithoutSpindlesOwnRecordsIsResumedWithTheNextEpoch) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  daemon_->Stop();
  daemon_.reset();
  // What a Java RM leaves: Hadoop's tree only (no cluster timestamp, no app
  // id counter, no nodes), EpochNode holding the epoch of its next start.
  zk::ZkSessionOptions options;
  options.connect_string = server_->connect_string();
  auto session = zk::ZkSession::Open(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const std::string spindle_root = std::string("/") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                                   "/SpindleRoot/Cluster";
  auto fields = (*session)->Children(spindle_root);
  ASSERT_TRUE(fields.ok());
  for (const std::string& field : *fields) {
    ASSERT_TRUE((*session)->Delete(spindle_root + "/" + field).ok());
  }
  y::EpochProto epoch;
  ASSERT_TRUE(epoch.ParseFromString((*session)->Get(Root() + "/EpochNode")->data));
  ASSERT_EQ(epoch.epoch(), 1);

  auto daemon = RmDaemon::Create(conf_);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  daemon_ = std::move(daemon).value();
  ASSERT_TRUE(daemon_->Start().ok());
  EXPECT_TRUE(daemon_->apps().GetApp(app).ok()) << "the stored application is recovered";
  ASSERT_TRUE(epoch.ParseFromString((*session)->Get(Root() + "/EpochNode")->data));
  EXPECT_EQ(epoch.epoch(), 2) << "this run took epoch 1, as a Java RM would have";
}

// RM restart on the FileSystem store (FileSystemRMStateStore's layout in a
// local directory): the same work-preserving restart as on RocksDB, and the
// files a Java RM started on the same file:// URI would read.
class RmFsRestartTest : public RmRestartTest {
 protected:
  void Configure(rm::Configuration* conf) override {
    RmRestartTest::Configure(conf);
    conf->Set("yarn.resourcemanager.store.class",
              "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
    conf->Set("yarn.resourcemanager.fs.state-store.uri", "file://" + store_dir_ + "/fsstore");
  }

  std::filesystem::path Root() const {
    return std::filesystem::path(store_dir_) / "fsstore" / "FSRMStateRoot";
  }

  // A record as a Java RM reads it through file://: verified against its
  // checksum file.
  static std::string ReadRecord(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream data;
    data << in.rdbuf();
    const auto crc = path.parent_path() / ("." + path.filename().string() + ".crc");
    EXPECT_TRUE(std::filesystem::exists(crc)) << "no checksum file beside " << path;
    std::ifstream crc_in(crc, std::ios::binary);
    std::ostringstream sums;
    sums << crc_in.rdbuf();
    EXPECT_TRUE(rm::fsstore::VerifyChecksumFile(data.str(), sums.str()).ok()) << path;
    return data.str();
  }
};

TEST_F(RmFsRestartTest, ARunningApplicationIsRecoveredFromTheFileSystemStore) {
  Am am;
  rm::ApplicationId app;
  std::vector<y::ContainerProto> tasks;
  rm::ContainerId am_container;
  RunThenRestart(&am, &app, &tasks, &am_container);
  ExpectTheOutstandingTaskInTheNewEpoch(&am, tasks);

  // What a Java RM would read.
  const auto app_dir = Root() / "RMAppRoot" / app.ToString();
  y::ApplicationStateDataProto stored;
  ASSERT_TRUE(stored.ParseFromString(ReadRecord(app_dir / app.ToString())));
  EXPECT_EQ(stored.user(), "alice");
  y::ApplicationAttemptStateDataProto attempt;
  ASSERT_TRUE(attempt.ParseFromString(ReadRecord(app_dir / am_container.attempt.ToString())));
  EXPECT_EQ(rm::FromProto(attempt.attemptid()), am_container.attempt);
  y::EpochProto epoch;
  ASSERT_TRUE(epoch.ParseFromString(ReadRecord(Root() / "EpochNode")));
  EXPECT_EQ(epoch.epoch(), 2);
  y::AMRMTokenSecretManagerStateProto amrm;
  ASSERT_TRUE(amrm.ParseFromString(
      ReadRecord(Root() / "AMRMTokenSecretManagerRoot" / "AMRMTokenSecretManagerNode")));
  EXPECT_TRUE(amrm.has_current_master_key());
  for (const auto& entry : std::filesystem::recursive_directory_iterator(Root())) {
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(name.ends_with(".tmp") || name.ends_with(".new")) << entry.path();
  }

  // --format-state-store empties it.
  daemon_->Stop();
  daemon_.reset();
  ASSERT_TRUE(RmDaemon::FormatStateStore(conf_).ok());
  EXPECT_FALSE(std::filesystem::exists(Root()));

  // An HDFS URI is refused at start, naming the key.
  rm::Configuration on_hdfs = conf_;
  on_hdfs.Set("yarn.resourcemanager.fs.state-store.uri", "hdfs://nn:8020/rmstore");
  auto refused = RmDaemon::Create(on_hdfs);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(),
              ::testing::HasSubstr("yarn.resourcemanager.fs.state-store.uri"));
  EXPECT_THAT(refused.status().message(), ::testing::HasSubstr("HDFS"));
}

TEST_F(RmFsRestartTest, AStoreWithoutSpindlesOwnRecordsIsResumedWithTheNextEpoch) {
  RegisterNode();
  Heartbeat({});
  const rm::ApplicationId app = Submit();
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  daemon_->Stop();
  daemon_.reset();
  // What a Java RM leaves: Hadoop's files only, EpochNode holding the epoch
  // of its next start.
  std::filesystem::remove_all(std::filesystem::path(store_dir_) / "fsstore" / "SpindleRoot");
  y::EpochProto epoch;
  ASSERT_TRUE(epoch.ParseFromString(ReadRecord(Root() / "EpochNode")));
  ASSERT_EQ(epoch.epoch(), 1);

  auto daemon = RmDaemon::Create(conf_);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  daemon_ = std::move(daemon).value();
  ASSERT_TRUE(daemon_->Start().ok());
  EXPECT_TRUE(daemon_->apps().GetApp(app).ok()) << "the stored application is recovered";
  ASSERT_TRUE(epoch.ParseFromString(ReadRecord(Root() / "EpochNode")));
  EXPECT_EQ(epoch.epoch(), 2) << "this run took epoch 1, as a Java RM would have";
}

// Preemption end to end over the wire (issue 18): queues a and b share the
// 8 GB node half and half, b elastic to all of it. b's AM fills the node
// (its AM + 7 x 1 GB); then an app of a (an unmanaged AM, so that its whole
// demand is known at once) asks for its guarantee, 4 x 1 GB. With the
// monitor every 200 ms, max_wait_before_kill 1 s and the policy asking back
// everything at once (natural_termination_factor and
// total_preemption_per_round 1.0), b's AM is told in a PreemptionMessage,
// b's four youngest containers are killed no sooner (the node hears each
// kill, b's AM gets each as PREEMPTED -102) and a reaches its guarantee
// within max_wait_before_kill + two monitor intervals, counted in monitor
// rounds (the wall time is printed, not asserted); b keeps its AM and its
// REST figures count what it lost.
class PreemptionCellTest : public RmLifecycleTest {
 protected:
  static constexpr int kIntervalMs = 200;
  static constexpr int kMaxWaitMs = 1000;

  void Configure(rm::Configuration* conf) override {
    conf->Set("yarn.scheduler.capacity.root.queues", "a,b");
    conf->Set("yarn.scheduler.capacity.root.a.capacity", "50");
    conf->Set("yarn.scheduler.capacity.root.b.capacity", "50");
    conf->Set("yarn.scheduler.capacity.root.b.user-limit-factor", "2");
    conf->Set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    const std::string p = "yarn.resourcemanager.monitor.capacity.preemption.";
    conf->Set("yarn.resourcemanager.scheduler.monitor.enable", "true");
    conf->Set(p + "monitoring_interval", std::to_string(kIntervalMs));
    conf->Set(p + "max_wait_before_kill", std::to_string(kMaxWaitMs));
    conf->Set(p + "natural_termination_factor", "1.0");
    conf->Set(p + "total_preemption_per_round", "1.0");
  }

  // getNewApplication + submitApplication of an app of `queue`.
  rm::ApplicationId SubmitTo(const std::string& queue, bool unmanaged) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    EXPECT_TRUE(client_.Call(ClientSpec(), "getNewApplication", new_request, &new_response).ok());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name("preemption-" + queue);
    context->set_queue(queue);
    context->set_unmanaged_am(unmanaged);
    context->mutable_resource()->set_memory(1024);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command("/bin/true");
    y::SubmitApplicationResponseProto submitted;
    Status s = client_.Call(ClientSpec(), "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return rm::FromProto(new_response.application_id());
  }

  // One AM over the wire: its token, responseId and what it was told.
  struct Am {
    ipc::ClientToken token;
    int32_t response_id = 0;
    std::vector<rm::ContainerId> allocated;
    // When each container was first named in a PreemptionMessage.
    std::map<rm::ContainerId, std::chrono::steady_clock::time_point> warned;
    std::map<rm::ContainerId, y::ContainerStatusProto> completed;
    std::map<rm::ContainerId, std::chrono::steady_clock::time_point> completed_at;
    bool strict_contract_seen = false;
  };

  Status Allocate(Am* am, const y::AllocateRequestProto& ask = {}) {
    y::AllocateRequestProto request = ask;
    request.set_response_id(am->response_id);
    y::AllocateResponseProto response;
    RETURN_NOT_OK(client_.Call(AmSpec(am->token), "allocate", request, &response));
    const auto now = std::chrono::steady_clock::now();
    am->response_id = response.response_id();
    for (const auto& c : response.allocated_containers()) {
      am->allocated.push_back(rm::FromProto(c.id()));
    }
    if (response.has_preempt()) {
      am->strict_contract_seen =
          am->strict_contract_seen || response.preempt().has_strictcontract();
      const auto& contract = response.preempt().contract();
      EXPECT_EQ(contract.resource_size(), 1);
      for (const auto& c : contract.container()) am->warned.emplace(rm::FromProto(c.id()), now);
    }
    for (const auto& s : response.completed_container_statuses()) {
      const rm::ContainerId id = rm::FromProto(s.container_id());
      am->completed.emplace(id, s);
      am->completed_at.emplace(id, now);
    }
    return Status::OK();
  }

  Status Register(const Am& am) {
    y::RegisterApplicationMasterRequestProto reg;
    y::RegisterApplicationMasterResponseProto registered;
    return client_.Call(AmSpec(am.token), "registerApplicationMaster", reg, &registered);
  }

  int64_t QueueUsedMb(const std::string& queue) {
    auto id = daemon_->pool().FindQueue(queue);
    return id.ok() ? daemon_->pool().queues().Usage(*id).memory_mb() : -1;
  }

  int64_t Rounds() { return daemon_->core().preemption_monitor()->Stats().rounds; }

  static y::AllocateRequestProto AskGigabytes(int n) { return cell::AskAnywhere(n, 1024); }
};

TEST_F(PreemptionCellTest, StarvedQueueGetsItsGuaranteeBackAfterTheAmWasWarned) {
  RegisterNode();
  Heartbeat({});
  // b fills the node.
  const rm::ApplicationId b = SubmitTo("b", /*unmanaged=*/false);
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 1; }));
  Am b_am;
  b_am.token = AmrmTokenOf(nm_.started()[0]);
  ASSERT_TRUE(Register(b_am).ok());
  ASSERT_TRUE(Allocate(&b_am, AskGigabytes(7)).ok());
  ASSERT_TRUE(WaitFor([&] { return Allocate(&b_am).ok() && b_am.allocated.size() == 7; }));
  ASSERT_EQ(QueueUsedMb("b"), 8192);

  // a's app asks for its guarantee.
  const rm::ApplicationId a = SubmitTo("a", /*unmanaged=*/true);
  y::ApplicationReportProto report;
  ASSERT_TRUE(WaitFor([&] {
    report = Report(a);
    return report.has_am_rm_token();
  }));
  Am a_am;
  const auto& t = report.am_rm_token();
  a_am.token = ipc::ClientToken{t.identifier(), t.password(), t.kind(),
                                "127.0.0.1:" + std::to_string(daemon_->scheduler_port())};
  ASSERT_TRUE(Register(a_am).ok());
  const int64_t rounds_at_ask = Rounds();
  const auto asked_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(Allocate(&a_am, AskGigabytes(4)).ok());

  // Both AMs keep calling; the node keeps heartbeating.
  std::set<rm::ContainerId> killed_on_node;
  int64_t rounds_at_guarantee = -1;
  auto at_guarantee = asked_at;
  ASSERT_TRUE(WaitFor([&] {
    EXPECT_TRUE(Allocate(&b_am).ok());
    EXPECT_TRUE(Allocate(&a_am).ok());
    const y::NodeHeartbeatResponseProto beat = Heartbeat({});
    for (const auto& id : beat.containers_to_cleanup()) killed_on_node.insert(rm::FromProto(id));
    if (rounds_at_guarantee < 0 && QueueUsedMb("a") >= 4096) {
      rounds_at_guarantee = Rounds();
      at_guarantee = std::chrono::steady_clock::now();
    }
    return rounds_at_guarantee >= 0 && a_am.allocated.size() == 4 && b_am.completed.size() == 4;
  })) << "a has "
      << a_am.allocated.size() << " containers, b lost " << b_am.completed.size();

  EXPECT_EQ(QueueUsedMb("a"), 4096);
  EXPECT_EQ(QueueUsedMb("b"), 4096);
  EXPECT_FALSE(b_am.strict_contract_seen) << "the CapacityScheduler sends no strict contract";
  for (const auto& [id, status] : b_am.completed) {
    EXPECT_EQ(status.exit_status(), -102) << id.ToString();
    EXPECT_EQ(status.diagnostics(), "Container preempted by scheduler");
    ASSERT_EQ(b_am.warned.count(id), 1u) << id.ToString() << " was killed unannounced";
    EXPECT_LT(b_am.warned[id], b_am.completed_at[id]);
    EXPECT_NE(id, nm_.started()[0].id) << "b keeps its AM";
    EXPECT_EQ(killed_on_node.count(id), 1u) << "the node is told to kill " << id.ToString();
  }
  // Within max_wait_before_kill + two monitor intervals, in rounds.
  EXPECT_LE(rounds_at_guarantee - rounds_at_ask, kMaxWaitMs / kIntervalMs + 2);
  LOG(INFO)
      << "queue a reached its guarantee "
      << std::chrono::duration_cast<std::chrono::milliseconds>(at_guarantee - asked_at).count()
      << " ms and " << rounds_at_guarantee - rounds_at_ask
      << " monitor rounds after asking (max_wait_before_kill " << kMaxWaitMs << " ms, interval "
      << kIntervalMs << " ms)";

  // RMAppMetrics over REST.
  auto rest =
      testing::HttpGet("127.0.0.1", daemon_->web_port(), "/ws/v1/cluster/apps/" + b.ToString(),
                       {{"Accept", "application/json"}});
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_THAT(rest->body, ::testing::HasSubstr("\"preemptedResourceMB\":4096,"));
  EXPECT_THAT(rest->body, ::testing::HasSubstr("\"preemptedResourceVCores\":4,"));
  EXPECT_THAT(rest->body, ::testing::HasSubstr("\"numNonAMContainerPreempted\":4,"));
  EXPECT_THAT(rest->body, ::testing::HasSubstr("\"numAMContainerPreempted\":0,"));
  // The queues now say the monitor may preempt them.
  auto scheduler = testing::HttpGet("127.0.0.1", daemon_->web_port(), "/ws/v1/cluster/scheduler",
                                    {{"Accept", "application/json"}});
  ASSERT_TRUE(scheduler.ok());
  EXPECT_THAT(scheduler->body, ::testing::HasSubstr("\"preemptionDisabled\":false"));
}

}  // namespace
}  // namespace spindle
