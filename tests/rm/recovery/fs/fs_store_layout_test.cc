#include "rm/recovery/fs/fs_store_layout.h"

#include <gtest/gtest.h>

#include "rm/recovery/fs/batch_journal.h"
#include "rm/recovery/fs/hadoop_checksum_file.h"

namespace spindle::rm::fsstore {
namespace {

TEST(FsStoreLayoutTest, PathsAreFileSystemRmStateStores) {
  FsStoreLayout layout("/var/rmstore/");
  EXPECT_EQ(layout.root(), "/var/rmstore/FSRMStateRoot");
  EXPECT_EQ(layout.spindle_root(), "/var/rmstore/SpindleRoot");
  EXPECT_EQ(layout.AppFile("application_1_0001"),
            "/var/rmstore/FSRMStateRoot/RMAppRoot/application_1_0001/application_1_0001");
  EXPECT_EQ(layout.AttemptFile("application_1_0001", "appattempt_1_0001_000001"),
            "/var/rmstore/FSRMStateRoot/RMAppRoot/application_1_0001/appattempt_1_0001_000001");
  EXPECT_EQ(layout.DelegationKeyFile(3),
            "/var/rmstore/FSRMStateRoot/RMDTSecretManagerRoot/DelegationKey_3");
  EXPECT_EQ(layout.TokenFile(12),
            "/var/rmstore/FSRMStateRoot/RMDTSecretManagerRoot/RMDelegationToken_12");
  EXPECT_EQ(layout.SequenceNumberFile(12),
            "/var/rmstore/FSRMStateRoot/RMDTSecretManagerRoot/RMDTSequenceNumber_12");
  EXPECT_EQ(layout.amrm_file(),
            "/var/rmstore/FSRMStateRoot/AMRMTokenSecretManagerRoot/AMRMTokenSecretManagerNode");
  EXPECT_EQ(layout.epoch_file(), "/var/rmstore/FSRMStateRoot/EpochNode");
  EXPECT_EQ(layout.version_file(), "/var/rmstore/FSRMStateRoot/RMVersionNode");
  EXPECT_EQ(FsStoreLayout("/").root(), "/FSRMStateRoot");
  // 3.3 adds the reservation and proxy CA roots.
  auto has = [](const std::vector<std::string>& dirs, const std::string& dir) {
    return std::find(dirs.begin(), dirs.end(), dir) != dirs.end();
  };
  EXPECT_TRUE(has(layout.Directories(true), "/var/rmstore/FSRMStateRoot/ReservationSystemRoot"));
  EXPECT_TRUE(has(layout.Directories(true), "/var/rmstore/FSRMStateRoot/ProxyCARoot"));
  EXPECT_FALSE(has(layout.Directories(false), "/var/rmstore/FSRMStateRoot/ProxyCARoot"));
}

TEST(FsStoreLayoutTest, FileNamesAreNeverChecksumPartialOrPendingFiles) {
  for (const std::string text :
       {"appattempt_1_0001_000001/row/k/1", ".crc", ".x.crc", "a.tmp", "b.new", "%2E", "h:1"}) {
    const std::string name = FileName(text);
    EXPECT_EQ(name.find('/'), std::string::npos) << text;
    EXPECT_FALSE(IsChecksumFileName(name)) << text;
    EXPECT_FALSE(name.ends_with(".tmp") || name.ends_with(".new")) << text;
    EXPECT_EQ(RecordName(name), text);
  }
}

TEST(HadoopChecksumFileTest, IsChecksumFileSystemsFormat) {
  // Header only for an empty file (what createNewFile leaves).
  EXPECT_EQ(EncodeChecksumFile(""), std::string("crc\0\0\0\x02\0", 8));
  // CRC32 of "123456789" is 0xCBF43926.
  EXPECT_EQ(EncodeChecksumFile("123456789"), std::string("crc\0\0\0\x02\0\xcb\xf4\x39\x26", 12));
  const std::string data(1025, 'x');
  const std::string sums = EncodeChecksumFile(data);
  EXPECT_EQ(sums.size(), 8u + 3 * 4) << "one sum per 512-byte chunk";
  EXPECT_TRUE(VerifyChecksumFile(data, sums).ok());
  // A file written with another chunk size verifies by its header.
  EXPECT_TRUE(VerifyChecksumFile(data, EncodeChecksumFile(data, 100)).ok());
  std::string flipped = data;
  flipped[700] = 'y';
  Status bad = VerifyChecksumFile(flipped, sums);
  EXPECT_EQ(bad.code(), Status::Code::kCorruption);
  EXPECT_NE(bad.message().find("byte 512"), std::string::npos) << bad.message();
  EXPECT_EQ(VerifyChecksumFile(data + "z", sums).code(), Status::Code::kCorruption);
  EXPECT_EQ(VerifyChecksumFile(data, "nope").code(), Status::Code::kCorruption);
  EXPECT_TRUE(IsChecksumFileName(ChecksumFileName("EpochNode")));
  EXPECT_EQ(ChecksumFileName("EpochNode"), ".EpochNode.crc");
  EXPECT_FALSE(IsChecksumFileName("EpochNode.crc"));
}

TEST(BatchJournalTest, RoundTripsEveryOperationAndRefusesDamage) {
  persist::StoreBatch batch;
  batch.PutApplication("application_1_0001", std::string("app\0bytes", 9));
  batch.PutAttempt("application_1_0001", "appattempt_1_0001_000001", "attempt");
  batch.DeleteAttempt("application_1_0001", "row/1");
  batch.RemoveApplication("application_1_0002");
  batch.PutMasterKey("rm-delegation-keys", 7, "key");
  batch.DeleteMasterKey("rm-delegation-tokens", -3);
  batch.SetClusterValue(persist::ClusterField::kEpoch, -1);
  batch.PutNode("h:1", "node");
  batch.DeleteNode("h:2");
  const std::string bytes = EncodeJournal(batch, "\x08\x02");
  auto entry = DecodeJournal(bytes);
  ASSERT_TRUE(entry.ok()) << entry.status().ToString();
  EXPECT_EQ(entry->epoch_node, "\x08\x02");
  ASSERT_EQ(entry->batch.size(), batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    const auto& a = batch.ops()[i];
    const auto& b = entry->batch.ops()[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.sub_id, b.sub_id);
    EXPECT_EQ(a.number, b.number);
    EXPECT_EQ(a.value, b.value);
    if (a.kind == persist::StoreBatch::Kind::kCluster) {
      EXPECT_EQ(a.field, b.field);
    }
  }
  for (size_t cut : {size_t{0}, size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_EQ(DecodeJournal(bytes.substr(0, cut)).status().code(), Status::Code::kCorruption)
        << cut;
  }
  std::string damaged = bytes;
  damaged[10] ^= 1;
  EXPECT_EQ(DecodeJournal(damaged).status().code(), Status::Code::kCorruption);
}

}  // namespace
}  // namespace spindle::rm::fsstore
