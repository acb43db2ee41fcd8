#include "rm/recovery/fs/fs_rm_state_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rm/recovery/fs/batch_journal.h"
#include "rm/recovery/fs/hadoop_checksum_file.h"
#include "rm/recovery/rm_state.h"
#include "rm/security/master_key_manager.h"

namespace spindle::rm {
namespace {

namespace fs = std::filesystem;
using persist::ClusterField;
using persist::LoadedState;
using persist::StoreBatch;

constexpr char kApp[] = "application_1700000000000_0001";
constexpr char kAttempt[] = "appattempt_1700000000000_0001_000001";

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void WriteBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

class FsRmStateStoreTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/spindle-fs-store-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { fs::remove_all(dir_); }

  bool hadoop3() const { return std::string(GetParam()) == "3.3"; }

  FsStoreOptions Options() const {
    FsStoreOptions options;
    options.uri = "file://" + dir_;
    options.directory = dir_;
    options.hadoop3 = hadoop3();
    options.version = hadoop3() ? zkstore::StoreVersion{1, 3} : zkstore::StoreVersion{1, 2};
    options.sync_writes = false;
    return options;
  }

  std::unique_ptr<FsRmStateStore> OpenStore() {
    auto store = std::make_unique<FsRmStateStore>(Options());
    Status opened = store->Open();
    EXPECT_TRUE(opened.ok()) << opened.ToString();
    return store;
  }

  fs::path Root() const { return fs::path(dir_) / "FSRMStateRoot"; }

  // Everything the store keeps, in one batch.
  static StoreBatch FullBatch() {
    StoreBatch batch;
    batch.PutApplication(kApp, "app-record");
    batch.PutAttempt(kApp, kAttempt, "attempt-record");
    batch.PutAttempt(kApp, "asks/row/1", "asks");  // Spindle's record beside the attempt
    batch.PutAttempt("application_1700000000000_0002", "appattempt_1700000000000_0002_000001",
                     "attempt-before-app");
    batch.PutMasterKey(kDelegationKeysFamily, 4, "delegation-key");
    batch.PutMasterKey(kDelegationTokensFamily, 9, "token");
    batch.PutMasterKey(KeyFamilyName(KeyFamily::kAmrmTokens), 0, "amrm-state");
    batch.PutMasterKey(KeyFamilyName(KeyFamily::kContainerTokens), 2, "container-key");
    batch.SetClusterValue(ClusterField::kEpoch, 3);
    batch.SetClusterValue(ClusterField::kDelegationTokenSequence, 9);
    batch.SetClusterValue(ClusterField::kClusterTimestamp, 1700000000000);
    batch.SetClusterValue(ClusterField::kAppIdCounter, 2);
    batch.PutNode("host-1:8041", "node");
    return batch;
  }

  std::string dir_;
};

INSTANTIATE_TEST_SUITE_P(Lines, FsRmStateStoreTest, ::testing::Values("2.6", "2.7", "3.3"));

TEST_P(FsRmStateStoreTest, RecordsLieInHadoopsLayoutAndReadBack) {
  auto store = OpenStore();
  ASSERT_TRUE(store->Apply(FullBatch()).ok());

  // Hadoop's files, each with a matching checksum file.
  const fs::path app_dir = Root() / "RMAppRoot" / kApp;
  for (const fs::path& file :
       {app_dir / kApp, app_dir / kAttempt, Root() / "RMDTSecretManagerRoot" / "DelegationKey_4",
        Root() / "RMDTSecretManagerRoot" / "RMDelegationToken_9",
        Root() / "RMDTSecretManagerRoot" / "RMDTSequenceNumber_9",
        Root() / "AMRMTokenSecretManagerRoot" / "AMRMTokenSecretManagerNode", Root() / "EpochNode",
        Root() / "RMVersionNode"}) {
    ASSERT_TRUE(fs::is_regular_file(file)) << file;
    const fs::path sums = file.parent_path() / fsstore::ChecksumFileName(file.filename().string());
    ASSERT_TRUE(fs::is_regular_file(sums)) << sums;
    EXPECT_TRUE(fsstore::VerifyChecksumFile(ReadBytes(file), ReadBytes(sums)).ok()) << file;
  }
  EXPECT_EQ(ReadBytes(app_dir / kApp), "app-record");
  EXPECT_EQ(ReadBytes(Root() / "RMDTSecretManagerRoot" / "RMDTSequenceNumber_9"), "");
  EXPECT_EQ(ReadBytes(Root() / "EpochNode"), zkstore::EncodeEpochNode(3));
  EXPECT_EQ(ReadBytes(Root() / "RMVersionNode"),
            zkstore::EncodeVersion(hadoop3() ? zkstore::StoreVersion{1, 3}
                                             : zkstore::StoreVersion{1, 2}));
  EXPECT_EQ(fs::is_directory(Root() / "ProxyCARoot"), hadoop3());
  EXPECT_EQ(fs::is_directory(Root() / "ReservationSystemRoot"), hadoop3());
  // Nothing in Hadoop's tree that a Java RM would choke on: the attempt of
  // an application not stored and Spindle's own records are elsewhere.
  EXPECT_FALSE(fs::exists(Root() / "RMAppRoot" / "application_1700000000000_0002"));
  EXPECT_EQ(std::distance(fs::directory_iterator(app_dir), fs::directory_iterator()), 4)
      << "the app, its attempt and their .crc files";
  EXPECT_FALSE(fs::exists(fs::path(dir_) / "SpindleRoot" / "BatchJournal"));

  // Another store instance (a restart) reads all of it back.
  auto loaded_before = store->Load();
  ASSERT_TRUE(loaded_before.ok()) << loaded_before.status().ToString();
  store.reset();
  auto reopened = OpenStore();
  auto loaded = reopened->Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(*loaded, *loaded_before);
  EXPECT_EQ(loaded->applications.at(kApp), "app-record");
  EXPECT_EQ(loaded->attempts.at(kApp).at(kAttempt), "attempt-record");
  EXPECT_EQ(loaded->attempts.at(kApp).at("asks/row/1"), "asks");
  EXPECT_EQ(loaded->attempts.at("application_1700000000000_0002")
                .at("appattempt_1700000000000_0002_000001"),
            "attempt-before-app");
  EXPECT_EQ(loaded->master_keys.at({kDelegationKeysFamily, 4}), "delegation-key");
  EXPECT_EQ(loaded->master_keys.at({kDelegationTokensFamily, 9}), "token");
  EXPECT_EQ(loaded->master_keys.at({KeyFamilyName(KeyFamily::kAmrmTokens), 0}), "amrm-state");
  EXPECT_EQ(loaded->master_keys.at({KeyFamilyName(KeyFamily::kContainerTokens), 2}),
            "container-key");
  EXPECT_EQ(loaded->cluster.at(ClusterField::kEpoch), 3);
  EXPECT_EQ(loaded->cluster.at(ClusterField::kDelegationTokenSequence), 9);
  EXPECT_EQ(loaded->cluster.at(ClusterField::kClusterTimestamp), 1700000000000);
  EXPECT_EQ(loaded->nodes.at("host-1:8041"), "node");
  EXPECT_EQ(loaded->RecordCount(), FullBatch().size());
}

TEST_P(FsRmStateStoreTest, UpdatesDeletesAndRemovalsFollowHadoop) {
  auto store = OpenStore();
  ASSERT_TRUE(store->Apply(FullBatch()).ok());
  ASSERT_TRUE(store->PutApplication(kApp, "finished").ok());
  ASSERT_TRUE(store->SetClusterValue(ClusterField::kDelegationTokenSequence, 10).ok());
  ASSERT_TRUE(store->DeleteMasterKey(kDelegationTokensFamily, 9).ok());
  ASSERT_TRUE(store->DeleteMasterKey(KeyFamilyName(KeyFamily::kAmrmTokens), 0).ok());
  const fs::path dt = Root() / "RMDTSecretManagerRoot";
  EXPECT_FALSE(fs::exists(dt / "RMDTSequenceNumber_9"));
  EXPECT_TRUE(fs::exists(dt / "RMDTSequenceNumber_10"));
  EXPECT_FALSE(fs::exists(dt / "RMDelegationToken_9"));
  EXPECT_FALSE(fs::exists(dt / ".RMDelegationToken_9.crc"));
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->applications.at(kApp), "finished");
  EXPECT_EQ(loaded->cluster.at(ClusterField::kDelegationTokenSequence), 10);
  EXPECT_EQ(loaded->master_keys.count({KeyFamilyName(KeyFamily::kAmrmTokens), 0}), 0u);

  ASSERT_TRUE(store->RemoveApplication(kApp).ok());
  EXPECT_FALSE(fs::exists(Root() / "RMAppRoot" / kApp)) << "the directory goes, as Java's";
  loaded = store->Load();
  EXPECT_EQ(loaded->applications.count(kApp), 0u);
  EXPECT_EQ(loaded->attempts.count(kApp), 0u) << "Spindle's records of the app went with it";
}

TEST_P(FsRmStateStoreTest, LeftoversAreFinishedOrDroppedAsJavasLoad) {
  {
    auto store = OpenStore();
    ASSERT_TRUE(store->Apply(FullBatch()).ok());
  }
  const fs::path app_dir = Root() / "RMAppRoot" / kApp;
  // An update interrupted after the old file was deleted: only ".new" is
  // left (with its checksum file).
  fs::rename(app_dir / kApp, app_dir / (std::string(kApp) + ".new"));
  fs::rename(app_dir / ("." + std::string(kApp) + ".crc"),
             app_dir / ("." + std::string(kApp) + ".new.crc"));
  // An update interrupted before: both, the ".new" one wins.
  WriteBytes(app_dir / (std::string(kAttempt) + ".new"), "attempt-updated");
  // A write interrupted before its rename, and a stale checksum file.
  WriteBytes(app_dir / "appattempt_1700000000000_0001_000002.tmp", "partial");
  WriteBytes(app_dir / ".appattempt_1700000000000_0001_000003.crc", "crc");
  // EpochNode's update interrupted in the root (Java does not resume it).
  fs::rename(Root() / "EpochNode", Root() / "EpochNode.new");

  auto store = OpenStore();
  auto loaded = store->Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->applications.at(kApp), "app-record");
  EXPECT_EQ(loaded->attempts.at(kApp).at(kAttempt), "attempt-updated");
  EXPECT_EQ(loaded->attempts.at(kApp).count("appattempt_1700000000000_0001_000002"), 0u);
  EXPECT_EQ(loaded->cluster.at(ClusterField::kEpoch), 3);
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(name.ends_with(".new") || name.ends_with(".tmp")) << entry.path();
    if (fsstore::IsChecksumFileName(name)) {
      EXPECT_TRUE(fs::exists(entry.path().parent_path() / name.substr(1, name.size() - 5)))
          << "orphan " << entry.path();
    }
  }
}

TEST_P(FsRmStateStoreTest, CorruptFilesAreClearErrors) {
  {
    auto store = OpenStore();
    ASSERT_TRUE(store->Apply(FullBatch()).ok());
  }
  // A record that no longer matches its checksum file.
  const fs::path attempt = Root() / "RMAppRoot" / kApp / kAttempt;
  WriteBytes(attempt, "attempt-recorX");
  auto store = OpenStore();
  auto loaded = store->Load();
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), Status::Code::kCorruption);
  EXPECT_NE(loaded.status().message().find(attempt.string()), std::string::npos)
      << loaded.status().ToString();
  EXPECT_NE(loaded.status().message().find("checksum"), std::string::npos);
  // Without its checksum file it is read unchecked, as a Java RM does.
  fs::remove(attempt.parent_path() / ("." + std::string(kAttempt) + ".crc"));
  ASSERT_TRUE(store->Load().ok());

  // An EpochNode that is not an EpochProto.
  fs::remove(Root() / ".EpochNode.crc");
  WriteBytes(Root() / "EpochNode", "\xff\xff\xff");
  loaded = store->Load();
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), Status::Code::kCorruption);
  EXPECT_NE(loaded.status().message().find("EpochNode"), std::string::npos);

  // A sequence number file whose name is no number.
  ASSERT_TRUE(store->SetClusterValue(ClusterField::kEpoch, 4).ok());
  WriteBytes(Root() / "RMDTSecretManagerRoot" / "RMDTSequenceNumber_x", "");
  loaded = store->Load();
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("RMDTSequenceNumber_x"), std::string::npos);
}

TEST_P(FsRmStateStoreTest, AnotherMajorVersionIsRefusedAndAMinorOneUpgraded) {
  { OpenStore(); }
  const fs::path version = Root() / "RMVersionNode";
  fs::remove(Root() / ".RMVersionNode.crc");
  WriteBytes(version, zkstore::EncodeVersion({2, 0}));
  FsRmStateStore store(Options());
  Status refused = store.Open();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.ToString().find("RMStateVersionIncompatibleException"), std::string::npos)
      << refused.ToString();
  EXPECT_EQ(ReadBytes(version), zkstore::EncodeVersion({2, 0})) << "left untouched";
  EXPECT_EQ(store.Load().status().code(), Status::Code::kUnavailable);

  WriteBytes(version, zkstore::EncodeVersion({1, 1}));
  ASSERT_TRUE(store.Open().ok());
  EXPECT_EQ(*zkstore::DecodeVersion(ReadBytes(version)), store.options().version);
}

TEST_P(FsRmStateStoreTest, AnInterruptedBatchIsAppliedWholeUnlessAnotherRmStartedSince) {
  {
    auto store = OpenStore();
    ASSERT_TRUE(store->SetClusterValue(ClusterField::kEpoch, 1).ok());
  }
  const fs::path journal = fs::path(dir_) / "SpindleRoot" / "BatchJournal";
  StoreBatch batch;
  batch.PutApplication(kApp, "app-record");
  batch.PutAttempt(kApp, kAttempt, "attempt-record");
  // As if the process died once the journal was written.
  WriteBytes(journal, fsstore::EncodeJournal(batch, ReadBytes(Root() / "EpochNode")));
  {
    auto store = OpenStore();
    auto loaded = store->Load();
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->applications.at(kApp), "app-record");
    EXPECT_EQ(loaded->attempts.at(kApp).at(kAttempt), "attempt-record");
    EXPECT_FALSE(fs::exists(journal));
  }
  // A batch that set the epoch itself, interrupted after EpochNode was
  // written, is applied again.
  StoreBatch bump;
  bump.SetClusterValue(ClusterField::kEpoch, 2);
  bump.PutAttempt(kApp, kAttempt, "attempt-final");
  WriteBytes(journal, fsstore::EncodeJournal(bump, ReadBytes(Root() / "EpochNode")));
  WriteBytes(Root() / "EpochNode", zkstore::EncodeEpochNode(2));
  fs::remove(Root() / ".EpochNode.crc");
  {
    auto store = OpenStore();
    auto loaded = store->Load();
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->attempts.at(kApp).at(kAttempt), "attempt-final");
    EXPECT_EQ(loaded->cluster.at(ClusterField::kEpoch), 2);
  }
  // A journal from before another RM's start (EpochNode moved on) is dropped.
  StoreBatch stale;
  stale.PutApplication(kApp, "stale");
  WriteBytes(journal, fsstore::EncodeJournal(stale, zkstore::EncodeEpochNode(0)));
  auto store = OpenStore();
  EXPECT_EQ(store->Load()->applications.at(kApp), "app-record");
  EXPECT_FALSE(fs::exists(journal));
  // A damaged journal refuses the start (the data is left as it is).
  store.reset();
  WriteBytes(journal, "SPJ1 torn");
  FsRmStateStore refused(Options());
  Status opened = refused.Open();
  EXPECT_EQ(opened.code(), Status::Code::kCorruption);
  EXPECT_NE(opened.message().find("BatchJournal"), std::string::npos) << opened.ToString();
}

TEST_P(FsRmStateStoreTest, JavasRestartLeavesTwoSequenceFilesAndTheHighestCounts) {
  auto store = OpenStore();
  ASSERT_TRUE(store->SetClusterValue(ClusterField::kDelegationTokenSequence, 5).ok());
  WriteBytes(Root() / "RMDTSecretManagerRoot" / "RMDTSequenceNumber_12", "");
  EXPECT_EQ(store->Load()->cluster.at(ClusterField::kDelegationTokenSequence), 12);
  ASSERT_TRUE(store->SetClusterValue(ClusterField::kDelegationTokenSequence, 13).ok());
  int files = 0;
  for (const auto& entry : fs::directory_iterator(Root() / "RMDTSecretManagerRoot")) {
    if (entry.path().filename().string().starts_with("RMDTSequenceNumber_")) ++files;
  }
  EXPECT_EQ(files, 1);
  EXPECT_FALSE(store->SetClusterValue(ClusterField::kDelegationTokenSequence, 1LL << 40).ok());
}

TEST_P(FsRmStateStoreTest, FormatDeletesBothRootsAndLeavesTheRestOfTheDirectory) {
  WriteBytes(fs::path(dir_) / "unrelated", "x");
  {
    auto store = OpenStore();
    ASSERT_TRUE(store->Apply(FullBatch()).ok());
    ASSERT_TRUE(store->Format().ok());
    EXPECT_EQ(store->Load()->RecordCount(), 0u) << "open and empty";
  }
  FsRmStateStore closed(Options());
  ASSERT_TRUE(closed.Format().ok());
  EXPECT_FALSE(fs::exists(Root()));
  EXPECT_FALSE(fs::exists(fs::path(dir_) / "SpindleRoot"));
  EXPECT_TRUE(fs::exists(fs::path(dir_) / "unrelated"));
}

TEST_P(FsRmStateStoreTest, SyncedWritesReadBackTheSame) {
  FsStoreOptions options = Options();
  options.sync_writes = true;
  {
    FsRmStateStore store(options);
    ASSERT_TRUE(store.Open().ok());
    ASSERT_TRUE(store.Apply(FullBatch()).ok());
    StoreBatch unsynced;
    unsynced.set_sync(false);
    unsynced.PutAttempt(kApp, kAttempt, "unsynced");
    unsynced.PutNode("host-2:8041", "node-2");
    ASSERT_TRUE(store.Apply(unsynced).ok());
  }
  FsRmStateStore reopened(options);
  ASSERT_TRUE(reopened.Open().ok());
  auto loaded = reopened.Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->attempts.at(kApp).at(kAttempt), "unsynced");
  EXPECT_EQ(loaded->nodes.size(), 2u);
  EXPECT_EQ(loaded->RecordCount(), FullBatch().size() + 1);
}

TEST_P(FsRmStateStoreTest, IoErrorsAreRetriedAsConfiguredThenReported) {
  FsStoreOptions options = Options();
  options.num_retries = 2;
  options.retry_interval = std::chrono::milliseconds(1);
  // A file where the store's directory should be.
  const std::string blocked = dir_ + "/blocked";
  WriteBytes(blocked, "x");
  options.directory = blocked;
  FsRmStateStore store(options);
  Status opened = store.Open();
  EXPECT_EQ(opened.code(), Status::Code::kIoError);
  EXPECT_NE(opened.message().find(blocked), std::string::npos) << opened.ToString();
}

}  // namespace
}  // namespace spindle::rm
