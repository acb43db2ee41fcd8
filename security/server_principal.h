// A service principal from configuration with Hadoop's "_HOST" placeholder
// filled in, as Hadoop 3.3's SecurityUtil.getServerPrincipal(String, String)
// does: the configured name split at '/' and '@' must have exactly three
// parts with "_HOST" in the middle, else it is used as written; the host is
// the given one, or this machine's canonical name when that is empty or
// 0.0.0.0, lower-cased.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::security {

inline constexpr char kHostPlaceholder[] = "_HOST";

// `local_host_name` is consulted only when `hostname` is empty or 0.0.0.0.
Result<std::string> ServerPrincipal(std::string_view principal_config, std::string_view hostname,
                                    std::string_view local_host_name);

// As above with this machine's canonical host name (CanonicalLocalHostName).
Result<std::string> ServerPrincipal(std::string_view principal_config, std::string_view hostname);

// gethostname() resolved with AI_CANONNAME, as Java's
// InetAddress.getLocalHost().getCanonicalHostName() gives it; the plain host
// name when it does not resolve.
Result<std::string> CanonicalLocalHostName();

}  // namespace spindle::security
