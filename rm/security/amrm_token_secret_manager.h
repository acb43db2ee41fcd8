// AmrmTokenSecretManager: makes the AMRM token of each application attempt
// and answers the SASL DIGEST-MD5 server's password look-ups for the
// ApplicationMasterProtocol port (Java: AMRMTokenSecretManager).
//
// Java semantics kept here:
//  * a token is made with the *newest* AMRM key: the next key as soon as a
//    roll made one, else the current key;
//  * a presented token verifies only if its attempt is registered (added when
//    its token is made or recovered, removed when the attempt ends) and its
//    key is the current or the next key. After an activation the old key is
//    gone, so AMs must have switched: allocate re-issues the token while
//    NeedsNewToken() says so (ApplicationMasterService), and the activation
//    delay (1.5 x AM expiry) leaves every live AM time to call allocate.
//  * errors are InvalidToken with Java's messages:
//      "<attemptId> not found in AMRMTokenSecretManager."
//      "Invalid AMRMToken from <attemptId>"
//
// The AMRM key never leaves the RM (no NM or AM sees it).
//
// Thread-safety: all methods are thread-safe. RetrieveSecret() takes two
// short locks in turn (never nested), does no I/O and is safe on I/O threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/token.h"

namespace spindle::rm {

// The Java exception class of token rejections.
inline constexpr char kInvalidTokenClass[] =
    "org.apache.hadoop.security.token.SecretManager$InvalidToken";

// What a verified AMRM token identifier yields.
struct AmrmTokenSecret {
  std::string password;  // HMAC-SHA1(key, identifier bytes as presented)
  std::string user;      // the attempt id string: the caller's RPC identity
};

class AmrmTokenSecretManager {
 public:
  // `keys.family` is forced to kAmrmTokens. `clock` must outlive the manager.
  static Result<std::unique_ptr<AmrmTokenSecretManager>> Create(KeyRollingOptions keys,
                                                                const Clock* clock);

  // Makes the attempt's token (service empty, as Java) and registers the
  // attempt. Calling it again (re-issue after a roll) gives a token under
  // the newest key.
  Token CreateToken(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  // Registers an attempt whose token was persisted before an RM restart.
  void AddRecoveredAttempt(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  // The attempt ended: its token no longer verifies.
  void AttemptFinished(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  bool IsAttemptRegistered(const ApplicationAttemptId& attempt) const EXCLUDES(mu_);

  // Verifies a presented identifier (raw bytes) and returns its password and
  // user, or Remote(kInvalidTokenClass, ...) classified kUnauthorized.
  Result<AmrmTokenSecret> RetrieveSecret(std::string_view identifier) const EXCLUDES(mu_);

  // True while a next key exists that the AM's token (made with
  // `presented_key_id`) is not under: allocate must hand the AM a new token.
  bool NeedsNewToken(int32_t presented_key_id) const;

  // Key rolling (see MasterKeyManager). Persist Keys() when Advance() did
  // anything.
  KeyTransitions Advance() { return keys_->Advance(); }
  TimePoint NextKeyEventTime() const { return keys_->NextEventTime(); }
  KeyState Keys() const { return keys_->State(); }

 private:
  explicit AmrmTokenSecretManager(std::unique_ptr<MasterKeyManager> keys);

  const std::unique_ptr<MasterKeyManager> keys_;
  mutable Mutex mu_;
  std::unordered_set<ApplicationAttemptId> attempts_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
