#include "nm_shim/agent/node_status_updater.h"

#include <gtest/gtest.h>

#include <csignal>
#include <deque>

#include "nm_shim/agent/simulated/simulated_runtime.h"
#include "rm/security/yarn_id_protos.h"
#include "tests/nm_shim/agent/test_tokens.h"

namespace spindle::nm {
namespace {

namespace y = hadoop::yarn;
using std::chrono::milliseconds;

// The RM's ResourceTracker as the test answers it.
class FakeTracker : public TrackerTransport {
 public:
  void Register(const y::RegisterNodeManagerRequestProto& request,
                Done<y::RegisterNodeManagerResponseProto> done) override {
    registers.push_back({request, std::move(done)});
  }
  void Heartbeat(const y::NodeHeartbeatRequestProto& request,
                 Done<y::NodeHeartbeatResponseProto> done) override {
    heartbeats.push_back({request, std::move(done)});
  }
  void Unregister(const y::UnRegisterNodeManagerRequestProto& request,
                  Done<y::UnRegisterNodeManagerResponseProto> done) override {
    unregisters.push_back({request, std::move(done)});
  }

  template <typename Req, typename Resp>
  struct Pending {
    Req request;
    Done<Resp> done;
  };
  std::deque<Pending<y::RegisterNodeManagerRequestProto, y::RegisterNodeManagerResponseProto>>
      registers;
  std::deque<Pending<y::NodeHeartbeatRequestProto, y::NodeHeartbeatResponseProto>> heartbeats;
  std::deque<Pending<y::UnRegisterNodeManagerRequestProto, y::UnRegisterNodeManagerResponseProto>>
      unregisters;
};

y::MasterKeyProto Key(int32_t id, const std::string& bytes) {
  y::MasterKeyProto k;
  k.set_key_id(id);
  k.set_bytes(bytes);
  return k;
}

class NodeStatusUpdaterTest : public ::testing::Test {
 protected:
  NodeStatusUpdaterTest() : NodeStatusUpdaterTest(true) {}
  explicit NodeStatusUpdaterTest(bool unregister) {
    manager_.set_runtime(&runtime_);
    NodeStatusUpdaterOptions o;
    o.unregister = unregister;
    o.node = node_;
    o.memory_mb = 4096;
    o.vcores = 4;
    o.initial_heartbeat_interval_ms = 1000;
    o.max_retry_interval_ms = 4000;
    updater_ =
        std::make_unique<NodeStatusUpdater>(o, &manager_, &keys_, &tracker_, &loop_,
                                            [this](const Status& s) { stopped_.push_back(s); });
  }

  void AdvanceMs(int64_t ms) {
    clock_.Advance(milliseconds(ms));
    loop_.RunDue();
  }

  // Starts the node and answers its registration with NORMAL and keys.
  void Register() {
    updater_->Start();
    loop_.RunDue();
    AnswerRegistration(Status::OK());
  }

  // Answers the pending registration: NORMAL and keys if `s` is OK.
  void AnswerRegistration(const Status& s) {
    ASSERT_EQ(tracker_.registers.size(), 1u);
    auto pending = std::move(tracker_.registers.front());
    tracker_.registers.pop_front();
    y::RegisterNodeManagerResponseProto r;
    r.set_nodeaction(y::NORMAL);
    *r.mutable_container_token_master_key() = Key(7, "ck7");
    *r.mutable_nm_token_master_key() = Key(8, "nk8");
    r.set_rm_identifier(testing::kRmIdentifier);
    pending.done(s, r);
    loop_.RunDue();
  }

  // Answers the oldest heartbeat with `r` (response_id set by the caller).
  y::NodeHeartbeatRequestProto Answer(y::NodeHeartbeatResponseProto r, Status s = Status::OK()) {
    EXPECT_FALSE(tracker_.heartbeats.empty());
    auto pending = std::move(tracker_.heartbeats.front());
    tracker_.heartbeats.pop_front();
    pending.done(s, r);
    loop_.RunDue();
    return pending.request;
  }

  void StartContainer(int64_t seq, const std::string& command) {
    y::StartContainersRequestProto request;
    auto* one = request.add_start_container_request();
    *one->mutable_container_token() =
        testing::ContainerToken(1, seq, "ck7", 7, node_, clock_.WallMillis() + 600'000);
    one->mutable_container_launch_context()->add_command(command);
    y::StartContainersResponseProto response;
    manager_.StartContainers({testing::Attempt(1), node_, "alice", ""}, request, &response);
    ASSERT_EQ(response.succeeded_requests_size(), 1);
    loop_.RunDue();
  }

  ManualClock clock_{TimePoint{}, testing::kRmIdentifier + 1000};
  EventLoop loop_{&clock_};
  const rm::NodeId node_{"127.1.0.1", 4000};
  NodeTokenKeys keys_;
  ContainerManager manager_{{node_, 600'000}, &keys_, &clock_};
  SimulatedRuntime runtime_{{10'000}, &loop_, manager_.Listener()};
  FakeTracker tracker_;
  std::vector<Status> stopped_;
  std::unique_ptr<NodeStatusUpdater> updater_;
};

TEST_F(NodeStatusUpdaterTest, RegistersThenHeartbeatsAtTheIntervalTheRmAsks) {
  Register();
  EXPECT_EQ(updater_->state(), NodeStatusUpdater::State::kRunning);
  EXPECT_TRUE(keys_.Ready());
  EXPECT_EQ(keys_.rm_identifier(), testing::kRmIdentifier);
  ASSERT_EQ(tracker_.heartbeats.size(), 1u) << "first heartbeat right after registering";
  const auto& first = tracker_.heartbeats.front().request;
  EXPECT_EQ(first.node_status().response_id(), 0);
  EXPECT_EQ(rm::FromProto(first.node_status().node_id()), node_);
  EXPECT_TRUE(first.node_status().nodehealthstatus().is_node_healthy());
  EXPECT_EQ(first.last_known_container_token_master_key().key_id(), 7);
  EXPECT_EQ(first.last_known_nm_token_master_key().key_id(), 8);

  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  r.set_nextheartbeatinterval(3000);
  Answer(r);
  AdvanceMs(2999);
  EXPECT_TRUE(tracker_.heartbeats.empty());
  AdvanceMs(1);
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  EXPECT_EQ(tracker_.heartbeats.front().request.node_status().response_id(), 1)
      << "echoes the last response id";
  r.set_response_id(2);
  r.clear_nextheartbeatinterval();
  Answer(r);
  AdvanceMs(3000);
  EXPECT_EQ(tracker_.heartbeats.size(), 1u) << "keeps the last interval when none is sent";
  EXPECT_EQ(updater_->heartbeats(), 2);
}

TEST_F(NodeStatusUpdaterTest, RegistrationRequestDescribesTheNode) {
  updater_->Start();
  loop_.RunDue();
  ASSERT_EQ(tracker_.registers.size(), 1u);
  const auto& req = tracker_.registers.front().request;
  EXPECT_EQ(rm::FromProto(req.node_id()), node_);
  EXPECT_EQ(req.resource().memory(), 4096);
  EXPECT_EQ(req.resource().virtual_cores(), 4);
  EXPECT_EQ(req.http_port(), 8042);
  EXPECT_EQ(req.nm_version(), "2.7.7");
  EXPECT_EQ(req.container_statuses_size(), 0);
}

TEST_F(NodeStatusUpdaterTest, RefusedRegistrationStopsTheNodeWithTheReason) {
  updater_->Start();
  loop_.RunDue();
  y::RegisterNodeManagerResponseProto r;
  r.set_nodeaction(y::SHUTDOWN);
  r.set_diagnostics_message("node too small");
  tracker_.registers.front().done(Status::OK(), r);
  loop_.RunDue();
  EXPECT_EQ(updater_->state(), NodeStatusUpdater::State::kStopped);
  ASSERT_EQ(stopped_.size(), 1u);
  EXPECT_NE(stopped_[0].message().find("node too small"), std::string::npos);
  AdvanceMs(10'000);
  EXPECT_TRUE(tracker_.heartbeats.empty());
}

TEST_F(NodeStatusUpdaterTest, NewKeysRollAndTheNodeKeepsThePrevious) {
  Register();
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  *r.mutable_container_token_master_key() = Key(17, "ck17");
  *r.mutable_nm_token_master_key() = Key(18, "nk18");
  Answer(r);
  EXPECT_EQ(keys_.Current(NodeTokenKeys::Family::kContainerTokens)->key_id, 17);
  EXPECT_EQ(keys_.Find(NodeTokenKeys::Family::kContainerTokens, 7), "ck7");
  EXPECT_EQ(keys_.Find(NodeTokenKeys::Family::kNmTokens, 8), "nk8");
  AdvanceMs(1000);
  EXPECT_EQ(tracker_.heartbeats.front().request.last_known_nm_token_master_key().key_id(), 18);
}

TEST_F(NodeStatusUpdaterTest, CompletedContainersAreResentUntilAHeartbeatSucceeds) {
  Register();
  StartContainer(2, "sleep 0.5");
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  auto sent = Answer(r);
  AdvanceMs(1000);  // the container ended at 500 ms
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  auto& statuses = tracker_.heartbeats.front().request.node_status().containersstatuses();
  ASSERT_EQ(statuses.size(), 1);
  EXPECT_EQ(statuses[0].state(), y::C_COMPLETE);
  EXPECT_EQ(statuses[0].exit_status(), 0);
  // The RM is unreachable: the same completion goes again after the back-off.
  sent = Answer({}, Status::IoError("connection refused"));
  EXPECT_TRUE(tracker_.heartbeats.empty());
  AdvanceMs(1000);
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  EXPECT_EQ(tracker_.heartbeats.front().request.node_status().response_id(), 1);
  EXPECT_EQ(tracker_.heartbeats.front().request.node_status().containersstatuses_size(), 1);
  r.set_response_id(2);
  Answer(r);
  AdvanceMs(1000);
  EXPECT_EQ(tracker_.heartbeats.front().request.node_status().containersstatuses_size(), 0)
      << "acknowledged";
}

TEST_F(NodeStatusUpdaterTest, BacksOffWhileTheRmIsDownThenResyncsWithItsContainers) {
  Register();
  StartContainer(2, "sleep 100");
  for (int64_t wait : {1000, 2000, 4000, 4000}) {
    Answer({}, Status::IoError("connection refused"));
    AdvanceMs(wait - 1);
    EXPECT_TRUE(tracker_.heartbeats.empty()) << wait;
    AdvanceMs(1);
    ASSERT_EQ(tracker_.heartbeats.size(), 1u) << wait;
  }
  // The restarted RM does not know the node.
  y::NodeHeartbeatResponseProto resync;
  resync.set_nodeaction(y::RESYNC);
  Answer(resync);
  ASSERT_EQ(tracker_.registers.size(), 1u);
  const auto& again = tracker_.registers.front().request;
  ASSERT_EQ(again.container_statuses_size(), 1);
  EXPECT_EQ(again.container_statuses(0).container_state(), y::C_RUNNING);
  ASSERT_EQ(again.runningapplications_size(), 1);
  y::RegisterNodeManagerResponseProto ok;
  ok.set_nodeaction(y::NORMAL);
  *ok.mutable_container_token_master_key() = Key(27, "ck27");
  *ok.mutable_nm_token_master_key() = Key(28, "nk28");
  tracker_.registers.front().done(Status::OK(), ok);
  tracker_.registers.pop_front();
  loop_.RunDue();
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  EXPECT_EQ(tracker_.heartbeats.front().request.node_status().response_id(), 0);
  EXPECT_EQ(updater_->registrations(), 2);
  EXPECT_EQ(manager_.live_containers(), 1u) << "the container kept running";
}

// New containers are refused until the node registered, from a RESYNC until
// it registered again, and once it stopped (Java 2.6's
// blockNewContainerRequests).
TEST_F(NodeStatusUpdaterTest, NewContainersOnlyWhileRegistered) {
  EXPECT_FALSE(manager_.CheckAcceptingNewContainers().ok()) << "before registering";
  updater_->Start();
  loop_.RunDue();
  EXPECT_FALSE(manager_.CheckAcceptingNewContainers().ok()) << "registration in flight";
  AnswerRegistration(Status::OK());
  EXPECT_TRUE(manager_.CheckAcceptingNewContainers().ok()) << "registered";

  y::NodeHeartbeatResponseProto resync;
  resync.set_nodeaction(y::RESYNC);
  Answer(resync);
  const Status blocked = manager_.CheckAcceptingNewContainers();
  EXPECT_EQ(blocked.java_class(), "org.apache.hadoop.yarn.exceptions.NMNotYetReadyException");
  AnswerRegistration(Status::IoError("connection refused"));
  EXPECT_FALSE(manager_.CheckAcceptingNewContainers().ok()) << "re-registration failed";
  AdvanceMs(1000);
  AnswerRegistration(Status::OK());
  EXPECT_TRUE(manager_.CheckAcceptingNewContainers().ok()) << "registered again";

  y::NodeHeartbeatResponseProto shutdown;
  shutdown.set_nodeaction(y::SHUTDOWN);
  Answer(shutdown);
  EXPECT_FALSE(manager_.CheckAcceptingNewContainers().ok()) << "stopped";
}

TEST_F(NodeStatusUpdaterTest, CleanupListsKillAndForget) {
  Register();
  StartContainer(2, "sleep 100");
  StartContainer(3, "sleep 100");
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  rm::ToProto(rm::ContainerId{testing::Attempt(1), 2}, r.add_containers_to_cleanup());
  Answer(r);
  AdvanceMs(1000);
  bool killed = false;
  for (const auto& s : tracker_.heartbeats.front().request.node_status().containersstatuses()) {
    if (rm::FromProto(s.container_id()).sequence() == 2) {
      killed = s.state() == y::C_COMPLETE && s.exit_status() == kExitKilledByResourceManager;
    }
  }
  EXPECT_TRUE(killed);
  r.set_response_id(2);
  r.clear_containers_to_cleanup();
  rm::ToProto(testing::Attempt(1).app, r.add_applications_to_cleanup());
  rm::ToProto(rm::ContainerId{testing::Attempt(1), 2}, r.add_containers_to_be_removed_from_nm());
  Answer(r);
  EXPECT_EQ(manager_.live_containers(), 0u);
  EXPECT_TRUE(manager_.RunningApplications().empty());
}

// Runs containers on the simulated runtime and records the signals the node
// is asked to deliver.
class SignalRecordingRuntime : public ContainerRuntime {
 public:
  explicit SignalRecordingRuntime(ContainerRuntime* runtime) : runtime_(runtime) {}
  void Launch(const ContainerLaunchSpec& spec) override { runtime_->Launch(spec); }
  void Kill(const rm::ContainerId& c, int32_t status, const std::string& d) override {
    runtime_->Kill(c, status, d);
  }
  void Signal(const rm::ContainerId& c, int signal_number) override {
    signals.emplace_back(c, signal_number);
  }
  void CleanupApplication(const rm::ApplicationId& app) override {
    runtime_->CleanupApplication(app);
  }
  void Shutdown() override { runtime_->Shutdown(); }
  std::vector<std::pair<rm::ContainerId, int>> signals;

 private:
  ContainerRuntime* const runtime_;
};

TEST_F(NodeStatusUpdaterTest, ContainersToSignalReachTheRuntime) {
  SignalRecordingRuntime recording(&runtime_);
  manager_.set_runtime(&recording);
  Register();
  StartContainer(2, "sleep 100");
  const rm::ContainerId running{testing::Attempt(1), 2};
  const rm::ContainerId unknown{testing::Attempt(1), 9};
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  for (const auto& [id, command] :
       {std::pair{running, y::OUTPUT_THREAD_DUMP}, std::pair{unknown, y::FORCEFUL_SHUTDOWN}}) {
    auto* signal = r.add_containers_to_signal();
    rm::ToProto(id, signal->mutable_container_id());
    signal->set_command(command);
  }
  Answer(r);
  ASSERT_EQ(recording.signals.size(), 1u);  // only containers it runs
  EXPECT_EQ(recording.signals[0].first, running);
  EXPECT_EQ(recording.signals[0].second, SIGQUIT);
  manager_.set_runtime(&runtime_);  // `recording` goes first
}

TEST_F(NodeStatusUpdaterTest, HeartbeatsCarryWhatTheSamplerMeasured) {
  NodeStatusUpdaterOptions o;
  o.node = node_;
  int samples = 0;
  o.utilization = [&samples]() -> std::optional<MeasuredUtilization> {
    ++samples;
    MeasuredUtilization m;
    m.node = {3000, 3500, 1.25f};
    m.containers = {1000, 2000, 0.5f};
    return m;
  };
  updater_ = std::make_unique<NodeStatusUpdater>(
      o, &manager_, &keys_, &tracker_, &loop_, [this](const Status& s) { stopped_.push_back(s); });
  Register();
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  const y::NodeStatusProto& status = tracker_.heartbeats.front().request.node_status();
  EXPECT_EQ(samples, 1);
  EXPECT_EQ(status.node_utilization().pmem(), 3000);
  EXPECT_EQ(status.node_utilization().vmem(), 3500);
  EXPECT_FLOAT_EQ(status.node_utilization().cpu(), 1.25f);
  EXPECT_EQ(status.containers_utilization().pmem(), 1000);
  EXPECT_EQ(status.containers_utilization().vmem(), 2000);
  EXPECT_FLOAT_EQ(status.containers_utilization().cpu(), 0.5f);
}

TEST_F(NodeStatusUpdaterTest, WithoutASamplerNoUtilizationIsClaimed) {
  Register();
  ASSERT_EQ(tracker_.heartbeats.size(), 1u);
  EXPECT_FALSE(tracker_.heartbeats.front().request.node_status().has_node_utilization());
  EXPECT_FALSE(tracker_.heartbeats.front().request.node_status().has_containers_utilization());
}

TEST_F(NodeStatusUpdaterTest, ShutdownActionAndGracefulStop) {
  Register();
  updater_->Stop([] {});
  loop_.RunDue();
  EXPECT_TRUE(tracker_.unregisters.empty()) << "waits for the heartbeat in flight";
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  Answer(r);
  ASSERT_EQ(tracker_.unregisters.size(), 1u);
  EXPECT_EQ(rm::FromProto(tracker_.unregisters.front().request.node_id()), node_);
  tracker_.unregisters.front().done(Status::OK(), {});
  loop_.RunDue();
  EXPECT_EQ(updater_->state(), NodeStatusUpdater::State::kStopped);
  ASSERT_EQ(stopped_.size(), 1u);
  EXPECT_TRUE(stopped_[0].ok());
  AdvanceMs(5000);
  EXPECT_TRUE(tracker_.heartbeats.empty());
}

// A 2.6/2.7 NodeManager has no unRegisterNodeManager to call (YARN-41 is
// 2.8): stopping ends the heartbeats and nothing else reaches the RM.
class NodeStatusUpdaterWithoutUnregisterTest : public NodeStatusUpdaterTest {
 protected:
  NodeStatusUpdaterWithoutUnregisterTest() : NodeStatusUpdaterTest(false) {}
};

TEST_F(NodeStatusUpdaterWithoutUnregisterTest, StopsWithoutCallingTheRm) {
  Register();
  updater_->Stop([] {});
  loop_.RunDue();
  y::NodeHeartbeatResponseProto r;
  r.set_response_id(1);
  Answer(r);
  EXPECT_TRUE(tracker_.unregisters.empty());
  EXPECT_EQ(updater_->state(), NodeStatusUpdater::State::kStopped);
  ASSERT_EQ(stopped_.size(), 1u);
  EXPECT_TRUE(stopped_[0].ok());
  AdvanceMs(5000);
  EXPECT_TRUE(tracker_.heartbeats.empty());
}

}  // namespace
}  // namespace spindle::nm
