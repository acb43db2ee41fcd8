// RecoveredRmState: what a restarted ResourceManager resumes from, decoded
// from everything its state store holds (persist::LoadedState), and the
// store records it is made of besides applications and attempts
// (app_records.h): the cluster's counters, each token family's master keys,
// the nodes that were part of the cluster.
//
// Key families are stored under their configuration name (KeyFamilyName) as
// one AMRMTokenSecretManagerStateProto {current, next} with key id 0.
//
// Thread-safety: pure functions and values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "persist/state_store.h"
#include "rm/apps/rm_app.h"
#include "rm/nodes/node_labels.h"
#include "rm/security/master_key.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"

namespace spindle::rm {

struct RecoveredRmState {
  // The last activation's cluster timestamp (its start time, which prefixes
  // the ids it handed out); unset for an empty store.
  std::optional<int64_t> cluster_timestamp;
  // The last epoch a run started with (0 if none was stored).
  int64_t epoch = 0;
  // Whether the store held an epoch. A store a Java RM wrote (ZooKeeper's
  // EpochNode) has one but no cluster timestamp: its next run still bumps it.
  bool epoch_stored = false;
  // Application sequence numbers reserved so far under that timestamp.
  int32_t last_app_id = 0;
  // Every stored application with its attempts (in attempt order).
  std::vector<RmApp> apps;
  std::map<KeyFamily, KeyState> keys;
  // Node ids (host:port) that were in the cluster when the RM stopped.
  std::set<std::string> nodes;
  // What live attempts still asked for (AppStore::SaveAsks), by attempt.
  std::map<ApplicationAttemptId, std::string> asks;
  // The same as rows (AppStore::SaveAttemptRows): by attempt, by row key.
  std::map<ApplicationAttemptId, std::map<std::string, std::string>> attempt_rows;
  // How many times the queue configuration was refreshed (refreshQueues).
  int64_t queue_config_version = 0;
  // The cluster's node labels and their mappings (node_labels_record.h);
  // unset if none were ever stored.
  std::optional<NodeLabelsState> node_labels;
  // RM delegation tokens and their keys; unset if none was ever stored.
  std::optional<RmDelegationTokenState> delegation_tokens;

  bool empty() const { return !cluster_timestamp.has_value() && apps.empty(); }
};

// Corruption naming the record that does not decode: a restart must not go
// on with part of its state.
Result<RecoveredRmState> DecodeRmState(const persist::LoadedState& loaded);

std::string EncodeKeyState(const KeyState& keys);
Result<KeyState> DecodeKeyState(const std::string& bytes);

// The batch operation that stores one family's keys.
void PutKeyState(KeyFamily family, const KeyState& keys, persist::StoreBatch* batch);

// RM delegation token keys and tokens live in the master-key records under
// these families: keys by key id, tokens by sequence number; the sequence
// itself is ClusterField::kDelegationTokenSequence.
inline constexpr char kDelegationKeysFamily[] = "rm-delegation-keys";
inline constexpr char kDelegationTokensFamily[] = "rm-delegation-tokens";
// A listener that writes every change of the delegation token state to
// `store` (synced: a token is stored before a client is given it). Errors
// are logged. `store` must outlive the listener.
RmDelegationTokenListener StoringDelegationTokenListener(persist::StateStore* store);

}  // namespace spindle::rm
