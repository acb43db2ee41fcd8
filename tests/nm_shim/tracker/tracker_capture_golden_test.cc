// Golden test against Apache Hadoop 2.6.0's ResourceTracker (port 8031):
// replays what the real Java 2.6.0 NodeManager sent to the real RM in
// shared/captures/hadoop-2.6.0 (registerNodeManager, then nodeHeartbeat every
// second; 2.6.0 has no unRegisterNodeManager, the NM just closes) against
// ResourceTrackerService over the wire (SIMPLE auth, the RM core of
// RmHarness on a ManualClock), back to back, and checks that each answer
// sets the same fields as Apache's (by field number, recursively; values such
// as keys, ids and the RM identifier may differ), with the same node action,
// the same response-id progression and the same exception classes.
//
// Three conversations: an idle NM (nm-register-heartbeat), and the NM of the
// distributedshell and mapreduce-pi scenarios, whose heartbeats report the
// application's containers. For those the RM is brought into Apache's state
// as the scenario went (ScenarioDriver): the reported containers were
// allocated, the AM's allocate calls (their capture times, port 8030) took
// the completions, the application ended when its AM container did. So the
// answers' containers_to_be_removed_from_nm and applications_to_cleanup are
// compared heartbeat by heartbeat.
//
// The RM under test makes its own master keys. The replay acts as the NM
// would: a heartbeat's last-known keys are the ones this RM handed out, in
// place of the ones Apache handed out; a heartbeat then carries no keys, as
// in the capture. Keys travel only while a next key rolls out and the NM does
// not have it yet (Hadoop's populateKeys): checked after the replay.
//
// Fields Spindle sets that 2.6.0 did not define are listed in NewerFields
// with the Hadoop version that introduced them. Any other difference fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ipc_connection_context.pb.h"
#include "nm_shim/tracker/resource_tracker_service.h"
#include "rm/core/node_tracker.h"
#include "rm/security/yarn_id_protos.h"
#include "tests/am_protocol/client_service/rm_harness.h"
#include "tests/wire/captures/call_replay.h"
#include "tests/wire/captures/capture_corpus.h"
#include "tests/wire/captures/field_sets.h"

namespace spindle::nm_shim {
namespace {

namespace y = hadoop::yarn;
namespace pb = google::protobuf;
using client_service::testing::HarnessOptions;
using client_service::testing::RmHarness;

// Fields Spindle sets that Hadoop 2.6.0 had not yet defined (by message):
// none so far. areNodeLabelsAcceptedByRM, resource (2.8) and
// areNodeAttributesAcceptedByRM (3.3) of the register response, and the
// heartbeat response's fields 11-19 (2.8-3.3) would go here if set.
const captures::NewerFields& NewerFields() {
  static const auto* fields = new captures::NewerFields{};
  return *fields;
}

using Exchange = captures::CallExchange;
using Replay = captures::CallReplay;

// The NM's conversation with the RM's 8031 in `scenario`.
Replay Load(const std::string& scenario) {
  auto replay = captures::LoadCallReplay(scenario, "01-nm-to-rm-8031.jsonl");
  EXPECT_TRUE(replay.ok()) << replay.status().ToString();
  if (!replay.ok()) return Replay{};
  EXPECT_EQ(replay->protocol, kResourceTrackerProtocol);
  for (const Exchange& exchange : replay->exchanges) {
    EXPECT_EQ(exchange.call.protocol, kResourceTrackerProtocol);
  }
  return std::move(replay).value();
}

rm::KeyRollingOptions Keys(int32_t first_key_id) {
  rm::KeyRollingOptions keys;
  keys.first_key_id = first_key_id;  // fixed: the test is deterministic
  return keys;
}

// RmHarness's RM core with a ResourceTrackerService on its own RpcServer.
class TrackerHarness {
 public:
  explicit TrackerHarness(int64_t cluster_timestamp) : rm_(Options(cluster_timestamp)) {
    nm_tokens_ = std::move(rm::NmTokenSecretManager::Create(Keys(1001), &rm_.clock())).value();
    rm::ContainerTokenSecretManager::Options container_options;
    container_options.keys = Keys(2002);
    container_options.rm_identifier = cluster_timestamp;
    container_tokens_ =
        std::move(rm::ContainerTokenSecretManager::Create(container_options, &rm_.clock())).value();
    core_ = std::make_unique<rm::NodeTracker>(&rm_.nodes(), &rm_.containers(), &rm_.apps(),
                                              container_tokens_.get(), nm_tokens_.get(),
                                              /*rm_identifier=*/cluster_timestamp);
    tracker_ = std::make_unique<ResourceTrackerService>(ResourceTrackerOptions{}, core_.get());
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(tracker_->MakeRpcService());
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~TrackerHarness() { server_->Stop(); }

  Status Call(const std::string& method, const pb::MessageLite& request, pb::MessageLite* response,
              const std::string& user) {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kResourceTrackerProtocol;
    spec.user = user;
    return client_.Call(spec, method, request, response);
  }

  RmHarness& rm() { return rm_; }
  rm::MasterKey container_key() const { return container_tokens_->CurrentKey(); }
  rm::MasterKey nm_key() const { return nm_tokens_->CurrentKey(); }
  // A rolling interval later: both families have a next key.
  void RollKeys() {
    rm_.clock().Advance(rm::KeyRollingOptions{}.rolling_interval);
    EXPECT_EQ(nm_tokens_->Advance().rolled, 1);
    EXPECT_EQ(container_tokens_->Advance().rolled, 1);
  }

 private:
  static HarnessOptions Options(int64_t cluster_timestamp) {
    HarnessOptions options;
    options.capacity_scheduler_path =
        (captures::CaptureRoot() / "distributedshell" / "conf" / "capacity-scheduler.xml").string();
    options.cluster_timestamp_ms = cluster_timestamp;
    return options;
  }

  RmHarness rm_;
  std::unique_ptr<rm::NmTokenSecretManager> nm_tokens_;
  std::unique_ptr<rm::ContainerTokenSecretManager> container_tokens_;
  std::unique_ptr<rm::NodeTracker> core_;
  std::unique_ptr<ResourceTrackerService> tracker_;
  std::unique_ptr<ipc::RpcServer> server_;
  ipc::RpcClient client_;
};

void ToKeyProto(const rm::MasterKey& key, y::MasterKeyProto* proto) {
  proto->set_key_id(key.key_id);
  proto->set_bytes(key.bytes);
}

// What the NM holds: the keys each RM last handed out, by Apache's key id.
class KeyMap {
 public:
  template <typename Response>
  void Learn(const Response& apache, const Response& ours) {
    if (apache.has_container_token_master_key() && ours.has_container_token_master_key()) {
      container_[apache.container_token_master_key().key_id()] = ours.container_token_master_key();
    }
    if (apache.has_nm_token_master_key() && ours.has_nm_token_master_key()) {
      nm_[apache.nm_token_master_key().key_id()] = ours.nm_token_master_key();
    }
  }
  // The heartbeat the NM would have sent to this RM.
  void Translate(y::NodeHeartbeatRequestProto* request) const {
    if (request->has_last_known_container_token_master_key()) {
      auto it = container_.find(request->last_known_container_token_master_key().key_id());
      EXPECT_NE(it, container_.end()) << "heartbeat names a container key Apache never sent";
      if (it != container_.end())
        *request->mutable_last_known_container_token_master_key() = it->second;
    }
    if (request->has_last_known_nm_token_master_key()) {
      auto it = nm_.find(request->last_known_nm_token_master_key().key_id());
      EXPECT_NE(it, nm_.end()) << "heartbeat names an NM-token key Apache never sent";
      if (it != nm_.end()) *request->mutable_last_known_nm_token_master_key() = it->second;
    }
  }

 private:
  std::map<int32_t, y::MasterKeyProto> container_;
  std::map<int32_t, y::MasterKeyProto> nm_;
};

// The times at which the scenario's AM called allocate on port 8030 (each
// call takes the completed containers the RM has for the AM).
std::vector<double> AllocateTimes(const std::string& scenario, const std::string& file) {
  auto conversation = captures::LoadConversation(scenario, file);
  EXPECT_TRUE(conversation.ok()) << conversation.status().ToString();
  std::vector<double> times;
  if (!conversation.ok()) return times;
  for (const captures::ClientFrame& frame : captures::ClientFrames(*conversation)) {
    auto call = captures::AsProtobufCall(frame);
    if (call.has_value() && call->method == "allocate") {
      times.push_back(captures::CaptureTimeOf(*conversation, frame.offset));
    }
  }
  return times;
}

// What happened elsewhere in the scenario's RM.
struct ReplayOptions {
  // The scenario's one application attempt (none: no application).
  std::optional<rm::ApplicationAttemptId> attempt;
  // Capture times of the AM's allocate calls.
  std::vector<double> allocate_times;
};

// Brings the RM into the state Apache's RM was in when the NM sent a
// heartbeat: the containers it reports were allocated there, the AM's
// allocate calls since the previous heartbeat have taken the completed
// containers, and once the AM container has completed (the AM had
// unregistered by then) the attempt and the application are over, as the
// app manager ends them.
class ScenarioDriver {
 public:
  explicit ScenarioDriver(const ReplayOptions& options) : options_(options) {}

  void Before(RmHarness& rm, const y::NodeHeartbeatRequestProto& request, double t) {
    // The containers it reports first were allocated there.
    const rm::NodeId node = rm::FromProto(request.node_status().node_id());
    for (const auto& status : request.node_status().containersstatuses()) {
      const rm::ContainerId id = rm::FromProto(status.container_id());
      if (!allocated_.insert(id).second) continue;
      rm::RmContainer container;
      container.id = id;
      container.node = node;
      container.is_am = id.sequence() == 1;
      EXPECT_TRUE(rm.containers().Add(container).ok());
    }
    for (; next_allocate_ < options_.allocate_times.size() &&
           options_.allocate_times[next_allocate_] < t;
         ++next_allocate_) {
      rm.containers().TakeCompleted(*options_.attempt);
    }
  }

  void After(RmHarness& rm, const y::NodeHeartbeatRequestProto& request) {
    if (!options_.attempt.has_value() || app_finished_) return;
    for (const auto& status : request.node_status().containersstatuses()) {
      const rm::ContainerId id = rm::FromProto(status.container_id());
      if (id.attempt == *options_.attempt && id.sequence() == 1 &&
          status.state() == y::C_COMPLETE) {
        rm.containers().OnAttemptEnded(*options_.attempt, /*keep_containers=*/false);
        rm.containers().OnApplicationFinished(options_.attempt->app);
        app_finished_ = true;
      }
    }
  }

 private:
  const ReplayOptions options_;
  std::set<rm::ContainerId> allocated_;
  size_t next_allocate_ = 0;
  bool app_finished_ = false;
};

// Replays every call in order; returns the number of calls compared.
int ReplayCalls(TrackerHarness& harness, const Replay& replay, const ReplayOptions& options = {}) {
  KeyMap keys;
  ScenarioDriver driver(options);
  int compared = 0;
  for (const Exchange& exchange : replay.exchanges) {
    SCOPED_TRACE("call " + std::to_string(exchange.call.call_id) + " " + exchange.call.method +
                 " t=" + std::to_string(exchange.t));
    auto request = captures::NewMessage(exchange.method->input_type());
    EXPECT_TRUE(request->ParseFromString(exchange.call.payload));
    if (exchange.call.method == "nodeHeartbeat") {
      auto* heartbeat = static_cast<y::NodeHeartbeatRequestProto*>(request.get());
      keys.Translate(heartbeat);
      driver.Before(harness.rm(), *heartbeat, exchange.t);
    }
    auto response = captures::NewMessage(exchange.method->output_type());
    Status s = harness.Call(exchange.call.method, *request, response.get(), replay.user);
    ++compared;
    if (!exchange.apache_ok) {
      EXPECT_FALSE(s.ok());
      EXPECT_EQ(s.java_class(), exchange.apache_exception) << s.ToString();
      continue;
    }
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) continue;
    std::vector<std::string> problems;
    captures::CompareFieldSets(*exchange.apache_response, *response, exchange.call.method,
                               NewerFields(), &problems);
    EXPECT_THAT(problems, ::testing::IsEmpty())
        << "Apache: " << exchange.apache_response->ShortDebugString()
        << "\nSpindle: " << response->ShortDebugString();
    if (exchange.call.method == "registerNodeManager") {
      const auto& apache =
          static_cast<const y::RegisterNodeManagerResponseProto&>(*exchange.apache_response);
      const auto& ours = static_cast<const y::RegisterNodeManagerResponseProto&>(*response);
      EXPECT_EQ(ours.nodeaction(), apache.nodeaction());
      EXPECT_EQ(ours.container_token_master_key().key_id(), harness.container_key().key_id);
      EXPECT_EQ(ours.nm_token_master_key().key_id(), harness.nm_key().key_id);
      keys.Learn(apache, ours);
    } else if (exchange.call.method == "nodeHeartbeat") {
      const auto& apache =
          static_cast<const y::NodeHeartbeatResponseProto&>(*exchange.apache_response);
      const auto& ours = static_cast<const y::NodeHeartbeatResponseProto&>(*response);
      EXPECT_EQ(ours.nodeaction(), apache.nodeaction());
      EXPECT_EQ(ours.response_id(), apache.response_id());
      keys.Learn(apache, ours);
      driver.After(harness.rm(), static_cast<const y::NodeHeartbeatRequestProto&>(*request));
    }
  }
  return compared;
}

TEST(TrackerCaptureGoldenTest, RegisterAndHeartbeats) {
  const Replay replay = Load("nm-register-heartbeat");
  ASSERT_EQ(replay.user, "root");
  ASSERT_EQ(replay.exchanges.size(), 7u);
  EXPECT_EQ(replay.exchanges[0].call.method, "registerNodeManager");
  TrackerHarness harness(1795352683782);
  EXPECT_EQ(ReplayCalls(harness, replay), 7);

  // The node is Apache's, as the NM described it.
  const auto node = harness.rm().nodes().Get(rm::NodeId{"localhost", 45454});
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ(node->capability, pool::Resource::Of(8192, 4));
  EXPECT_EQ(node->nm_version, "2.6.0");

  // The last heartbeat again (the NM missed the answer): the same answer.
  const Exchange& last = replay.exchanges.back();
  y::NodeHeartbeatRequestProto heartbeat;
  ASSERT_TRUE(heartbeat.ParseFromString(last.call.payload));
  const auto& apache_last =
      static_cast<const y::NodeHeartbeatResponseProto&>(*last.apache_response);
  y::NodeHeartbeatResponseProto again;
  ASSERT_TRUE(harness.Call("nodeHeartbeat", heartbeat, &again, "root").ok());
  EXPECT_EQ(again.response_id(), apache_last.response_id());

  // The captured heartbeat as is names Apache's key ids: with no key rolling
  // in progress nothing is sent (Hadoop only sends a next key).
  heartbeat.mutable_node_status()->set_response_id(apache_last.response_id());
  y::NodeHeartbeatResponseProto stale;
  ASSERT_TRUE(harness.Call("nodeHeartbeat", heartbeat, &stale, "root").ok());
  EXPECT_EQ(stale.nodeaction(), y::NORMAL);
  EXPECT_EQ(stale.response_id(), apache_last.response_id() + 1);
  EXPECT_FALSE(stale.has_container_token_master_key());
  EXPECT_FALSE(stale.has_nm_token_master_key());

  // Keys roll: the next keys go to an NM that does not have them yet, and
  // only to such an NM.
  harness.RollKeys();
  KeyMap keys;
  y::RegisterNodeManagerResponseProto registered;
  *registered.mutable_container_token_master_key() =
      heartbeat.last_known_container_token_master_key();
  *registered.mutable_nm_token_master_key() = heartbeat.last_known_nm_token_master_key();
  y::RegisterNodeManagerResponseProto current;
  ToKeyProto(harness.container_key(), current.mutable_container_token_master_key());
  ToKeyProto(harness.nm_key(), current.mutable_nm_token_master_key());
  keys.Learn(registered, current);
  keys.Translate(&heartbeat);
  heartbeat.mutable_node_status()->set_response_id(stale.response_id());
  y::NodeHeartbeatResponseProto rolled;
  ASSERT_TRUE(harness.Call("nodeHeartbeat", heartbeat, &rolled, "root").ok());
  ASSERT_TRUE(rolled.has_container_token_master_key());
  ASSERT_TRUE(rolled.has_nm_token_master_key());
  EXPECT_NE(rolled.container_token_master_key().key_id(), harness.container_key().key_id);
  EXPECT_NE(rolled.nm_token_master_key().key_id(), harness.nm_key().key_id);
  *heartbeat.mutable_last_known_container_token_master_key() = rolled.container_token_master_key();
  *heartbeat.mutable_last_known_nm_token_master_key() = rolled.nm_token_master_key();
  heartbeat.mutable_node_status()->set_response_id(rolled.response_id());
  y::NodeHeartbeatResponseProto known;
  ASSERT_TRUE(harness.Call("nodeHeartbeat", heartbeat, &known, "root").ok());
  EXPECT_EQ(known.response_id(), rolled.response_id() + 1);
  EXPECT_FALSE(known.has_container_token_master_key());
  EXPECT_FALSE(known.has_nm_token_master_key());
}

TEST(TrackerCaptureGoldenTest, DistributedShellNode) {
  const Replay replay = Load("distributedshell");
  ASSERT_EQ(replay.exchanges.size(), 16u);
  TrackerHarness harness(1795352696796);
  ReplayOptions options;
  options.attempt = rm::ApplicationAttemptId{rm::ApplicationId{1795352696796, 1}, 1};
  options.allocate_times = AllocateTimes("distributedshell", "05-ds-am-to-rm-8030.jsonl");
  ASSERT_EQ(options.allocate_times.size(), 5u);
  EXPECT_EQ(ReplayCalls(harness, replay, options), 16);
}

TEST(TrackerCaptureGoldenTest, MapReducePiNode) {
  const Replay replay = Load("mapreduce-pi");
  ASSERT_EQ(replay.exchanges.size(), 27u);
  TrackerHarness harness(1795352728471);
  ReplayOptions options;
  options.attempt = rm::ApplicationAttemptId{rm::ApplicationId{1795352728471, 1}, 1};
  options.allocate_times = AllocateTimes("mapreduce-pi", "05-mr-am-to-rm-8030.jsonl");
  ASSERT_FALSE(options.allocate_times.empty());
  EXPECT_EQ(ReplayCalls(harness, replay, options), 27);
}

}  // namespace
}  // namespace spindle::nm_shim
