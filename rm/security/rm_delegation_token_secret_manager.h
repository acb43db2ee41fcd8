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
// Not kept: the token state store (tokens and keys do not survive an RM
// restart), tracking ids, and Java's roll right after start (its remover
// thread starts with lastMasterKeyUpdate = 0; Spindle rolls one interval
// after start).
//
// Thread-safety: all methods are thread-safe (one short internal lock, no
// I/O, nothing blocks), so RetrieveSecret() is safe on I/O threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/security/token.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {

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

  // InvalidArgument naming the offending option: every interval must be
  // positive and at least 1 ms (Java's unit), key_length positive.
  Status Validate() const;
};

// What a verified identifier yields (for the SASL server).
struct RmDelegationTokenSecret {
  std::string password;
  std::string user;  // the owner: the RPC identity of the caller
};

class RmDelegationTokenSecretManager {
 public:
  // Makes master key 1 at clock->WallMillis(). `clock` must outlive the
  // manager.
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

  RmDelegationTokenSecretManager(RmDelegationTokenOptions options, const Clock* clock);
  // A new current key (Java's updateCurrentKey).
  void NewCurrentKey(int64_t now_ms) REQUIRES(mu_);

  const RmDelegationTokenOptions options_;
  const Clock* const clock_;
  const int64_t key_update_ms_;
  const int64_t renew_ms_;
  const int64_t max_lifetime_ms_;
  const int64_t removal_scan_ms_;

  mutable Mutex mu_;
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
