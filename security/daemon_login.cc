#include "security/daemon_login.h"

#include <glog/logging.h>

#include "base/process_user.h"
#include "security/server_principal.h"

namespace spindle::security {

Result<DaemonIdentity> LoginDaemon(const rm::Configuration& conf, DaemonLoginKeys keys,
                                   std::string_view hostname) {
  ASSIGN_OR_RETURN(const AuthenticationMethod method, AuthenticationMethodFromConfiguration(conf));
  if (method == AuthenticationMethod::kSimple) {
    ASSIGN_OR_RETURN(AuthToLocal rules, AuthToLocal::FromConfiguration(conf, method, ""));
    return DaemonIdentity{method, nullptr, std::move(rules)};
  }
  const std::string keytab = conf.Get(keys.keytab, "");
  if (keytab.empty()) {
    return Status::InvalidArgument("Running in secure mode, but config doesn't have a keytab (" +
                                   std::string(keys.keytab) + ")");
  }
  const std::string principal_config = conf.Get(keys.principal, ProcessUserName());
  ASSIGN_OR_RETURN(const std::string principal, ServerPrincipal(principal_config, hostname));
  ASSIGN_OR_RETURN(std::unique_ptr<KerberosCredentials> credentials,
                   KerberosCredentials::LoginFromKeytab(principal, keytab));
  Result<std::string> realm = DefaultKerberosRealm();
  ASSIGN_OR_RETURN(AuthToLocal rules,
                   AuthToLocal::FromConfiguration(conf, method, realm.ok() ? *realm : ""));
  LOG(INFO) << "Login successful for user " << credentials->principal() << " using keytab file "
            << keytab;
  return DaemonIdentity{method, std::move(credentials), std::move(rules)};
}

}  // namespace spindle::security
