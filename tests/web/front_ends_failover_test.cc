// The client-facing front ends over a real rm::ResourceManager through an
// active -> standby -> active cycle: the ApplicationClientProtocol service on
// a real RpcServer and the RM web app on a real HttpServer, both built once
// from the ResourceManager alone (as cmd/rm_daemon builds them). While
// standby the client gets StandbyException, /ws/v1/cluster/info says
// STANDBY and the other web paths get Hadoop 3.3's standby answer; once
// active again both report the application recovered from the state store.
// Also StandbyAnswer's texts and Refresh header, with the retry time pinned.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/record_protos.h"
#include "am_protocol/tokens/rm_delegation_token_secret_provider.h"
#include "integration/wait_for.h"
#include "rm/config/configuration_directory.h"
#include "rm/core/resource_manager.h"
#include "rm/yarn_exceptions.h"
#include "tests/support/http_get.h"
#include "web/rm_webapp.h"
#include "web/standby_answer.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::web {
namespace {

namespace y = hadoop::yarn;
using ::testing::HasSubstr;
using ::testing::Not;

// Launches every AM at once; the attempt then waits for its AM to register.
class InstantLauncher : public rm::AmLauncher {
 public:
  void Launch(const rm::AmLaunch&, std::function<void(Status)> done) override {
    done(Status::OK());
  }
  void Cleanup(const rm::AmLaunch&) override {}
};

class FrontEndsFailoverTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("front_ends_failover_" + std::to_string(::getpid()) + "_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            (GetParam() == "memory" ? "memory" : "rocksdb"));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    Write("capacity-scheduler.xml", {{"yarn.scheduler.capacity.root.queues", "default"},
                                     {"yarn.scheduler.capacity.root.default.capacity", "100"}});
    std::map<std::string, std::string> site = {
        {"yarn.resourcemanager.recovery.enabled", "true"},
        {"spindle.scheduler.mode", "monolithic"},
        {"spindle.scheduler.count", "1"},
        {"spindle.scheduler.partitions", "1"},
        {"yarn.resourcemanager.webapp.address", "rm.example:8088"},
    };
    if (GetParam() == "memory") {
      site["yarn.resourcemanager.store.class"] = "memory";
    } else {
      site["spindle.store.path"] = (dir_ / "store").string();
    }
    Write("yarn-site.xml", site);
    auto conf = rm::LoadConfigurationDirectory(dir_.string());
    ASSERT_TRUE(conf.ok()) << conf.status().ToString();
    rm::ResourceManagerOptions options;
    options.conf_dir = dir_.string();
    options.node_token_service = [](const rm::NodeId& node) { return node.ToString(); };
    options.launcher_factory = [](const rm::SecretManagers&) {
      return std::make_unique<InstantLauncher>();
    };
    auto rm = rm::ResourceManager::Create(*conf, std::move(options));
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());

    // The front ends, from the ResourceManager alone.
    auto client_options = client_service::ClientRmServiceOptions::FromConfiguration(rm_->conf());
    ASSERT_TRUE(client_options.ok()) << client_options.status().ToString();
    client_ = std::make_unique<client_service::ClientRmService>(*client_options, rm_.get());
    auto services = std::make_shared<ipc::ServiceRegistry>();
    services->Add(client_->MakeRpcService());
    // 8032 as the daemon runs it: TOKEN (RM delegation tokens, read through
    // the core) and SIMPLE.
    token_provider_ = std::make_unique<am_protocol::RmDelegationTokenSecretProvider>(rm_.get());
    ipc::RpcServerOptions server_options;
    server_options.session.token_provider = token_provider_.get();
    server_ = std::make_unique<ipc::RpcServer>(server_options, services);
    ASSERT_TRUE(server_->Start().ok());
    RmWebAppDeps web;
    web.core = rm_.get();
    web.client = client_.get();
    web.conf = &rm_->conf();
    web.identity.cluster_timestamp = rm_->ClusterTimestamp();
    web.uniform = [] { return 0.5; };
    auto app = RmWebApp::Create(rm_->conf(), "127.0.0.1", 0, web);
    ASSERT_TRUE(app.ok()) << app.status().ToString();
    web_ = std::move(app).value();
    ASSERT_TRUE(web_->Start().ok());
  }

  void TearDown() override {
    if (web_ != nullptr) web_->Stop();
    if (server_ != nullptr) server_->Stop();
    if (rm_ != nullptr) rm_->Stop();
    web_.reset();
    server_.reset();
    token_provider_.reset();
    client_.reset();
    rm_.reset();
    std::filesystem::remove_all(dir_);
  }

  void Write(const std::string& file, const std::map<std::string, std::string>& keys) {
    std::ofstream xml(dir_ / file, std::ios::trunc);
    xml << "<configuration>\n";
    for (const auto& [key, value] : keys) {
      xml << "<property><name>" << key << "</name><value>" << value << "</value></property>\n";
    }
    xml << "</configuration>\n";
  }

  // SIMPLE as alice, or TOKEN with `token` (a connection of its own).
  Status Call(const std::string& method, const google::protobuf::MessageLite& request,
              google::protobuf::MessageLite* response,
              const hadoop::common::TokenProto* token = nullptr) {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = client_service::kApplicationClientProtocol;
    spec.user = token == nullptr ? "alice" : "alice-token";
    if (token != nullptr) {
      spec.token =
          ipc::ClientToken{token->identifier(), token->password(), token->kind(), token->service()};
    }
    return rpc_.Call(spec, method, request, response);
  }

  testing::HttpGetResult Get(const std::string& target) {
    auto got =
        testing::HttpGet("127.0.0.1", web_->port(), target, {{"Accept", "application/json"}});
    EXPECT_TRUE(got.ok()) << target << ": " << got.status().ToString();
    return got.ok() ? *got : testing::HttpGetResult{};
  }

  rm::ApplicationId Submit() {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    Status s = Call("getNewApplication", new_request, &new_response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    const rm::ApplicationId id = client_service::FromProto(new_response.application_id());
    y::SubmitApplicationRequestProto request;
    auto* context = request.mutable_application_submission_context();
    client_service::ToProto(id, context->mutable_application_id());
    context->set_application_name("failover-demo");
    context->set_queue("default");
    context->mutable_am_container_spec()->add_command("sleep 1");
    auto* ask = context->add_am_container_resource_request();
    ask->set_resource_name("*");
    ask->mutable_capability()->set_memory(1024);
    ask->mutable_capability()->set_virtual_cores(1);
    ask->set_num_containers(1);
    y::SubmitApplicationResponseProto response;
    s = Call("submitApplication", request, &response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }

  Result<y::ApplicationReportProto> Report(const rm::ApplicationId& id) {
    y::GetApplicationReportRequestProto request;
    client_service::ToProto(id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    RETURN_NOT_OK(Call("getApplicationReport", request, &response));
    return response.application_report();
  }

  std::filesystem::path dir_;
  std::unique_ptr<rm::ResourceManager> rm_;
  std::unique_ptr<client_service::ClientRmService> client_;
  std::unique_ptr<am_protocol::RmDelegationTokenSecretProvider> token_provider_;
  std::unique_ptr<ipc::RpcServer> server_;
  ipc::RpcClient rpc_;
  std::unique_ptr<RmWebApp> web_;
};

TEST_P(FrontEndsFailoverTest, StandbyAnswersThenTheRecoveredAppIsReported) {
  const rm::ApplicationId id = Submit();
  auto before = Report(id);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->name(), "failover-demo");
  EXPECT_EQ(Get("/ws/v1/cluster/apps/" + id.ToString()).status, 200);
  EXPECT_THAT(Get("/ws/v1/cluster/info").body, HasSubstr("\"haState\":\"ACTIVE\""));
  // 3.3's IsActiveServlet.
  EXPECT_EQ(Get("/isActive").status, 200);
  EXPECT_EQ(Get("/isActive").body, "I am Active!");
  hadoop::common::GetDelegationTokenRequestProto token_request;
  token_request.set_renewer("alice");
  hadoop::common::GetDelegationTokenResponseProto token_response;
  ASSERT_TRUE(Call("getDelegationToken", token_request, &token_response).ok());
  const hadoop::common::TokenProto token = token_response.token();

  rm_->TransitionToStandby();
  ASSERT_EQ(rm_->ha_state(), rm::HaState::kStandby);

  // RPC: StandbyException, on which a client's failover proxy moves on.
  auto standby_report = Report(id);
  ASSERT_FALSE(standby_report.ok());
  EXPECT_EQ(standby_report.status().java_class(), rm::yarn::kStandby)
      << standby_report.status().ToString();
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  EXPECT_EQ(Call("getNewApplication", new_request, &new_response).java_class(), rm::yarn::kStandby);
  y::GetClusterNodesRequestProto nodes_request;
  y::GetClusterNodesResponseProto nodes_response;
  EXPECT_EQ(Call("getClusterNodes", nodes_request, &nodes_response).java_class(),
            rm::yarn::kStandby);

  // HTTP: clusterInfo still answers, with the standby state and the id the
  // RM had; the rest get RMWebAppFilter's answer (no active RM known).
  const testing::HttpGetResult info = Get("/ws/v1/cluster/info");
  EXPECT_EQ(info.status, 200);
  EXPECT_THAT(info.body, HasSubstr("\"haState\":\"STANDBY\""));
  EXPECT_THAT(info.body, HasSubstr("\"id\":" + std::to_string(id.cluster_timestamp)));
  for (const std::string& path : std::vector<std::string>{
           "/ws/v1/cluster/apps", "/ws/v1/cluster/apps/" + id.ToString(), "/ws/v1/cluster/metrics",
           "/ws/v1/cluster/scheduler", "/ws/v1/cluster/nodes", "/ws/v1/spindle/pool", "/cluster"}) {
    const testing::HttpGetResult got = Get(path);
    EXPECT_EQ(got.status, 307) << path;
    EXPECT_THAT(got.body, HasSubstr("Can not find any active RM. Will retry in next 5 seconds."))
        << path;
  }
  const testing::HttpGetResult is_active = Get("/isActive");
  EXPECT_EQ(is_active.status, 405);
  EXPECT_EQ(is_active.body, "I am not Active!");
  // The instrumentation is let through and reads an empty cluster.
  const testing::HttpGetResult jmx = Get("/jmx");
  EXPECT_EQ(jmx.status, 200);
  EXPECT_THAT(jmx.body, ::testing::ContainsRegex("\"NumActiveNMs\" *: *0"));

  ASSERT_TRUE(rm_->TransitionToActive().ok());

  // The same front ends answer from the new activation, which recovered the
  // app from the store.
  ASSERT_TRUE(WaitFor([&] { return Report(id).ok(); })) << "the recovered app is never reported";
  auto after = Report(id);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->name(), "failover-demo");
  EXPECT_EQ(after->queue(), "default");
  const testing::HttpGetResult app = Get("/ws/v1/cluster/apps/" + id.ToString());
  EXPECT_EQ(app.status, 200);
  EXPECT_THAT(app.body, HasSubstr("\"name\":\"failover-demo\""));
  EXPECT_THAT(Get("/ws/v1/cluster/apps").body, HasSubstr(id.ToString()));
  EXPECT_THAT(Get("/ws/v1/cluster/info").body, HasSubstr("\"haState\":\"ACTIVE\""));
  EXPECT_THAT(Get("/ws/v1/cluster/metrics").body, Not(HasSubstr("active RM")));
  EXPECT_EQ(Get("/isActive").status, 200);
  // The delegation token was stored: the new activation's secret manager,
  // read by the same SASL provider, authenticates it.
  y::GetClusterMetricsRequestProto metrics_request;
  y::GetClusterMetricsResponseProto metrics_response;
  Status with_token = Call("getClusterMetrics", metrics_request, &metrics_response, &token);
  EXPECT_TRUE(with_token.ok()) << with_token.ToString();
  // New work is taken again.
  const rm::ApplicationId second = Submit();
  EXPECT_TRUE(Report(second).ok());
}

INSTANTIATE_TEST_SUITE_P(Stores, FrontEndsFailoverTest, ::testing::Values("memory", "rocksdb"));

// StandbyAnswer on its own: a standby core (created, never started).
class StandbyAnswerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rm::Configuration conf;
    const std::string xml =
        "<configuration>"
        "<property><name>yarn.scheduler.capacity.root.queues</name><value>default</value>"
        "</property><property><name>yarn.scheduler.capacity.root.default.capacity</name>"
        "<value>100</value></property></configuration>";
    Status added = conf.AddResourceString(xml, "capacity-scheduler.xml");
    ASSERT_TRUE(added.ok()) << added.ToString();
    rm::ResourceManagerOptions options;
    options.node_token_service = [](const rm::NodeId& node) { return node.ToString(); };
    options.launcher_factory = [](const rm::SecretManagers&) {
      return std::make_unique<InstantLauncher>();
    };
    auto rm = rm::ResourceManager::Create(std::move(conf), std::move(options));
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    options_.self_url = "http://rm.example:8088";
    options_.ha_zookeeper_connection_state = "ResourceManager HA is not enabled.";
    options_.uniform = [this] { return uniform_; };
  }

  static HttpRequest Request(std::string path,
                             std::vector<std::pair<std::string, std::string>> query = {}) {
    HttpRequest request;
    request.path = std::move(path);
    request.query = std::move(query);
    return request;
  }

  static std::string Header(const HttpResponse& response, const std::string& name) {
    for (const auto& [key, value] : response.headers) {
      if (key == name) return value;
    }
    return "";
  }

  std::unique_ptr<rm::ResourceManager> rm_;
  StandbyAnswerOptions options_;
  double uniform_ = 0.5;
};

TEST_F(StandbyAnswerTest, RetriesWithAGrowingIntervalThenGivesUp) {
  ASSERT_EQ(rm_->ha_state(), rm::HaState::kStandby);
  auto first = StandbyAnswer(Request("/ws/v1/cluster/apps", {{"states", "RUNNING,ACCEPTED"}}), *rm_,
                             options_);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->status, 307);
  EXPECT_EQ(first->body,
            "Can not find any active RM. Will retry in next 5 seconds.\n"
            "HA Zookeeper Connection State: ResourceManager HA is not enabled.\n");
  EXPECT_EQ(Header(*first, "Refresh"),
            "5;url=http://rm.example:8088/ws/v1/cluster/apps?states=RUNNING%2CACCEPTED&"
            "next.refresh.interval=1");

  // The browser comes back with the interval: 5 x 2^2 x U[0.5, 1.5).
  uniform_ = 0.99;
  auto third = StandbyAnswer(Request("/cluster", {{"next.refresh.interval", "2"}}), *rm_, options_);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->status, 307);
  EXPECT_THAT(third->body, HasSubstr("Will retry in next 29 seconds."));
  EXPECT_EQ(Header(*third, "Refresh"),
            "29;url=http://rm.example:8088/cluster?next.refresh.interval=3");

  // Past five minutes (5 x 2^6 = 320 s) the filter stops retrying: 200, no
  // Refresh; a malformed interval too.
  for (const std::string& interval : std::vector<std::string>{"6", "soon"}) {
    auto last =
        StandbyAnswer(Request("/cluster", {{"next.refresh.interval", interval}}), *rm_, options_);
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->status, 200) << interval;
    EXPECT_THAT(last->body, HasSubstr("There is no active RM right now.\nHA Zookeeper Connection "
                                      "State: ResourceManager HA is not enabled.\n"));
    EXPECT_EQ(Header(*last, "Refresh"), "") << interval;
  }
}

TEST_F(StandbyAnswerTest, RedirectsToTheActiveRmFound) {
  int asked = 0;
  std::optional<std::string> active = "http://rm2.example:8088";
  options_.find_active_url = [&] {
    ++asked;
    return active;
  };
  // RMWebAppFilter: 307 to the active RM's web address with the path and
  // the query encoded again; the text names the path, HTML-quoted.
  auto moved = StandbyAnswer(
      Request("/ws/v1/cluster/apps", {{"states", "RUNNING,ACCEPTED"}, {"user", "a<b"}}), *rm_,
      options_);
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(moved->status, 307);
  EXPECT_EQ(Header(*moved, "Location"),
            "http://rm2.example:8088/ws/v1/cluster/apps?states=RUNNING%2CACCEPTED&user=a%3Cb");
  EXPECT_EQ(moved->body,
            "This is standby RM. The redirect url is: "
            "/ws/v1/cluster/apps?states=RUNNING%2CACCEPTED&amp;user=a%3Cb\n");
  EXPECT_EQ(Header(*moved, "Refresh"), "");
  auto plain = StandbyAnswer(Request("/cluster/apps"), *rm_, options_);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(Header(*plain, "Location"), "http://rm2.example:8088/cluster/apps");
  // Paths Hadoop does not redirect never ask.
  EXPECT_FALSE(StandbyAnswer(Request("/ws/v1/cluster/info"), *rm_, options_).has_value());
  EXPECT_EQ(asked, 2);
  // No active RM: the retry answer.
  active.reset();
  auto none = StandbyAnswer(Request("/cluster"), *rm_, options_);
  ASSERT_TRUE(none.has_value());
  EXPECT_THAT(none->body, HasSubstr("Can not find any active RM."));
  EXPECT_EQ(Header(*none, "Location"), "");
}

TEST_F(StandbyAnswerTest, LetsThroughWhatHadoopDoesNotRedirect) {
  for (const char* path :
       {"/ws/v1/cluster/info", "/cluster/cluster", "/conf", "/stacks", "/logLevel", "/logs",
        "/isActive", "/jmx", "/prom", "/metrics", "/proxy/application_1_0001/"}) {
    EXPECT_FALSE(StandbyAnswer(Request(path), *rm_, options_).has_value()) << path;
  }
  EXPECT_TRUE(StandbyAnswer(Request("/ws/v1/cluster"), *rm_, options_).has_value());
  EXPECT_TRUE(StandbyAnswer(Request("/ws/v1/cluster/info/"), *rm_, options_).has_value());
}

}  // namespace
}  // namespace spindle::web
