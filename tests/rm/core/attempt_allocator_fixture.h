// A small RM core for AttemptAllocator tests: the real pool, node and
// container registries, application manager and secret managers over three
// 8 GB / 8 vcore nodes (h1 and h2 on /r1, h3 on /r2), with test doubles only
// for the AM launcher and the store.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "rm/core/attempt_allocator.h"
#include "tests/rm/apps/app_manager_fakes.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm::test_support {

using pool::Resource;

// The store as a seam: keeps what SaveAsks and SaveAttemptRows were given,
// and counts the rows written.
class RecordingAppStore : public AppStore {
 public:
  Status SaveApp(const RmApp&) override { return Status::OK(); }
  Status SaveAttempt(const RmApp&, const RmAttempt&) override { return Status::OK(); }
  Status RemoveApp(const ApplicationId&) override { return Status::OK(); }
  Status ReserveAppIds(int32_t) override { return Status::OK(); }
  Status SaveAsks(const ApplicationAttemptId& attempt, const std::string& bytes) override {
    if (bytes.empty()) {
      asks.erase(attempt);
    } else {
      asks[attempt] = bytes;
    }
    return Status::OK();
  }
  Status SaveAttemptRows(const ApplicationAttemptId& attempt,
                         const AttemptRowChanges& changes) override {
    auto& stored = rows[attempt];
    for (const std::string& key : changes.erase) stored.erase(key);
    for (const auto& [key, bytes] : changes.put) stored[key] = bytes;
    if (stored.empty()) rows.erase(attempt);
    rows_written += static_cast<int>(changes.put.size() + changes.erase.size());
    return Status::OK();
  }
  std::map<ApplicationAttemptId, std::string> asks;
  std::map<ApplicationAttemptId, std::map<std::string, std::string>> rows;
  int rows_written = 0;
};

inline KeyRollingOptions Keys(KeyFamily family, int32_t first_key_id) {
  KeyRollingOptions keys;
  keys.family = family;
  keys.first_key_id = first_key_id;
  return keys;
}

inline ResourceRequest Ask(const std::string& name, int32_t count, bool relax = true,
                           Resource capability = Resource::Of(1024, 1), int32_t priority = 1) {
  return ResourceRequest{priority, -1, name, capability, count, relax, std::nullopt};
}

class AttemptAllocatorFixture : public ::testing::Test {
 protected:
  void SetUp() override { Build(HadoopLine::k3_3); }

  void Build(HadoopLine line) {
    allocator_.reset();
    next_id_.clear();
    apps_.reset();
    pool_ = test_support::MakeOneQueuePool(&clock_).pool;
    NodeRegistryOptions node_options;
    nodes_ = std::make_unique<NodeRegistry>(node_options, pool_.get(), &clock_);
    // h1 and h2 on /r1, h3 on /r2: 8 GB and 8 vcores each.
    for (const auto& [host, rack] : std::vector<std::pair<std::string, std::string>>{
             {"h1", "/r1"}, {"h2", "/r1"}, {"h3", "/r2"}}) {
      NodeRegistration r;
      r.id = NodeId{host, 45454};
      r.http_port = 8042;
      r.capability = Resource::Of(8192, 8);
      r.rack = rack;
      ASSERT_EQ(nodes_->Register(r).action, NodeAction::kNormal);
    }
    containers_ = std::make_unique<ContainerRegistry>(pool_.get(), &clock_);
    ApplicationManagerOptions app_options;
    app_options.cluster_timestamp_ms = 1700000000000;
    apps_ = std::make_unique<ApplicationManager>(app_options, pool_.get(), containers_.get(),
                                                 &launcher_, nodes_.get(), &clock_);
    // Secure mode if a test asked for it before Build().
    client_to_am_.reset();
    if (secure_) client_to_am_ = std::make_unique<ClientToAmTokenSecretManager>();
    apps_->SetClientToAmTokens(client_to_am_.get());
    amrm_ = AmrmTokenSecretManager::Create(Keys(KeyFamily::kAmrmTokens, 10), &clock_).value();
    ContainerTokenSecretManager::Options container_options;
    container_options.keys = Keys(KeyFamily::kContainerTokens, 20);
    container_tokens_ = ContainerTokenSecretManager::Create(container_options, &clock_).value();
    nm_tokens_ = NmTokenSecretManager::Create(Keys(KeyFamily::kNmTokens, 30), &clock_).value();
    AttemptAllocatorDeps deps;
    deps.apps = apps_.get();
    deps.nodes = nodes_.get();
    deps.containers = containers_.get();
    deps.pool = pool_.get();
    deps.amrm_tokens = amrm_.get();
    deps.container_tokens = container_tokens_.get();
    deps.nm_tokens = nm_tokens_.get();
    deps.client_to_am_tokens = client_to_am_.get();
    deps.clock = &clock_;
    deps.token_service = [](const NodeId& node) { return "10.0.0.1:" + std::to_string(node.port); };
    deps.store = &store_;
    deps.rules = TraitsOf(line).am_rules;
    // root.default: capacity-scheduler.xml's defaults plus whatever a test
    // set in queue_conf_ before Build().
    if (!queue_conf_.Get("yarn.scheduler.capacity.root.queues").has_value()) {
      queue_conf_.Set("yarn.scheduler.capacity.root.queues", "default");
      queue_conf_.Set("yarn.scheduler.capacity.root.default.capacity", "100");
    }
    queues_ = std::move(QueueManager::Create(queue_conf_)).value();
    node_labels_ = std::make_unique<NodeLabels>(label_options_);
    deps.queues = queues_.get();
    deps.node_labels = node_labels_.get();
    allocator_ = std::make_unique<AttemptAllocator>(deps);
  }

  // Submits an app, places and launches its AM; returns its attempt.
  ApplicationAttemptId LaunchedApp() {
    Submission s = DemoSubmission(apps_.get(), "default");
    EXPECT_TRUE(apps_->Submit(s).ok());
    Place();
    launcher_.CompleteAll(Status::OK());
    return ApplicationAttemptId{s.id, 1};
  }
  ApplicationAttemptId RegisteredApp() {
    const ApplicationAttemptId attempt = LaunchedApp();
    EXPECT_TRUE(allocator_->Register(attempt, "am-host", 1234, "").ok());
    return attempt;
  }
  void Place() {
    pool_->RunAllOnce(clock_.Now());
    apps_->Tick();
  }

  // Makes `label` an exclusive cluster label and puts `host`'s nodes in its
  // partition.
  void LabelHost(const std::string& host, const std::string& label) {
    ASSERT_TRUE(node_labels_->AddClusterLabels({{label, true}}).ok());
    pool::NodeUpdate update;
    update.set_label = true;
    update.label = pool_->InternLabel(label);
    for (pool::NodeId node : nodes_->PoolNodesOnHost(host)) {
      ASSERT_TRUE(pool_->UpdateNode(node, update).ok());
    }
  }

  // One allocate with the next responseId.
  std::shared_ptr<const AllocateResponse> Call(const ApplicationAttemptId& attempt,
                                               AllocateRequest request = {}) {
    request.response_id = next_id_[attempt];
    auto answer = allocator_->Allocate(attempt, request);
    EXPECT_TRUE(answer.ok()) << answer.status().ToString();
    if (!answer.ok()) return nullptr;
    next_id_[attempt] = (*answer)->response_id;
    return *answer;
  }
  std::shared_ptr<const AllocateResponse> CallWith(const ApplicationAttemptId& attempt,
                                                   std::vector<ResourceRequest> asks) {
    AllocateRequest request;
    request.asks = std::move(asks);
    return Call(attempt, request);
  }
  // Asks, lets the pool place, and collects what the next call hands out.
  std::vector<AllocatedContainer> AskAndTake(const ApplicationAttemptId& attempt,
                                             std::vector<ResourceRequest> asks) {
    CallWith(attempt, std::move(asks));
    Place();
    return Call(attempt)->allocated;
  }
  static std::multiset<std::string> Hosts(const std::vector<AllocatedContainer>& containers) {
    std::multiset<std::string> hosts;
    for (const auto& c : containers) hosts.insert(c.node.host);
    return hosts;
  }
  Status ErrorOf(const ApplicationAttemptId& attempt, AllocateRequest request) {
    request.response_id = next_id_[attempt];
    return allocator_->Allocate(attempt, request).status();
  }

  ManualClock clock_{TimePoint{}, 1700000000000};
  std::unique_ptr<pool::SchedulerPool> pool_;
  std::unique_ptr<NodeRegistry> nodes_;
  std::unique_ptr<ContainerRegistry> containers_;
  FakeLauncher launcher_;
  // Secure mode (set before Build): the ClientToAM keys, before apps_.
  bool secure_ = false;
  std::unique_ptr<ClientToAmTokenSecretManager> client_to_am_;
  std::unique_ptr<ApplicationManager> apps_;
  std::unique_ptr<AmrmTokenSecretManager> amrm_;
  std::unique_ptr<ContainerTokenSecretManager> container_tokens_;
  std::unique_ptr<NmTokenSecretManager> nm_tokens_;
  RecordingAppStore store_;
  Configuration queue_conf_;
  std::unique_ptr<QueueManager> queues_;
  // Labels on unless a test turns them off before Build().
  NodeLabelsOptions label_options_{.enabled = true};
  std::unique_ptr<NodeLabels> node_labels_;
  std::unique_ptr<AttemptAllocator> allocator_;
  std::map<ApplicationAttemptId, int32_t> next_id_;
};

}  // namespace spindle::rm::test_support
