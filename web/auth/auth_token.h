// AuthToken: what Hadoop's signed `hadoop.auth` cookie carries, as hadoop-
// auth 3.3's AuthToken writes and parses it:
//   u=<user>&p=<principal>&t=<type>[&i=<max inactive, ms>]&e=<expiry, ms>
// (attributes in that order; -1 for "none"). Parse() is as lenient as
// Java's: surrounding double quotes are dropped, empty '&'-separated parts
// are skipped, a later attribute replaces an earlier one, "s" (the
// signature) is ignored and unknown ones are kept out; u, p, t and e must
// be there.
//
// Thread-safety: a value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::web::auth {

struct AuthToken {
  // The short user name requests run as ("alice").
  std::string user;
  // Who authenticated ("alice@REALM"; the user again for simple).
  std::string principal;
  // The handler that issued it: "simple", "kerberos", "simple-dt",
  // "kerberos-dt".
  std::string type;
  // Epoch milliseconds after which the token is stale; -1: never.
  int64_t max_inactives = -1;
  int64_t expires = -1;

  std::string ToString() const;
  bool IsExpired(int64_t now_millis) const;

  // InvalidArgument "Invalid authentication token" (a part without '='),
  // "Invalid token string, missing attributes", or a bad number / an empty
  // or '&'-holding u, p or t.
  static Result<AuthToken> Parse(std::string_view text);
};

}  // namespace spindle::web::auth
