// hadoop.security.authentication, read as Hadoop 3.3's
// SecurityUtil.getAuthenticationMethod does: the value upper-cased must name a
// UserGroupInformation.AuthenticationMethod, or the daemon refuses to start
// with "Invalid attribute value for hadoop.security.authentication of <v>".
// Spindle implements SIMPLE and KERBEROS; the other names Java accepts
// (TOKEN, CERTIFICATE, KERBEROS_SSL, PROXY) are refused as not supported
// rather than run as something else.
#pragma once

#include <string_view>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::security {

enum class AuthenticationMethod { kSimple, kKerberos };

inline constexpr char kAuthenticationKey[] = "hadoop.security.authentication";

Result<AuthenticationMethod> ParseAuthenticationMethod(std::string_view value);

// The key's value, "simple" when unset.
Result<AuthenticationMethod> AuthenticationMethodFromConfiguration(const rm::Configuration& conf);

}  // namespace spindle::security
