// RmHarness: a real RM core (SchedulerPool on a ManualClock, NodeRegistry,
// ApplicationManager with a fake AM launcher, QueueManager), seen through
// the core's RegistryFacade, behind a real ClientRmService served by an ipc::RpcServer on 127.0.0.1
// port 0, and an ipc::RpcClient to call it. Tests drive the app lifecycle by hand (Step, LaunchAll,
// Register, Finish) and call the protocol over the wire. RM delegation tokens come from a secret
// manager on the same ManualClock.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/tokens/rm_delegation_token_secret_provider.h"
#include "base/clock.h"
#include "rm/apps/app_manager.h"
#include "rm/core/registry_facade.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/am_limits.h"
#include "rm/queues/group_mapping.h"
#include "rm/queues/queue_manager.h"
#include "scheduler_pool/scheduler_pool.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::client_service::testing {

// AmLauncher double: records launches; the test completes them.
class FakeLauncher : public rm::AmLauncher {
 public:
  void Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) override {
    launches.push_back(launch);
    pending.push_back(std::move(done));
  }
  void Cleanup(const rm::AmLaunch& launch) override { cleanups.push_back(launch); }
  void CompleteAll(Status status) {
    auto callbacks = std::move(pending);
    pending.clear();
    for (auto& done : callbacks) done(status);
  }
  std::vector<rm::AmLaunch> launches;
  std::vector<rm::AmLaunch> cleanups;
  std::vector<std::function<void(Status)>> pending;
};

struct HarnessOptions {
  // capacity-scheduler.xml properties, as XML <property> elements, or the
  // path of a capacity-scheduler.xml (used when set).
  std::string capacity_scheduler_xml;
  std::string capacity_scheduler_path;
  int64_t cluster_timestamp_ms = 1700000000000;
  ClientRmServiceOptions service;
  rm::StaticGroupMapping groups;
  // Whether the manager gets the queue tree (queue states, AM limits) as
  // ActiveServices gives it. Off: no AM limit holds an app pending and no
  // queue state is checked at submission (what the goldens were made with).
  bool queue_tree_to_manager = false;
};

class RmHarness {
 public:
  explicit RmHarness(HarnessOptions options) : options_(std::move(options)) {
    pool::PoolOptions pool_options;
    pool_options.mode = pool::SyncMode::kMonolithic;
    pool_options.num_schedulers = 1;
    pool_options.num_partitions = 1;
    pool_ = std::move(pool::SchedulerPool::Create(pool_options, &clock_)).value();
    rm::NodeRegistryOptions node_options;
    node_options.min_allocation = pool::Resource::Of(128, 1);
    nodes_ = std::make_unique<rm::NodeRegistry>(node_options, pool_.get(), &clock_);
    rm::Configuration conf;
    if (!options_.capacity_scheduler_path.empty()) {
      EXPECT_TRUE(conf.AddResourceFile(options_.capacity_scheduler_path).ok());
    } else {
      EXPECT_TRUE(conf.AddResourceString(
                          "<configuration>" + options_.capacity_scheduler_xml + "</configuration>",
                          "capacity-scheduler.xml")
                      .ok());
    }
    auto queues = rm::QueueManager::Create(conf);
    EXPECT_TRUE(queues.ok()) << queues.status().ToString();
    queues_ = std::move(queues).value();
    ApplyQueues();
    rm::ApplicationManagerOptions app_options;
    app_options.cluster_timestamp_ms = options_.cluster_timestamp_ms;
    app_options.min_allocation = pool::Resource::Of(128, 1);
    containers_ = std::make_unique<rm::ContainerRegistry>(pool_.get(), &clock_);
    apps_ = std::make_unique<rm::ApplicationManager>(app_options, pool_.get(), containers_.get(),
                                                     &launcher_, nodes_.get(), &clock_);
    ApplyQueues();
    rm::RegistryFacadeParts parts;
    parts.apps = apps_.get();
    parts.nodes = nodes_.get();
    parts.queues = queues_.get();
    parts.pool = pool_.get();
    parts.containers = containers_.get();
    parts.clock = &clock_;
    parts.groups = &options_.groups;
    auto delegation_tokens =
        rm::RmDelegationTokenSecretManager::Create(rm::RmDelegationTokenOptions{}, &clock_);
    EXPECT_TRUE(delegation_tokens.ok()) << delegation_tokens.status().ToString();
    delegation_tokens_ = std::move(delegation_tokens).value();
    parts.delegation_tokens = delegation_tokens_.get();
    core_ = std::make_unique<rm::RegistryFacade>(parts);
    service_ = std::make_unique<ClientRmService>(options_.service, core_.get());
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(service_->MakeRpcService());
    // 8032 as the daemon runs it: TOKEN (RM delegation tokens) and SIMPLE.
    delegation_provider_ =
        std::make_unique<am_protocol::RmDelegationTokenSecretProvider>(delegation_tokens_.get());
    ipc::RpcServerOptions server_options;
    server_options.session.token_provider = delegation_provider_.get();
    server_ = std::make_unique<ipc::RpcServer>(server_options, registry);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~RmHarness() { server_->Stop(); }

  // Registers a NodeManager and re-sizes the queues for the new cluster.
  void AddNode(const std::string& host, int32_t port, pool::Resource capability,
               const std::string& rack = "/default-rack", int32_t http_port = 8042) {
    rm::NodeRegistration registration;
    registration.id = rm::NodeId{host, port};
    registration.http_port = http_port;
    registration.capability = capability;
    registration.rack = rack;
    EXPECT_EQ(nodes_->Register(registration).action, rm::NodeAction::kNormal);
    ApplyQueues();
  }

  void ApplyQueues() {
    pool::Resource cluster;
    for (const auto& node : nodes_ ? nodes_->Nodes() : std::vector<rm::NodeReport>()) {
      cluster += node.capability;
    }
    EXPECT_TRUE(pool_->SetQueues(queues_->Current()->ToQueueSpecs(cluster)).ok());
    // As ActiveServices does: the tree (queue states, AM limits) the
    // manager admits and activates applications by.
    if (apps_ != nullptr && options_.queue_tree_to_manager) {
      rm::AmLimitContext am;
      am.min_allocation = pool::Resource::Of(128, 1);
      am.cluster = cluster;
      apps_->SetAmLimits(queues_->Current(), am);
    }
  }

  // Lets the pool place AM containers and the manager pick them up.
  void Step() {
    pool_->RunAllOnce(clock_.Now());
    apps_->Tick();
  }
  // Places and launches every pending AM.
  void LaunchAll() {
    Step();
    launcher_.CompleteAll(Status::OK());
  }

  Status Call(const std::string& method, const google::protobuf::MessageLite& request,
              google::protobuf::MessageLite* response, const std::string& user = "alice") {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kApplicationClientProtocol;
    spec.user = user;
    return client_.Call(spec, method, request, response);
  }

  // A call on a connection authenticated with `token` (TOKEN/DIGEST-MD5);
  // `user` only keeps connections apart (a token connection's user is the
  // token's).
  Status CallWithToken(const std::string& method, const google::protobuf::MessageLite& request,
                       google::protobuf::MessageLite* response,
                       const hadoop::common::TokenProto& token, const std::string& user) {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kApplicationClientProtocol;
    spec.user = user;
    spec.token =
        ipc::ClientToken{token.identifier(), token.password(), token.kind(), token.service()};
    return client_.Call(spec, method, request, response);
  }

  ManualClock& clock() { return clock_; }
  pool::SchedulerPool& pool() { return *pool_; }
  rm::NodeRegistry& nodes() { return *nodes_; }
  rm::ApplicationManager& apps() { return *apps_; }
  rm::ContainerRegistry& containers() { return *containers_; }
  rm::QueueManager& queues() { return *queues_; }
  FakeLauncher& launcher() { return launcher_; }
  ClientRmService& service() { return *service_; }
  // What the front ends call (rm/core/client_facade.h).
  rm::ClientFacade& core() { return *core_; }
  rm::RmDelegationTokenSecretManager& delegation_tokens() { return *delegation_tokens_; }

 private:
  HarnessOptions options_;
  ManualClock clock_{TimePoint{}, 1700000000000};
  std::unique_ptr<pool::SchedulerPool> pool_;
  std::unique_ptr<rm::NodeRegistry> nodes_;
  std::unique_ptr<rm::QueueManager> queues_;
  FakeLauncher launcher_;
  std::unique_ptr<rm::ContainerRegistry> containers_;
  std::unique_ptr<rm::ApplicationManager> apps_;
  std::unique_ptr<rm::RmDelegationTokenSecretManager> delegation_tokens_;
  std::unique_ptr<am_protocol::RmDelegationTokenSecretProvider> delegation_provider_;
  std::unique_ptr<rm::RegistryFacade> core_;
  std::unique_ptr<ClientRmService> service_;
  std::unique_ptr<ipc::RpcServer> server_;
  ipc::RpcClient client_;
};

// One <property> element of capacity-scheduler.xml (key without the
// "yarn.scheduler.capacity." prefix).
inline std::string CsProperty(const std::string& key, const std::string& value) {
  return "<property><name>yarn.scheduler.capacity." + key + "</name><value>" + value +
         "</value></property>";
}

}  // namespace spindle::client_service::testing
