// A daemon's log-in at start, as Hadoop 3.3's SecurityUtil.login(conf,
// keytabKey, principalKey, hostname) does for the RM (yarn.resourcemanager.*,
// host of yarn.resourcemanager.address) and the NM (yarn.nodemanager.*, this
// machine's name):
//   - hadoop.security.authentication is read first; an unknown value stops
//     the daemon (AuthenticationMethodFromConfiguration);
//   - with simple, nothing is logged in;
//   - with kerberos, the keytab key must be set ("Running in secure mode, but
//     config doesn't have a keytab"), the principal defaults to the process
//     user, "_HOST" is filled in (ServerPrincipal) and a TGT is fetched from
//     the keytab (KerberosCredentials), or the daemon stops with krb5's
//     reason. auth_to_local is parsed too, so bad rules stop it at start.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "security/auth_to_local.h"
#include "security/authentication_method.h"
#include "security/kerberos_credentials.h"

namespace spindle::security {

struct DaemonLoginKeys {
  const char* keytab;
  const char* principal;
};

inline constexpr DaemonLoginKeys kResourceManagerLoginKeys = {"yarn.resourcemanager.keytab",
                                                              "yarn.resourcemanager.principal"};
inline constexpr DaemonLoginKeys kNodeManagerLoginKeys = {"yarn.nodemanager.keytab",
                                                          "yarn.nodemanager.principal"};

// What a daemon runs as. `credentials` is set exactly when `method` is
// kKerberos.
struct DaemonIdentity {
  AuthenticationMethod method = AuthenticationMethod::kSimple;
  std::unique_ptr<KerberosCredentials> credentials;
  AuthToLocal auth_to_local;
};

// `hostname` replaces _HOST (this machine's canonical name when empty or
// 0.0.0.0).
Result<DaemonIdentity> LoginDaemon(const rm::Configuration& conf, DaemonLoginKeys keys,
                                   std::string_view hostname);

}  // namespace spindle::security
