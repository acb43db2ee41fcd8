// ClientToAmTokenSecretManager: the RM's side of ClientToAMTokens (Java:
// ClientToAMTokenSecretManagerInRM), kept only in secure mode
// (hadoop.security.authentication=kerberos).
//
// Each application attempt gets a master key of its own when its AM
// registers; registerApplicationMaster hands the key to the AM (its
// clientToAMTokenMasterKey, which the MapReduce AM refuses to start
// without), and the application report of a registered attempt carries a
// token for the caller: identifier ClientToAMTokenIdentifierProto
// {appAttemptId, clientName}, password HMAC-SHA1(key, identifier), kind
// YARN_CLIENT_TOKEN, service empty (the client sets the AM's address, as
// MapReduce's ClientServiceDelegate does). The AM checks such tokens with the
// same key, so the RM never verifies one itself.
//
// Differences from Java 3.3, on purpose: the key is made at registration,
// not when the AM container is allocated, so a report has no token before
// the AM registered (Java's clients use it only once the app is RUNNING);
// keys are kept in memory only, so after an RM restart a re-registering AM
// gets a new key.
//
// Thread-safety: thread-safe.
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

  // The attempt's master key, made on the first call (AM registration) and
  // the same on later ones (a re-registration).
  std::string MasterKey(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  // The attempt's token for `client` (a short user name), or nullopt while
  // the attempt has no key.
  std::optional<Token> CreateToken(const ApplicationAttemptId& attempt,
                                   const std::string& client) const EXCLUDES(mu_);
  // The attempt ended: its key is dropped (tokens already issued keep
  // working with the AM, which holds the key itself).
  void AttemptFinished(const ApplicationAttemptId& attempt) EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::map<ApplicationAttemptId, std::string> keys_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
