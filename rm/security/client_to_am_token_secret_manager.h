// ClientToAmTokenSecretManager: the RM's side of ClientToAMTokens (Java:
// ClientToAMTokenSecretManagerInRM), kept only in secure mode
// (hadoop.security.authentication=kerberos), as an active service of the
// core (rm/core/active_services.h).
//
// Each application attempt gets a master key of its own when it starts
// (CreateMasterKey; the application manager keeps it in the attempt, and the
// state store keeps it in the attempt record's credentials). The key is
// registered here once the attempt's record is stored (so that no token is
// handed out for a key a restarted RM would not know), re-registered from the
// record when an RM recovers the live attempt, and unregistered when the
// attempt ends, however it ends. registerApplicationMaster hands the key to
// the AM (its clientToAMTokenMasterKey, which the MapReduce AM refuses to
// start without), and the application report of an attempt with a registered
// key carries a token for the caller: identifier ClientToAMTokenIdentifierProto
// {appAttemptId, clientName}, password HMAC-SHA1(key, identifier), kind
// YARN_CLIENT_TOKEN, service empty (the client sets the AM's address, as
// MapReduce's ClientServiceDelegate does). The AM checks such tokens with the
// same key, so the RM never verifies one itself.
//
// Thread-safety: thread-safe; its lock is a leaf (callers may hold theirs).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/token.h"

namespace spindle::rm {

inline constexpr char kClientToAmTokenKind[] = "YARN_CLIENT_TOKEN";

class ClientToAmTokenSecretManager {
 public:
  // Bytes of a master key: Java's SecretManager makes HmacSHA1 keys of 64 bits.
  static constexpr size_t kKeyLength = 8;

  // A new random master key, not registered (Java: createMasterKey).
  static std::string CreateMasterKey();
  // The attempt's key from now on (Java: registerApplication, and
  // registerMasterKey on recovery); replaces one it had.
  void RegisterApplication(const ApplicationAttemptId& attempt, std::string key) EXCLUDES(mu_);
  // The attempt ended: its key is dropped (tokens already issued keep
  // working with the AM, which holds the key itself). Nothing for an
  // attempt without one.
  void UnregisterApplication(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  // The attempt's registered key, or nullopt.
  std::optional<std::string> MasterKey(const ApplicationAttemptId& attempt) const EXCLUDES(mu_);
  // The attempt's token for `client` (a user or principal name), or nullopt
  // while the attempt has no registered key.
  std::optional<Token> CreateToken(const ApplicationAttemptId& attempt,
                                   const std::string& client) const EXCLUDES(mu_);
  size_t size() const EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::map<ApplicationAttemptId, std::string> keys_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
