// rm::ResourceManager with the real RM core objects (pool, registries,
// application manager, secret managers, a memory state store): its
// lifecycle (always-on vs active services, active -> standby -> active on
// one object, the store kept and the applications recovered each time) and
// the use cases front ends call instead of reaching into registries.
#include "rm/core/resource_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>

#include "base/crypto.h"
#include "integration/wait_for.h"
#include "rm/config/configuration_directory.h"
#include "rm/core/stored_ask_rows.h"
#include "rm/recovery/attempt_asks_record.h"
#include "rm/yarn_exceptions.h"
#include "yarn_protos.pb.h"

namespace spindle::rm {
namespace {

using ::testing::HasSubstr;

// Launches every AM at once (the AM container is then LAUNCHED); records
// what it launched. Called from the housekeeping thread.
class RecordingLauncher : public AmLauncher {
 public:
  explicit RecordingLauncher(std::multiset<ApplicationAttemptId>* launched, Mutex* mu)
      : launched_(launched), mu_(mu) {}
  void Launch(const AmLaunch& launch, std::function<void(Status)> done) override {
    {
      MutexLock lock(mu_);
      launched_->insert(launch.attempt);
    }
    done(Status::OK());
  }
  void Cleanup(const AmLaunch&) override {}

 private:
  std::multiset<ApplicationAttemptId>* const launched_;
  Mutex* const mu_;
};

// Stands in for the daemon's Thrift server of the cell-state service:
// counts the servers alive and remembers which service each served.
class FakeCellServer : public CellServiceServer {
 public:
  FakeCellServer(std::atomic<int>* alive, int port) : alive_(alive), port_(port) { ++*alive_; }
  ~FakeCellServer() override { --*alive_; }
  int port() const override { return port_; }

 private:
  std::atomic<int>* const alive_;
  const int port_;
};

class ResourceManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_dir_ = std::filesystem::temp_directory_path() /
                ("rm_core_test_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(conf_dir_);
    WriteQueues({"default"});
  }
  void TearDown() override {
    rm_.reset();
    std::filesystem::remove_all(conf_dir_);
  }

  // capacity-scheduler.xml with these leaf queues under root, sharing it.
  // capacity-scheduler.xml with `leaves` under root sharing 100, plus
  // `extra` (keys without the common prefix).
  void WriteQueues(const std::vector<std::string>& leaves,
                   const std::map<std::string, std::string>& extra = {}) {
    std::string names;
    for (const auto& leaf : leaves) names += (names.empty() ? "" : ",") + leaf;
    std::ofstream xml(conf_dir_ / "capacity-scheduler.xml", std::ios::trunc);
    xml << "<configuration>\n";
    auto property = [&xml](const std::string& key, const std::string& value) {
      xml << "<property><name>yarn.scheduler.capacity." << key << "</name><value>" << value
          << "</value></property>\n";
    };
    property("root.queues", names);
    // Several AMs share the fixture's one 8 GB node: the default 10% AM
    // limit would hold all but one pending (am_activation.h).
    property("maximum-am-resource-percent", "1.0");
    for (size_t i = 0; i < leaves.size(); ++i) {
      const int share = 100 / static_cast<int>(leaves.size()) +
                        (i == 0 ? 100 % static_cast<int>(leaves.size()) : 0);
      property("root." + leaves[i] + ".capacity", std::to_string(share));
    }
    for (const auto& [key, value] : extra) property(key, value);
    xml << "</configuration>\n";
  }

  void WriteYarnSite(const std::map<std::string, std::string>& keys) {
    std::ofstream xml(conf_dir_ / "yarn-site.xml", std::ios::trunc);
    xml << "<configuration>\n";
    for (const auto& [key, value] : keys) {
      xml << "<property><name>" << key << "</name><value>" << value << "</value></property>\n";
    }
    xml << "</configuration>\n";
  }

  Result<std::unique_ptr<ResourceManager>> MakeRm(
      const std::map<std::string, std::string>& extra = {}) {
    std::map<std::string, std::string> keys = {
        {"yarn.resourcemanager.recovery.enabled", "true"},
        {"yarn.resourcemanager.store.class", "memory"},
        {"spindle.scheduler.mode", "monolithic"},
        {"spindle.scheduler.count", "1"},
        {"spindle.scheduler.partitions", "1"},
        {"yarn.admin.acl", "admin"},
    };
    for (const auto& [key, value] : extra) keys[key] = value;
    WriteYarnSite(keys);
    ASSIGN_OR_RETURN(Configuration conf, LoadConfigurationDirectory(conf_dir_.string()));
    ResourceManagerOptions options;
    options.conf_dir = conf_dir_.string();
    options.node_token_service = [](const NodeId& node) { return node.ToString(); };
    options.launcher_factory = [this](const SecretManagers& secrets) {
      EXPECT_NE(secrets.amrm, nullptr);
      return std::make_unique<RecordingLauncher>(&launched_, &launched_mu_);
    };
    options.cell_service_server = cell_service_server_;
    options.security_enabled = secure_;
    return ResourceManager::Create(std::move(conf), std::move(options));
  }

  void StartRm() {
    auto rm = MakeRm();
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());
  }

  NodeRegisterRequest Registration(const NodeId& node) {
    NodeRegisterRequest request;
    request.runs_applications = false;
    request.registration.id = node;
    request.registration.http_port = 8042;
    request.registration.capability = pool::Resource::Of(8192, 8);
    request.registration.nm_version = "3.3.6";
    return request;
  }

  Submission MakeSubmission(const ApplicationId& id, const std::string& queue = "default") {
    Submission s;
    s.id = id;
    s.user = "alice";
    s.name = "facade";
    const CsQueue* leaf = rm_->QueueReport()->FindLeaf(queue);
    EXPECT_NE(leaf, nullptr);
    s.queue = QueueTree::PoolQueueName(*leaf);
    s.queue_limits =
        QueueLimits{leaf->path, leaf->maximum_applications, leaf->maximum_applications_per_user};
    s.am_resource = pool::Resource::Of(1024, 1);
    s.context_bytes = "opaque-context";
    return s;
  }

  // Submits an app through the facade and waits until its AM is launched.
  ApplicationId SubmitAndLaunch() {
    auto id = rm_->NewApplicationId();
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    EXPECT_TRUE(rm_->SubmitApplication(MakeSubmission(*id)).ok());
    EXPECT_TRUE(WaitFor([&] {
      auto app = rm_->ApplicationReport(*id);
      const RmAttempt* attempt = app.ok() ? app->current_attempt() : nullptr;
      return attempt != nullptr && attempt->state == AttemptState::kLaunched;
    })) << "the AM of "
        << id->ToString() << " was never launched";
    return *id;
  }

  size_t LaunchesOf(const ApplicationAttemptId& attempt) {
    MutexLock lock(&launched_mu_);
    return launched_.count(attempt);
  }

  static bool IsStandby(const Status& s) {
    return s.IsRemote() && s.java_class() == yarn::kStandby;
  }

  // An active RM with node labels on and the exclusive label x set on
  // `labelled` (a node that has not registered yet).
  void StartWithLabelX(const NodeId& labelled) {
    // The default queue's share of x: all of it (a queue without a
    // capacity for a label may not use it, as in Hadoop 2.7+).
    WriteQueues({"default"}, {{"root.accessible-node-labels.x.capacity", "100"},
                              {"root.default.accessible-node-labels.x.capacity", "100"}});
    auto rm = MakeRm({{"yarn.node-labels.enabled", "true"}});
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());
    ASSERT_TRUE(rm_->AddToClusterNodeLabels({{"x", true}}).ok());
    ASSERT_TRUE(rm_->ReplaceLabelsOnNodes({{labelled, {"x"}}}, false).ok());
  }

  // The node of the app's AM container once it is placed; nullopt if it is
  // not placed in time.
  std::optional<NodeId> AmNodeOf(const ApplicationId& id) {
    std::optional<NodeId> node;
    const bool placed = WaitFor([&] {
      auto app = rm_->ApplicationReport(id);
      const RmAttempt* attempt = app.ok() ? app->current_attempt() : nullptr;
      if (attempt == nullptr || !attempt->am_container.has_value()) return false;
      node = attempt->am_container->node;
      return true;
    });
    return placed ? node : std::nullopt;
  }

  const NodeId node_{"host1", 45454};
  std::filesystem::path conf_dir_;
  Mutex launched_mu_;
  CellServiceServerFactory cell_service_server_;
  std::multiset<ApplicationAttemptId> launched_;
  // ResourceManagerOptions::security_enabled of the next MakeRm.
  bool secure_ = false;
  std::unique_ptr<ResourceManager> rm_;
};

TEST_F(ResourceManagerTest, CreateChecksTheConfigurationAndStaysStandby) {
  auto refused = MakeRm({{"yarn.resourcemanager.am.max-attempts", "0"}});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("yarn.resourcemanager.am.max-attempts"));
  EXPECT_THAT(refused.status().message(), HasSubstr("yarn-site.xml"));

  auto rm = MakeRm();
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  rm_ = std::move(rm).value();
  EXPECT_EQ(rm_->ha_state(), HaState::kStandby);
  // The always-on services answer; the active ones say the RM is standby.
  EXPECT_NE(rm_->QueueReport()->FindLeaf("default"), nullptr);
  EXPECT_TRUE(rm_->IsAdmin("admin"));
  EXPECT_FALSE(rm_->IsAdmin("alice"));
  EXPECT_TRUE(IsStandby(rm_->NewApplicationId().status()));
  EXPECT_TRUE(IsStandby(rm_->RegisterNode(Registration(node_)).status()));
  EXPECT_TRUE(IsStandby(rm_->NodeHeartbeats(std::vector<NodeHeartbeatRequest>(1)).status()));
  EXPECT_TRUE(IsStandby(rm_->RefreshQueues()));
  EXPECT_TRUE(rm_->ApplicationReports().empty());
  EXPECT_TRUE(rm_->NodeReports().empty());
  EXPECT_FALSE(rm_->holding_placements());
  EXPECT_EQ(rm_->cluster_timestamp(), 0);
}

TEST_F(ResourceManagerTest, NodeUseCasesThroughTheFacade) {
  StartRm();
  ASSERT_EQ(rm_->ha_state(), HaState::kActive);
  auto registered = rm_->RegisterNode(Registration(node_));
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_EQ(registered->action, NodeAction::kNormal);
  EXPECT_EQ(registered->rm_identifier, rm_->start_ms());
  ASSERT_TRUE(registered->container_token_key.has_value());
  ASSERT_TRUE(registered->nm_token_key.has_value());
  EXPECT_EQ(rm_->NodeCounts().active, 1);
  ASSERT_TRUE(rm_->NodeReportOf(node_).has_value());
  EXPECT_EQ(rm_->NodeReportOf(node_)->state, NodeState::kRunning);

  NodeHeartbeatRequest beat;
  beat.heartbeat.id = node_;
  beat.heartbeat.response_id = 0;
  beat.last_container_token_key = registered->container_token_key->key_id;
  beat.last_nm_token_key = registered->nm_token_key->key_id;
  auto first = rm_->NodeHeartbeat(beat);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->action, NodeAction::kNormal);
  EXPECT_EQ(first->response_id, 1);
  EXPECT_FALSE(first->container_token_key.has_value()) << "the node has the current key";
  // The same heartbeat again gets the same answer (a retried RPC).
  auto again = rm_->NodeHeartbeat(beat);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->response_id, 1);

  EXPECT_EQ(rm_->UnregisterNode(NodeId{"nowhere", 1}).code(), Status::Code::kNotFound);
  ASSERT_TRUE(rm_->UnregisterNode(node_).ok());
  EXPECT_EQ(rm_->NodeReportOf(node_)->state, NodeState::kShutdown);
  EXPECT_EQ(rm_->NodeCounts().active, 0);
}

// Many nodes' heartbeats in one call (the wind tunnel's): each request is
// answered as NodeHeartbeat would answer it had the requests come one after
// another, repeats and refusals included, and what the batch answered is
// what a retried heartbeat gets later.
TEST_F(ResourceManagerTest, NodeHeartbeatsAnswerEachAsItsOwnHeartbeatWould) {
  StartRm();
  const NodeId host2{"host2", 45454};
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  ASSERT_TRUE(rm_->RegisterNode(Registration(host2)).ok());
  auto beat = [](const NodeId& node, int32_t response_id) {
    NodeHeartbeatRequest request;
    request.heartbeat.id = node;
    request.heartbeat.response_id = response_id;
    return request;
  };
  const std::vector<NodeHeartbeatRequest> requests{
      beat(node_, 0),
      beat(host2, 0),
      beat(node_, 1),
      beat(node_, 1),  // a retry of the one before: its answer again
      beat(NodeId{"nowhere", 1}, 0),
      beat(host2, 5)};
  auto outcomes = rm_->NodeHeartbeats(requests);
  ASSERT_TRUE(outcomes.ok()) << outcomes.status().ToString();
  ASSERT_EQ(outcomes->size(), requests.size());
  const std::vector<NodeAction> actions{NodeAction::kNormal, NodeAction::kNormal,
                                        NodeAction::kNormal, NodeAction::kNormal,
                                        NodeAction::kResync, NodeAction::kResync};
  const std::vector<int32_t> response_ids{1, 1, 2, 2, 0, 0};
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ((*outcomes)[i].action, actions[i]) << i;
    EXPECT_EQ((*outcomes)[i].response_id, response_ids[i]) << i;
  }
  EXPECT_THAT((*outcomes)[4].diagnostics, HasSubstr("Node not found"));
  EXPECT_THAT((*outcomes)[5].diagnostics, HasSubstr("Too far behind"));
  // Retried alone later: the answer the batch gave.
  auto retried = rm_->NodeHeartbeat(beat(node_, 1));
  ASSERT_TRUE(retried.ok());
  EXPECT_EQ(retried->response_id, 2);
  auto retried_in_batch = rm_->NodeHeartbeats(std::vector<NodeHeartbeatRequest>{beat(host2, 0)});
  ASSERT_TRUE(retried_in_batch.ok());
  EXPECT_EQ(retried_in_batch->at(0).response_id, 1);
}

// An AM container's end reported in a batch ends its attempt before the
// next request is taken, and the node is told to forget it at its next
// heartbeat, in the same batch, as with one call per heartbeat.
TEST_F(ResourceManagerTest, NodeHeartbeatsEndTheAttemptOfAnAmContainerMidBatch) {
  StartRm();
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  const ApplicationId app = SubmitAndLaunch();
  const ApplicationAttemptId attempt = rm_->ApplicationReport(app)->current_attempt()->id;
  const std::vector<RmContainer> containers = rm_->ContainerReports(attempt);
  ASSERT_EQ(containers.size(), 1u);
  ASSERT_TRUE(containers[0].is_am);
  std::vector<NodeHeartbeatRequest> requests(2);
  requests[0].heartbeat.id = node_;
  requests[0].heartbeat.response_id = 0;
  NodeContainerReport ended;
  ended.id = containers[0].id;
  ended.complete = true;
  ended.exit_status = 1;
  requests[0].containers.push_back(ended);
  requests[1].heartbeat.id = node_;
  requests[1].heartbeat.response_id = 1;
  auto outcomes = rm_->NodeHeartbeats(requests);
  ASSERT_TRUE(outcomes.ok()) << outcomes.status().ToString();
  ASSERT_EQ(outcomes->size(), 2u);
  EXPECT_TRUE((*outcomes)[0].containers_to_remove.empty());
  EXPECT_EQ((*outcomes)[1].containers_to_remove, std::vector<ContainerId>{containers[0].id});
  EXPECT_EQ(rm_->ApplicationReport(app)->attempts.at(0).state, AttemptState::kFailed);
}

TEST_F(ResourceManagerTest, ApplicationUseCasesThroughTheFacade) {
  StartRm();
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  std::vector<ApplicationAttemptId> ended;
  Mutex ended_mu;
  rm_->SetAttemptEndedHook([&](const ApplicationAttemptId& attempt) {
    MutexLock lock(&ended_mu);
    ended.push_back(attempt);
  });
  const ApplicationId app = SubmitAndLaunch();
  auto report = rm_->ApplicationReport(app);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->submission.user, "alice");
  const ApplicationAttemptId attempt = report->current_attempt()->id;
  EXPECT_EQ(LaunchesOf(attempt), 1u);
  ASSERT_TRUE(rm_->AttemptReport(attempt).ok());
  EXPECT_EQ(rm_->AttemptReport(ApplicationAttemptId{app, 7}).status().java_class(),
            yarn::kApplicationAttemptNotFound);
  // The AM container is a live container of the attempt, on the node.
  const std::vector<RmContainer> containers = rm_->ContainerReports(attempt);
  ASSERT_EQ(containers.size(), 1u);
  EXPECT_TRUE(containers[0].is_am);
  EXPECT_EQ(containers[0].node, node_);
  EXPECT_TRUE(rm_->ContainerReport(containers[0].id).has_value());

  // Moving to a queue that does not exist is refused as Hadoop refuses it.
  Status moved = rm_->MoveApplication(app, "nowhere", "alice", {});
  EXPECT_EQ(moved.java_class(), yarn::kAccessControl);
  EXPECT_THAT(moved.message(), HasSubstr("target queue doesn't exist: nowhere"));

  EXPECT_EQ(rm_->KillApplication(ApplicationId{1, 999}, "").status().java_class(),
            yarn::kApplicationNotFound);
  ASSERT_TRUE(WaitFor([&] {
    auto killed = rm_->KillApplication(app, "killed by the test");
    return killed.ok() && *killed;
  }));
  EXPECT_EQ(rm_->ApplicationReport(app)->state, AppState::kKilled);
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&ended_mu);
    return std::count(ended.begin(), ended.end(), attempt) == 1;
  })) << "the AM path hears of the attempt's end";
}

TEST_F(ResourceManagerTest, RefreshesRereadTheConfigurationDirectory) {
  StartRm();
  EXPECT_EQ(rm_->queue_config_version(), 0);
  WriteQueues({"default", "batch"});
  ASSERT_TRUE(rm_->RefreshQueues().ok());
  EXPECT_NE(rm_->QueueReport()->FindLeaf("batch"), nullptr);
  EXPECT_EQ(rm_->queue_config_version(), 1);
  // A tree Hadoop refuses to reload to (a queue removed while it is
  // RUNNING) leaves the current one.
  WriteQueues({"batch"});
  Status refused = rm_->RefreshQueues();
  EXPECT_EQ(refused.java_class(), "java.io.IOException");
  EXPECT_THAT(refused.message(), HasSubstr("Failed to re-init queues"));
  EXPECT_NE(rm_->QueueReport()->FindLeaf("default"), nullptr);
  EXPECT_EQ(rm_->queue_config_version(), 1);

  // Per-label capacities are checked as the tree is (ParentQueue.
  // setChildQueues per label): a bad file leaves the current tree.
  WriteQueues({"default", "batch"}, {{"root.accessible-node-labels.x.capacity", "100"},
                                     {"root.default.accessible-node-labels.x.capacity", "60"},
                                     {"root.batch.accessible-node-labels.x.capacity", "30"}});
  refused = rm_->RefreshQueues();
  EXPECT_EQ(refused.java_class(), "java.io.IOException");
  EXPECT_THAT(refused.message(),
              HasSubstr("Failed to re-init queues : Illegal capacity of 0.90000004 for children "
                        "of queue root for label=x"));
  EXPECT_EQ(rm_->QueueReport()->FindLeaf("batch")->CapacityIn("x").absolute_capacity, 0);
  EXPECT_EQ(rm_->queue_config_version(), 1);

  // yarn.admin.acl is re-read from yarn-site.xml.
  EXPECT_FALSE(rm_->IsAdmin("alice"));
  WriteYarnSite({{"yarn.admin.acl", "alice"}});
  ASSERT_TRUE(rm_->RefreshAdminAcls().ok());
  EXPECT_TRUE(rm_->IsAdmin("alice"));
}

TEST_F(ResourceManagerTest, RefreshNodesDecommissionsExcludedNodes) {
  StartRm();
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  const std::filesystem::path exclude = conf_dir_ / "exclude";
  std::ofstream(exclude) << node_.host << "  # retired\n";
  WriteYarnSite({{"yarn.resourcemanager.nodes.exclude-path", exclude.string()}});
  ASSERT_TRUE(rm_->RefreshNodes().ok());
  EXPECT_EQ(rm_->NodeReportOf(node_)->state, NodeState::kDecommissioned);
  EXPECT_EQ(rm_->NodeCounts().active, 0);
}

// The NM liveliness monitor is an active service: a node that stops
// heartbeating is LOST once the expiry is over, and its AM container ends
// its attempt (the AM path hears of it).
TEST_F(ResourceManagerTest, SilentNodesExpireWhileActive) {
  auto rm = MakeRm({{"yarn.nm.liveness-monitor.expiry-interval-ms", "1500"}});
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  rm_ = std::move(rm).value();
  ASSERT_TRUE(rm_->Start().ok());
  Mutex ended_mu;
  std::vector<ApplicationAttemptId> ended;
  rm_->SetAttemptEndedHook([&](const ApplicationAttemptId& attempt) {
    MutexLock lock(&ended_mu);
    ended.push_back(attempt);
  });
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  const ApplicationId app = SubmitAndLaunch();
  const ApplicationAttemptId first{app, 1};
  ASSERT_TRUE(WaitFor([&] {
    auto node = rm_->NodeReportOf(node_);
    return node.has_value() && node->state == NodeState::kLost;
  })) << "the silent node is never declared lost";
  EXPECT_EQ(rm_->NodeCounts().lost, 1);
  ASSERT_TRUE(WaitFor([&] {
    MutexLock lock(&ended_mu);
    return std::count(ended.begin(), ended.end(), first) == 1;
  })) << "the lost AM container ends its attempt";
  EXPECT_TRUE(rm_->ContainerReports(first).empty());
}

// One ResourceManager object goes active, standby, active, standby, active:
// each activation recovers every application the store holds, takes a new
// cluster timestamp (Hadoop's startActiveServices), starts a new epoch, and
// waits for the previous activation's nodes before placing.
TEST_F(ResourceManagerTest, ActiveStandbyActiveKeepsTheStoreAndRecoversApps) {
  StartRm();
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  const ApplicationId first = SubmitAndLaunch();
  int64_t cluster_timestamp = rm_->cluster_timestamp();
  WriteQueues({"default", "batch"});
  ASSERT_TRUE(rm_->RefreshQueues().ok());
  // What the AM path keeps for a live attempt (its asks as rows) goes
  // through the activation's store to the next activation's allocator.
  const ApplicationAttemptId first_attempt{first, 1};
  ASSERT_NE(rm_->app_store(), nullptr);
  AttemptAsksRecord two;
  two.asks = {ResourceRequest{1, -1, "*", pool::Resource::Of(1024, 1), 2, true, std::nullopt}};
  AttemptRowChanges rows;
  rows.put = {{StoredAskRows::kTableRow, "1"},
              {StoredAskRows::AskRowKey(pool::AskKey{1, -1, pool::Resource::Of(1024, 1)}, "*"),
               EncodeAttemptAsks(two)}};
  ASSERT_TRUE(rm_->app_store()->SaveAttemptRows(first_attempt, rows).ok());
  EXPECT_FALSE(rm_->attempt_allocator().HoldsRecoveredAsks(first_attempt));

  std::vector<ApplicationId> submitted = {first};
  for (int round = 1; round <= 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // What the node runs: the AM container of every app (an NM keeps them
    // running across the switch and reports them to the new active RM).
    NodeRegisterRequest resync = Registration(node_);
    resync.runs_applications = true;
    for (const ApplicationId& app : submitted) {
      const Result<RmApp> report = rm_->ApplicationReport(app);
      ASSERT_TRUE(report.ok());
      const RmAttempt* attempt = report->current_attempt();
      ASSERT_NE(attempt, nullptr);
      ASSERT_TRUE(attempt->am_container.has_value());
      NodeContainerReport running;
      running.id = attempt->am_container->id;
      running.resource = pool::Resource::Of(1024, 1);
      running.created_ms = attempt->am_container->created_ms;
      resync.containers.push_back(running);
    }
    // The node list is in the store (written by the housekeeping thread).
    ASSERT_TRUE(WaitFor([&] { return rm_->NodeListStoredForTest(); }));
    rm_->TransitionToStandby();
    EXPECT_EQ(rm_->ha_state(), HaState::kStandby);
    EXPECT_TRUE(IsStandby(rm_->NewApplicationId().status()));
    EXPECT_TRUE(IsStandby(rm_->ApplicationReport(first).status()));
    EXPECT_TRUE(rm_->NodeReports().empty());
    // The always-on side still answers.
    EXPECT_NE(rm_->QueueReport()->FindLeaf("batch"), nullptr);

    ASSERT_TRUE(rm_->TransitionToActive().ok());
    EXPECT_EQ(rm_->ha_state(), HaState::kActive);
    EXPECT_GT(rm_->cluster_timestamp(), cluster_timestamp) << "a new timestamp per activation";
    EXPECT_EQ(rm_->start_ms(), rm_->cluster_timestamp()) << "the nodes' rmIdentifier is it";
    cluster_timestamp = rm_->cluster_timestamp();
    EXPECT_EQ(rm_->queue_config_version(), 1) << "the refresh count is read back";
    for (const ApplicationId& app : submitted) {
      auto recovered = rm_->ApplicationReport(app);
      ASSERT_TRUE(recovered.ok()) << app.ToString() << ": " << recovered.status().ToString();
      EXPECT_EQ(recovered->submission.name, "facade");
      EXPECT_NE(recovered->state, AppState::kFailed);
    }
    EXPECT_EQ(rm_->ApplicationReports().size(), submitted.size());
    EXPECT_TRUE(rm_->attempt_allocator().HoldsRecoveredAsks(first_attempt));
    // The previous activation's node is awaited before anything is placed;
    // it re-registers (an NM resyncs with the new active RM).
    EXPECT_TRUE(rm_->holding_placements());
    ASSERT_TRUE(rm_->RegisterNode(resync).ok());
    ASSERT_TRUE(WaitFor([&] { return !rm_->holding_placements(); }));
    for (const ApplicationId& app : submitted) {
      const Result<RmApp> report = rm_->ApplicationReport(app);
      ASSERT_TRUE(report.ok());
      const RmAttempt* attempt = report->current_attempt();
      EXPECT_EQ(attempt->id.attempt, 1) << app.ToString() << " kept its first attempt";
      EXPECT_EQ(attempt->state, AttemptState::kLaunched);
      EXPECT_EQ(rm_->ContainerReports(attempt->id).size(), 1u) << "its AM container is back";
    }

    // New ids are the new timestamp's, from 1 (ClientRMService's counter
    // starts again), and none is a recovered one's; new apps run.
    const ApplicationId next = SubmitAndLaunch();
    EXPECT_EQ(next.cluster_timestamp, cluster_timestamp);
    EXPECT_EQ(next.id, 1);
    for (const ApplicationId& app : submitted) EXPECT_NE(next, app);
    submitted.push_back(next);
  }
  rm_->Stop();
  EXPECT_EQ(rm_->ha_state(), HaState::kStopped);
  EXPECT_EQ(rm_->TransitionToActive().code(), Status::Code::kUnavailable);
}

// Queue capacities per node label through the RM core (monolithic
// scheduler, in process): host1 (8 GB) is the default partition, host2
// (8 GB) the exclusive label x. a is guaranteed 75% of the default partition
// and 25% of x, b the opposite; both may grow to 100% of each. Each app's
// AM (1 GB, default partition) asks for 100 containers of 1 GB in each
// partition; whoever asked first fills a partition, then every round each
// app gives one container of each partition back (asks stay outstanding):
// the freed room goes to the queue below its guarantee there, until each
// partition holds the guarantees (default: a 6 GB, b 2 GB; x: a 2 GB, b
// 6 GB) and keeps them (ParentQueue's per-partition ordering,
// TestNodeLabelContainerAllocation.testPreferenceOfQueuesTowardsNodePartitions's
// shape).
class LabelGuaranteesTest : public ResourceManagerTest {
 protected:
  struct App {
    ApplicationAttemptId attempt;
    int32_t response_id = 0;
    std::vector<AllocatedContainer> held;
  };

  void Start() {
    std::ofstream xml(conf_dir_ / "capacity-scheduler.xml", std::ios::trunc);
    xml << "<configuration>\n";
    for (const auto& [key, value] :
         std::map<std::string, std::string>{{"root.queues", "a,b"},
                                            {"maximum-am-resource-percent", "1.0"},
                                            {"root.accessible-node-labels.x.capacity", "100"},
                                            {"root.a.capacity", "75"},
                                            {"root.a.accessible-node-labels", "x"},
                                            {"root.a.accessible-node-labels.x.capacity", "25"},
                                            {"root.b.capacity", "25"},
                                            {"root.b.accessible-node-labels", "x"},
                                            {"root.b.accessible-node-labels.x.capacity", "75"}}) {
      xml << "<property><name>yarn.scheduler.capacity." << key << "</name><value>" << value
          << "</value></property>\n";
    }
    xml << "</configuration>\n";
    xml.close();
    auto rm = MakeRm({{"yarn.node-labels.enabled", "true"}});
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());
    ASSERT_TRUE(rm_->AddToClusterNodeLabels({{"x", true}}).ok());
    ASSERT_TRUE(rm_->ReplaceLabelsOnNodes({{labelled_, {"x"}}}, false).ok());
    ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
    ASSERT_TRUE(rm_->RegisterNode(Registration(labelled_)).ok());
    // The queues' shares follow the partitions once the housekeeping saw
    // both nodes (the AM limits are set in the same pass: b's is 25% of
    // 16 GB then).
    ASSERT_TRUE(WaitFor(
        [&] { return rm_->apps().AmReport("b").limits.queue_am_limit.memory_mb() >= 4096; }));
  }

  App Launch(const std::string& queue) {
    auto id = rm_->NewApplicationId();
    EXPECT_TRUE(id.ok());
    EXPECT_TRUE(rm_->SubmitApplication(MakeSubmission(*id, queue)).ok());
    App app;
    app.attempt = ApplicationAttemptId{*id, 1};
    EXPECT_TRUE(WaitFor([&] {
      auto report = rm_->ApplicationReport(*id);
      const RmAttempt* attempt = report.ok() ? report->current_attempt() : nullptr;
      return attempt != nullptr && attempt->state == AttemptState::kLaunched;
    }));
    EXPECT_TRUE(rm_->attempt_allocator().Register(app.attempt, "host1", 1, "").ok());
    return app;
  }

  void Call(App* app, AllocateRequest request) {
    request.response_id = app->response_id;
    auto answer = rm_->attempt_allocator().Allocate(app->attempt, request);
    ASSERT_TRUE(answer.ok()) << answer.status().ToString();
    app->response_id = (*answer)->response_id;
    for (const auto& c : (*answer)->allocated) app->held.push_back(c);
  }

  // GB the app holds on `host` (its AM not included).
  static int64_t On(const App& app, const std::string& host) {
    int64_t gb = 0;
    for (const auto& c : app.held) gb += c.node.host == host ? c.resource.memory_mb() / 1024 : 0;
    return gb;
  }

  // Gives back one container on each host.
  void ReleaseOneOnEach(App* app) {
    AllocateRequest release;
    for (const std::string host : {"host1", "host2"}) {
      auto it = std::find_if(app->held.begin(), app->held.end(),
                             [&](const AllocatedContainer& c) { return c.node.host == host; });
      if (it == app->held.end()) continue;
      release.releases.push_back(it->id);
      app->held.erase(it);
    }
    Call(app, release);
  }

  const NodeId labelled_{"host2", 45454};
};

TEST_F(LabelGuaranteesTest, QueuesConvergeToTheirGuaranteesInEachPartition) {
  Start();
  App a = Launch("a");
  App b = Launch("b");
  for (App* app : {&a, &b}) {
    AllocateRequest ask;
    ask.asks.push_back(
        ResourceRequest{1, -1, "*", pool::Resource::Of(1024, 1), 100, true, std::nullopt});
    ask.asks.push_back(ResourceRequest{2, -1, "*", pool::Resource::Of(1024, 1), 100, true, "x"});
    Call(app, ask);
  }
  // Both nodes full: 16 GB, the two AMs included.
  const auto full = [&] {
    Call(&a, {});
    Call(&b, {});
    return On(a, "host1") + On(b, "host1") == 6 && On(a, "host2") + On(b, "host2") == 8;
  };
  // Steady state within one container of the guarantees (the issue's
  // fidelity bar: a release and the refill race the next release), held
  // for the last rounds; exactly at them at least once. Since the ledger
  // plays the queues' order at reservation (scheduler_pool/queue_ledger.h)
  // the exact state came after more than 30 rounds in ~15% of runs (within
  // one container all along), so up to 100 rounds.
  const auto near = [](int64_t got, int64_t want) { return got >= want - 1 && got <= want + 1; };
  int settled = 0;
  bool exact = false;
  for (int round = 0; round < 100 && (settled < 5 || !exact); ++round) {
    ASSERT_TRUE(WaitFor(full)) << "round " << round;
    // Guarantees: default a 6 GB (its AM and 5), b 2 GB (its AM and 1);
    // x a 2 GB, b 6 GB.
    exact = exact || (On(a, "host1") == 5 && On(b, "host1") == 1 && On(a, "host2") == 2 &&
                      On(b, "host2") == 6);
    const bool close = near(On(a, "host1"), 5) && near(On(b, "host1"), 1) &&
                       near(On(a, "host2"), 2) && near(On(b, "host2"), 6);
    settled = close ? settled + 1 : 0;
    // Stop on a full, settled state: the ledger is read in it below (one
    // more release would race its refill again).
    if (settled >= 5 && exact) break;
    ReleaseOneOnEach(&a);
    ReleaseOneOnEach(&b);
  }
  EXPECT_TRUE(exact);
  EXPECT_GE(settled, 5) << "default: a " << On(a, "host1") << ", b " << On(b, "host1") << "; x: a "
                        << On(a, "host2") << ", b " << On(b, "host2");
  // The ledger's view per partition (what getQueueInfo reads).
  const QueueStatsSnapshot stats = rm_->QueueStatistics();
  const size_t a_index = static_cast<size_t>(stats.tree->Find("a") - stats.tree->queues().data());
  EXPECT_EQ(stats.stats[a_index].used_by_label.at("x").memory_mb(), On(a, "host2") * 1024);
  EXPECT_TRUE(near(On(a, "host2"), 2));
  EXPECT_EQ(stats.label_resources.at("x").memory_mb(), 8192);
}

// The preemption monitor on the RM core objects, driven a round at a time
// (RunOnce; the housekeeping thread ran it once at start and, with an
// interval of an hour, never again): queue b (50%, elastic to the whole
// node, a user may take twice the queue) fills the node, then an app of
// queue a (50%) waits for its AM container.
class PreemptionMonitorTest : public ResourceManagerTest {
 protected:
  void StartPreemptingRm(const std::string& max_wait_ms, const std::string& line = "3.3",
                         bool labels = false) {
    std::ofstream xml(conf_dir_ / "capacity-scheduler.xml", std::ios::trunc);
    xml << "<configuration>\n";
    for (const auto& [key, value] :
         std::map<std::string, std::string>{{"root.queues", "a,b"},
                                            {"maximum-am-resource-percent", "1.0"},
                                            {"root.a.capacity", "50"},
                                            {"root.b.capacity", "50"},
                                            {"root.b.user-limit-factor", "2"}}) {
      xml << "<property><name>yarn.scheduler.capacity." << key << "</name><value>" << value
          << "</value></property>\n";
    }
    xml << "</configuration>\n";
    xml.close();
    const std::string p = "yarn.resourcemanager.monitor.capacity.preemption.";
    auto rm = MakeRm({{"yarn.resourcemanager.scheduler.monitor.enable", "true"},
                      {p + "monitoring_interval", "3600000"},
                      {p + "max_wait_before_kill", max_wait_ms},
                      {p + "natural_termination_factor", "1.0"},
                      {p + "total_preemption_per_round", "1.0"},
                      {"spindle.compat.hadoop-version", line},
                      {"yarn.node-labels.enabled", labels ? "true" : "false"}});
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());
    ASSERT_NE(rm_->preemption_monitor(), nullptr);
    auto registered = rm_->RegisterNode(Registration(node_));
    ASSERT_TRUE(registered.ok());
    // The queues' limits follow the cluster once the housekeeping saw the
    // node (before that a user's limit in b is computed on an empty cluster).
    ASSERT_TRUE(
        WaitFor([&] { return rm_->apps().AmReport("b").limits.queue_am_limit.memory_mb() > 0; }));
  }

  ApplicationId SubmitTo(const std::string& queue) {
    auto id = rm_->NewApplicationId();
    EXPECT_TRUE(id.ok());
    EXPECT_TRUE(rm_->SubmitApplication(MakeSubmission(*id, queue)).ok());
    return *id;
  }

  bool Launched(const ApplicationId& app) {
    auto report = rm_->ApplicationReport(app);
    const RmAttempt* attempt = report.ok() ? report->current_attempt() : nullptr;
    return attempt != nullptr && attempt->state == AttemptState::kLaunched;
  }

  // Queue b's app: its AM registers and takes 7 more 1 GB containers (the
  // node's 8 GB).
  void FillWithB() {
    b_ = SubmitTo("b");
    ASSERT_TRUE(WaitFor([&] { return Launched(b_); }));
    b_attempt_ = ApplicationAttemptId{b_, 1};
    ASSERT_TRUE(rm_->attempt_allocator().Register(b_attempt_, "host1", 1, "").ok());
    AllocateRequest ask;
    ask.asks.push_back(
        ResourceRequest{1, -1, "*", pool::Resource::Of(1024, 1), 7, true, std::nullopt});
    bool first = true;
    ASSERT_TRUE(WaitFor([&] {
      auto answer = Allocate(first ? ask : AllocateRequest{});
      first = false;
      if (answer.ok()) {
        for (const auto& c : (*answer)->allocated) b_containers_.push_back(c.id);
      }
      return b_containers_.size() == 7;
    }));
  }

  Result<std::shared_ptr<const AllocateResponse>> Allocate(AllocateRequest request) {
    request.response_id = b_response_id_;
    auto answer = rm_->attempt_allocator().Allocate(b_attempt_, request);
    if (answer.ok() && *answer != nullptr) b_response_id_ = (*answer)->response_id;
    return answer;
  }

  // Waits until the app of queue a is known to wait for its AM container.
  ApplicationId StarveA() {
    const ApplicationId a = SubmitTo("a");
    EXPECT_TRUE(WaitFor([&] {
      auto report = rm_->ApplicationReport(a);
      const RmAttempt* attempt = report.ok() ? report->current_attempt() : nullptr;
      return attempt != nullptr && attempt->state == AttemptState::kScheduled;
    }));
    return a;
  }

  ApplicationId b_;
  ApplicationAttemptId b_attempt_;
  int32_t b_response_id_ = 0;
  std::vector<ContainerId> b_containers_;
};

// ProportionalCapacityPreemptionPolicy's ideal assignment on the live RM
// (TestProportionalCapacityPreemptionPolicy.testPreemptCycle's shape): a
// wants its AM (1 GB) within its guarantee, so b gives back exactly 1 GB, its
// youngest container; the AM hears of it once (3.3) in a contract; max wait
// 0 kills it at the next round; the node is told to kill it, b's AM gets it
// completed as PREEMPTED with Hadoop's text, b's figures count it, and the
// freed gigabyte goes to a's AM.
TEST_F(PreemptionMonitorTest, StarvedQueueGetsItsAmByPreemption) {
  StartPreemptingRm("0");
  ASSERT_NO_FATAL_FAILURE(FillWithB());
  const ApplicationId a = StarveA();
  PreemptionMonitor& monitor = *rm_->preemption_monitor();
  const preemption::PolicyInput input = monitor.SnapshotInput();
  ASSERT_EQ(input.queues.size(), 3u);
  EXPECT_EQ(input.queues[1].pending.memory_mb(), 1024) << "a's AM";
  EXPECT_EQ(input.queues[2].used.memory_mb(), 8192);

  monitor.RunOnce();
  auto first = Allocate({});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE((*first)->preemption.has_value());
  const PreemptionMessage& message = *(*first)->preemption;
  ASSERT_EQ(message.contract_containers.size(), 1u);
  const ContainerId victim = message.contract_containers[0];
  EXPECT_EQ(victim, *std::max_element(b_containers_.begin(), b_containers_.end()))
      << "the youngest container goes first";
  ASSERT_EQ(message.contract_requests.size(), 1u);
  EXPECT_EQ(message.contract_requests[0].priority, -1);
  EXPECT_EQ(message.contract_requests[0].resource_name, "*");
  EXPECT_EQ(message.contract_requests[0].count, 1);
  EXPECT_EQ(message.contract_requests[0].capability.memory_mb(), 1024);
  auto second = Allocate({});
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE((*second)->preemption.has_value()) << "3.3 tells the AM once";
  EXPECT_FALSE(Launched(a));

  monitor.RunOnce();  // marked 0 ms ago + a wait of 0: killed
  EXPECT_EQ(monitor.Stats().killed, 1);
  NodeHeartbeatRequest beat;
  beat.heartbeat.id = node_;
  beat.heartbeat.response_id = 0;
  auto cleanup = rm_->NodeHeartbeat(beat);
  ASSERT_TRUE(cleanup.ok());
  EXPECT_THAT(cleanup->containers_to_cleanup, ::testing::Contains(victim));
  auto after = Allocate({});
  ASSERT_TRUE(after.ok());
  ASSERT_EQ((*after)->completed.size(), 1u);
  EXPECT_EQ((*after)->completed[0].id, victim);
  EXPECT_EQ((*after)->completed[0].exit_status, -102);
  EXPECT_EQ((*after)->completed[0].diagnostics, "Container preempted by scheduler");
  const ResourceSeconds figures = rm_->UsageSecondsOf(b_);
  EXPECT_EQ(figures.preempted.memory_mb(), 1024);
  EXPECT_EQ(figures.num_non_am_preempted, 1);
  EXPECT_EQ(figures.num_am_preempted, 0);
  // 3.3's QueueMetrics aggregates: b's and, summed, root's; a's none.
  const QueueStatsSnapshot queues = rm_->QueueStatistics();
  ASSERT_EQ(queues.stats.size(), 3u);
  for (size_t q : {size_t{0}, size_t{2}}) {
    ASSERT_TRUE(queues.stats[q].preempted.has_value());
    EXPECT_EQ(queues.stats[q].preempted->num_non_am_preempted, 1);
    EXPECT_EQ(queues.stats[q].preempted->preempted.memory_mb(), 1024);
  }
  ASSERT_TRUE(queues.stats[1].preempted.has_value());
  EXPECT_EQ(queues.stats[1].preempted->num_non_am_preempted, 0);
  EXPECT_TRUE(WaitFor([&] { return Launched(a); })) << "the freed 1 GB goes to a's AM";
  monitor.RunOnce();
  EXPECT_EQ(monitor.Stats().marked, 1) << "a is satisfied: nothing more is asked";
}

// A marked container that ends on its own before the wait is over is not
// killed and is not announced; with a long wait nothing is killed.
TEST_F(PreemptionMonitorTest, ContainersThatEndOnTheirOwnLeaveTheCandidates) {
  StartPreemptingRm("3600000");
  ASSERT_NO_FATAL_FAILURE(FillWithB());
  StarveA();
  PreemptionMonitor& monitor = *rm_->preemption_monitor();
  monitor.RunOnce();
  EXPECT_EQ(monitor.Stats().marked, 1);
  // b's AM gives the youngest container back before its allocate hears.
  const ContainerId youngest = *std::max_element(b_containers_.begin(), b_containers_.end());
  AllocateRequest release;
  release.releases.push_back(youngest);
  auto answer = Allocate(release);
  ASSERT_TRUE(answer.ok());
  EXPECT_FALSE((*answer)->preemption.has_value()) << "released: nothing to announce";
  monitor.RunOnce();
  monitor.RunOnce();
  EXPECT_EQ(monitor.Stats().killed, 0);
}

// 2.6 / 2.7: every round tells the AM again about what is still selected.
TEST_F(PreemptionMonitorTest, Hadoop26RepeatsTheMessageEveryRound) {
  StartPreemptingRm("3600000", "2.6");
  ASSERT_NO_FATAL_FAILURE(FillWithB());
  StarveA();
  PreemptionMonitor& monitor = *rm_->preemption_monitor();
  for (int round = 0; round < 3; ++round) {
    monitor.RunOnce();
    auto answer = Allocate({});
    ASSERT_TRUE(answer.ok());
    ASSERT_TRUE((*answer)->preemption.has_value()) << "round " << round;
    EXPECT_EQ((*answer)->preemption->contract_containers.size(), 1u);
  }
  EXPECT_EQ(monitor.Stats().marked, 1);
  EXPECT_EQ(monitor.Stats().killed, 0);
  EXPECT_FALSE(rm_->QueueStatistics().stats[2].preempted.has_value())
      << "2.6's QueueMetrics have no preemption aggregates";
}

// What a queue wants counts, from 2.7 on, only up to each user's headroom
// under the user limit (LeafQueue.getTotalPendingResourcesConsideringUserLimit):
// b's one user holds the whole 8 GB node, its limit (50% x factor 2), and
// asks for 5 GB more; 2.6 counts all 5 GB (getTotalResourcePending).
TEST_F(PreemptionMonitorTest, DemandBeyondTheUserLimitCountsOnlyOn26) {
  for (const std::string line : {"2.6", "2.7", "3.3"}) {
    SCOPED_TRACE(line);
    rm_.reset();
    b_response_id_ = 0;
    b_containers_.clear();
    ASSERT_NO_FATAL_FAILURE(StartPreemptingRm("3600000", line));
    ASSERT_NO_FATAL_FAILURE(FillWithB());
    AllocateRequest more;
    more.asks.push_back(
        ResourceRequest{1, -1, "*", pool::Resource::Of(1024, 1), 5, true, std::nullopt});
    ASSERT_TRUE(Allocate(more).ok());
    const preemption::PolicyInput input = rm_->preemption_monitor()->SnapshotInput();
    ASSERT_EQ(input.queues.size(), 3u);
    EXPECT_EQ(input.queues[2].used.memory_mb(), 8192);
    EXPECT_EQ(input.queues[2].pending.memory_mb(), line == "2.6" ? 5 * 1024 : 0);
  }
}

// The policy works on the default partition: from 2.7 on, containers on a
// labelled node are neither the queue's usage nor candidates there; 2.6's
// policy knows no labels.
TEST_F(PreemptionMonitorTest, LabelledNodesAreOutsideTheDefaultPartitionFrom27On) {
  for (const std::string line : {"2.6", "3.3"}) {
    SCOPED_TRACE(line);
    rm_.reset();
    b_response_id_ = 0;
    b_containers_.clear();
    ASSERT_NO_FATAL_FAILURE(StartPreemptingRm("3600000", line, /*labels=*/true));
    ASSERT_NO_FATAL_FAILURE(FillWithB());
    ASSERT_TRUE(rm_->AddToClusterNodeLabels({{"x", true}}).ok());
    ASSERT_TRUE(rm_->ReplaceLabelsOnNodes({{NodeId{node_.host, 0}, {"x"}}}, true).ok());
    const preemption::PolicyInput input = rm_->preemption_monitor()->SnapshotInput();
    ASSERT_EQ(input.queues.size(), 3u);
    EXPECT_EQ(input.queues[2].used.memory_mb(), line == "2.6" ? 8192 : 0);
    size_t candidates = 0;
    for (const auto& app : input.apps) candidates += app.containers.size();
    EXPECT_EQ(candidates, line == "2.6" ? 8u : 0u);
  }
}

}  // namespace
}  // namespace spindle::rm

namespace spindle::rm {
namespace {

// Node labels through the facade: refused while disabled with Hadoop's
// message (CommonNodeLabelsManager.NODE_LABELS_NOT_ENABLED_ERR), kept in
// the store across standby -> active (Hadoop's node-label store), shown in
// node reports and the client's maps.
TEST_F(ResourceManagerTest, NodeLabelsNeedTheSwitch) {
  StartRm();
  Status refused = rm_->AddToClusterNodeLabels({{"x", false}});
  EXPECT_EQ(refused.message(), kNodeLabelsNotEnabled);
  EXPECT_EQ(refused.java_class(), "java.io.IOException");
  auto labels = rm_->ClusterNodeLabels();
  ASSERT_TRUE(labels.ok());
  EXPECT_TRUE(labels->empty()) << "queries answer whether enabled or not";
}

// spindle.scheduler.remote.address: each activation serves its own pool's
// cell-state service (a server built by the daemon's factory) and stops it
// when it goes standby or stops; a server that cannot listen fails the
// activation, and the RM stays standby.
TEST_F(ResourceManagerTest, TheCellStateServiceIsServedWhileActive) {
  std::atomic<int> alive{0};
  std::vector<std::pair<pool::remote::CellStateService*, std::string>> served;
  bool fail = false;
  cell_service_server_ =
      [&](pool::remote::CellStateService* service,
          const std::string& address) -> Result<std::unique_ptr<CellServiceServer>> {
    if (fail) return Status::IoError("Address already in use");
    served.emplace_back(service, address);
    return std::unique_ptr<CellServiceServer>(
        std::make_unique<FakeCellServer>(&alive, 40000 + static_cast<int>(served.size())));
  };
  auto rm = MakeRm({{"spindle.scheduler.remote.address", "127.0.0.1:0"},
                    {"spindle.scheduler.remote.count", "2"}});
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  rm_ = std::move(rm).value();
  EXPECT_EQ(rm_->cell_service_port(), 0);
  ASSERT_TRUE(rm_->Start().ok());
  EXPECT_EQ(alive.load(), 1);
  EXPECT_EQ(rm_->cell_service_port(), 40001);
  ASSERT_EQ(served.size(), 1u);
  EXPECT_EQ(served[0].first, rm_->pool().remote_service());
  EXPECT_EQ(served[0].second, "127.0.0.1:0");
  EXPECT_EQ(rm_->pool().options().remote_schedulers, 2);

  rm_->TransitionToStandby();
  EXPECT_EQ(alive.load(), 0);
  EXPECT_EQ(rm_->cell_service_port(), 0);
  ASSERT_TRUE(rm_->TransitionToActive().ok());
  EXPECT_EQ(alive.load(), 1);
  EXPECT_EQ(rm_->cell_service_port(), 40002);
  ASSERT_EQ(served.size(), 2u);
  EXPECT_EQ(served[1].first, rm_->pool().remote_service());  // the new activation's

  rm_->TransitionToStandby();
  fail = true;
  const Status refused = rm_->TransitionToActive();
  EXPECT_EQ(refused.code(), Status::Code::kIoError) << refused.ToString();
  EXPECT_NE(refused.message().find("spindle.scheduler.remote.address"), std::string::npos)
      << refused.ToString();
  EXPECT_FALSE(rm_->active());
  EXPECT_EQ(alive.load(), 0);
  fail = false;
  ASSERT_TRUE(rm_->TransitionToActive().ok());
  EXPECT_EQ(alive.load(), 1);
  rm_->Stop();
  EXPECT_EQ(alive.load(), 0);
}

// Without the address no server is built, whatever the factory.
TEST_F(ResourceManagerTest, NoCellStateServiceWithoutTheAddress) {
  bool built = false;
  cell_service_server_ = [&](pool::remote::CellStateService*,
                             const std::string&) -> Result<std::unique_ptr<CellServiceServer>> {
    built = true;
    return Status::IoError("not expected");
  };
  StartRm();
  EXPECT_FALSE(built);
  EXPECT_EQ(rm_->cell_service_port(), 0);
  EXPECT_EQ(rm_->pool().remote_service(), nullptr);
}

TEST_F(ResourceManagerTest, NodeLabelsSurviveAnActivationAndShowInReports) {
  auto rm = MakeRm({{"yarn.node-labels.enabled", "true"}});
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  rm_ = std::move(rm).value();
  ASSERT_TRUE(rm_->Start().ok());
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  const NodeId other{"elsewhere", 1};
  ASSERT_TRUE(rm_->AddToClusterNodeLabels({{"x", false}, {"y", true}}).ok());
  EXPECT_EQ(rm_->ReplaceLabelsOnNodes({{other, {"y"}}}, /*fail_on_unknown_nodes=*/true).message(),
            "Failed to replace labels as there are unknown nodes:[elsewhere:1]");
  ASSERT_TRUE(rm_->ReplaceLabelsOnNodes({{NodeId{node_.host, 0}, {"x"}}}, true).ok());
  ASSERT_TRUE(rm_->ReplaceLabelsOnNodes({{other, {"y"}}}, false).ok());
  auto check = [&] {
    auto labels = rm_->ClusterNodeLabels();
    ASSERT_TRUE(labels.ok());
    EXPECT_EQ(*labels, (std::vector<ClusterNodeLabel>{{"x", false}, {"y", true}}));
    auto node_to_labels = rm_->NodeToLabels();
    ASSERT_TRUE(node_to_labels.ok());
    EXPECT_EQ(*node_to_labels,
              (std::map<NodeId, std::set<std::string>>{
                  {NodeId{node_.host, 0}, {"x"}}, {node_, {"x"}}, {other, {"y"}}}));
    auto labels_to_nodes = rm_->LabelsToNodes({"x"});
    ASSERT_TRUE(labels_to_nodes.ok());
    EXPECT_EQ(*labels_to_nodes,
              (std::map<std::string, std::set<NodeId>>{{"x", {NodeId{node_.host, 0}, node_}}}));
    ASSERT_TRUE(rm_->NodeReportOf(node_).has_value());
    EXPECT_EQ(rm_->NodeReportOf(node_)->labels, std::vector<std::string>{"x"});
  };
  check();
  rm_->TransitionToStandby();
  EXPECT_TRUE(IsStandby(rm_->ClusterNodeLabels().status()));
  EXPECT_TRUE(IsStandby(rm_->AddToClusterNodeLabels({{"z", true}})));
  ASSERT_TRUE(rm_->TransitionToActive().ok());
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  check();
  // The default queue may use every label ("*", root's), which does not
  // name "y": RMNodeLabelsManager checks names only.
  ASSERT_TRUE(rm_->RemoveFromClusterNodeLabels({"y"}).ok());
  EXPECT_EQ(rm_->NodeToLabels()->count(other), 0u);
}

// A capacity-scheduler.xml whose children do not sum to 100 for a label
// refuses the start, with Hadoop's text.
TEST_F(ResourceManagerTest, BadLabelCapacitiesRefuseTheStart) {
  WriteQueues({"default"}, {{"root.accessible-node-labels.x.capacity", "100"},
                            {"root.default.accessible-node-labels.x.capacity", "50"}});
  auto rm = MakeRm({{"yarn.node-labels.enabled", "true"}});
  Status status = rm.ok() ? rm.value()->Start() : rm.status();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(),
              HasSubstr("Illegal capacity of 0.5 for children of queue root for label=x"));
  if (rm.ok()) rm.value()->Stop();
}

// An AM container goes to the partition of its label expression (the
// app's, else its queue's default-node-label-expression); a queue may ask
// only for labels it can access (SchedulerUtils' refusal).
TEST_F(ResourceManagerTest, AmContainersLandInTheirPartition) {
  const NodeId labelled{"host2", 45454};
  StartWithLabelX(labelled);
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  ASSERT_TRUE(rm_->RegisterNode(Registration(labelled)).ok());
  auto am_node_of = [&](const std::optional<std::string>& expression) -> std::optional<NodeId> {
    auto id = rm_->NewApplicationId();
    EXPECT_TRUE(id.ok());
    Submission s = MakeSubmission(*id);
    s.am_label_expression = expression;
    EXPECT_TRUE(rm_->SubmitApplication(std::move(s)).ok());
    return AmNodeOf(*id);
  };
  EXPECT_EQ(am_node_of("x"), labelled);
  EXPECT_EQ(am_node_of(std::nullopt), node_) << "x is exclusive";
  EXPECT_EQ(am_node_of(""), node_);
  auto id = rm_->NewApplicationId();
  ASSERT_TRUE(id.ok());
  Submission unknown = MakeSubmission(*id);
  unknown.am_label_expression = "nope";
  Status refused = rm_->SubmitApplication(std::move(unknown));
  EXPECT_EQ(refused.java_class(), yarn::kInvalidLabelResourceRequest);
  EXPECT_EQ(refused.message(),
            "Invalid label resource request, cluster do not contain , label= nope");
}

// A recovered application's AM ask keeps its partition: the partition is
// read again from the stored submission context, as Hadoop recovers the AM
// request (RMAppManager.recoverApplication -> validateAndCreateResourceRequest
// with isRecovery).
TEST_F(ResourceManagerTest, ARecoveredAmAskKeepsItsPartition) {
  const NodeId labelled{"host2", 45454};
  StartWithLabelX(labelled);
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  // No node of x yet: the AM container waits.
  auto id = rm_->NewApplicationId();
  ASSERT_TRUE(id.ok());
  Submission s = MakeSubmission(*id);
  hadoop::yarn::ApplicationSubmissionContextProto context;
  context.set_node_label_expression("x");
  s.context_bytes = context.SerializeAsString();
  s.am_label_expression = "x";
  ASSERT_TRUE(rm_->SubmitApplication(std::move(s)).ok());
  ASSERT_TRUE(WaitFor([&] { return rm_->NodeListStoredForTest(); }));

  rm_->TransitionToStandby();
  ASSERT_TRUE(rm_->TransitionToActive().ok());
  ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
  ASSERT_TRUE(WaitFor([&] { return !rm_->holding_placements(); }));
  ASSERT_TRUE(rm_->RegisterNode(Registration(labelled)).ok());
  EXPECT_EQ(AmNodeOf(*id), labelled) << "the default partition's node is free too";
}

// ---- ClientToAMToken master keys (secure mode) ----------------------------

class ClientToAmKeysTest : public ResourceManagerTest {
 protected:
  void SetUp() override {
    ResourceManagerTest::SetUp();
    secure_ = true;
  }
  // An active RM; its node registers unless it is to come back later (as
  // after a restart, with what it runs).
  void Start(const std::map<std::string, std::string>& extra = {}, bool register_node = true) {
    auto rm = MakeRm(extra);
    ASSERT_TRUE(rm.ok()) << rm.status().ToString();
    rm_ = std::move(rm).value();
    ASSERT_TRUE(rm_->Start().ok());
    ASSERT_NE(rm_->secrets().client_to_am, nullptr) << "secure mode keeps the keys";
    if (register_node) {
      ASSERT_TRUE(rm_->RegisterNode(Registration(node_)).ok());
    }
  }
  bool HasKey(const ApplicationAttemptId& attempt) {
    return rm_->ClientToAmTokenOf(attempt, "alice").has_value();
  }
  // The key the attempt's record keeps.
  std::string StoredKeyOf(const ApplicationAttemptId& attempt) {
    auto report = rm_->AttemptReport(attempt);
    return report.ok() ? report->client_token_master_key : "";
  }
  // The node reports the attempt's AM container exited.
  void AmContainerExits(const ApplicationAttemptId& attempt, int32_t exit_status) {
    const std::vector<RmContainer> containers = rm_->ContainerReports(attempt);
    ASSERT_EQ(containers.size(), 1u);
    ASSERT_TRUE(containers[0].is_am);
    NodeHeartbeatRequest request;
    request.heartbeat.id = node_;
    request.heartbeat.response_id = heartbeat_id_++;
    NodeContainerReport ended;
    ended.id = containers[0].id;
    ended.complete = true;
    ended.exit_status = exit_status;
    request.containers.push_back(ended);
    ASSERT_TRUE(rm_->NodeHeartbeat(request).ok());
  }
  int32_t heartbeat_id_ = 0;
};

// Made when the attempt starts, registered once its record is stored (the
// report's token and the registration's key are the one the record keeps),
// and dropped when the attempt ends, however it ends (RMAppAttemptImpl's
// BaseFinalTransition -> removeCredentials): no key outlives its attempt.
TEST_F(ClientToAmKeysTest, EachAttemptEndDropsItsKey) {
  Start();
  // FINISHED: unregistered, then its AM container exits.
  const ApplicationAttemptId finished{SubmitAndLaunch(), 1};
  const std::string key = StoredKeyOf(finished);
  ASSERT_EQ(key.size(), ClientToAmTokenSecretManager::kKeyLength);
  const std::optional<Token> token = rm_->ClientToAmTokenOf(finished, "alice@SPINDLE.TEST");
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->password, HmacSha1(key, token->identifier));
  auto registered = rm_->Register(finished, "am-host", 1234, "");
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_EQ(registered->client_to_am_token_master_key, key);
  ASSERT_TRUE(WaitFor([&] {
    auto done = rm_->Finish(finished, FinalStatus::kSucceeded, "", "");
    return done.ok() && *done;
  }));
  EXPECT_TRUE(HasKey(finished)) << "FINISHING: kept until the AM container exits";
  AmContainerExits(finished, 0);
  EXPECT_TRUE(WaitFor([&] { return !HasKey(finished); })) << "FINISHED";
  EXPECT_EQ(rm_->AttemptReport(finished)->state, AttemptState::kFinished);

  // FAILED: the next attempt has a key of its own.
  const ApplicationId retried = SubmitAndLaunch();
  const ApplicationAttemptId failed{retried, 1};
  ASSERT_TRUE(HasKey(failed));
  ASSERT_TRUE(rm_->FailApplicationAttempt(failed, "failed by the test").ok());
  EXPECT_TRUE(WaitFor([&] { return !HasKey(failed); })) << "FAILED";
  const ApplicationAttemptId second{retried, 2};
  ASSERT_TRUE(WaitFor([&] { return HasKey(second); }));
  EXPECT_NE(StoredKeyOf(second), StoredKeyOf(failed));

  // KILLED (with its application).
  ASSERT_TRUE(WaitFor([&] {
    auto killed = rm_->KillApplication(retried, "killed by the test");
    return killed.ok() && *killed;
  }));
  EXPECT_TRUE(WaitFor([&] { return !HasKey(second); })) << "KILLED";
  EXPECT_EQ(rm_->AttemptReport(second)->state, AttemptState::kKilled);
  EXPECT_EQ(rm_->secrets().client_to_am->size(), 0u) << "no key left behind";
}

// An AM that goes silent past yarn.am.liveness-monitor.expiry-interval-ms:
// its attempt fails (EXPIRED) and its key goes.
TEST_F(ClientToAmKeysTest, AnExpiredAttemptDropsItsKey) {
  Start({{"yarn.am.liveness-monitor.expiry-interval-ms", "2000"},
         {"yarn.resourcemanager.am.max-attempts", "1"}});
  const ApplicationAttemptId expired{SubmitAndLaunch(), 1};
  const std::string key = StoredKeyOf(expired);
  ASSERT_FALSE(key.empty());
  ASSERT_TRUE(WaitFor([&] {
    auto report = rm_->AttemptReport(expired);
    return report.ok() && report->state == AttemptState::kFailed;
  })) << "the silent AM never expired";
  EXPECT_TRUE(WaitFor([&] { return !HasKey(expired); }));
  EXPECT_EQ(rm_->secrets().client_to_am->size(), 0u);
  EXPECT_EQ(StoredKeyOf(expired), key) << "its final record keeps the key, as Hadoop's does";
}

// Work-preserving restart: the key is stored with the attempt, so a new RM
// over the same store mints tokens the running AM (which holds the key it
// registered with) still accepts, and hands the re-registering AM that key.
TEST_F(ClientToAmKeysTest, AKeySurvivesARestartThroughTheStore) {
  const std::map<std::string, std::string> rocksdb = {
      {"yarn.resourcemanager.store.class", "rocksdb"},
      {"spindle.store.path", (conf_dir_ / "store").string()}};
  Start(rocksdb);
  const ApplicationAttemptId attempt{SubmitAndLaunch(), 1};
  auto registered = rm_->Register(attempt, "am-host", 1234, "");
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  ASSERT_TRUE(registered->client_to_am_token_master_key.has_value());
  // What the running AM checks tokens with.
  const std::string am_key = *registered->client_to_am_token_master_key;
  const std::optional<Token> before = rm_->ClientToAmTokenOf(attempt, "alice@SPINDLE.TEST");
  ASSERT_TRUE(before.has_value());
  // The node keeps the AM running across the restart and says so when it
  // registers with the new RM.
  NodeRegisterRequest resync = Registration(node_);
  resync.runs_applications = true;
  const std::vector<RmContainer> containers = rm_->ContainerReports(attempt);
  ASSERT_EQ(containers.size(), 1u);
  NodeContainerReport running;
  running.id = containers[0].id;
  running.resource = pool::Resource::Of(1024, 1);
  resync.containers.push_back(running);

  rm_->Stop();
  rm_.reset();
  Start(rocksdb, /*register_node=*/false);
  ASSERT_TRUE(rm_->RegisterNode(resync).ok());
  ASSERT_EQ(rm_->AttemptReport(attempt)->state, AttemptState::kLaunched);
  const std::optional<Token> after = rm_->ClientToAmTokenOf(attempt, "alice@SPINDLE.TEST");
  ASSERT_TRUE(after.has_value()) << "the recovered attempt's key is registered again";
  EXPECT_EQ(after->password, HmacSha1(am_key, after->identifier)) << "valid at the running AM";
  EXPECT_EQ(after->password, before->password);
  auto again = rm_->Register(attempt, "am-host", 1234, "");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->client_to_am_token_master_key, am_key);

  // While standby there is no key to mint with.
  rm_->TransitionToStandby();
  EXPECT_FALSE(rm_->ClientToAmTokenOf(attempt, "alice").has_value());
}

// With security off no attempt has a key, and a key a secure run stored is
// not registered (Hadoop's recoverAppAttemptCredentials reads it only with
// security on).
TEST_F(ClientToAmKeysTest, WithSecurityOffThereAreNoKeys) {
  const std::map<std::string, std::string> rocksdb = {
      {"yarn.resourcemanager.store.class", "rocksdb"},
      {"spindle.store.path", (conf_dir_ / "store").string()}};
  Start(rocksdb);
  const ApplicationAttemptId attempt{SubmitAndLaunch(), 1};
  ASSERT_TRUE(HasKey(attempt));
  rm_->Stop();
  rm_.reset();
  secure_ = false;
  auto rm = MakeRm(rocksdb);
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  rm_ = std::move(rm).value();
  ASSERT_TRUE(rm_->Start().ok());
  EXPECT_EQ(rm_->secrets().client_to_am, nullptr);
  EXPECT_FALSE(HasKey(attempt));
  EXPECT_EQ(StoredKeyOf(attempt), "");
  auto registered = rm_->Register(attempt, "am-host", 1234, "");
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_FALSE(registered->client_to_am_token_master_key.has_value());
}

}  // namespace
}  // namespace spindle::rm
