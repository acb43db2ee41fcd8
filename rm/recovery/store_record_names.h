// What the stores kept in Hadoop's layouts (ZooKeeper, zk/; FileSystem, fs/)
// share about naming records: the node names both of Hadoop's stores use
// (ZKRMStateStore and FileSystemRMStateStore name these alike), Spindle's own
// tree beside Hadoop's, and the ids persist::StateStore gives records, as
// they appear in znode and file names.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "persist/state_store.h"

namespace spindle::rm {

namespace store_names {
// Hadoop's names, common to both stores' layouts.
inline constexpr char kVersionNode[] = "RMVersionNode";
inline constexpr char kEpochNode[] = "EpochNode";
inline constexpr char kAppRoot[] = "RMAppRoot";
inline constexpr char kDtSecretManagerRoot[] = "RMDTSecretManagerRoot";
inline constexpr char kAmrmTokenRoot[] = "AMRMTokenSecretManagerRoot";
inline constexpr char kReservationRoot[] = "ReservationSystemRoot";
inline constexpr char kProxyCaRoot[] = "ProxyCARoot";
inline constexpr char kDelegationKeyPrefix[] = "DelegationKey_";
inline constexpr char kDelegationTokenPrefix[] = "RMDelegationToken_";
// Spindle's own tree, beside Hadoop's root, and its folders.
inline constexpr char kSpindleRootName[] = "SpindleRoot";
inline constexpr char kSpindleCluster[] = "Cluster";
inline constexpr char kSpindleKeys[] = "Keys";
inline constexpr char kSpindleAppRecords[] = "AppRecords";
inline constexpr char kSpindleNodes[] = "Nodes";
}  // namespace store_names

// A whole decimal int64 ("12", "-3"); nullopt for anything else.
std::optional<int64_t> ParseStoredNumber(std::string_view text);

// persist::ClusterFieldName's inverse.
std::optional<persist::ClusterField> ClusterFieldNamed(std::string_view name);

// The master-key family kept as Hadoop's AMRMTokenSecretManager state
// ("am-rm-tokens", key id 0).
const std::string& AmrmKeyFamily();

// An attempt id Hadoop's tree may hold ("appattempt_...", no '/'): the
// other records Spindle keeps beside attempts live in its own tree.
bool IsHadoopAttemptId(std::string_view id);

}  // namespace spindle::rm
