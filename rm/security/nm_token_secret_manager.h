// NmTokenSecretManager: makes NMTokens (Java: NMTokenSecretManagerInRM) and
// owns the NM-token master keys that NodeManagers use to verify them.
//
// Keys behave as for container tokens: tokens are signed with the current
// key, a rolled next key reaches NMs through heartbeats and signs only after
// its activation delay, NMs keep their previous key.
//
// It also remembers, per registered attempt, which nodes already got an
// NMToken, so that allocate hands each AM one NMToken per node
// (CreateTokensForNewNodes); an activation forgets all of it, so AMs get
// tokens under the new key; a node that reconnects or is lost is forgotten
// (RemoveNode), so its next container comes with a fresh token.
//
// Token fields: identifier {appAttemptId, nodeId, appSubmitter, keyId}; kind
// "NMToken"; service = NM "IP:port". The user is the attempt id string.
//
// Thread-safety: all methods are thread-safe and do no I/O. Lock order: the
// manager's lock, then the key manager's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/token.h"

namespace spindle::rm {

class NmTokenSecretManager {
 public:
  // `keys.family` is forced to kNmTokens. `clock` must outlive the manager.
  static Result<std::unique_ptr<NmTokenSecretManager>> Create(KeyRollingOptions keys,
                                                              const Clock* clock);

  // One NMToken under the current key. `nm_service` is the NM's "IP:port".
  Token CreateToken(const ApplicationAttemptId& attempt, const NodeId& node,
                    std::string_view app_submitter, std::string_view nm_service) const;

  struct NodeAddress {
    NodeId node;
    std::string service;  // "IP:port"
  };
  struct NodeToken {
    NodeId node;
    Token token;
  };
  // Tokens for those of `nodes` the attempt has none for yet (each node
  // once), remembering them; nothing if the attempt is not registered.
  std::vector<NodeToken> CreateTokensForNewNodes(const ApplicationAttemptId& attempt,
                                                 std::string_view app_submitter,
                                                 const std::vector<NodeAddress>& nodes)
      EXCLUDES(mu_);
  void RegisterAttempt(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  void UnregisterAttempt(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  bool IsAttemptRegistered(const ApplicationAttemptId& attempt) const EXCLUDES(mu_);
  bool HasTokenFor(const ApplicationAttemptId& attempt, const NodeId& node) const EXCLUDES(mu_);
  // The node reconnected or was lost: every attempt needs a new token for it.
  void RemoveNode(const NodeId& node) EXCLUDES(mu_);

  // For registerNodeManager's nm_token_master_key.
  MasterKey CurrentKey() const { return keys_->Current(); }
  // For nodeHeartbeat's nm_token_master_key, given the request's
  // last_known_nm_token_master_key id (nullopt if absent).
  std::optional<MasterKey> KeyForHeartbeat(std::optional<int32_t> last_known_key_id) const {
    return keys_->KeyForNode(last_known_key_id);
  }

  // Key rolling; an activation also forgets which nodes got tokens.
  KeyTransitions Advance() EXCLUDES(mu_);
  TimePoint NextKeyEventTime() const { return keys_->NextEventTime(); }
  KeyState Keys() const { return keys_->State(); }

 private:
  explicit NmTokenSecretManager(std::unique_ptr<MasterKeyManager> keys);

  const std::unique_ptr<MasterKeyManager> keys_;
  mutable Mutex mu_;
  std::unordered_map<ApplicationAttemptId, std::unordered_set<NodeId>> nodes_with_tokens_
      GUARDED_BY(mu_);
};

}  // namespace spindle::rm
