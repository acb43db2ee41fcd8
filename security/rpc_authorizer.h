// RpcAuthorizer: the RM's ipc::ConnectionAuthorizer, Hadoop's
// Server.Connection.authorizeConnection (2.6 and 3.3 alike): a connection
// whose context asks to act for another user, unless it authenticated with
// a token, must be allowed by the proxy-user rules (ProxyUsers); then, with
// hadoop.security.authorization=true, the caller must pass the service ACLs
// of the context's protocol (ServiceAuthorization). ResourceTracker also
// takes only the NM principal (yarn.nodemanager.principal, _HOST as the
// caller's canonical host name) when one is configured: Hadoop's
// RMNMSecurityInfoClass names it as the protocol's client principal (3.3
// checks it only with Kerberos on, 2.6/2.7 always).
//
// Groups come from the RM's group mapping (Hadoop's default
// ShellBasedUnixGroupsMapping runs `id -gn`/`id -Gn`; Spindle's
// rm::OsGroupMapping asks the same OS group database with getgrouplist).
//
// Refreshes (rmadmin -refreshServiceAcl, -refreshSuperUserGroupsConfiguration)
// swap in a new policy; connections already authorized stay (as in Hadoop,
// which checks once per connection).
//
// Thread-safety: all methods are thread-safe. Authorize() takes a short lock
// to copy two pointers; a refresh builds its policy outside the lock.
// Authorize() may block on the group mapping and on the reverse DNS look-up
// of the NM's _HOST: RpcServer connections run it on a worker thread
// (wire/ipc/connection_authorizer.h), never on an I/O thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "security/proxy_users.h"
#include "security/service_authorization.h"
#include "wire/ipc/connection_authorizer.h"

namespace spindle::security {

inline constexpr char kServiceAuthorizationKey[] = "hadoop.security.authorization";
inline constexpr char kPolicyFileName[] = "hadoop-policy.xml";

struct RpcAuthorizerOptions {
  rm::HadoopLine line = rm::kDefaultHadoopLine;
  // hadoop.security.authentication is kerberos.
  bool kerberos = false;
  // hadoop.security.authorization. Default: false (proxy users only).
  bool service_authorization = false;
  // yarn.nodemanager.principal as configured (may hold _HOST), if set.
  std::optional<std::string> nm_principal;
  // A user's groups (short name in, primary group first).
  std::function<std::vector<std::string>(const std::string& user)> groups;
  // Host names in host lists; the system resolver by default.
  MachineList::Resolver resolver = &MachineList::SystemResolve;
  // An IP's canonical host name for _HOST; reverse DNS by default.
  std::function<std::string(const std::string& ip)> canonical_host_name;

  // Reads hadoop.security.authorization, hadoop.security.authentication and
  // yarn.nodemanager.principal from the RM's configuration; `groups` stays
  // for the caller to set.
  static Result<RpcAuthorizerOptions> FromConfiguration(const rm::Configuration& conf);
};

class RpcAuthorizer final : public ipc::ConnectionAuthorizer {
 public:
  // `site` is the RM's configuration (proxy-user keys); `policy` the
  // contents of hadoop-policy.xml, used when service authorization is on.
  RpcAuthorizer(RpcAuthorizerOptions options, const rm::Configuration& site,
                const rm::Configuration& policy);

  Status Authorize(const ipc::ConnectionIdentity& identity) const override;

  // The web's ?doAs= (DelegationTokenAuthenticationFilter: ProxyUsers.
  // authorize over the same hadoop.proxyuser.* rules, refreshed with them):
  // may `real_user` (full name; `real_short_name` picks the keys), calling
  // from `remote_ip`, act as `doas_user`? OK or the AuthorizationException.
  // Looks `doas_user`'s groups up (may block on the group mapping).
  Status AuthorizeProxyUser(const std::string& doas_user, const std::string& real_user,
                            const std::string& real_short_name, const std::string& remote_ip) const;

  // rmadmin -refreshServiceAcl (AdminService.refreshServiceAcls): with
  // service authorization off, the IOException Hadoop answers ("Service
  // Authorization (hadoop.security.authorization) not enabled."); else the
  // new policy applies to new connections.
  Status RefreshServiceAcls(const rm::Configuration& policy);
  // rmadmin -refreshSuperUserGroupsConfiguration.
  void RefreshSuperUserGroups(const rm::Configuration& site);

  bool service_authorization() const { return options_.service_authorization; }

  // hadoop-policy.xml of `conf_dir` (missing: an empty policy, every ACL "*").
  static Result<rm::Configuration> LoadPolicy(const std::string& conf_dir);

 private:
  const RpcAuthorizerOptions options_;
  mutable Mutex mu_;
  std::shared_ptr<const ProxyUsers> proxy_users_ GUARDED_BY(mu_);
  std::shared_ptr<const ServiceAuthorization> policy_ GUARDED_BY(mu_);
};

}  // namespace spindle::security
