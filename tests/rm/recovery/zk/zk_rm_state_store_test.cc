// ZkRmStateStore against a real ZooKeeper server: every record kind through
// Load(), batches all or nothing, the znode paths and bytes Hadoop's
// ZKRMStateStore reads (decoded with the protobuf and Writable layouts, not
// with the store's own codec), fencing by a second store, the 3.x split
// layouts, and an application removed the way the Java RM removes it.
#include "rm/recovery/zk/zk_rm_state_store.h"

#include <gtest/gtest.h>
#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "persist/zk/zk_error.h"
#include "rm/recovery/app_records.h"
#include "rm/recovery/node_labels_record.h"
#include "rm/recovery/rm_state.h"
#include "rm/security/delegation_token_records.h"
#include "rm/security/master_key_manager.h"
#include "tests/persist/zk/zk_test_server.h"
#include "yarn_protos.pb.h"
#include "yarn_server_common_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {
namespace {

namespace y = hadoop::yarn;
using persist::ClusterField;
using persist::LoadedState;
using persist::StoreBatch;

class ZkRmStateStoreTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { zk::ZkTestServer::Shutdown(); }

  void SetUp() override {
    const std::string why = zk::ZkTestServer::Ensure();
    if (!why.empty()) {
      if (zk::ZkTestServer::failed()) FAIL() << why;
      GTEST_SKIP() << "ZooKeeper server not installed: " << why;
    }
    parent_ = std::string("/") + ::testing::UnitTest::GetInstance()->current_test_info()->name() +
              "/rmstore";
    auto session = zk::ZkSession::Open(SessionOptions());
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    raw_ = std::move(session).value();
  }

  zk::ZkSessionOptions SessionOptions() const {
    zk::ZkSessionOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    options.session_timeout = std::chrono::milliseconds(10000);
    return options;
  }

  ZkStoreOptions Options() const {
    ZkStoreOptions options;
    options.connect_string = zk::ZkTestServer::server()->connect_string();
    options.parent_path = parent_;
    options.num_retries = 3;
    options.retry_interval = std::chrono::milliseconds(100);
    return options;
  }

  std::unique_ptr<ZkRmStateStore> OpenStore(const ZkStoreOptions& options) {
    auto store = std::make_unique<ZkRmStateStore>(options);
    Status opened = store->Open();
    EXPECT_TRUE(opened.ok()) << opened.ToString();
    return store;
  }

  std::string Root() const { return parent_ + "/ZKRMStateRoot"; }

  // The node's data as a Java reader sees it: nullopt for null data (the C
  // client reports length -1), which ZkSession::Get reads as empty.
  std::optional<std::string> JavaData(const std::string& path) {
    zhandle_t* zh = zookeeper_init(zk::ZkTestServer::server()->connect_string().c_str(), nullptr,
                                   10000, nullptr, nullptr, 0);
    EXPECT_NE(zh, nullptr);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (zoo_state(zh) != ZOO_CONNECTED_STATE && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string buffer(1 << 16, '\0');
    int length = static_cast<int>(buffer.size());
    Stat stat{};
    const int rc = zoo_get(zh, path.c_str(), 0, buffer.data(), &length, &stat);
    zookeeper_close(zh);
    EXPECT_EQ(rc, ZOK) << path;
    if (length < 0) return std::nullopt;
    buffer.resize(static_cast<size_t>(length));
    return buffer;
  }

  std::string parent_;
  std::unique_ptr<zk::ZkSession> raw_;
};

ApplicationId AppId(int n) { return ApplicationId{1700000000000, n}; }

RmApp SampleApp(int n) {
  RmApp app;
  app.submission.id = AppId(n);
  app.submission.user = "alice";
  app.submission.queue = "default";
  app.submission.am_resource = pool::Resource::Of(1024, 1);
  y::ApplicationSubmissionContextProto context;
  context.mutable_application_id()->set_cluster_timestamp(AppId(n).cluster_timestamp);
  context.mutable_application_id()->set_id(n);
  context.set_application_name("job " + std::to_string(n));
  app.submission.context_bytes = context.SerializeAsString();
  app.submit_time_ms = 1700000000100;
  app.start_time_ms = 1700000000200;
  return app;
}

RmAttempt SampleAttempt(int app, int attempt) {
  RmAttempt a;
  a.id = ApplicationAttemptId{AppId(app), attempt};
  a.start_time_ms = 1700000000300;
  return a;
}

// One record of every kind the RM stores.
StoreBatch EveryRecordKind() {
  StoreBatch batch;
  const RmApp app = SampleApp(7);
  const RmAttempt attempt = SampleAttempt(7, 1);
  batch.PutApplication(app.submission.id.ToString(), EncodeAppRecord(app));
  batch.PutAttempt(app.submission.id.ToString(), attempt.id.ToString(),
                   EncodeAttemptRecord(attempt));
  batch.PutAttempt(app.submission.id.ToString(), AsksRecordId(attempt.id), "asks bytes");
  batch.PutAttempt(app.submission.id.ToString(), AttemptRowRecordId(attempt.id, "k/1%"),
                   "row bytes");
  KeyState keys{{11, "12345678"}, MasterKey{12, "abcdefgh"}};
  for (KeyFamily family :
       {KeyFamily::kContainerTokens, KeyFamily::kNmTokens, KeyFamily::kAmrmTokens}) {
    PutKeyState(family, keys, &batch);
  }
  batch.PutMasterKey(kDelegationKeysFamily, 2,
                     EncodeDelegationKeyRecord({2, 1700000000000, "keybytes"}));
  DelegationTokenRecord token;
  token.identifier = {"alice", "yarn", "", 1700000000000, 1700000600000, 5, 2};
  token.renew_date_ms = 1700000300000;
  batch.PutMasterKey(kDelegationTokensFamily, 5, EncodeDelegationTokenRecord(token));
  batch.PutMasterKey(kNodeLabelsFamily, 0, EncodeNodeLabels(NodeLabelsState{}));
  batch.PutMasterKey("a/family%", 3, "other family");
  batch.SetClusterValue(ClusterField::kClusterTimestamp, 1700000000000);
  batch.SetClusterValue(ClusterField::kAppIdCounter, 7);
  batch.SetClusterValue(ClusterField::kEpoch, 3);
  batch.SetClusterValue(ClusterField::kQueueConfigVersion, 4);
  batch.SetClusterValue(ClusterField::kDelegationTokenSequence, 5);
  batch.PutNode("host1:45454", "");
  batch.PutNode("host2:45454", "n");
  return batch;
}

LoadedState Expected(const StoreBatch& batch) {
  LoadedState state;
  for (const StoreBatch::Op& op : batch.ops()) {
    switch (op.kind) {
      case StoreBatch::Kind::kApplication:
        state.applications[op.id] = op.value;
        break;
      case StoreBatch::Kind::kAttempt:
        state.attempts[op.id][op.sub_id] = op.value;
        break;
      case StoreBatch::Kind::kMasterKey:
        state.master_keys[{op.id, op.number}] = op.value;
        break;
      case StoreBatch::Kind::kCluster:
        state.cluster[op.field] = op.number;
        break;
      case StoreBatch::Kind::kNode:
        state.nodes[op.id] = op.value;
        break;
    }
  }
  return state;
}

TEST_F(ZkRmStateStoreTest, EveryRecordKindRoundTripsThroughLoadAndAReopen) {
  const StoreBatch batch = EveryRecordKind();
  {
    auto store = OpenStore(Options());
    ASSERT_TRUE(store->Apply(batch).ok());
    auto loaded = store->Load();
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_EQ(*loaded, Expected(batch));
  }
  auto store = OpenStore(Options());
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(*loaded, Expected(batch));
  auto decoded = DecodeRmState(*loaded);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->apps.size(), 1u);
  EXPECT_EQ(decoded->apps[0].attempts.size(), 1u);
  EXPECT_EQ(decoded->asks.size(), 1u);
  EXPECT_EQ(decoded->epoch, 3);
  ASSERT_TRUE(decoded->delegation_tokens.has_value());
  EXPECT_EQ(decoded->delegation_tokens->sequence_number, 5);

  // Updates and deletes of each kind.
  StoreBatch changes;
  changes.PutApplication(AppId(7).ToString(), EncodeAppRecord(SampleApp(7)) + "");
  changes.DeleteAttempt(AppId(7).ToString(), AsksRecordId(SampleAttempt(7, 1).id));
  changes.DeleteMasterKey(kDelegationTokensFamily, 5);
  changes.DeleteMasterKey(KeyFamilyName(KeyFamily::kNmTokens), 0);
  changes.DeleteNode("host1:45454");
  changes.SetClusterValue(ClusterField::kEpoch, 4);
  ASSERT_TRUE(store->Apply(changes).ok());
  LoadedState expected = Expected(batch);
  expected.attempts[AppId(7).ToString()].erase(AsksRecordId(SampleAttempt(7, 1).id));
  expected.master_keys.erase({kDelegationTokensFamily, 5});
  expected.master_keys.erase({KeyFamilyName(KeyFamily::kNmTokens), 0});
  expected.nodes.erase("host1:45454");
  expected.cluster[ClusterField::kEpoch] = 4;
  auto after = store->Load();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(*after, expected);

  ASSERT_TRUE(store->RemoveApplication(AppId(7).ToString()).ok());
  after = store->Load();
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->applications.empty());
  EXPECT_TRUE(after->attempts.empty());
}

TEST_F(ZkRmStateStoreTest, AnEmptyNodeRecordIsKeptInItsNameAlone) {
  auto store = OpenStore(Options());
  StoreBatch batch;
  batch.PutNode("h1:1", "");
  batch.PutNode("h/2:2", "");
  batch.PutNode("h3:3", "bytes");
  ASSERT_TRUE(store->Apply(batch).ok());
  const std::string names = parent_ + "/SpindleRoot/NodeNames";
  const std::string with_data = parent_ + "/SpindleRoot/Nodes";
  auto children = [this](const std::string& path) {
    std::vector<std::string> out = *raw_->Children(path);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(children(names), (std::vector<std::string>{"h%2F2:2", "h1:1"}));
  EXPECT_EQ(children(with_data), std::vector<std::string>{"h3:3"});
  const std::map<std::string, std::string> expected = {
      {"h1:1", ""}, {"h/2:2", ""}, {"h3:3", "bytes"}};
  // Read back by this store (its index) and by a new one (listing).
  EXPECT_EQ(store->Load()->nodes, expected);
  EXPECT_EQ(OpenStore(Options())->Load()->nodes, expected);

  // A record moves between the two forms as its bytes change; a delete
  // removes either.
  StoreBatch changes;
  changes.PutNode("h1:1", "now some");
  changes.PutNode("h3:3", "");
  changes.DeleteNode("h/2:2");
  ASSERT_TRUE(store->Apply(changes).ok());
  EXPECT_EQ(children(names), std::vector<std::string>{"h3:3"});
  EXPECT_EQ(children(with_data), std::vector<std::string>{"h1:1"});
  const std::map<std::string, std::string> after = {{"h1:1", "now some"}, {"h3:3", ""}};
  EXPECT_EQ(store->Load()->nodes, after);
  EXPECT_EQ(OpenStore(Options())->Load()->nodes, after);
  // Putting the same empty record again writes nothing new.
  StoreBatch again;
  again.PutNode("h3:3", "");
  ASSERT_TRUE(store->Apply(again).ok());
  EXPECT_EQ(OpenStore(Options())->Load()->nodes, after);
}

TEST_F(ZkRmStateStoreTest, ABatchIsAllOrNothing) {
  auto store = OpenStore(Options());
  // Someone else creates the node the batch's second operation creates:
  // the multi fails there, and its first operation is not applied either.
  const std::string app = AppId(9).ToString();
  ASSERT_TRUE(raw_->Create(Root() + "/RMAppRoot/" + app, "x", {zk::WorldAnyone()}).ok());
  StoreBatch batch;
  batch.PutNode("host9:1", "n");
  batch.PutApplication(app, EncodeAppRecord(SampleApp(9)));
  batch.SetClusterValue(ClusterField::kAppIdCounter, 9);
  Status refused = store->Apply(batch);
  EXPECT_EQ(zk::ZkErrorOf(refused), zk::ZkError::kNodeExists) << refused.ToString();
  EXPECT_FALSE(raw_->Exists(parent_ + "/SpindleRoot/Nodes/host9:1")->has_value());
  EXPECT_FALSE(raw_->Exists(parent_ + "/SpindleRoot/Cluster/app_id_counter")->has_value());
  EXPECT_FALSE(raw_->Exists(Root() + "/RM_ZK_FENCING_LOCK")->has_value());
}

TEST_F(ZkRmStateStoreTest, NodesHoldWhatHadoopsZkRmStateStoreReads) {
  ZkStoreOptions options = Options();
  auto store = OpenStore(options);
  // Before any record: Hadoop's structural nodes exist without data (a Java
  // RM reads null there, not an empty record).
  EXPECT_EQ(JavaData(Root() + "/AMRMTokenSecretManagerRoot"), std::nullopt);
  EXPECT_EQ(JavaData(Root() + "/RMDTSecretManagerRoot/RMDTSequentialNumber"), std::nullopt);
  for (const char* node :
       {"RMAppRoot/HIERARCHIES/1", "RMAppRoot/HIERARCHIES/4",
        "RMDTSecretManagerRoot/RMDTMasterKeysRoot",
        "RMDTSecretManagerRoot/RMDelegationTokensRoot/2", "ReservationSystemRoot", "ProxyCARoot"}) {
    EXPECT_TRUE(raw_->Exists(Root() + "/" + node)->has_value()) << node;
  }
  y::VersionProto version;
  ASSERT_TRUE(version.ParseFromString(raw_->Get(Root() + "/RMVersionNode")->data));
  EXPECT_EQ(version.major_version(), 1);
  EXPECT_EQ(version.minor_version(), 5);

  ASSERT_TRUE(store->Apply(EveryRecordKind()).ok());
  const std::string app = AppId(7).ToString();
  const std::string attempt = SampleAttempt(7, 1).id.ToString();
  EXPECT_EQ(app, "application_1700000000000_0007");

  // ApplicationStateDataProto whose submission context names the node.
  y::ApplicationStateDataProto app_proto;
  ASSERT_TRUE(app_proto.ParseFromString(raw_->Get(Root() + "/RMAppRoot/" + app)->data));
  y::ApplicationSubmissionContextProto context;
  ASSERT_TRUE(context.ParseFromString(app_proto.application_submission_context()));
  EXPECT_EQ(context.application_id().cluster_timestamp(), 1700000000000);
  EXPECT_EQ(context.application_id().id(), 7);
  EXPECT_EQ(app_proto.user(), "alice");
  // The app's children are its real attempts only.
  EXPECT_EQ(*raw_->Children(Root() + "/RMAppRoot/" + app), std::vector<std::string>{attempt});
  y::ApplicationAttemptStateDataProto attempt_proto;
  ASSERT_TRUE(
      attempt_proto.ParseFromString(raw_->Get(Root() + "/RMAppRoot/" + app + "/" + attempt)->data));
  EXPECT_EQ(attempt_proto.attemptid().attemptid(), 1);
  EXPECT_EQ(attempt_proto.attemptid().application_id().id(), 7);

  // EpochNode: the epoch the next start uses (stored 3 -> 4).
  y::EpochProto epoch;
  ASSERT_TRUE(epoch.ParseFromString(raw_->Get(Root() + "/EpochNode")->data));
  EXPECT_EQ(epoch.epoch(), 4);

  y::AMRMTokenSecretManagerStateProto amrm;
  ASSERT_TRUE(amrm.ParseFromString(raw_->Get(Root() + "/AMRMTokenSecretManagerRoot")->data));
  EXPECT_EQ(amrm.current_master_key().key_id(), 11);
  EXPECT_EQ(amrm.current_master_key().bytes(), "12345678");
  EXPECT_EQ(amrm.next_master_key().key_id(), 12);

  // DelegationKey Writable: VInt keyId 2, VLong expiry 1700000000000 (8a +
  // 5 bytes), VInt length 8, the key.
  EXPECT_EQ(raw_->Get(Root() + "/RMDTSecretManagerRoot/RMDTMasterKeysRoot/DelegationKey_2")->data,
            std::string("\x02\x8a\x01\x8b\xcf\xe5\x68\x00\x08", 9) + "keybytes");
  // RMDelegationTokenIdentifierDataProto.
  y::RMDelegationTokenIdentifierDataProto token;
  ASSERT_TRUE(token.ParseFromString(
      raw_->Get(Root() + "/RMDTSecretManagerRoot/RMDelegationTokensRoot/RMDelegationToken_5")
          ->data));
  EXPECT_EQ(token.renewdate(), 1700000300000);
  EXPECT_EQ(token.token_identifier().owner(), "alice");
  EXPECT_EQ(token.token_identifier().sequencenumber(), 5);
  // DataOutput.writeInt.
  EXPECT_EQ(raw_->Get(Root() + "/RMDTSecretManagerRoot/RMDTSequentialNumber")->data,
            std::string("\x00\x00\x00\x05", 4));

  // Spindle's own records stay out of ZKRMStateRoot.
  EXPECT_TRUE(raw_->Exists(parent_ + "/SpindleRoot/Nodes/host2:45454")->has_value());
  EXPECT_TRUE(raw_->Exists(parent_ + "/SpindleRoot/Keys/container-tokens/0")->has_value());
  EXPECT_EQ(raw_->Children(parent_ + "/SpindleRoot/AppRecords/" + app)->size(), 2u);
  EXPECT_EQ(raw_->Get(parent_ + "/SpindleRoot/Cluster/cluster_timestamp")->data,
            std::string("\x00\x00\x01\x8b\xcf\xe5\x68\x00", 8));
  EXPECT_FALSE(raw_->Exists(Root() + "/RM_ZK_FENCING_LOCK")->has_value());
}

TEST_F(ZkRmStateStoreTest, TheHadoop2LineWritesItsVersionAndNoSplitHierarchies) {
  ZkStoreOptions options = Options();
  options.hadoop3 = false;
  options.version = {1, 2};
  auto store = OpenStore(options);
  y::VersionProto version;
  ASSERT_TRUE(version.ParseFromString(raw_->Get(Root() + "/RMVersionNode")->data));
  EXPECT_EQ(version.minor_version(), 2);
  EXPECT_FALSE(raw_->Exists(Root() + "/RMAppRoot/HIERARCHIES")->has_value());
  EXPECT_FALSE(raw_->Exists(Root() + "/ProxyCARoot")->has_value());
}

TEST_F(ZkRmStateStoreTest, AnIncompatibleVersionIsRefused) {
  { auto store = OpenStore(Options()); }
  y::VersionProto version;
  version.set_major_version(2);
  version.set_minor_version(0);
  ASSERT_TRUE(raw_->Set(Root() + "/RMVersionNode", version.SerializeAsString()).ok());
  ZkRmStateStore store(Options());
  Status refused = store.Open();
  EXPECT_EQ(refused.java_class(),
            "org.apache.hadoop.yarn.server.resourcemanager.recovery."
            "RMStateVersionIncompatibleException")
      << refused.ToString();
  EXPECT_NE(refused.message().find("Expecting RM state version 1.5, but loading version 2.0"),
            std::string::npos);
  // Another minor version of the same major is taken over and rewritten.
  version.set_major_version(1);
  version.set_minor_version(2);
  ASSERT_TRUE(raw_->Set(Root() + "/RMVersionNode", version.SerializeAsString()).ok());
  ASSERT_TRUE(store.Open().ok());
  ASSERT_TRUE(version.ParseFromString(raw_->Get(Root() + "/RMVersionNode")->data));
  EXPECT_EQ(version.minor_version(), 5);
}

TEST_F(ZkRmStateStoreTest, ASecondStoreFencesTheFirst) {
  ZkStoreOptions options = Options();
  options.ha_enabled = true;
  options.fencing_user = "rm1host:8032";
  auto first = OpenStore(options);
  ASSERT_TRUE(first->PutApplication(AppId(1).ToString(), EncodeAppRecord(SampleApp(1))).ok());
  ASSERT_TRUE(first->CheckNotFenced().ok());

  options.fencing_user = "rm2host:8032";
  auto second = OpenStore(options);
  // The root's ACL: world less create/delete, create/delete for rm2 only.
  auto acl = raw_->GetAcl(Root());
  ASSERT_TRUE(acl.ok());
  ASSERT_EQ(acl->acl.size(), 2u);
  EXPECT_EQ(acl->acl[0], zk::WorldAnyone(zk::kPermRead | zk::kPermWrite | zk::kPermAdmin));
  EXPECT_EQ(acl->acl[1].perms, zk::kPermCreate | zk::kPermDelete);
  EXPECT_EQ(acl->acl[1].scheme, "digest");
  EXPECT_EQ(acl->acl[1].id.substr(0, 8), "rm2host:");

  Status fenced = first->PutApplication(AppId(2).ToString(), EncodeAppRecord(SampleApp(2)));
  EXPECT_TRUE(IsStoreFenced(fenced)) << fenced.ToString();
  EXPECT_FALSE(raw_->Exists(Root() + "/RMAppRoot/" + AppId(2).ToString())->has_value());
  // Fenced for good: even a write that needs no root permission is refused.
  EXPECT_TRUE(IsStoreFenced(first->SetClusterValue(ClusterField::kEpoch, 9)));
  EXPECT_TRUE(IsStoreFenced(first->CheckNotFenced()));

  ASSERT_TRUE(second->PutApplication(AppId(2).ToString(), EncodeAppRecord(SampleApp(2))).ok());
  auto loaded = second->Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->applications.size(), 2u);
  EXPECT_EQ(loaded->cluster.count(ClusterField::kEpoch), 0u);
}

TEST_F(ZkRmStateStoreTest, SplitLayoutsAreReadAndTheConfiguredOneWritten) {
  { auto store = OpenStore(Options()); }
  // As a 3.3 RM with split index 2 wrote them.
  const std::string app = AppId(123).ToString();  // application_1700000000000_0123
  const std::string head = Root() + "/RMAppRoot/HIERARCHIES/2/" + app.substr(0, app.size() - 2);
  const std::string leaf = head + "/" + app.substr(app.size() - 2);
  const std::string attempt = SampleAttempt(123, 1).id.ToString();
  ASSERT_TRUE(raw_->Create(head, "", {zk::WorldAnyone()}).ok());
  ASSERT_TRUE(raw_->Create(leaf, EncodeAppRecord(SampleApp(123)), {zk::WorldAnyone()}).ok());
  ASSERT_TRUE(raw_->Create(leaf + "/" + attempt, EncodeAttemptRecord(SampleAttempt(123, 1)),
                           {zk::WorldAnyone()})
                  .ok());
  const std::string token_head =
      Root() + "/RMDTSecretManagerRoot/RMDelegationTokensRoot/1/RMDelegationToken_000";
  ASSERT_TRUE(raw_->Create(token_head, "", {zk::WorldAnyone()}).ok());
  ASSERT_TRUE(raw_->Create(token_head + "/7", "token7", {zk::WorldAnyone()}).ok());

  ZkStoreOptions options = Options();
  options.app_split_index = 3;  // new apps go to HIERARCHIES/3
  auto store = OpenStore(options);
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->applications.count(app), 1u);
  EXPECT_EQ(loaded->attempts[app].count(attempt), 1u);
  EXPECT_EQ(loaded->master_keys.at({kDelegationTokensFamily, 7}), "token7");

  // An update stays where the app is; a new app goes to the configured layout.
  ASSERT_TRUE(store->PutApplication(app, EncodeAppRecord(SampleApp(123)) + "").ok());
  ASSERT_TRUE(store->PutApplication(AppId(124).ToString(), EncodeAppRecord(SampleApp(124))).ok());
  const std::string new_app = AppId(124).ToString();
  EXPECT_TRUE(raw_->Exists(Root() + "/RMAppRoot/HIERARCHIES/3/" +
                           new_app.substr(0, new_app.size() - 3) + "/" +
                           new_app.substr(new_app.size() - 3))
                  ->has_value());
  EXPECT_FALSE(raw_->Exists(Root() + "/RMAppRoot/" + new_app)->has_value());
  // Removing the split app removes its parent once empty (3.3's
  // checkRemoveParentZnode); so does removing the split token.
  ASSERT_TRUE(store->RemoveApplication(app).ok());
  EXPECT_FALSE(raw_->Exists(head)->has_value());
  ASSERT_TRUE(store->DeleteMasterKey(kDelegationTokensFamily, 7).ok());
  EXPECT_FALSE(raw_->Exists(token_head)->has_value());
  loaded = store->Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->applications.size(), 1u);
  EXPECT_EQ(loaded->applications.count(new_app), 1u);
}

TEST_F(ZkRmStateStoreTest, TheJavaRmCanDeleteAnApplicationSpindleWrote) {
  auto store = OpenStore(Options());
  ASSERT_TRUE(store->Apply(EveryRecordKind()).ok());
  const std::string app_path = Root() + "/RMAppRoot/" + AppId(7).ToString();
  // removeApplicationStateInternal: each known attempt, then the app node.
  auto attempts = raw_->Children(app_path);
  ASSERT_TRUE(attempts.ok());
  for (const std::string& attempt : *attempts) {
    ASSERT_TRUE(raw_->Delete(app_path + "/" + attempt).ok());
  }
  Status deleted = raw_->Delete(app_path);
  EXPECT_TRUE(deleted.ok()) << deleted.ToString();
  auto reopened = OpenStore(Options());
  auto loaded = reopened->Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->applications.empty());
  auto decoded = DecodeRmState(*loaded);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_TRUE(decoded->apps.empty());
  // Its leftover Spindle records go with a later removal.
  ASSERT_TRUE(reopened->RemoveApplication(AppId(7).ToString()).ok());
  EXPECT_FALSE(
      raw_->Exists(parent_ + "/SpindleRoot/AppRecords/" + AppId(7).ToString())->has_value());
}

TEST_F(ZkRmStateStoreTest, FormatDeletesBothTreesAndAnOpenStoreStaysUsable) {
  auto store = OpenStore(Options());
  ASSERT_TRUE(store->Apply(EveryRecordKind()).ok());
  ASSERT_TRUE(store->Format().ok());
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->RecordCount(), 0u);
  ASSERT_TRUE(store->SetClusterValue(ClusterField::kEpoch, 1).ok());
  ASSERT_TRUE(store->Close().ok());

  ZkRmStateStore closed(Options());
  ASSERT_TRUE(closed.Format().ok());
  EXPECT_FALSE(raw_->Exists(Root())->has_value());
  EXPECT_FALSE(raw_->Exists(parent_ + "/SpindleRoot")->has_value());
}

TEST_F(ZkRmStateStoreTest, AWriteDuringAServerOutageIsRetriedUntilTheServerIsBack) {
  ZkStoreOptions options = Options();
  options.num_retries = 600;
  options.retry_interval = std::chrono::milliseconds(100);
  auto store = OpenStore(options);
  zk::ZkTestServer::server()->Stop();
  std::atomic<bool> done{false};
  Status written;
  std::thread writer([&] {
    written = store->PutNode("host:1", "n");
    done = true;
  });
  Status restarted = zk::ZkTestServer::server()->Restart();
  writer.join();
  ASSERT_TRUE(restarted.ok()) << restarted.ToString();
  EXPECT_TRUE(written.ok()) << written.ToString();
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->nodes.count("host:1"), 1u);
}

}  // namespace
}  // namespace spindle::rm
