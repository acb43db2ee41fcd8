// TokenSecretProvider: the seam through which the RM (or the node agent)
// tells the IPC layer what a token's password is. The IPC layer never parses
// token identifiers itself: rm/security owns their formats and master keys.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::ipc {

struct TokenSecret {
  std::string password;  // raw password bytes (HMAC-SHA1 of the identifier)
  std::string user;      // the identifier's user: the RPC identity of the caller
};

class TokenSecretProvider {
 public:
  virtual ~TokenSecretProvider() = default;

  // Given the raw identifier bytes a client presented, returns the password
  // and user, or an error (unknown key, expired, wrong kind) whose message
  // the client sees as an InvalidToken. Called on I/O threads: must be
  // thread-safe and must not block.
  virtual Result<TokenSecret> RetrieveSecret(std::string_view identifier) const = 0;
};

}  // namespace spindle::ipc
