// `spindle shell-am` (cmd/shell_am.h) across an RM restart, over the real
// wire: a scripted ApplicationMasterProtocol server on 127.0.0.1 (a port
// picked at run time) plays the RM, answering allocates as a restarted RM
// does (ApplicationMasterNotRegisteredException, AM_RESYNC, or not at all
// while it is down), and a ContainerManagementProtocol server plays the
// NodeManager and records what the AM starts. Both accept any token with a
// fixed password: the AM's SASL TOKEN/DIGEST-MD5 client runs for real.
#include "cmd/shell_am.h"

#include <glog/logging.h>
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "integration/wait_for.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/rpc_server.h"
#include "wire/ipc/token_secret_provider.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;

constexpr char kAms[] = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
constexpr char kCmp[] = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";
constexpr char kPassword[] = "test-token-password";

// Every token has the same password; its identifier is its user.
class AnyToken : public ipc::TokenSecretProvider {
 public:
  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    return ipc::TokenSecret{kPassword, std::string(identifier)};
  }
};

std::unique_ptr<ipc::RpcServer> StartServer(std::unique_ptr<ipc::RpcService> service,
                                            const ipc::TokenSecretProvider* tokens, uint16_t port) {
  auto registry = std::make_shared<ipc::ServiceRegistry>();
  registry->Add(std::move(service));
  ipc::RpcServerOptions options;
  options.name = "shell-am-test";
  options.port = port;
  options.session.simple_enabled = false;
  options.session.token_provider = tokens;
  auto server = std::make_unique<ipc::RpcServer>(options, registry);
  const Status s = server->Start();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return server;
}

// The NodeManager: records the containers the AM starts.
class FakeNodeManager {
 public:
  void Start() {
    auto service = std::make_unique<ipc::RpcService>(kCmp);
    service->AddMethod<y::StartContainersRequestProto, y::StartContainersResponseProto>(
        "startContainers",
        [this](const ipc::ConnectionIdentity&, const y::StartContainersRequestProto& request,
               y::StartContainersResponseProto*) {
          std::lock_guard<std::mutex> lock(mu_);
          // The test's container tokens carry the container id as identifier.
          for (const auto& start : request.start_container_request()) {
            started_.push_back(start.container_token().identifier());
          }
          return Status::OK();
        });
    server_ = StartServer(std::move(service), &tokens_, 0);
  }
  uint16_t port() const { return server_->port(); }
  std::vector<std::string> started() const {
    std::lock_guard<std::mutex> lock(mu_);
    return started_;
  }

 private:
  AnyToken tokens_;
  mutable std::mutex mu_;
  std::vector<std::string> started_;
  std::unique_ptr<ipc::RpcServer> server_;
};

// The RM's ApplicationMasterProtocol, following a script of allocate answers.
class FakeRm {
 public:
  struct Step {
    enum class Kind { kRespond, kNotRegistered } kind = Kind::kRespond;
    y::AllocateResponseProto response;
  };

  void Start(uint16_t port = 0) {
    auto service = std::make_unique<ipc::RpcService>(kAms);
    service->AddMethod<y::RegisterApplicationMasterRequestProto,
                       y::RegisterApplicationMasterResponseProto>(
        "registerApplicationMaster",
        [this](const ipc::ConnectionIdentity&, const y::RegisterApplicationMasterRequestProto& r,
               y::RegisterApplicationMasterResponseProto* response) {
          std::lock_guard<std::mutex> lock(mu_);
          registered_ = true;
          registers_.push_back(r);
          response->mutable_maximumcapability()->set_memory(8192);
          response->mutable_maximumcapability()->set_virtual_cores(8);
          return Status::OK();
        });
    service->AddMethod<y::AllocateRequestProto, y::AllocateResponseProto>(
        "allocate", [this](const ipc::ConnectionIdentity&, const y::AllocateRequestProto& request,
                           y::AllocateResponseProto* response) {
          std::lock_guard<std::mutex> lock(mu_);
          if (!registered_) return NotRegistered();
          allocates_.push_back(request);
          Step step;
          if (!script_.empty()) {
            step = std::move(script_.front());
            script_.pop_front();
          }
          if (step.kind == Step::Kind::kNotRegistered) {
            allocates_.pop_back();  // a restarted RM never saw it
            registered_ = false;
            return NotRegistered();
          }
          *response = std::move(step.response);
          response->set_response_id(request.response_id() + 1);
          return Status::OK();
        });
    service->AddMethod<y::FinishApplicationMasterRequestProto,
                       y::FinishApplicationMasterResponseProto>(
        "finishApplicationMaster",
        [this](const ipc::ConnectionIdentity&, const y::FinishApplicationMasterRequestProto& r,
               y::FinishApplicationMasterResponseProto* response) {
          std::lock_guard<std::mutex> lock(mu_);
          if (!registered_) return NotRegistered();
          finishes_.push_back(r);
          response->set_isunregistered(true);
          return Status::OK();
        });
    server_ = StartServer(std::move(service), &tokens_, port);
    port_ = server_->port();
  }
  // The RM process goes away: connections are refused.
  void Stop() { server_->Stop(); }
  // It comes back on the same port, knowing nothing of the AM.
  void Restart() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      registered_ = false;
    }
    Start(port_);
  }
  uint16_t port() const { return port_; }

  void Script(std::vector<Step> steps) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& s : steps) script_.push_back(std::move(s));
  }
  std::vector<y::RegisterApplicationMasterRequestProto> registers() const {
    std::lock_guard<std::mutex> lock(mu_);
    return registers_;
  }
  std::vector<y::AllocateRequestProto> allocates() const {
    std::lock_guard<std::mutex> lock(mu_);
    return allocates_;
  }
  std::vector<y::FinishApplicationMasterRequestProto> finishes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return finishes_;
  }

 private:
  static Status NotRegistered() {
    return Status::Remote(rm::yarn::kApplicationMasterNotRegistered,
                          "Application Master is not registered");
  }

  AnyToken tokens_;
  uint16_t port_ = 0;
  mutable std::mutex mu_;
  bool registered_ = false;
  std::deque<Step> script_;
  std::vector<y::RegisterApplicationMasterRequestProto> registers_;
  std::vector<y::AllocateRequestProto> allocates_;
  std::vector<y::FinishApplicationMasterRequestProto> finishes_;
  std::unique_ptr<ipc::RpcServer> server_;
};

class ShellAmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nm_.Start();
    rm_.Start();
  }

  ShellAmOptions Options(int64_t containers) {
    ShellAmOptions o;
    o.scheduler_host = "127.0.0.1";
    o.scheduler_port = rm_.port();
    o.amrm = ipc::ClientToken{"appattempt_1_0001_000001", kPassword, "YARN_AM_RM_TOKEN",
                              "127.0.0.1:" + std::to_string(rm_.port())};
    o.user = "alice";
    o.spec.containers = containers;
    o.spec.memory_mb = 256;
    o.spec.vcores = 1;
    o.spec.command = "true";
    o.host = "am-host";
    o.rpc_port = 4242;
    o.tracking_url = "http://am-host:4243/";
    o.retry.max_wait = 20s;
    o.retry.retry_interval = 50ms;
    o.heartbeat_interval = 5ms;
    o.timeout = 60s;
    o.client.connect_timeout = 2000ms;
    return o;
  }

  static rm::ContainerId Cid(int64_t sequence) {
    rm::ContainerId id;
    id.attempt.app.cluster_timestamp = 1;
    id.attempt.app.id = 1;
    id.attempt.attempt = 1;
    id.id = sequence;
    return id;
  }
  // An allocate answer handing out `sequences` on the fake NM.
  FakeRm::Step Allocated(const std::vector<int64_t>& sequences) {
    FakeRm::Step step;
    rm::NodeId node{"127.0.0.1", nm_.port()};
    auto* nm = step.response.add_nm_tokens();
    rm::ToProto(node, nm->mutable_nodeid());
    nm->mutable_token()->set_identifier("alice");
    nm->mutable_token()->set_password(kPassword);
    nm->mutable_token()->set_kind("NMToken");
    nm->mutable_token()->set_service(node.ToString());
    for (int64_t seq : sequences) {
      y::ContainerProto* c = step.response.add_allocated_containers();
      rm::ToProto(Cid(seq), c->mutable_id());
      rm::ToProto(node, c->mutable_nodeid());
      c->mutable_resource()->set_memory(256);
      c->mutable_resource()->set_virtual_cores(1);
      c->mutable_container_token()->set_identifier(Cid(seq).ToString());
      c->mutable_container_token()->set_password(kPassword);
      c->mutable_container_token()->set_kind("ContainerToken");
      c->mutable_container_token()->set_service(node.ToString());
    }
    return step;
  }
  static FakeRm::Step Completed(const std::vector<std::pair<int64_t, int32_t>>& exits) {
    FakeRm::Step step;
    for (const auto& [seq, exit_status] : exits) {
      y::ContainerStatusProto* s = step.response.add_completed_container_statuses();
      rm::ToProto(Cid(seq), s->mutable_container_id());
      s->set_state(y::C_COMPLETE);
      s->set_exit_status(exit_status);
    }
    return step;
  }
  static FakeRm::Step NotRegistered() {
    FakeRm::Step step;
    step.kind = FakeRm::Step::Kind::kNotRegistered;
    return step;
  }
  static FakeRm::Step Resync() {
    FakeRm::Step step;
    step.response.set_a_m_command(y::AM_RESYNC);
    return step;
  }
  // The asks of `request`, total containers.
  static int64_t Asked(const y::AllocateRequestProto& request) {
    int64_t n = 0;
    for (const auto& a : request.ask()) n += a.num_containers();
    return n;
  }
  static std::vector<std::string> Released(const y::AllocateRequestProto& request) {
    std::vector<std::string> out;
    for (const auto& id : request.release()) out.push_back(rm::FromProto(id).ToString());
    return out;
  }
  void ExpectSameRegistrations(size_t count) {
    const auto regs = rm_.registers();
    ASSERT_EQ(regs.size(), count);
    for (const auto& r : regs) {
      EXPECT_EQ(r.host(), "am-host");
      EXPECT_EQ(r.rpc_port(), 4242);
      EXPECT_EQ(r.tracking_url(), "http://am-host:4243/");
    }
  }

  FakeNodeManager nm_;
  FakeRm rm_;
};

// allocate fails with ApplicationMasterNotRegisteredException: the AM
// re-registers, starts again from response id 0 with its whole (undecremented)
// ask, does not relaunch what it runs, releases the extra the RM gives it and
// counts each completion once.
TEST_F(ShellAmTest, NotRegisteredReRegistersAndResendsItsAsks) {
  rm_.Script({Allocated({1, 2}), NotRegistered(), Allocated({2, 3}),
              Completed({{1, 0}, {2, 0}, {3, -100}, {1, 0}})});
  ShellAm am(Options(2));
  const Status s = am.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectSameRegistrations(2);
  EXPECT_EQ(am.registrations(), 2);
  EXPECT_EQ(am.resyncs(), 1);

  const auto allocates = rm_.allocates();
  ASSERT_GE(allocates.size(), 3u);
  EXPECT_EQ(allocates[0].response_id(), 0);
  EXPECT_EQ(Asked(allocates[0]), 2);
  // Right after the resync: response id 0 and the original total again.
  EXPECT_EQ(allocates[1].response_id(), 0);
  EXPECT_EQ(Asked(allocates[1]), 2);
  // Container 3 was not needed: released at the next allocate, asks not repeated.
  EXPECT_EQ(Asked(allocates[2]), 0);
  EXPECT_EQ(allocates[2].response_id(), 1);
  EXPECT_EQ(Released(allocates[2]), std::vector<std::string>{Cid(3).ToString()});

  // Containers 1 and 2 started once each; 3 never.
  EXPECT_EQ(nm_.started(), (std::vector<std::string>{Cid(1).ToString(), Cid(2).ToString()}));
  EXPECT_EQ(am.launched(), 2);
  EXPECT_EQ(am.completed(), 2);
  EXPECT_EQ(am.failed(), 0);
  EXPECT_EQ(am.released(), 1);
  const auto finishes = rm_.finishes();
  ASSERT_EQ(finishes.size(), 1u);
  EXPECT_EQ(finishes[0].final_application_status(), y::APP_SUCCEEDED);
}

// An allocate answer carrying AM_RESYNC does the same, blacklist included.
TEST_F(ShellAmTest, AmResyncCommandReRegisters) {
  rm_.Script({Allocated({1}), Resync(), Completed({{1, 0}})});
  ShellAmOptions o = Options(1);
  o.blacklist = {"bad-host"};
  ShellAm am(o);
  const Status s = am.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectSameRegistrations(2);
  EXPECT_EQ(am.resyncs(), 1);
  const auto allocates = rm_.allocates();
  ASSERT_GE(allocates.size(), 3u);
  ASSERT_EQ(allocates[0].blacklist_request().blacklist_additions_size(), 1);
  EXPECT_EQ(allocates[0].blacklist_request().blacklist_additions(0), "bad-host");
  EXPECT_EQ(Asked(allocates[1]), 0);  // the one answered with AM_RESYNC
  EXPECT_FALSE(allocates[1].has_blacklist_request());
  // After the resync: response id 0, the whole ask table and the blacklist.
  EXPECT_EQ(allocates[2].response_id(), 0);
  EXPECT_EQ(Asked(allocates[2]), 1);
  ASSERT_EQ(allocates[2].blacklist_request().blacklist_additions_size(), 1);
  EXPECT_EQ(allocates[2].blacklist_request().blacklist_additions(0), "bad-host");
  EXPECT_EQ(nm_.started().size(), 1u);
  ASSERT_EQ(rm_.finishes().size(), 1u);
  EXPECT_EQ(rm_.finishes()[0].final_application_status(), y::APP_SUCCEEDED);
}

// A release the restarted RM never confirmed is sent again after the resync.
TEST_F(ShellAmTest, UnconfirmedReleasesAreResentAfterAResync) {
  rm_.Script({Allocated({1, 2}), FakeRm::Step{}, NotRegistered(), FakeRm::Step{},
              Completed({{1, 0}, {2, -100}})});
  ShellAm am(Options(1));
  const Status s = am.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const auto allocates = rm_.allocates();
  ASSERT_GE(allocates.size(), 3u);
  EXPECT_EQ(Released(allocates[1]), std::vector<std::string>{Cid(2).ToString()});
  EXPECT_EQ(allocates[2].response_id(), 0);
  EXPECT_EQ(Asked(allocates[2]), 1);
  EXPECT_EQ(Released(allocates[2]), std::vector<std::string>{Cid(2).ToString()});
  EXPECT_EQ(am.completed(), 1);
  EXPECT_EQ(am.failed(), 0);
}

// The RM process is down for a while: the AM keeps retrying, then finds a
// restarted RM that does not know it, re-registers and finishes its work.
TEST_F(ShellAmTest, RetriesWhileTheRmIsDownThenResyncs) {
  rm_.Script({Allocated({1, 2})});
  ShellAm am(Options(2));
  Status result = Status::Internal("not run");
  std::thread runner([&] { result = am.Run(); });
  ASSERT_TRUE(WaitFor([&] { return nm_.started().size() == 2; }));
  rm_.Stop();
  // Down for a few retry intervals (a real RM restart takes seconds).
  std::this_thread::sleep_for(300ms);
  rm_.Script({Allocated({3}), Completed({{1, 0}, {2, 0}, {3, -100}})});
  rm_.Restart();
  runner.join();
  ASSERT_TRUE(result.ok()) << result.ToString();
  EXPECT_EQ(am.resyncs(), 1);
  ExpectSameRegistrations(2);
  EXPECT_EQ(nm_.started().size(), 2u);
  EXPECT_EQ(am.released(), 1);
  ASSERT_EQ(rm_.finishes().size(), 1u);
  EXPECT_EQ(rm_.finishes()[0].final_application_status(), y::APP_SUCCEEDED);
}

// The RM stays away past yarn.resourcemanager.connect.max-wait.ms: Run fails.
TEST_F(ShellAmTest, GivesUpAfterTheConfiguredWait) {
  rm_.Stop();
  ShellAmOptions o = Options(1);
  o.retry.max_wait = 300ms;
  o.retry.retry_interval = 50ms;
  ShellAm am(o);
  const auto start = std::chrono::steady_clock::now();
  const Status s = am.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.IsRemote()) << s.ToString();
  EXPECT_NE(s.message().find("not reachable"), std::string::npos) << s.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(am.registrations(), 0);
}

// A caller's deadline (`spindle shell --timeout-seconds`) ends the retries
// long before Hadoop's 15-minute max-wait and 30 s interval would.
TEST_F(ShellAmTest, GivesUpAtTheCallersDeadline) {
  rm_.Stop();
  ShellAmOptions o = Options(1);
  o.retry.max_wait = 900000ms;
  o.retry.retry_interval = 30000ms;
  o.retry.deadline = std::chrono::steady_clock::now() + 300ms;
  ShellAm am(o);
  const auto start = std::chrono::steady_clock::now();
  const Status s = am.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("was not reachable before the deadline ("), std::string::npos)
      << s.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  EXPECT_EQ(am.registrations(), 0);
}

TEST(RmConnectRetryTest, ReadsHadoopsKeysWithTheirDefaults) {
  rm::Configuration conf;
  auto defaults = RmConnectRetry::FromConfiguration(conf);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->max_wait, 900000ms);
  EXPECT_EQ(defaults->retry_interval, 30000ms);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "5000");
  conf.Set("yarn.resourcemanager.connect.retry-interval.ms", "250");
  auto set = RmConnectRetry::FromConfiguration(conf);
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->max_wait, 5000ms);
  EXPECT_EQ(set->retry_interval, 250ms);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "-1");  // forever
  ASSERT_TRUE(RmConnectRetry::FromConfiguration(conf).ok());
  EXPECT_EQ(RmConnectRetry::FromConfiguration(conf)->max_wait, -1ms);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "-2");
  EXPECT_EQ(RmConnectRetry::FromConfiguration(conf).status().code(),
            Status::Code::kInvalidArgument);
  conf.Set("yarn.resourcemanager.connect.max-wait.ms", "1000");
  conf.Set("yarn.resourcemanager.connect.retry-interval.ms", "-1");
  EXPECT_EQ(RmConnectRetry::FromConfiguration(conf).status().code(),
            Status::Code::kInvalidArgument);
  conf.Set("yarn.resourcemanager.connect.retry-interval.ms", "soon");
  EXPECT_EQ(RmConnectRetry::FromConfiguration(conf).status().code(),
            Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle
