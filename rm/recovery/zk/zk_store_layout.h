// ZkStoreLayout: where each record of the RM state lives in ZooKeeper, in
// the znode tree of Hadoop's ZKRMStateStore (read at release-2.6.0,
// rel/release-2.7.7 and rel/release-3.3.0), and the small node formats that
// are not protobuf records of their own:
//
//   <parent-path>/ZKRMStateRoot             root; its ACL fences (HA)
//     RMVersionNode                          VersionProto {1, 2} (2.6, 2.7)
//                                            or {1, 5} (3.3)
//     EpochNode                              EpochProto: the epoch the NEXT
//                                            RM start uses (Java stores
//                                            current + 1; see EpochNodeValue)
//     RM_ZK_FENCING_LOCK                     created and deleted by every write
//     RMAppRoot/<app id>                     ApplicationStateDataProto
//     RMAppRoot/<app id>/<attempt id>        ApplicationAttemptStateDataProto
//     RMAppRoot/HIERARCHIES/<n>/<app id less its last n chars>/<last n>
//                                            (3.x, n = 1..4: the app-id
//                                            split index; attempts below)
//     RMDTSecretManagerRoot/
//       RMDTMasterKeysRoot/DelegationKey_<key id>
//                                            DelegationKey Writable
//       RMDelegationTokensRoot/RMDelegationToken_<seq>
//                                            RMDelegationTokenIdentifierDataProto
//       RMDelegationTokensRoot/<n>/RMDelegationToken_<%04d seq less n>/<last n>
//                                            (3.3's token split index)
//       RMDTSequentialNumber                 DataOutput.writeInt (4 bytes BE)
//     AMRMTokenSecretManagerRoot             AMRMTokenSecretManagerStateProto
//     ReservationSystemRoot, ProxyCARoot     (3.3; created, never written)
//
// Everything Spindle keeps that Hadoop does not lives under its own
// <parent-path>/SpindleRoot, beside ZKRMStateRoot, not inside it: a Java RM
// deletes an application as "its attempts, then its node" and would fail on
// any other child; it lists the children of RMAppRoot and the token roots and
// parses what it finds; and `-format-state-store` of a Java RM deletes
// ZKRMStateRoot only, leaving Spindle's extra records harmless (an
// application's records whose Java node is gone are ignored at Load):
//
//   SpindleRoot/Cluster/<field name>         int64, 8 bytes BE (cluster
//                                            timestamp, app id counter, queue
//                                            configuration version)
//   SpindleRoot/Keys/<family>/<id>           master-key records of the
//                                            families Hadoop does not store
//                                            (container and NM token keys,
//                                            node labels, ...)
//   SpindleRoot/AppRecords/<app>/<record>    an application's records beside
//                                            its attempts (outstanding asks,
//                                            attempt rows), and attempts
//                                            stored without an application
//   SpindleRoot/Nodes/<node id>              the nodes of the cluster
//   SpindleRoot/NodeNames/<node id>          a node whose record is empty
//                                            (what the RM stores): the
//                                            name is the whole record, so
//                                            Load lists these and reads none
//   SpindleRoot/Cluster/epoch                the epoch Spindle last wrote to
//                                            EpochNode: if EpochNode moved on
//                                            since, another RM (a Java one)
//                                            ran on the tree, and
//                                            AppRecords and Nodes are stale
//                                            (ignored at Load)
//
// Names under SpindleRoot are escaped (EscapeName): record ids may contain
// '/', which a znode name may not.
//
// Thread-safety: values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/recovery/store_record_names.h"

namespace spindle::rm::zkstore {

// This store's own names; the names both of Hadoop's stores use are
// store_names:: (rm/recovery/store_record_names.h).
inline constexpr char kRootName[] = "ZKRMStateRoot";
inline constexpr char kFencingLock[] = "RM_ZK_FENCING_LOCK";
inline constexpr char kAppHierarchies[] = "HIERARCHIES";
inline constexpr char kDtMasterKeysRoot[] = "RMDTMasterKeysRoot";
inline constexpr char kDelegationTokensRoot[] = "RMDelegationTokensRoot";
inline constexpr char kDtSequenceNumber[] = "RMDTSequentialNumber";
inline constexpr char kAppIdPrefix[] = "application_";
inline constexpr char kAttemptIdPrefix[] = "appattempt_";
inline constexpr int kMaxSplitIndex = 4;
inline constexpr char kSpindleNodeNames[] = "NodeNames";

// RMVersionNode's VersionProto.
struct StoreVersion {
  int32_t major = 1;
  int32_t minor = 5;
  bool operator==(const StoreVersion&) const = default;
};
std::string EncodeVersion(const StoreVersion& version);
Result<StoreVersion> DecodeVersion(std::string_view bytes);
// RMStateStore.checkVersion's rule (the ZooKeeper and FileSystem stores
// alike): a stored version of the same major version is usable (and then
// replaced by `current`); another major version is refused with
// RMStateVersionIncompatibleException.
Status CheckVersionCompatible(const StoreVersion& loaded, const StoreVersion& current);

// EpochNode holds EpochProto{epoch}: Java's getAndIncrementEpoch returns the
// stored value for this start and stores value + 1 for the next. Spindle's
// ClusterField::kEpoch is the epoch of the run that stored it, so the node
// holds kEpoch + 1 and reads back as node - 1.
std::string EncodeEpochNode(int64_t spindle_epoch);
Result<int64_t> DecodeEpochNode(std::string_view bytes);

// RMDTSequentialNumber: Java's DataOutput.writeInt / readInt.
std::string EncodeInt32(int32_t value);
Result<int32_t> DecodeInt32(std::string_view bytes);
// SpindleRoot/Cluster values: DataOutput.writeLong / readLong.
std::string EncodeInt64(int64_t value);
Result<int64_t> DecodeInt64(std::string_view bytes);

// A name usable as one znode name for any non-empty text: '%', '/' and a
// leading '.' become %25, %2F, %2E. UnescapeName reverses it (nullopt for
// a name EscapeName cannot have made).
std::string EscapeName(std::string_view text);
std::optional<std::string> UnescapeName(std::string_view name);

// The paths of one store, for a parent path ("/rmstore") and the split
// indexes to write with (0..4; 3.3 only, 0 elsewhere).
class ZkStoreLayout {
 public:
  ZkStoreLayout(std::string parent_path, int app_split_index, int token_split_index);

  const std::string& parent() const { return parent_; }
  const std::string& root() const { return root_; }
  const std::string& spindle_root() const { return spindle_root_; }
  std::string Path(std::string_view name) const { return root_ + "/" + std::string(name); }
  std::string fencing_lock() const { return Path(kFencingLock); }
  std::string app_root() const { return Path(store_names::kAppRoot); }
  // RMAppRoot for index 0, RMAppRoot/HIERARCHIES/<index> otherwise.
  std::string AppRoot(int split_index) const;
  std::string dt_root() const { return Path(store_names::kDtSecretManagerRoot); }
  std::string dt_keys_root() const { return dt_root() + "/" + kDtMasterKeysRoot; }
  std::string dt_tokens_root() const { return dt_root() + "/" + kDelegationTokensRoot; }
  // RMDelegationTokensRoot for index 0, RMDelegationTokensRoot/<index> otherwise.
  std::string TokenRoot(int split_index) const;
  std::string dt_sequence() const { return dt_root() + "/" + kDtSequenceNumber; }
  std::string amrm_root() const { return Path(store_names::kAmrmTokenRoot); }
  std::string epoch_node() const { return Path(store_names::kEpochNode); }
  std::string version_node() const { return Path(store_names::kVersionNode); }

  int app_split_index() const { return app_split_; }
  int token_split_index() const { return token_split_; }

  // The node of `app_id` in the layout of `split_index` (3.3's
  // getLeafZnodePath: the last `split_index` characters are the leaf).
  std::string AppPath(std::string_view app_id, int split_index) const;
  std::string DelegationKeyPath(int64_t key_id) const;
  // 3.3's getLeafDelegationTokenNodePath: the sequence number is padded to
  // 4 digits in the split layouts.
  std::string TokenPath(int64_t sequence_number, int split_index) const;

  std::string SpindleCluster() const { return spindle_root_ + "/" + store_names::kSpindleCluster; }
  std::string SpindleKeys() const { return spindle_root_ + "/" + store_names::kSpindleKeys; }
  std::string SpindleAppRecords() const {
    return spindle_root_ + "/" + store_names::kSpindleAppRecords;
  }
  std::string SpindleNodes() const { return spindle_root_ + "/" + store_names::kSpindleNodes; }
  std::string SpindleNodeNames() const { return spindle_root_ + "/" + kSpindleNodeNames; }

  // The structural nodes Open() creates (parents first) for a Hadoop line
  // that has (3.3) or lacks (2.x) the split hierarchies, reservation and
  // proxy CA roots; Spindle's own roots included.
  std::vector<std::string> StructuralNodes(bool hadoop3) const;

 private:
  const std::string parent_;
  const std::string root_;
  const std::string spindle_root_;
  const int app_split_;
  const int token_split_;
};

// The parent of `path` ("/a/b" -> "/a"; "/a" -> "/").
std::string ParentOf(std::string_view path);

}  // namespace spindle::rm::zkstore
