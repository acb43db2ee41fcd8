// RmDelegationTokenSecretManager: issues, renews and cancels RM delegation
// tokens (kind RM_DELEGATION_TOKEN), as Hadoop's RMDelegationTokenSecretManager
// on AbstractDelegationTokenSecretManager does. Apache's RM serves these even
// with security off (ClientRMService.isAllowedDelegationTokenOp() is true when
// UserGroupInformation.isSecurityEnabled() is false), and Oozie, Spark and
// MapReduce's JobClient ask for them, so they are real tokens here too.
//
// Java semantics kept (times are wall-clock ms from the injected Clock, as
// Java's Time.now(), because issueDate/maxDate travel in the identifier):
//  * master keys: ids 1, 2, ... (Java's delegationKeySequence starts at 0 and
//    is pre-incremented); a new current key every key update interval. A new
//    key expires at now + update interval + max lifetime; when it is retired
//    its expiry becomes roll time + max lifetime, so it stays while any token
//    signed with it can still be renewed. Expired non-current keys are
//    dropped at each roll (removeExpiredKeys).
//  * issue: sequence numbers 1, 2, ...; issueDate = now, maxDate = now + max
//    lifetime, masterKeyId = the current key; password = HMAC-SHA1(key bytes,
//    identifier bytes); the token's renew date = now + renew interval.
//    The token's service is empty: Java's ClientRMService builds it with
//    new Token(identifier, secretManager), which sets no service (clients
//    set the RM address themselves, e.g. SecurityUtil.setTokenService).
//  * renew(token, renewer) checks, in Java's order: maxDate not passed
//    (InvalidToken), a renewer in the token (AccessControlException), the
//    renewer matches (AccessControlException), the master key is known
//    (InvalidToken), the password matches (AccessControlException), the token
//    is known (InvalidToken); the new renew date is min(maxDate, now + renew
//    interval) and is what renew returns.
//  * cancel(token, canceller): allowed to the owner, or to a canceller whose
//    short name is the renewer; unknown tokens are InvalidToken.
//  * retrieve (SASL look-up): known and renew date not passed.
//  * expired tokens (renew date passed) are dropped by Advance() once per
//    removal scan interval.
// Messages are Hadoop 2.6.0's (later versions append "(<identifier>)" and
// formatted times to some; clients act only on the class).
//
// Errors are Status::Remote(<Java class>, <message>) with the class of the
// exception Java's secret manager throws (InvalidToken or
// AccessControlException), classified kUnauthorized; the protocol layer
// wraps them as ClientRMService does (RPCUtil.getRemoteException).
//
// RM restart (Java's RMDelegationTokenSecretManager.recover and the
// RMStateStore calls of storeNewMasterKey, removeStoredMasterKey,
// storeNewToken, updateStoredToken, removeStoredToken):
//  * State() is the durable state (keys, tokens with their renew dates, the
//    last sequence number, the current key), one consistent snapshot;
//    options.recovered starts a manager from it. Passwords are recomputed
//    from the keys. See Recovery below for what is kept and dropped.
//  * options.listener hears of every change as it happens, so that the RM
//    can persist it; see RmDelegationTokenListener.
//
// Not kept: tracking ids, and Java's roll right after start (its remover
// thread starts with lastMasterKeyUpdate = 0; Spindle rolls one interval
// after start, and a recovered current key keeps its own schedule).
//
// Thread-safety: all methods are thread-safe. One short internal lock guards
// the state (no I/O under it, nothing blocks on it), so RetrieveSecret() is
// safe on I/O threads. The mutating methods (Create, CreateToken, Renew,
// Cancel, Advance) then pass their changes to the listener outside that lock;
// they may wait for another thread's listener calls to finish (see
// RmDelegationTokenListener). Lock order: notify_mu_ before mu_.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/security/delegation_token_records.h"
#include "rm/security/token.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {

// The durable state of the manager: what Hadoop's RMStateStore keeps as
// RMDTSecretManagerState (masterKeyState, delegationTokenState,
// dtSequenceNumber).
struct RmDelegationTokenState {
  // Every master key the manager holds, by ascending key id: the current one
  // and the retired ones that still verify renewals.
  std::vector<DelegationKeyRecord> keys;
  // Every token the manager knows, with its renew date, in identifier order
  // (including expired ones the removal scan has not dropped yet).
  std::vector<DelegationTokenRecord> tokens;
  // The sequence number of the last issued token (Java's
  // delegationTokenSequenceNumber); the next token gets this + 1. 0 before
  // the first token.
  int32_t sequence_number = 0;
  // The key that signs new tokens. State() always sets it. For recovery
  // nullopt means the key with the highest id, which is the current key
  // whenever the store followed the listener (a roll reports the new key
  // last), and is what Java assumes (AbstractDelegationTokenSecretManager
  // .addKey).
  std::optional<int32_t> current_key_id;

  bool operator==(const RmDelegationTokenState&) const = default;
};

// Callbacks for each change of the durable state, so that the RM can persist
// it as it happens. Every member may be left empty (not called). Each event
// is an upsert or a removal by key id / identifier, or the new value of the
// sequence number, so applying an event twice is harmless.
//
// Delivery: callbacks are called outside the manager's state lock, one at a
// time (never concurrently), in the order the changes were made, on the
// thread of a mutating call (not necessarily the one that made that change).
// When a mutating method returns, the listener has been called for all of
// its changes (e.g. a token is persisted before CreateToken returns it).
// Callbacks may call the const methods (State(), RetrieveSecret(), the
// counts) but not the mutating ones (that would deadlock). A slow callback
// delays other mutating calls, never RetrieveSecret().
struct RmDelegationTokenListener {
  // A key was made, or its expiry date moved (the retiring key at a roll);
  // at a roll the retiring key is reported before the new current key.
  std::function<void(const DelegationKeyRecord&)> key_stored;
  // A key expired and was dropped (at a roll, or at recovery).
  std::function<void(int32_t key_id)> key_removed;
  // A token was issued (renew date = issue date + renew interval) or renewed
  // (the new renew date).
  std::function<void(const DelegationTokenRecord&)> token_stored;
  // A token was cancelled, expired (removal scan), or dropped at recovery.
  std::function<void(const RmDelegationTokenIdentifier&)> token_removed;
  // The last issued sequence number changed (each CreateToken, reported
  // before its token_stored; and at recovery if the recovered tokens go
  // past the recovered number).
  std::function<void(int32_t sequence_number)> sequence_changed;
};

struct RmDelegationTokenOptions {
  // yarn.resourcemanager.delegation.key.update-interval: how often a new
  // master key becomes current. Default: 1 day.
  Duration key_update_interval = std::chrono::hours(24);
  // yarn.resourcemanager.delegation.token.renew-interval: how long an issue
  // or a renewal keeps a token valid. Default: 1 day.
  Duration renew_interval = std::chrono::hours(24);
  // yarn.resourcemanager.delegation.token.max-lifetime: no renewal goes past
  // issue + this. Default: 7 days.
  Duration max_lifetime = std::chrono::hours(24 * 7);
  // How often expired tokens are dropped. Java's RM hard-codes 1 hour.
  Duration removal_scan_interval = std::chrono::hours(1);
  // Bytes per master key. Default 8: Java's KeyGenerator("HmacSHA1")
  // initialised with 64 bits (SecretManager.KEY_LENGTH).
  size_t key_length = 8;
  // State to start from (RM recovery) instead of a fresh key 1. Default:
  // none. See Recovery below.
  std::optional<RmDelegationTokenState> recovered;
  // Told of every change; set once here, before use. Default: no callbacks.
  RmDelegationTokenListener listener;

  // InvalidArgument naming the offending option: every interval must be
  // positive and at least 1 ms (Java's unit), key_length positive; a
  // recovered state must have no two keys with one id, no key without
  // bytes, and its current_key_id (if set) among its keys.
  Status Validate() const;
};

// What a verified identifier yields (for the SASL server).
struct RmDelegationTokenSecret {
  std::string password;
  std::string user;  // the owner: the RPC identity of the caller
  // When the token expires unless renewed (Java's getRenewDate), wall ms.
  int64_t renew_date_ms = 0;
};

// Recovery (options.recovered), at clock->WallMillis() = now:
//  * keys: all are kept, except non-current keys whose expiry date has
//    passed (dropped, key_removed), as the next roll would. New key ids
//    continue after the highest recovered id.
//  * the current key (current_key_id, else the highest id) keeps signing
//    until its scheduled roll, one key update interval after it was made:
//    at its expiry date - max lifetime (a new key expires at made + update
//    interval + max lifetime), so a restart neither shortens nor stretches
//    its term while the options are unchanged. If that time has passed the
//    first Advance() rolls; it is never later than one update interval after
//    start. With no recovered key a fresh current key is made (key_stored).
//  * tokens: kept with their renew dates and passwords recomputed from their
//    master key, so they verify, renew and cancel as before. Dropped
//    (token_removed): tokens whose renew date has passed (the removal scan
//    would drop them) and tokens whose master key is not recovered (Java
//    logs "No KEY found for persisted identifier" and skips them).
//  * sequence: new tokens continue after max(sequence_number, the highest
//    recovered token's, dropped ones included), so a lost sequence update
//    cannot reuse a number (sequence_changed reports a raise).
// Passwords are HMAC-SHA1 over EncodeRmDelegationTokenIdentifier(identifier)
// (all seven fields), the bytes of every token Spindle issues.
class RmDelegationTokenSecretManager {
 public:
  // Makes master key 1 at clock->WallMillis(), or recovers
  // options.recovered (see above), then passes the changes made to the
  // listener (key 1 when fresh; drops when recovering). `clock` must
  // outlive the manager.
  static Result<std::unique_ptr<RmDelegationTokenSecretManager>> Create(
      RmDelegationTokenOptions options, const Clock* clock);

  RmDelegationTokenSecretManager(const RmDelegationTokenSecretManager&) = delete;
  RmDelegationTokenSecretManager& operator=(const RmDelegationTokenSecretManager&) = delete;

  // Issues a token for `owner` (the caller), renewable by `renewer` (reduced
  // to its short name, as Java's setRenewer does); `real_user` is the proxy
  // user's real user, else empty.
  Token CreateToken(std::string_view owner, std::string_view renewer, std::string_view real_user)
      EXCLUDES(mu_);
  // Renews the token for `renewer` (the caller's short name); returns the
  // new expiry (wall ms).
  Result<int64_t> Renew(const Token& token, std::string_view renewer) EXCLUDES(mu_);
  // Cancels the token for `canceller` (the caller's full user name); returns
  // the cancelled identifier.
  Result<RmDelegationTokenIdentifier> Cancel(const Token& token, std::string_view canceller)
      EXCLUDES(mu_);
  // The password of a live token with these identifier bytes.
  Result<RmDelegationTokenSecret> RetrieveSecret(std::string_view identifier) const EXCLUDES(mu_);

  // Rolls the master key and drops expired tokens when due by the clock.
  // Returns true if a key was rolled.
  bool Advance() EXCLUDES(mu_);

  // The durable state, as one consistent snapshot. It reflects every change
  // whose listener call has been made, and possibly some whose calls are
  // still pending (harmless to apply after it: events are idempotent).
  RmDelegationTokenState State() const EXCLUDES(mu_);

  // For tests and metrics.
  int32_t CurrentKeyId() const EXCLUDES(mu_);
  size_t KeyCount() const EXCLUDES(mu_);
  size_t TokenCount() const EXCLUDES(mu_);

  // "<name>" for "<name>/<host>@<REALM>" or "<name>@<REALM>": what Java's
  // HadoopKerberosName.getShortName() gives with the default auth_to_local
  // rule on a cluster without Kerberos realms configured.
  static std::string ShortName(std::string_view user);

 private:
  struct Key {
    std::string bytes;
    int64_t expiry_ms = 0;
  };
  struct TokenInfo {
    int64_t renew_date_ms = 0;
    std::string password;
  };

  // Changes waiting to be passed to the listener.
  struct KeyRemoved {
    int32_t key_id;
  };
  struct TokenRemoved {
    RmDelegationTokenIdentifier identifier;
  };
  struct SequenceChanged {
    int32_t sequence_number;
  };
  using Event = std::variant<DelegationKeyRecord, KeyRemoved, DelegationTokenRecord, TokenRemoved,
                             SequenceChanged>;

  RmDelegationTokenSecretManager(RmDelegationTokenOptions options, const Clock* clock);
  // A new current key (Java's updateCurrentKey).
  void NewCurrentKey(int64_t now_ms) REQUIRES(mu_);
  // Loads a recovered state (see Recovery above).
  void Recover(const RmDelegationTokenState& state, int64_t now_ms) REQUIRES(mu_);
  Result<int64_t> RenewLocked(const RmDelegationTokenIdentifier& id, const Token& token,
                              const std::string& renewer) REQUIRES(mu_);
  // Queue an event for the listener if it has that callback.
  void KeyStoredLocked(int32_t key_id) REQUIRES(mu_);
  void KeyRemovedLocked(int32_t key_id) REQUIRES(mu_);
  void TokenStoredLocked(const RmDelegationTokenIdentifier& id, int64_t renew_date_ms)
      REQUIRES(mu_);
  void TokenRemovedLocked(const RmDelegationTokenIdentifier& id) REQUIRES(mu_);
  void SequenceChangedLocked() REQUIRES(mu_);
  // Passes every queued event to the listener, in order. Returns once the
  // events queued before the call have been delivered (by this thread or
  // another).
  void Deliver() EXCLUDES(mu_, notify_mu_);
  void Dispatch(const Event& event) REQUIRES(notify_mu_);

  const RmDelegationTokenOptions options_;
  const Clock* const clock_;
  const int64_t key_update_ms_;
  const int64_t renew_ms_;
  const int64_t max_lifetime_ms_;
  const int64_t removal_scan_ms_;

  // Held while calling the listener: serializes delivery. Taken before mu_.
  Mutex notify_mu_ ACQUIRED_BEFORE(mu_);
  mutable Mutex mu_;
  std::vector<Event> pending_ GUARDED_BY(mu_);
  std::map<int32_t, Key> keys_ GUARDED_BY(mu_);
  int32_t current_key_id_ GUARDED_BY(mu_) = 0;
  // Java ints that wrap; uint32_t makes the wrap defined.
  uint32_t key_sequence_ GUARDED_BY(mu_) = 0;
  uint32_t token_sequence_ GUARDED_BY(mu_) = 0;
  std::map<RmDelegationTokenIdentifier, TokenInfo> tokens_ GUARDED_BY(mu_);
  int64_t last_key_update_ms_ GUARDED_BY(mu_) = 0;
  int64_t last_removal_scan_ms_ GUARDED_BY(mu_) = 0;
};

}  // namespace spindle::rm
