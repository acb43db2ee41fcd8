// The ZooKeeper store against golden trees: the /rmstore subtrees a real
// Java ResourceManager 3.3.6 and 2.6.0 wrote on ZooKeeper with a running, a
// finished and a killed application and an RM delegation token, captured
// with `spindle zk-dump` (testdata/*.zkdump; their header says how). Each
// tree is put back into the test's ZooKeeper and loaded through
// ZkRmStateStore and DecodeRmState, and what Spindle reads is checked
// against what the Java side showed (`yarn application -list`, the token
// the client was given). Then Spindle writes the same records for the same
// line, and its tree is compared with Java's: the same znode names and
// layout, and records that carry what Java's recovery reads.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "base/clock.h"
#include "base/crypto.h"
#include "persist/zk/zk_tree_dump.h"
#include "rm/recovery/app_records.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/zk/zk_rm_state_store.h"
#include "rm/security/credentials.h"
#include "rm/security/delegation_token_records.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/token_identifiers.h"
#include "tests/persist/zk/zk_test_server.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {
namespace {

namespace y = hadoop::yarn;

struct Golden {
  const char* file;
  const char* root;  // the dump's root, the Java RM's parent-path
  bool hadoop3;
  zkstore::StoreVersion version;
  int64_t cluster_timestamp;  // of the Java RM's application ids
};

const Golden kJava336{"java-3.3.6-rmstore.zkdump", "/rmstore336", true, {1, 5}, 1795839235275};
const Golden kJava260{"java-2.6.0-rmstore.zkdump", "/rmstore260", false, {1, 2}, 1795840097268};

zk::ZkTreeDump ReadGolden(const Golden& golden) {
  const std::string path =
      std::string(SPINDLE_SOURCE_DIR) + "/tests/rm/recovery/zk/testdata/" + golden.file;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream text;
  text << in.rdbuf();
  auto dump = zk::ParseZkTreeDump(text.str());
  EXPECT_TRUE(dump.ok()) << dump.status().ToString();
  EXPECT_EQ(dump->root, golden.root);
  return std::move(dump).value();
}

const RmApp* FindApp(const RecoveredRmState& state, int64_t cluster_timestamp, int32_t seq) {
  for (const RmApp& app : state.apps) {
    if (app.submission.id == ApplicationId{cluster_timestamp, seq}) return &app;
  }
  return nullptr;
}

// EpochNode 1: the Java RM started with epoch 0 (and stores no cluster
// timestamp: its next run takes a new one, as Spindle's does after it).
void ExpectFirstJavaRun(const RecoveredRmState& state) {
  EXPECT_TRUE(state.epoch_stored);
  EXPECT_EQ(state.epoch, 0);
  EXPECT_FALSE(state.cluster_timestamp.has_value());
}

class ZkGoldenTreeTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { zk::ZkTestServer::Shutdown(); }

  void SetUp() override {
    SPINDLE_REQUIRE_ZOOKEEPER();
    base_ = std::string("/") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    zk::ZkSessionOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    auto session = zk::ZkSession::Open(options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    session_ = std::move(session).value();
  }

  ZkStoreOptions StoreOptions(const Golden& golden, const std::string& parent) const {
    ZkStoreOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    options.parent_path = parent;
    options.hadoop3 = golden.hadoop3;
    options.version = golden.version;
    options.num_retries = 3;
    options.retry_interval = std::chrono::milliseconds(100);
    return options;
  }

  // The golden tree restored under `parent`, loaded by a Spindle store of
  // the tree's line.
  persist::LoadedState LoadGolden(const Golden& golden, const std::string& parent) {
    Status restored = zk::RestoreZkTree(session_.get(), ReadGolden(golden), parent);
    EXPECT_TRUE(restored.ok()) << restored.ToString();
    ZkRmStateStore store(StoreOptions(golden, parent));
    Status opened = store.Open();
    EXPECT_TRUE(opened.ok()) << opened.ToString();
    auto loaded = store.Load();
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_TRUE(store.Close().ok());
    return loaded.ok() ? *loaded : persist::LoadedState{};
  }

  RecoveredRmState DecodeGolden(const Golden& golden) {
    auto state = DecodeRmState(LoadGolden(golden, base_ + golden.root));
    EXPECT_TRUE(state.ok()) << state.status().ToString();
    return state.ok() ? std::move(state).value() : RecoveredRmState{};
  }

  // What the Java side showed of the RM delegation token (the dump's
  // header): Spindle decodes the same identifier from the stored record,
  // and the stored master key signs it to the password the client got.
  void ExpectToken(const RecoveredRmState& state, const std::string& identifier_hex,
                   const std::string& password_hex) {
    ASSERT_TRUE(state.delegation_tokens.has_value());
    const RmDelegationTokenState& dt = *state.delegation_tokens;
    EXPECT_EQ(dt.sequence_number, 1);
    std::set<int32_t> key_ids;
    for (const DelegationKeyRecord& key : dt.keys) key_ids.insert(key.key_id);
    EXPECT_EQ(key_ids, (std::set<int32_t>{1, 2}));
    ASSERT_EQ(dt.tokens.size(), 1u);
    const RmDelegationTokenIdentifier& id = dt.tokens[0].identifier;
    std::string identifier;
    ASSERT_TRUE(HexDecode(identifier_hex, &identifier));
    auto given = DecodeRmDelegationTokenIdentifier(identifier);
    ASSERT_TRUE(given.ok()) << given.status().ToString();
    EXPECT_EQ(id, *given);
    EXPECT_EQ(id.owner, "root");
    EXPECT_EQ(id.renewer, "golden-renewer");
    EXPECT_EQ(id.sequence_number, 1);
    EXPECT_GT(dt.tokens[0].renew_date_ms, id.issue_date_ms);
    const DelegationKeyRecord* signer = nullptr;
    for (const DelegationKeyRecord& key : dt.keys) {
      if (key.key_id == id.master_key_id) signer = &key;
    }
    ASSERT_NE(signer, nullptr) << "no key " << id.master_key_id;
    std::string password;
    ASSERT_TRUE(HexDecode(password_hex, &password));
    EXPECT_EQ(HmacSha1(signer->bytes, identifier), password);
    // A Spindle RM recovered from the tree gives the client's password for
    // the client's identifier bytes (SASL DIGEST-MD5 with the token).
    ManualClock clock(TimePoint{}, id.issue_date_ms + 1000);
    RmDelegationTokenOptions options;
    options.recovered = dt;
    auto manager = RmDelegationTokenSecretManager::Create(options, &clock);
    ASSERT_TRUE(manager.ok()) << manager.status().ToString();
    auto secret = (*manager)->RetrieveSecret(identifier);
    ASSERT_TRUE(secret.ok()) << secret.status().ToString();
    EXPECT_EQ(secret->password, password);
    EXPECT_EQ(secret->user, "root");
  }

  // Spindle's store of `golden`'s line under `parent`, holding every record
  // Spindle read from the Java tree (as a Spindle RM that took over keeps
  // them), then its own epoch.
  void WriteAsSpindle(const Golden& golden, const persist::LoadedState& java,
                      const std::string& parent) {
    ZkRmStateStore store(StoreOptions(golden, parent));
    ASSERT_TRUE(store.Open().ok());
    auto state = DecodeRmState(java);
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    persist::StoreBatch batch;
    for (const RmApp& app : state->apps) {
      const std::string id = app.submission.id.ToString();
      batch.PutApplication(id, EncodeAppRecord(app));
      for (const RmAttempt& attempt : app.attempts) {
        batch.PutAttempt(id, attempt.id.ToString(), EncodeAttemptRecord(attempt));
      }
    }
    PutKeyState(KeyFamily::kAmrmTokens, state->keys.at(KeyFamily::kAmrmTokens), &batch);
    for (const DelegationKeyRecord& key : state->delegation_tokens->keys) {
      batch.PutMasterKey(kDelegationKeysFamily, key.key_id, EncodeDelegationKeyRecord(key));
    }
    for (const DelegationTokenRecord& token : state->delegation_tokens->tokens) {
      batch.PutMasterKey(kDelegationTokensFamily, token.identifier.sequence_number,
                         EncodeDelegationTokenRecord(token));
    }
    batch.SetClusterValue(persist::ClusterField::kDelegationTokenSequence,
                          state->delegation_tokens->sequence_number);
    batch.SetClusterValue(persist::ClusterField::kEpoch, state->epoch + 1);
    Status applied = store.Apply(batch);
    ASSERT_TRUE(applied.ok()) << applied.ToString();
    ASSERT_TRUE(store.Close().ok());
  }

  // Relative path -> whether the node holds data (null or not), for the
  // nodes of ZKRMStateRoot both RMs write (the proxy CA's certificate and
  // key are a 3.3 Java RM's own, which Spindle neither writes nor reads).
  std::map<std::string, bool> Layout(const std::string& parent) {
    auto dump = zk::DumpZkTree(session_.get(), parent + "/" + zkstore::kRootName);
    EXPECT_TRUE(dump.ok()) << dump.status().ToString();
    std::map<std::string, bool> layout;
    if (!dump.ok()) return layout;
    const std::vector<std::string> relative = dump->RelativePaths();
    for (size_t i = 0; i < relative.size(); ++i) {
      if (relative[i].rfind(std::string(store_names::kProxyCaRoot) + "/", 0) == 0) continue;
      layout[relative[i]] = dump->nodes[i].data.has_value();
    }
    return layout;
  }

  void ExpectSameLayout(const Golden& golden) {
    const std::string java_parent = base_ + "/java";
    const std::string spindle_parent = base_ + "/spindle";
    const persist::LoadedState java = LoadGolden(golden, java_parent);
    WriteAsSpindle(golden, java, spindle_parent);
    const auto java_layout = Layout(java_parent);
    const auto spindle_layout = Layout(spindle_parent);
    EXPECT_FALSE(java_layout.empty());
    EXPECT_EQ(spindle_layout, java_layout);
    // And the records Spindle wrote read back as what it read from Java.
    ZkRmStateStore store(StoreOptions(golden, spindle_parent));
    ASSERT_TRUE(store.Open().ok());
    auto reloaded = store.Load();
    ASSERT_TRUE(reloaded.ok());
    auto java_state = DecodeRmState(java);
    auto spindle_state = DecodeRmState(*reloaded);
    ASSERT_TRUE(java_state.ok() && spindle_state.ok());
    ASSERT_EQ(spindle_state->apps.size(), java_state->apps.size());
    for (const RmApp& app : java_state->apps) {
      const RmApp* again =
          FindApp(*spindle_state, app.submission.id.cluster_timestamp, app.submission.id.id);
      ASSERT_NE(again, nullptr) << app.submission.id.ToString();
      EXPECT_EQ(again->state, app.state);
      EXPECT_EQ(again->final_status, app.final_status);
      EXPECT_EQ(again->submission.name, app.submission.name);
      EXPECT_EQ(again->attempts.size(), app.attempts.size());
    }
    EXPECT_EQ(spindle_state->epoch, java_state->epoch + 1);
  }

  std::string base_;
  std::unique_ptr<zk::ZkSession> session_;
};

TEST_F(ZkGoldenTreeTest, DumpFilesRoundTrip) {
  for (const Golden& golden : {kJava336, kJava260}) {
    const zk::ZkTreeDump dump = ReadGolden(golden);
    auto again = zk::ParseZkTreeDump(zk::FormatZkTreeDump(dump));
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_EQ(again->nodes, dump.nodes);
    EXPECT_EQ(again->comments, dump.comments);
    // Restored and dumped again: the same nodes, data and ACLs.
    const std::string parent = base_ + golden.root;
    ASSERT_TRUE(zk::RestoreZkTree(session_.get(), dump, parent).ok());
    auto dumped = zk::DumpZkTree(session_.get(), parent);
    ASSERT_TRUE(dumped.ok()) << dumped.status().ToString();
    EXPECT_EQ(dumped->RelativePaths(), dump.RelativePaths());
    for (size_t i = 0; i < dump.nodes.size(); ++i) {
      EXPECT_EQ(dumped->nodes[i].data, dump.nodes[i].data) << dump.nodes[i].path;
      EXPECT_EQ(dumped->nodes[i].acl, dump.nodes[i].acl) << dump.nodes[i].path;
    }
  }
}

// A fenced ZKRMStateRoot (HA: the root's ACL keeps CREATE and DELETE for
// the active RM's digest only) is restored with its children and its ACL.
TEST_F(ZkGoldenTreeTest, RestoresARootLockedAgainstThisSession) {
  zk::ZkTreeDump dump;
  dump.root = "/locked";
  const zk::ZkAcl fenced{zk::kPermCreate | zk::kPermDelete, "digest",
                         zk::DigestId("rm1:8032:secret")};
  dump.nodes = {{"/locked", {zk::WorldAnyone(zk::kPermRead | zk::kPermAdmin), fenced}, ""},
                {"/locked/child", {zk::WorldAnyone()}, std::string("data")}};
  const std::string target = base_ + "/restored";
  Status restored = zk::RestoreZkTree(session_.get(), dump, target);
  ASSERT_TRUE(restored.ok()) << restored.ToString();
  auto acl = session_->GetAcl(target);
  ASSERT_TRUE(acl.ok());
  EXPECT_EQ(acl->acl, dump.nodes[0].acl);
  auto child = session_->Get(target + "/child");
  ASSERT_TRUE(child.ok());
  EXPECT_EQ(child->data, "data");
  EXPECT_FALSE(child->null_data);
  auto root = session_->Get(target);
  ASSERT_TRUE(root.ok());
  EXPECT_FALSE(root->null_data);  // empty data, not null
  EXPECT_TRUE(root->data.empty());
  // This session cannot add to it, as the dump says.
  EXPECT_FALSE(session_->Create(target + "/other", "", {zk::WorldAnyone()}).ok());
  EXPECT_EQ(zk::RestoreZkTree(session_.get(), dump, target).code(), Status::Code::kAlreadyExists);
}

TEST_F(ZkGoldenTreeTest, Java336TreeLoads) {
  const RecoveredRmState state = DecodeGolden(kJava336);
  const int64_t ts = kJava336.cluster_timestamp;
  ASSERT_EQ(state.apps.size(), 4u);
  ExpectFirstJavaRun(state);
  for (const RmApp& app : state.apps) {
    EXPECT_EQ(app.submission.user, "spindle");
    EXPECT_EQ(app.submission.queue, "default");
    EXPECT_EQ(app.submission.type, "SPINDLE-SHELL");
    // The AM's 256 MB, normalised to the 1024 MB minimum allocation.
    EXPECT_EQ(app.submission.am_resource, pool::Resource::Of(1024, 1));
    ASSERT_EQ(app.attempts.size(), 1u) << app.submission.id.ToString();
    const RmAttempt& attempt = app.attempts[0];
    EXPECT_EQ(attempt.id, (ApplicationAttemptId{app.submission.id, 1}));
    ASSERT_TRUE(attempt.am_container.has_value());
    EXPECT_EQ(attempt.am_container->node.ToString(), "127.0.0.1:28041");
    EXPECT_EQ(attempt.am_container->node_http_address, "127.0.0.1:28042");
    EXPECT_EQ(attempt.am_container->id.ToString(),
              "container_" + std::to_string(ts) + "_" +
                  app.submission.id.ToString().substr(app.submission.id.ToString().size() - 4) +
                  "_01_000001");
    // ContainerExitStatus.INVALID is no exit status.
    EXPECT_FALSE(attempt.am_exit_status.has_value());
  }
  const RmApp* finished = FindApp(state, ts, 1);
  ASSERT_NE(finished, nullptr);
  EXPECT_EQ(finished->submission.name, "golden-finished");
  EXPECT_EQ(finished->state, AppState::kFinished);
  EXPECT_EQ(finished->final_status, FinalStatus::kSucceeded);
  EXPECT_EQ(finished->attempts[0].state, AttemptState::kFinished);
  EXPECT_EQ(finished->submit_time_ms, 1795839260908);
  EXPECT_EQ(finished->finish_time_ms, 1795839264034);

  const RmApp* killed = FindApp(state, ts, 2);
  ASSERT_NE(killed, nullptr);
  EXPECT_EQ(killed->submission.name, "golden-killed");
  EXPECT_EQ(killed->state, AppState::kKilled);
  EXPECT_EQ(killed->final_status, FinalStatus::kKilled);
  EXPECT_EQ(killed->attempts[0].state, AttemptState::kKilled);
  EXPECT_EQ(killed->diagnostics,
            "Application application_1795839235275_0002 was killed by user root at 127.0.0.1");

  const RmApp* two_containers = FindApp(state, ts, 3);
  ASSERT_NE(two_containers, nullptr);
  EXPECT_EQ(two_containers->state, AppState::kFinished);
  EXPECT_EQ(two_containers->final_status, FinalStatus::kSucceeded);

  // Running at the capture: no final state, its attempt live with its AM.
  const RmApp* running = FindApp(state, ts, 4);
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->submission.name, "golden-running-long");
  EXPECT_EQ(running->state, AppState::kNew);
  EXPECT_EQ(running->final_status, FinalStatus::kUndefined);
  EXPECT_EQ(running->attempts[0].state, AttemptState::kNew);

  // The AMRM master key the running AM's token is signed with.
  ASSERT_EQ(state.keys.count(KeyFamily::kAmrmTokens), 1u);
  EXPECT_EQ(state.keys.at(KeyFamily::kAmrmTokens).current.key_id, -1483292996);
  EXPECT_EQ(state.keys.at(KeyFamily::kAmrmTokens).current.bytes.size(), 8u);
  ExpectToken(state,
              "0A04726F6F74120E676F6C64656E2D72656E6577657220ACF69B83A23428ACFECDA3A43430013802",
              "B9BB214BE7164E4C02A747A06A8D12064D6F012E");
}

TEST_F(ZkGoldenTreeTest, Java260TreeLoads) {
  const RecoveredRmState state = DecodeGolden(kJava260);
  const int64_t ts = kJava260.cluster_timestamp;
  ASSERT_EQ(state.apps.size(), 3u);
  ExpectFirstJavaRun(state);
  const RmApp* finished = FindApp(state, ts, 1);
  ASSERT_NE(finished, nullptr);
  EXPECT_EQ(finished->submission.name, "golden-finished");
  EXPECT_EQ(finished->state, AppState::kFinished);
  EXPECT_EQ(finished->final_status, FinalStatus::kSucceeded);
  EXPECT_EQ(finished->finish_time_ms, 1795840369752);

  const RmApp* running = FindApp(state, ts, 2);
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->submission.name, "golden-running-long");
  EXPECT_EQ(running->state, AppState::kNew);
  ASSERT_EQ(running->attempts.size(), 1u);
  EXPECT_EQ(running->attempts[0].state, AttemptState::kNew);
  ASSERT_TRUE(running->attempts[0].am_container.has_value());
  EXPECT_EQ(running->attempts[0].am_container->node.ToString(), "127.0.0.1:29041");
  // 2.6 stores the context as submitted: the AM's 256 MB (normalised again
  // when the app is recovered, as RMAppManager.recoverApplication does).
  EXPECT_EQ(running->submission.am_resource, pool::Resource::Of(256, 1));

  // Killed while its AM waited under the AM limit.
  const RmApp* killed = FindApp(state, ts, 3);
  ASSERT_NE(killed, nullptr);
  EXPECT_EQ(killed->state, AppState::kKilled);
  EXPECT_EQ(killed->final_status, FinalStatus::kKilled);
  EXPECT_EQ(killed->diagnostics, "Application killed by user.");

  ASSERT_EQ(state.keys.count(KeyFamily::kAmrmTokens), 1u);
  EXPECT_EQ(state.keys.at(KeyFamily::kAmrmTokens).current.key_id, 636103247);
  ExpectToken(
      state, "0A04726F6F74120E676F6C64656E2D72656E657765721A0020E0AEB783A23428E0B6E9A3A43430013802",
      "B4D364451633694DEF6DBAC64B7F550198E80346");
}

TEST_F(ZkGoldenTreeTest, SpindleWritesJava336Layout) { ExpectSameLayout(kJava336); }

TEST_F(ZkGoldenTreeTest, SpindleWritesJava260Layout) { ExpectSameLayout(kJava260); }

// The fields of a live attempt's record a Java RM needs to take it over:
// its id, its AM container, and its credentials, without which
// RMAppAttemptImpl.recoverAppAttemptCredentials (2.6+) does not register the
// attempt with the AMRMTokenSecretManager, so the AM's token is refused
// ("... not found in AMRMTokenSecretManager", seen in the local rollback to
// a Java RM 3.3.6). Java writes empty credentials with security off; the
// golden records show the bytes.
TEST_F(ZkGoldenTreeTest, SpindleAttemptCarriesWhatJavaRecoveryReads) {
  for (const Golden& golden : {kJava336, kJava260}) {
    const zk::ZkTreeDump dump = ReadGolden(golden);
    auto state = DecodeRmState(LoadGolden(golden, base_ + golden.root));
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    for (const RmApp& app : state->apps) {
      for (const RmAttempt& attempt : app.attempts) {
        const zk::DumpedZnode* java_node =
            dump.Find(std::string(golden.root) + "/ZKRMStateRoot/RMAppRoot/" +
                      app.submission.id.ToString() + "/" + attempt.id.ToString());
        ASSERT_NE(java_node, nullptr) << attempt.id.ToString();
        y::ApplicationAttemptStateDataProto java;
        ASSERT_TRUE(java.ParseFromString(*java_node->data));
        y::ApplicationAttemptStateDataProto spindle;
        ASSERT_TRUE(spindle.ParseFromString(EncodeAttemptRecord(attempt)));
        EXPECT_TRUE(java.has_app_attempt_tokens());
        EXPECT_EQ(spindle.has_app_attempt_tokens(), java.has_app_attempt_tokens());
        EXPECT_EQ(spindle.app_attempt_tokens(), java.app_attempt_tokens());
        EXPECT_EQ(spindle.app_attempt_tokens(), Credentials().Serialize());
        EXPECT_EQ(spindle.attemptid().SerializeAsString(), java.attemptid().SerializeAsString());
        EXPECT_EQ(spindle.has_master_container(), java.has_master_container());
        if (java.has_master_container()) {
          EXPECT_EQ(spindle.master_container().id().SerializeAsString(),
                    java.master_container().id().SerializeAsString());
          EXPECT_EQ(spindle.master_container().nodeid().SerializeAsString(),
                    java.master_container().nodeid().SerializeAsString());
        }
        EXPECT_EQ(spindle.has_app_attempt_state(), java.has_app_attempt_state());
        if (java.has_app_attempt_state()) {
          EXPECT_EQ(spindle.app_attempt_state(), java.app_attempt_state());
        }
      }
      // The application record: what Java's RMAppManager.recoverApplication
      // reads (times, the context it rebuilds the app from, the user, the
      // final state) as Java stored it.
      y::ApplicationStateDataProto spindle;
      ASSERT_TRUE(spindle.ParseFromString(EncodeAppRecord(app)));
      const zk::DumpedZnode* java_node = dump.Find(
          std::string(golden.root) + "/ZKRMStateRoot/RMAppRoot/" + app.submission.id.ToString());
      ASSERT_NE(java_node, nullptr);
      y::ApplicationStateDataProto java;
      ASSERT_TRUE(java.ParseFromString(*java_node->data));
      EXPECT_EQ(spindle.submit_time(), java.submit_time());
      EXPECT_EQ(spindle.start_time(), java.start_time());
      EXPECT_EQ(spindle.user(), java.user());
      EXPECT_EQ(spindle.application_submission_context(), java.application_submission_context());
      EXPECT_EQ(spindle.has_application_state(), java.has_application_state());
      EXPECT_EQ(spindle.application_state(), java.application_state());
      EXPECT_EQ(spindle.finish_time(), java.finish_time());
    }
  }
}

// Spindle takes over the Java tree, keeps its extras (an attempt's asks, the
// node list) under SpindleRoot, and a Java RM then starts on the tree (its
// getAndIncrementEpoch moves EpochNode on, as the golden EpochNode shows it
// encoded): the extras describe a cluster that moved on and are not loaded;
// Hadoop's records are.
TEST_F(ZkGoldenTreeTest, SpindleExtrasAreDroppedAfterAJavaRun) {
  const std::string parent = base_ + kJava336.root;
  ASSERT_TRUE(zk::RestoreZkTree(session_.get(), ReadGolden(kJava336), parent).ok());
  const ApplicationAttemptId running{{kJava336.cluster_timestamp, 4}, 1};
  const std::string app_id = running.app.ToString();
  {
    ZkRmStateStore store(StoreOptions(kJava336, parent));
    ASSERT_TRUE(store.Open().ok());
    persist::StoreBatch batch;
    batch.SetClusterValue(persist::ClusterField::kEpoch, 1);  // after Java's epoch 0
    batch.PutAttempt(app_id, AsksRecordId(running), "asks");
    batch.PutNode("127.0.0.1:28041", "node");
    ASSERT_TRUE(store.Apply(batch).ok());
    auto loaded = store.Load();
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->cluster.at(persist::ClusterField::kEpoch), 1);
    EXPECT_EQ(loaded->attempts.at(app_id).count(AsksRecordId(running)), 1u);
    EXPECT_EQ(loaded->nodes.size(), 1u);
    ASSERT_TRUE(store.Close().ok());
  }
  // A Spindle restart keeps them.
  {
    ZkRmStateStore store(StoreOptions(kJava336, parent));
    ASSERT_TRUE(store.Open().ok());
    auto loaded = store.Load();
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->attempts.at(app_id).count(AsksRecordId(running)), 1u);
    EXPECT_EQ(loaded->nodes.size(), 1u);
  }
  // EpochNode held 2 (Spindle's epoch 1 + 1); the Java RM starts with 2 and
  // stores 3.
  y::EpochProto java_epoch;
  java_epoch.set_epoch(3);
  ASSERT_TRUE(
      session_->Set(parent + "/ZKRMStateRoot/EpochNode", java_epoch.SerializeAsString()).ok());
  ZkRmStateStore store(StoreOptions(kJava336, parent));
  ASSERT_TRUE(store.Open().ok());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->cluster.at(persist::ClusterField::kEpoch), 2);
  EXPECT_EQ(loaded->applications.size(), 4u);
  ASSERT_EQ(loaded->attempts.count(app_id), 1u);
  EXPECT_EQ(loaded->attempts.at(app_id).count(AsksRecordId(running)), 0u);
  EXPECT_EQ(loaded->attempts.at(app_id).count(running.ToString()), 1u);
  EXPECT_TRUE(loaded->nodes.empty());
}

}  // namespace
}  // namespace spindle::rm
