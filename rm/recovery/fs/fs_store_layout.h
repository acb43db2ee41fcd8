// FsStoreLayout: where each record of the RM state lives in a
// FileSystemRMStateStore directory, in the layout of Hadoop's
// FileSystemRMStateStore (read at release-2.6.0, rel/release-2.7.7 and
// rel/release-3.3.0), under <uri> = yarn.resourcemanager.fs.state-store.uri:
//
//   <uri>/FSRMStateRoot
//     RMVersionNode                      VersionProto {1, 2} (2.6, 2.7) or
//                                        {1, 3} (3.3)
//     EpochNode                          EpochProto: the epoch of the NEXT
//                                        start (zkstore::EncodeEpochNode)
//     RMAppRoot/<app id>/<app id>        ApplicationStateDataProto
//     RMAppRoot/<app id>/<attempt id>    ApplicationAttemptStateDataProto
//     RMDTSecretManagerRoot/
//       DelegationKey_<key id>           DelegationKey Writable
//       RMDelegationToken_<seq>          RMDelegationTokenIdentifierData
//       RMDTSequenceNumber_<n>           empty: the number is in the name
//     AMRMTokenSecretManagerRoot/AMRMTokenSecretManagerNode
//                                        AMRMTokenSecretManagerStateProto
//     ReservationSystemRoot, ProxyCARoot (3.3; created, never written)
//
// Every record file may have Hadoop's checksum file beside it
// (hadoop_checksum_file.h). Records are the bytes the ZooKeeper store keeps
// in the same records' znodes (zk/zk_store_layout.h): the same encoders.
//
// Spindle's own records live in <uri>/SpindleRoot, beside FSRMStateRoot (a
// Java RM reads only FSRMStateRoot, and its -format-state-store deletes only
// that), as in the ZooKeeper store: Cluster/<field>, Keys/<family>/<id>,
// AppRecords/<app>/<record>, Nodes/<node id>, and BatchJournal (the batch
// being applied; fs_batch_journal.h). Names there are escaped (FileName).
//
// Thread-safety: values and pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rm/recovery/store_record_names.h"

namespace spindle::rm::fsstore {

// This store's own names; the names both of Hadoop's stores use are
// store_names:: (rm/recovery/store_record_names.h).
inline constexpr char kRootName[] = "FSRMStateRoot";
inline constexpr char kAmrmTokenNode[] = "AMRMTokenSecretManagerNode";
inline constexpr char kDtSequenceNumberPrefix[] = "RMDTSequenceNumber_";
inline constexpr char kBatchJournal[] = "BatchJournal";
// What Hadoop's writeFile writes before its rename, and updateFile before
// it replaces the old file.
inline constexpr std::string_view kTmpSuffix = ".tmp";
inline constexpr std::string_view kNewSuffix = ".new";

// A name usable as one file name for any non-empty text, never taken for a
// checksum, partial (.tmp) or pending (.new) file: zkstore::EscapeName, plus
// the '.' of a final ".tmp" / ".new" as %2E. RecordName reverses it.
std::string FileName(std::string_view text);
std::optional<std::string> RecordName(std::string_view name);

class FsStoreLayout {
 public:
  // `directory`: the local directory the store URI names.
  explicit FsStoreLayout(std::string directory);

  const std::string& directory() const { return directory_; }
  const std::string& root() const { return root_; }
  const std::string& spindle_root() const { return spindle_root_; }
  std::string version_file() const { return root_ + "/" + store_names::kVersionNode; }
  std::string epoch_file() const { return root_ + "/" + store_names::kEpochNode; }
  std::string app_root() const { return root_ + "/" + store_names::kAppRoot; }
  std::string AppDir(std::string_view app_id) const;
  std::string AppFile(std::string_view app_id) const;
  std::string AttemptFile(std::string_view app_id, std::string_view attempt_id) const;
  std::string dt_root() const { return root_ + "/" + store_names::kDtSecretManagerRoot; }
  std::string DelegationKeyFile(int64_t key_id) const;
  std::string TokenFile(int64_t sequence_number) const;
  std::string SequenceNumberFile(int64_t sequence_number) const;
  std::string amrm_root() const { return root_ + "/" + store_names::kAmrmTokenRoot; }
  std::string amrm_file() const { return amrm_root() + "/" + kAmrmTokenNode; }

  std::string SpindleCluster() const { return spindle_root_ + "/" + store_names::kSpindleCluster; }
  std::string SpindleKeys() const { return spindle_root_ + "/" + store_names::kSpindleKeys; }
  std::string SpindleAppRecords() const {
    return spindle_root_ + "/" + store_names::kSpindleAppRecords;
  }
  std::string SpindleNodes() const { return spindle_root_ + "/" + store_names::kSpindleNodes; }
  std::string journal_file() const { return spindle_root_ + "/" + kBatchJournal; }

  // The directories Open() creates (parents first) for a Hadoop line that
  // has (3.3) or lacks (2.x) the reservation and proxy CA roots.
  std::vector<std::string> Directories(bool hadoop3) const;

 private:
  const std::string directory_;
  const std::string root_;
  const std::string spindle_root_;
};

}  // namespace spindle::rm::fsstore
