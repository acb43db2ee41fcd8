// FsRmStateStore: the RM's state store in a local directory, in the layout
// and file protocol of Hadoop's FileSystemRMStateStore (fs_store_layout.h,
// record_files.h), so that a Java RM of the configured line started on the
// same yarn.resourcemanager.fs.state-store.uri (file://) takes over from
// Spindle and Spindle from it. Selected by yarn.resourcemanager.store.class
// naming FileSystemRMStateStore (fs_store_config.h reads the configuration;
// non-local URIs are refused there).
//
// How each record of persist::StateStore is kept: as the ZooKeeper store
// keeps it (zk/zk_rm_state_store.h), in files: applications and attempts
// whose application is stored in RMAppRoot/<app>/, other records beside an
// application in SpindleRoot/AppRecords; "am-rm-tokens" -> the AMRM file,
// "rm-delegation-keys" / "rm-delegation-tokens" -> DelegationKey_<id> /
// RMDelegationToken_<seq>, other families in SpindleRoot/Keys; kEpoch ->
// EpochNode, kDelegationTokenSequence -> the RMDTSequenceNumber_<n> file
// (one: a new number's file is created, the others deleted), other cluster
// fields in SpindleRoot/Cluster; nodes in SpindleRoot/Nodes.
//
// Atomicity: each batch goes through the batch journal (batch_journal.h).
// A Java RM that takes over after a Spindle crash in the middle of a batch
// sees the batch partly applied, as it would its own records. A batch whose
// Apply() failed part-way (its journal written) is applied whole at the
// next Open(): its outcome is unknown, never partial.
//
// Fencing: none, as Hadoop's FileSystemRMStateStore (its HA documentation
// recommends ZKRMStateStore because only that store lets one RM alone
// write; Hadoop does not refuse the FS store with HA, and neither does
// Spindle: Open() warns).
//
// Retries: an operation failing with an I/O error is tried again up to
// num_retries times, retry_interval apart (Hadoop 2.7/3.3's
// fs.state-store.num-retries / retry-interval-ms around each file system
// call; here around each Open, Load, Apply or Format).
//
// Open() checks RMVersionNode as RMStateStore.checkVersion: absent or of the
// same major version, the line's version is stored; another major version
// is refused (RMStateVersionIncompatibleException).
//
// Thread-safety: as persist::StateStore; calls are serialised.
#pragma once

#include <chrono>
#include <string>

#include "base/mutex.h"
#include "persist/state_store.h"
#include "rm/recovery/fs/fs_store_layout.h"
#include "rm/recovery/fs/record_files.h"
#include "rm/recovery/zk/zk_store_layout.h"

namespace spindle::rm {

struct FsStoreOptions {
  // yarn.resourcemanager.fs.state-store.uri as configured (for messages).
  std::string uri;
  // The local directory it names (absolute). Required.
  std::string directory;
  // The 3.3 line's store (version 1.3, reservation and proxy CA roots) or
  // 2.x's (1.2).
  bool hadoop3 = true;
  zkstore::StoreVersion version{1, 3};
  // fs.state-store.num-retries / retry-interval-ms (2.7, 3.3; 0 on 2.6).
  int num_retries = 0;
  std::chrono::milliseconds retry_interval{1000};
  // spindle.store.sync-writes: fsync each record and directory before a
  // write returns (not for a batch that asks for no sync).
  bool sync_writes = true;
  // yarn.resourcemanager.ha.enabled (only warned about: no fencing).
  bool ha_enabled = false;
};

class FsRmStateStore final : public persist::StateStore {
 public:
  explicit FsRmStateStore(FsStoreOptions options);
  ~FsRmStateStore() override;

  Status Open() override EXCLUDES(mu_);
  Status Close() override EXCLUDES(mu_);
  Result<persist::LoadedState> Load() override EXCLUDES(mu_);
  Status Apply(const persist::StoreBatch& batch) override EXCLUDES(mu_);
  // Deletes FSRMStateRoot (as a Java RM's -format-state-store) and
  // SpindleRoot.
  Status Format() override EXCLUDES(mu_);

  const FsStoreOptions& options() const { return options_; }
  const fsstore::FsStoreLayout& layout() const { return layout_; }

 private:
  mutable Mutex mu_;

  // Runs `op` with the configured retries of I/O errors.
  template <typename Op>
  auto WithRetries(Op op) -> decltype(op());
  Status OpenLocked() REQUIRES(mu_);
  Status CreateStructure() REQUIRES(mu_);
  Status CleanAllLeftovers() REQUIRES(mu_);
  Status ReplayJournal() REQUIRES(mu_);
  Status CheckVersion() REQUIRES(mu_);
  Result<persist::LoadedState> LoadLocked() REQUIRES(mu_);
  // The batch through the journal.
  Status ApplyLocked(const persist::StoreBatch& batch) REQUIRES(mu_);
  // The batch's records in the layout (no journal).
  Status WriteRecords(const persist::StoreBatch& batch) REQUIRES(mu_);
  Status WriteRecord(const persist::StoreBatch::Op& op) REQUIRES(mu_);
  Status WriteMasterKey(const persist::StoreBatch::Op& op) REQUIRES(mu_);
  Status WriteCluster(const persist::StoreBatch::Op& op) REQUIRES(mu_);
  Status WriteSequenceNumber(int64_t number) REQUIRES(mu_);
  Result<std::string> EpochNodeBytes() REQUIRES(mu_);

  const FsStoreOptions options_;
  const fsstore::FsStoreLayout layout_;
  fsstore::RecordFiles files_ GUARDED_BY(mu_);
  bool open_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::rm
