// /jmx over a real RM core and real RpcServers: bean names and attributes as
// Hadoop's JMXJsonServlet shows them, qry/get filtering, errors, JSONP, the
// access gate, and RPC activity counters moving with real calls.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "tests/web/metrics/metrics_fixture.h"
#include "tests/wire/ipc/fake_token_secrets.h"
#include "web/http/router.h"
#include "web/metrics/jmx_servlet.h"
#include "web/metrics/metrics_routes.h"
#include "web/metrics/object_name.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::web {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;
using testing::FindBean;
using testing::IntField;
using testing::NumField;
using testing::ParseJson;
using testing::StrField;

constexpr char kCluster[] = "Hadoop:service=ResourceManager,name=ClusterMetrics";
constexpr char kRootQueue[] = "Hadoop:service=ResourceManager,name=QueueMetrics,q0=root";
constexpr char kDefaultQueue[] =
    "Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=default";
constexpr char kBatchQueue[] =
    "Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=eng,q2=batch";
constexpr char kJvm[] = "Hadoop:service=ResourceManager,name=JvmMetrics";
constexpr char kNmInfo[] = "Hadoop:service=ResourceManager,name=RMNMInfo";

bool WaitFor(const std::function<bool()>& predicate) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (predicate()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return predicate();
}

HttpRequest Get(std::vector<std::pair<std::string, std::string>> query = {}) {
  HttpRequest request;
  request.path = "/jmx";
  request.query = std::move(query);
  return request;
}

class JmxTest : public testing::RmFixture {
 protected:
  HttpResponse Jmx(std::vector<std::pair<std::string, std::string>> query = {}) {
    return JmxHandler(deps_, Get(std::move(query)));
  }
};

TEST(ObjectNameTest, PatternsMatchAsJmxDoes) {
  auto name = ObjectName::Parse("Hadoop:service=ResourceManager,name=QueueMetrics,q0=root");
  ASSERT_TRUE(name.ok());
  auto all = ObjectName::Parse("*:*");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->Matches(*name));
  // Key order does not matter; without ",*" the key set must be the same.
  EXPECT_TRUE(ObjectName::Parse("Hadoop:q0=root,name=QueueMetrics,service=ResourceManager")
                  ->Matches(*name));
  EXPECT_FALSE(
      ObjectName::Parse("Hadoop:service=ResourceManager,name=QueueMetrics")->Matches(*name));
  EXPECT_TRUE(
      ObjectName::Parse("Hadoop:service=ResourceManager,name=QueueMetrics,*")->Matches(*name));
  EXPECT_TRUE(ObjectName::Parse("Had*:name=Queue?etrics,*")->Matches(*name));
  EXPECT_FALSE(ObjectName::Parse("java.lang:*")->Matches(*name));
  for (const char* bad :
       {"nocolon", "Hadoop:", "Hadoop:name", "Hadoop:=x", "Hadoop:a=1,a=2", "Hadoop:*,*"}) {
    EXPECT_FALSE(ObjectName::Parse(bad).ok()) << bad;
  }
}

TEST_F(JmxTest, ListsEveryBeanWithHadoopsNamesAndHeaders) {
  const HttpResponse response = Jmx();
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(response.content_type, "application/json; charset=utf8");
  bool cors = false;
  for (const auto& [k, v] : response.headers)
    cors |= (k == "Access-Control-Allow-Origin" && v == "*");
  EXPECT_TRUE(cors);
  const json::JsonValue root = ParseJson(response.body);
  for (const char* name : {kCluster, kRootQueue, kDefaultQueue, kBatchQueue, kJvm, kNmInfo,
                           "java.lang:type=OperatingSystem"}) {
    EXPECT_NE(FindBean(root, name), nullptr) << name;
  }
  const json::JsonValue* cluster = FindBean(root, kCluster);
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(StrField(*cluster, "modelerType"), "ClusterMetrics");
  EXPECT_EQ(StrField(*cluster, "tag.ClusterMetrics"), "ResourceManager");
  EXPECT_EQ(StrField(*cluster, "tag.Context"), "yarn");
  EXPECT_EQ(StrField(*cluster, "tag.Hostname"), "rm.test");
  EXPECT_EQ(IntField(*cluster, "NumActiveNMs"), 1);
  for (const char* zero : {"NumDecommissionedNMs", "NumLostNMs", "NumUnhealthyNMs",
                           "NumRebootedNMs", "NumShutdownNMs", "NumDecommissioningNMs"}) {
    EXPECT_EQ(IntField(*cluster, zero), 0) << zero;
  }
  EXPECT_EQ(IntField(*cluster, "CapabilityMB"), 8192);
}

TEST_F(JmxTest, QueueMetricsCountAppsAndUsageAndRollUp) {
  const json::JsonValue root = ParseJson(Jmx().body);
  const json::JsonValue* def = FindBean(root, kDefaultQueue);
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(StrField(*def, "modelerType"), "QueueMetrics,q0=root,q1=default");
  EXPECT_EQ(StrField(*def, "tag.Queue"), "root.default");
  EXPECT_EQ(IntField(*def, "AppsSubmitted"), 1);
  EXPECT_EQ(IntField(*def, "AppsRunning"), 1);
  EXPECT_EQ(IntField(*def, "AppsPending"), 0);
  EXPECT_EQ(IntField(*def, "running_0"), 1);
  EXPECT_EQ(IntField(*def, "running_60"), 0);
  EXPECT_EQ(IntField(*def, "AllocatedMB"), 1024);
  EXPECT_EQ(IntField(*def, "AllocatedVCores"), 1);
  EXPECT_EQ(IntField(*def, "AllocatedContainers"), 1);
  // Its AM container allocated and nothing asked since: not active
  // (AppSchedulingInfo.checkForDeactivation), see below.
  EXPECT_EQ(IntField(*def, "ActiveUsers"), 0);
  EXPECT_EQ(IntField(*def, "ActiveApplications"), 0);
  EXPECT_EQ(IntField(*def, "ReservedMB"), 0);
  // QueueMetrics.setAvailableResourcesToQueue (Hadoop 3.3): the guaranteed
  // share, 40% of 8192 MB truncated, less the 1024 MB used.
  EXPECT_EQ(IntField(*def, "AvailableMB"), 3276 - 1024);
  const json::JsonValue* root_queue = FindBean(root, kRootQueue);
  ASSERT_NE(root_queue, nullptr);
  EXPECT_EQ(IntField(*root_queue, "AppsSubmitted"), 1);
  EXPECT_EQ(IntField(*root_queue, "AllocatedMB"), 1024);
  EXPECT_EQ(IntField(*root_queue, "AllocatedContainers"), 1);
  const json::JsonValue* batch = FindBean(root, kBatchQueue);
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(IntField(*batch, "AppsSubmitted"), 0);
  EXPECT_EQ(IntField(*batch, "AllocatedMB"), 0);

  // An hour and a minute later (on the RM's clock) the app is in running_60.
  rm_.clock().Advance(std::chrono::minutes(61));
  const json::JsonValue later = ParseJson(Jmx({{"qry", kDefaultQueue}}).body);
  ASSERT_NE(FindBean(later, kDefaultQueue), nullptr);
  EXPECT_EQ(IntField(*FindBean(later, kDefaultQueue), "running_0"), 0);
  EXPECT_EQ(IntField(*FindBean(later, kDefaultQueue), "running_60"), 1);
}

// QueueMetrics.activateApp adds to every ancestor; incrActiveUsers only to
// the leaf (ActiveUsersManager / UsersManager hold the leaf's metrics).
TEST_F(JmxTest, ActiveApplicationsRollUpAndActiveUsersStayInTheLeaf) {
  rm::ApplicationManager::AskActivity asking;
  asking.newly_asking = true;
  asking.outstanding = true;
  rm_.apps().OnAsksUpdated({app_, 1}, asking);  // what its allocate would say
  json::JsonValue root = ParseJson(Jmx().body);
  ASSERT_NE(FindBean(root, kDefaultQueue), nullptr);
  ASSERT_NE(FindBean(root, kRootQueue), nullptr);
  EXPECT_EQ(IntField(*FindBean(root, kDefaultQueue), "ActiveApplications"), 1);
  EXPECT_EQ(IntField(*FindBean(root, kDefaultQueue), "ActiveUsers"), 1);
  EXPECT_EQ(IntField(*FindBean(root, kRootQueue), "ActiveApplications"), 1);
  EXPECT_EQ(IntField(*FindBean(root, kRootQueue), "ActiveUsers"), 0);

  rm::ApplicationManager::AskActivity served;
  served.emptied = true;
  rm_.apps().OnAsksUpdated({app_, 1}, served);
  root = ParseJson(Jmx().body);
  EXPECT_EQ(IntField(*FindBean(root, kDefaultQueue), "ActiveApplications"), 0);
  EXPECT_EQ(IntField(*FindBean(root, kRootQueue), "ActiveApplications"), 0);
  EXPECT_EQ(IntField(*FindBean(root, kDefaultQueue), "ActiveUsers"), 0);
}

// Without yarn.scheduler.capacity.user-metrics.enable (default false on
// every line) Hadoop registers no per-user QueueMetrics.
TEST_F(JmxTest, NoUserBeansUnlessEnabled) {
  const json::JsonValue root = ParseJson(Jmx().body);
  EXPECT_EQ(FindBean(root, std::string(kDefaultQueue) + ",user=alice"), nullptr);
  EXPECT_EQ(FindBean(root, std::string(kRootQueue) + ",user=alice"), nullptr);
}

client_service::testing::HarnessOptions UserMetricsOptions() {
  client_service::testing::HarnessOptions options = testing::MetricsHarnessOptions();
  options.capacity_scheduler_xml += testing::CsProperty("user-metrics.enable", "true");
  return options;
}

class UserJmxTest : public testing::RmFixture {
 protected:
  UserJmxTest() : RmFixture(UserMetricsOptions()) {}
  HttpResponse Jmx() { return JmxHandler(deps_, Get()); }
};

// QueueMetrics.getUserMetrics (2.6.0 / 3.3.0): "<queue's name>,user=<user>",
// tagged Queue and User, in the leaf and in every ancestor (each user update
// goes to parent.X(user) too). alice runs one app in root.default (its 1 GB
// AM container), bob one in root.eng.batch, asking for more, and alice a
// second in root.eng.batch.
TEST_F(UserJmxTest, UserBeansPerQueueAndAncestor) {
  const rm::ApplicationId bob_app = SubmitAndRun("batch", "bob");
  SubmitAndRun("batch", "alice");
  rm::ApplicationManager::AskActivity asking;
  asking.newly_asking = true;
  asking.outstanding = true;
  rm_.apps().OnAsksUpdated({bob_app, 1}, asking);

  const json::JsonValue root = ParseJson(Jmx().body);
  const std::string alice_default = std::string(kDefaultQueue) + ",user=alice";
  const json::JsonValue* a = FindBean(root, alice_default);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(StrField(*a, "modelerType"), "QueueMetrics,q0=root,q1=default,user=alice");
  EXPECT_EQ(StrField(*a, "tag.Queue"), "root.default");
  EXPECT_EQ(StrField(*a, "tag.User"), "alice");
  EXPECT_EQ(IntField(*a, "AppsSubmitted"), 1);
  EXPECT_EQ(IntField(*a, "AppsRunning"), 1);
  EXPECT_EQ(IntField(*a, "AppsPending"), 0);
  EXPECT_EQ(IntField(*a, "AppsKilled"), 0);
  EXPECT_EQ(IntField(*a, "running_0"), 1);
  EXPECT_EQ(IntField(*a, "AllocatedMB"), 1024);
  EXPECT_EQ(IntField(*a, "AllocatedVCores"), 1);
  EXPECT_EQ(IntField(*a, "AllocatedContainers"), 1);
  EXPECT_EQ(IntField(*a, "ActiveApplications"), 0);
  EXPECT_EQ(IntField(*a, "ActiveUsers"), 0);
  // No bob in root.default.
  EXPECT_EQ(FindBean(root, std::string(kDefaultQueue) + ",user=bob"), nullptr);

  const json::JsonValue* b = FindBean(root, std::string(kBatchQueue) + ",user=bob");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(StrField(*b, "tag.Queue"), "root.eng.batch");
  EXPECT_EQ(IntField(*b, "AppsSubmitted"), 1);
  EXPECT_EQ(IntField(*b, "AppsRunning"), 1);
  EXPECT_EQ(IntField(*b, "AllocatedMB"), 1024);
  EXPECT_EQ(IntField(*b, "ActiveApplications"), 1);
  const json::JsonValue* ab = FindBean(root, std::string(kBatchQueue) + ",user=alice");
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(IntField(*ab, "AppsSubmitted"), 1);
  EXPECT_EQ(IntField(*ab, "AppsRunning"), 1);
  EXPECT_EQ(IntField(*ab, "ActiveApplications"), 0);

  // Ancestors: sums of their leaves' users.
  const json::JsonValue* eng_bob =
      FindBean(root, "Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=eng,user=bob");
  ASSERT_NE(eng_bob, nullptr);
  EXPECT_EQ(StrField(*eng_bob, "tag.Queue"), "root.eng");
  EXPECT_EQ(IntField(*eng_bob, "ActiveApplications"), 1);
  const json::JsonValue* root_alice = FindBean(root, std::string(kRootQueue) + ",user=alice");
  ASSERT_NE(root_alice, nullptr);
  EXPECT_EQ(IntField(*root_alice, "AppsSubmitted"), 2);
  EXPECT_EQ(IntField(*root_alice, "AppsRunning"), 2);
  EXPECT_EQ(IntField(*root_alice, "AllocatedMB"), 2048);
  EXPECT_EQ(IntField(*root_alice, "AllocatedContainers"), 2);
  EXPECT_EQ(IntField(*root_alice, "running_0"), 2);
  EXPECT_EQ(IntField(*root_alice, "ActiveApplications"), 0);
  const json::JsonValue* root_bob = FindBean(root, std::string(kRootQueue) + ",user=bob");
  ASSERT_NE(root_bob, nullptr);
  EXPECT_EQ(IntField(*root_bob, "AllocatedContainers"), 1);
  EXPECT_EQ(IntField(*root_bob, "ActiveApplications"), 1);
  // The queue beans are unchanged by the user beans beside them.
  EXPECT_EQ(IntField(*FindBean(root, kRootQueue), "AppsSubmitted"), 3);
}

TEST_F(JmxTest, QryFiltersByPattern) {
  json::JsonValue root =
      ParseJson(Jmx({{"qry", "Hadoop:service=ResourceManager,name=QueueMetrics,*"}}).body);
  ASSERT_NE(root.Find("beans"), nullptr);
  EXPECT_EQ(root.Find("beans")->elements().size(), 5u);  // root, default, eng, batch, adhoc
  for (const auto& bean : root.Find("beans")->elements()) {
    EXPECT_EQ(StrField(bean, "modelerType").rfind("QueueMetrics,", 0), 0u);
  }
  root = ParseJson(Jmx({{"qry", kCluster}}).body);
  ASSERT_EQ(root.Find("beans")->elements().size(), 1u);
  EXPECT_NE(FindBean(root, kCluster), nullptr);
  root = ParseJson(Jmx({{"qry", "nosuch:type=x"}}).body);
  EXPECT_TRUE(root.Find("beans")->elements().empty());
}

TEST_F(JmxTest, GetReturnsOneAttribute) {
  const HttpResponse response = Jmx({{"get", std::string(kCluster) + "::NumActiveNMs"}});
  ASSERT_EQ(response.status, 200);
  const json::JsonValue root = ParseJson(response.body);
  const json::JsonValue* bean = FindBean(root, kCluster);
  ASSERT_NE(bean, nullptr);
  EXPECT_EQ(bean->members().size(), 3u);  // name, modelerType, NumActiveNMs
  EXPECT_EQ(IntField(*bean, "NumActiveNMs"), 1);
}

TEST_F(JmxTest, ErrorsAsJmxJsonServletGivesThem) {
  HttpResponse response = Jmx({{"get", "no-separator"}});
  EXPECT_EQ(response.status, 400);
  json::JsonValue root = ParseJson(response.body);
  EXPECT_EQ(StrField(root, "result"), "ERROR");
  EXPECT_EQ(StrField(root, "message"), "query format is not as expected.");
  EXPECT_EQ(Jmx({{"get", "a::b::c"}}).status, 400);

  response = Jmx({{"get", std::string(kCluster) + "::NoSuchAttribute"}});
  EXPECT_EQ(response.status, 404);
  root = ParseJson(response.body);
  const json::JsonValue* bean = FindBean(root, kCluster);
  ASSERT_NE(bean, nullptr);
  EXPECT_EQ(StrField(*bean, "result"), "ERROR");
  EXPECT_EQ(StrField(*bean, "message"), "No attribute with name NoSuchAttribute was found.");

  EXPECT_EQ(Jmx({{"qry", "not an object name"}}).status, 400);
}

TEST_F(JmxTest, JsonpCallback) {
  HttpResponse response = Jmx({{"qry", kCluster}, {"callback", "cb_1"}});
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "application/javascript; charset=utf8");
  ASSERT_GT(response.body.size(), 5u);
  EXPECT_EQ(response.body.substr(0, 5), "cb_1(");
  EXPECT_EQ(response.body.substr(response.body.size() - 2), ");");
  ParseJson(response.body.substr(5, response.body.size() - 7));
  EXPECT_EQ(Jmx({{"callback", "alert(1)//"}}).status, 400);
}

TEST_F(JmxTest, JvmMetricsAndOperatingSystemFromProc) {
  const json::JsonValue root = ParseJson(Jmx().body);
  const json::JsonValue* jvm = FindBean(root, kJvm);
  ASSERT_NE(jvm, nullptr);
  EXPECT_EQ(StrField(*jvm, "tag.ProcessName"), "ResourceManager");
  EXPECT_GT(NumField(*jvm, "MemHeapUsedM"), 0);
  EXPECT_GE(NumField(*jvm, "MemHeapCommittedM"), NumField(*jvm, "MemHeapUsedM"));
  // This thread is running while it reads /proc.
  EXPECT_GE(IntField(*jvm, "ThreadsRunnable"), 1);
  EXPECT_GE(IntField(*jvm, "ThreadCount"), 2);
  EXPECT_GT(IntField(*jvm, "OpenFileDescriptorCount"), 2);
  EXPECT_EQ(IntField(*jvm, "GcCount"), 0);
  EXPECT_GE(IntField(*jvm, "LogInfo"), 1);  // the RM core logs at INFO
  const json::JsonValue* os = FindBean(root, "java.lang:type=OperatingSystem");
  ASSERT_NE(os, nullptr);
  EXPECT_GT(IntField(*os, "TotalPhysicalMemorySize"), 0);
  EXPECT_GE(IntField(*os, "AvailableProcessors"), 1);
  EXPECT_EQ(StrField(*os, "Name"), "Linux");
}

TEST_F(JmxTest, RmNmInfoHoldsLiveNodeManagersAsAJsonString) {
  const json::JsonValue root = ParseJson(Jmx({{"qry", kNmInfo}}).body);
  const json::JsonValue* info = FindBean(root, kNmInfo);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(StrField(*info, "modelerType"),
            "org.apache.hadoop.yarn.server.resourcemanager.RMNMInfo");
  const std::vector<json::JsonValue> nodes =
      testing::ParseJsonArray(StrField(*info, "LiveNodeManagers"));
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(StrField(nodes[0], "HostName"), "host1");
  EXPECT_EQ(StrField(nodes[0], "NodeId"), "host1:45454");
  EXPECT_EQ(StrField(nodes[0], "State"), "RUNNING");
  EXPECT_EQ(StrField(nodes[0], "Rack"), "/default-rack");
  EXPECT_EQ(IntField(nodes[0], "NumContainers"), 1);
  EXPECT_EQ(IntField(nodes[0], "UsedMemoryMB") + IntField(nodes[0], "AvailableMemoryMB"), 8192);
}

TEST_F(JmxTest, InstrumentationRequiresAdminOnlyWhenConfigured) {
  rm::Configuration conf;
  deps_.conf = &conf;
  deps_.is_admin = [](const std::string& user) { return user == "yarn"; };
  Router router;
  AddMetricsRoutes(&router, deps_);
  auto get = [&](const std::string& path, std::vector<std::pair<std::string, std::string>> q) {
    HttpRequest request;
    request.path = path;
    request.query = std::move(q);
    return router.Dispatch(request);
  };
  // Default: open.
  EXPECT_EQ(get("/jmx", {{"qry", kCluster}}).status, 200);
  conf.Set("hadoop.security.instrumentation.requires.admin", "true");
  // Without hadoop.security.authorization everyone is an admin (HttpServer2).
  EXPECT_EQ(get("/jmx", {{"qry", kCluster}}).status, 200);
  conf.Set("hadoop.security.authorization", "true");
  HttpResponse denied = get("/jmx", {{"qry", kCluster}});
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.body, "Unauthenticated users are not authorized to access this page.");
  denied = get("/stacks", {{"user.name", "alice"}});
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.body, "User alice is unauthorized to access this page.");
  EXPECT_EQ(get("/conf", {{"user.name", "alice"}}).status, 403);
  EXPECT_EQ(get("/logLevel", {{"user.name", "alice"}}).status, 403);
  EXPECT_EQ(get("/jmx", {{"qry", kCluster}, {"user.name", "yarn"}}).status, 200);
  EXPECT_EQ(get("/conf", {{"user.name", "yarn"}}).status, 200);
  // /metrics is open, as Hadoop's Prometheus servlet.
  EXPECT_EQ(get("/metrics", {}).status, 200);
}

// ---- RPC activity ----------------------------------------------------------

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

std::shared_ptr<ipc::ServiceRegistry> MetricsRegistry() {
  auto registry = std::make_shared<ipc::ServiceRegistry>();
  auto service = std::make_unique<ipc::RpcService>(kAcp);
  service->AddMethod<y::GetClusterMetricsRequestProto, y::GetClusterMetricsResponseProto>(
      "getClusterMetrics",
      [](const ipc::ConnectionIdentity&, const y::GetClusterMetricsRequestProto&,
         y::GetClusterMetricsResponseProto* response) {
        response->mutable_cluster_metrics()->set_num_node_managers(3);
        return Status::OK();
      });
  registry->Add(std::move(service));
  return registry;
}

class RpcActivityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ipc::RpcServerOptions options;
    options.name = "ApplicationClientProtocol";
    options.session.token_provider = &secrets_;
    server_ = std::make_unique<ipc::RpcServer>(options, MetricsRegistry());
    ASSERT_TRUE(server_->Start().ok());
    deps_.rpc_servers.push_back(server_.get());
    deps_.hostname = "rm.test";
  }
  void TearDown() override { server_->Stop(); }

  std::string BeanName() const {
    return "Hadoop:service=ResourceManager,name=RpcActivityForPort" +
           std::to_string(server_->port());
  }
  json::JsonValue Bean() {
    HttpRequest request;
    request.query = {{"qry", BeanName()}};
    const json::JsonValue root = ParseJson(JmxHandler(deps_, request).body);
    const json::JsonValue* bean = FindBean(root, BeanName());
    EXPECT_NE(bean, nullptr);
    return bean == nullptr ? json::JsonValue() : *bean;
  }
  ipc::ConnectionSpec Spec(const std::string& user) {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAcp;
    spec.user = user;
    return spec;
  }
  Status Call(ipc::RpcClient& client, const ipc::ConnectionSpec& spec) {
    y::GetClusterMetricsRequestProto request;
    y::GetClusterMetricsResponseProto response;
    return client.Call(spec, "getClusterMetrics", request, &response);
  }

  ipc::testing::FakeTokenSecrets secrets_;
  std::unique_ptr<ipc::RpcServer> server_;
  MetricsDeps deps_;
};

TEST_F(RpcActivityTest, CountersMoveWithRealCalls) {
  json::JsonValue bean = Bean();
  EXPECT_EQ(StrField(bean, "modelerType"), "RpcActivityForPort" + std::to_string(server_->port()));
  EXPECT_EQ(StrField(bean, "tag.port"), std::to_string(server_->port()));
  EXPECT_EQ(StrField(bean, "tag.serverName"), "ApplicationClientProtocol");
  EXPECT_EQ(StrField(bean, "tag.Context"), "rpc");
  EXPECT_EQ(IntField(bean, "ReceivedBytes"), 0);
  EXPECT_EQ(IntField(bean, "RpcQueueTimeNumOps"), 0);
  EXPECT_EQ(IntField(bean, "NumOpenConnections"), 0);
  EXPECT_EQ(IntField(bean, "NumDroppedConnections"), 0);
  {
    ipc::RpcClient client;
    ASSERT_TRUE(Call(client, Spec("alice")).ok());
    ASSERT_TRUE(Call(client, Spec("alice")).ok());
    // Counters are updated after the reply is handed over: poll.
    ASSERT_TRUE(WaitFor([&] { return server_->activity().processing_time_num_ops == 2; }));
    bean = Bean();
    EXPECT_GT(IntField(bean, "ReceivedBytes"), 0);
    EXPECT_GT(IntField(bean, "SentBytes"), 0);
    EXPECT_EQ(IntField(bean, "RpcQueueTimeNumOps"), 2);
    EXPECT_EQ(IntField(bean, "RpcProcessingTimeNumOps"), 2);
    EXPECT_GE(NumField(bean, "RpcQueueTimeAvgTime"), 0);
    EXPECT_GE(NumField(bean, "RpcProcessingTimeAvgTime"), 0);
    EXPECT_EQ(IntField(bean, "RpcAuthorizationSuccesses"), 1);   // one connection context
    EXPECT_EQ(IntField(bean, "RpcAuthenticationSuccesses"), 0);  // SIMPLE is not counted
    EXPECT_EQ(IntField(bean, "NumOpenConnections"), 1);
    EXPECT_EQ(IntField(bean, "CallQueueLength"), 0);

    // TOKEN: a good token authenticates; a revoked one fails.
    ipc::ConnectionSpec token = Spec("tokenuser");
    token.token = ipc::testing::FakeTokenSecrets::TokenFor("tokenuser");
    ASSERT_TRUE(Call(client, token).ok());
    ipc::ConnectionSpec revoked = Spec("revokeduser");
    revoked.token = ipc::testing::FakeTokenSecrets::TokenFor("revoked-1");
    EXPECT_FALSE(Call(client, revoked).ok());
    ASSERT_TRUE(WaitFor([&] { return server_->activity().authentication_failures == 1; }));
    const ipc::RpcActivity a = server_->activity();
    EXPECT_EQ(a.authentication_successes, 1);
    EXPECT_EQ(a.authorization_successes, 2);
  }
  // The client is gone: its connections close.
  ASSERT_TRUE(WaitFor([&] { return server_->activity().open_connections == 0; }));
  EXPECT_EQ(IntField(Bean(), "NumOpenConnections"), 0);
}

TEST_F(RpcActivityTest, SimpleRefusedCountsAsAuthenticationFailure) {
  server_->Stop();
  ipc::RpcServerOptions options;
  options.session.simple_enabled = false;
  options.session.token_provider = &secrets_;
  server_ = std::make_unique<ipc::RpcServer>(options, MetricsRegistry());
  ASSERT_TRUE(server_->Start().ok());
  ipc::RpcClient client;
  EXPECT_FALSE(Call(client, Spec("alice")).ok());
  ASSERT_TRUE(WaitFor([&] { return server_->activity().authentication_failures == 1; }));
  EXPECT_EQ(server_->activity().authorization_successes, 0);
}

// A connection past ipc.server.max.connections is closed at accept and shows
// as NumDroppedConnections (RpcMetrics, Hadoop 2.7+ / 3.3).
TEST_F(RpcActivityTest, ConnectionsDroppedAtTheLimitAreCounted) {
  server_->Stop();
  ipc::RpcServerOptions options;
  options.limits.max_connections = 1;
  server_ = std::make_unique<ipc::RpcServer>(options, MetricsRegistry());
  ASSERT_TRUE(server_->Start().ok());
  deps_.rpc_servers = {server_.get()};
  ipc::RpcClient first;
  ASSERT_TRUE(Call(first, Spec("alice")).ok());
  ipc::RpcClient second;
  EXPECT_FALSE(Call(second, Spec("bob")).ok());
  ASSERT_TRUE(WaitFor([&] { return server_->activity().dropped_connections == 1; }));
  const json::JsonValue bean = Bean();
  EXPECT_EQ(IntField(bean, "NumDroppedConnections"), 1);
  EXPECT_EQ(IntField(bean, "NumOpenConnections"), 1);
}

}  // namespace
}  // namespace spindle::web
