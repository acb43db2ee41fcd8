// A FileSystemRMStateStore directory written by a Java RM 3.3.6 on a
// file:// URI (testdata/hadoop-3.3.6, copied by
// testdata/capture_java_fs_store.sh from a local run: one finished and one
// running spindle shell application; see LISTING.txt for the tree as the
// Java RM left it, ProxyCARoot included), opened and decoded by Spindle, its
// checksum files verified; then written by Spindle as the Java RM would read
// it again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rm/recovery/fs/fs_rm_state_store.h"
#include "rm/recovery/fs/hadoop_checksum_file.h"
#include "rm/recovery/rm_state.h"
#include "yarn_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {
namespace {

namespace fs = std::filesystem;
namespace y = hadoop::yarn;

const fs::path kCapture =
    fs::path(SPINDLE_SOURCE_DIR) / "tests/rm/recovery/fs/testdata/hadoop-3.3.6";

class JavaFsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/spindle-java-fs-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    fs::copy(kCapture / "FSRMStateRoot", fs::path(dir_) / "FSRMStateRoot",
             fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }

  FsStoreOptions Options() const {
    FsStoreOptions options;
    options.directory = dir_;
    options.sync_writes = false;
    return options;  // the 3.3 line's store, version 1.3
  }

  std::string dir_;
};

TEST_F(JavaFsStoreTest, TheJavaRmsChecksumFilesAreHadoopsFormat) {
  int verified = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kCapture / "FSRMStateRoot")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || fsstore::IsChecksumFileName(name)) continue;
    std::ifstream data_in(entry.path(), std::ios::binary);
    std::ifstream sums_in(entry.path().parent_path() / fsstore::ChecksumFileName(name),
                          std::ios::binary);
    ASSERT_TRUE(sums_in.good()) << "the Java RM wrote a .crc beside " << entry.path();
    std::ostringstream data, sums;
    data << data_in.rdbuf();
    sums << sums_in.rdbuf();
    EXPECT_EQ(sums.str(), fsstore::EncodeChecksumFile(data.str())) << entry.path();
    ++verified;
  }
  EXPECT_EQ(verified, 9);
}

TEST_F(JavaFsStoreTest, SpindleDecodesTheJavaRmsStore) {
  FsRmStateStore store(Options());
  ASSERT_TRUE(store.Open().ok());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->applications.size(), 2u);
  EXPECT_TRUE(loaded->nodes.empty());
  // The Java RM started once: EpochNode holds 1, the epoch of its next start.
  EXPECT_EQ(loaded->cluster.at(persist::ClusterField::kEpoch), 0);
  EXPECT_EQ(loaded->cluster.count(persist::ClusterField::kClusterTimestamp), 0u);

  // The records are Hadoop's protos, keyed as the Java RM keyed them.
  y::ApplicationStateDataProto finished;
  ASSERT_TRUE(finished.ParseFromString(loaded->applications.at("application_1795839961767_0001")));
  y::ApplicationSubmissionContextProto context;
  ASSERT_TRUE(context.ParseFromString(finished.application_submission_context()));
  EXPECT_EQ(context.application_name(), "fs-finished");
  EXPECT_EQ(context.application_id().id(), 1);
  EXPECT_EQ(finished.user(), "spindle");
  EXPECT_EQ(finished.application_state(), y::RMAPP_FINISHED);
  y::ApplicationStateDataProto running;
  ASSERT_TRUE(running.ParseFromString(loaded->applications.at("application_1795839961767_0002")));
  ASSERT_TRUE(context.ParseFromString(running.application_submission_context()));
  EXPECT_EQ(context.application_name(), "fs-running");
  EXPECT_FALSE(running.has_application_state()) << "still running when the Java RM was killed";
  ASSERT_EQ(loaded->attempts.size(), 2u);
  y::ApplicationAttemptStateDataProto attempt;
  ASSERT_TRUE(attempt.ParseFromString(loaded->attempts.at("application_1795839961767_0002")
                                          .at("appattempt_1795839961767_0002_000001")));
  EXPECT_EQ(attempt.attemptid().attemptid(), 1);
  EXPECT_TRUE(attempt.has_master_container());
  y::AMRMTokenSecretManagerStateProto amrm;
  ASSERT_TRUE(amrm.ParseFromString(loaded->master_keys.at({"am-rm-tokens", 0})));
  EXPECT_TRUE(amrm.has_current_master_key());
  // DelegationKey Writables: vint key id first (1 and 2 fit one byte).
  EXPECT_EQ(loaded->master_keys.at({kDelegationKeysFamily, 1})[0], 1);
  EXPECT_EQ(loaded->master_keys.at({kDelegationKeysFamily, 2})[0], 2);
}

TEST_F(JavaFsStoreTest, WhatSpindleWritesBackKeepsTheJavaRmsLayout) {
  FsRmStateStore store(Options());
  ASSERT_TRUE(store.Open().ok());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok());
  // Spindle's start bumps the epoch and rewrites an application.
  persist::StoreBatch batch;
  batch.SetClusterValue(persist::ClusterField::kEpoch, 1);
  batch.PutApplication("application_1795839961767_0002",
                       loaded->applications.at("application_1795839961767_0002"));
  ASSERT_TRUE(store.Apply(batch).ok());
  const fs::path root = fs::path(dir_) / "FSRMStateRoot";
  std::ifstream epoch_in(root / "EpochNode", std::ios::binary);
  std::ostringstream epoch;
  epoch << epoch_in.rdbuf();
  EXPECT_EQ(epoch.str(), std::string("\x08\x02", 2)) << "EpochProto{2}: the next start's";
  // Every file still has a matching .crc (what a Java RM's read verifies).
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || fsstore::IsChecksumFileName(name)) continue;
    std::ifstream data_in(entry.path(), std::ios::binary);
    std::ifstream sums_in(entry.path().parent_path() / fsstore::ChecksumFileName(name),
                          std::ios::binary);
    std::ostringstream data, sums;
    data << data_in.rdbuf();
    sums << sums_in.rdbuf();
    EXPECT_TRUE(fsstore::VerifyChecksumFile(data.str(), sums.str()).ok()) << entry.path();
  }
  // And a new store instance reads the same.
  FsRmStateStore again(Options());
  ASSERT_TRUE(again.Open().ok());
  auto reloaded = again.Load();
  ASSERT_TRUE(reloaded.ok());
  EXPECT_EQ(reloaded->applications, loaded->applications);
  EXPECT_EQ(reloaded->cluster.at(persist::ClusterField::kEpoch), 1);
}

}  // namespace
}  // namespace spindle::rm
