// ProxyUsers: who may act for whom (impersonation), as Hadoop's ProxyUsers
// with its DefaultImpersonationProvider reads hadoop.proxyuser.<super>.users,
// .groups and .hosts (2.6 and 3.3), after the RM has copied every
// yarn.resourcemanager.proxyuser.* key onto hadoop.proxyuser.*
// (RMServerUtils.processRMProxyUsersConf, 2.6 and 3.3).
//
// A super-user is known when its .users or .groups key is set; it may then
// act for an effective user named in .users or belonging to a group in
// .groups ("*" in either: anybody), and only from an address in its .hosts
// (a MachineList; no .hosts key: from nowhere). Super-user names: 2.6 and
// 2.7 take keys whose name part has no '.' (the regex [^.]*), 3.3 any
// name without blanks ([\S]*).
//
// Refusals are AuthorizationExceptions in Hadoop's words:
//   "User: <real user> is not allowed to impersonate <effective user>"
//   "Unauthorized connection for super-user: <real user> from IP <ip>"
//
// Thread-safety: a value built once; const methods from any thread.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/queues/access_control_list.h"
#include "security/machine_list.h"

namespace spindle::security {

// A connection that asks to act for another user.
struct Impersonation {
  // The effective user, as the connection context names it, and its groups.
  std::string user;
  std::vector<std::string> user_groups;
  // The real (authenticated) user: its full name (the Kerberos principal,
  // else the name) for messages, and its short name, which picks the keys.
  std::string real_user;
  std::string real_short_name;
  // The caller's IP address.
  std::string remote_ip;
};

inline constexpr char kProxyUserPrefix[] = "hadoop.proxyuser.";
inline constexpr char kRmProxyUserPrefix[] = "yarn.resourcemanager.proxyuser.";

class ProxyUsers {
 public:
  // No super-users: every impersonation is refused.
  ProxyUsers() = default;

  // Reads the keys of `conf` (yarn.resourcemanager.proxyuser.* overriding
  // hadoop.proxyuser.*) with `line`'s key-name rule.
  static ProxyUsers FromConfiguration(const rm::Configuration& conf, rm::HadoopLine line,
                                      MachineList::Resolver resolver = &MachineList::SystemResolve);

  // OK, or the AuthorizationException Hadoop throws.
  Status Authorize(const Impersonation& impersonation) const;

  size_t super_user_count() const { return acls_.size(); }

 private:
  std::map<std::string, rm::AccessControlList> acls_;  // by super-user short name
  std::map<std::string, MachineList> hosts_;           // likewise
};

}  // namespace spindle::security
