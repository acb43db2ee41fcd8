// ServiceAuthorization: service-level authorization of RPC connections
// (hadoop.security.authorization=true), as Hadoop's ServiceAuthorizationManager
// with the RM's RMPolicyProvider does it: per protocol an ACL read from
// hadoop-policy.xml (security.<service>.protocol.acl, default
// security.service.authorization.default.acl, itself default "*"), a blocked
// ACL (<key>.blocked, default security.service.authorization.default.acl.blocked,
// default "": nobody), and from 2.7 on host lists (<key minus .acl>.hosts and
// .hosts.blocked, defaults security.service.authorization.default.hosts "*"
// and its .blocked ""). ACLs are Hadoop's "users groups" strings
// (rm::AccessControlList), matched on the caller's short name and groups.
//
// Protocols (RMPolicyProvider, 2.6 and 3.3; 3.3 adds distributed
// scheduling), by the name a connection context carries:
//   ResourceTrackerPB                     security.resourcetracker.protocol.acl
//   ApplicationClientProtocolPB           security.applicationclient.protocol.acl
//   ApplicationMasterProtocolPB           security.applicationmaster.protocol.acl
//   DistributedSchedulingAMProtocolPB     security.distributedscheduling.protocol.acl (3.3)
//   ResourceManagerAdministrationProtocolPB security.resourcemanager-administration.protocol.acl
//   ContainerManagementProtocolPB         security.containermanagement.protocol.acl
//   org.apache.hadoop.ha.HAServiceProtocol security.ha.service.protocol.acl
//
// Refusals are AuthorizationExceptions with Hadoop's messages: "Null protocol
// not authorized", "Unknown protocol: <name>", and
//   3.3: "User <ugi> is not authorized for protocol interface <name>: denied
//         by configured ACL" (or ": this service is only accessible by <p>")
//   2.6/2.7: "User <ugi> is not authorized for protocol interface <name>,
//         expected client Kerberos principal is <p or null>"
//   2.7+: "Host <ip> is not authorized for protocol interface <name>"
// where <ugi> is UserGroupInformation.toString(): "alice@REALM (auth:KERBEROS)",
// "bob (auth:PROXY) via alice@REALM (auth:KERBEROS)".
//
// Thread-safety: a value built once; const methods from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/queues/access_control_list.h"
#include "security/machine_list.h"

namespace spindle::security {

// The caller as ServiceAuthorizationManager sees its UserGroupInformation.
struct AuthorizedCaller {
  // getUserName(): the full name (a Kerberos principal, a token's owner, a
  // SIMPLE user, or the effective user of a proxy).
  std::string user_name;
  // getShortUserName() and getGroupNames(): what the ACLs match.
  std::string short_name;
  std::vector<std::string> groups;
  // toString(), for messages.
  std::string description;
  // The caller's IP address.
  std::string remote_ip;
};

class ServiceAuthorization {
 public:
  // The policy of `policy` (the contents of hadoop-policy.xml) for `line`.
  static ServiceAuthorization FromPolicy(
      const rm::Configuration& policy, rm::HadoopLine line,
      MachineList::Resolver resolver = &MachineList::SystemResolve);

  // OK, or an AuthorizationException. `protocol` is the connection
  // context's protocol name. `client_principal`, when set, is the only
  // principal the protocol accepts (the NM's for ResourceTracker; see
  // RpcAuthorizer).
  Status Authorize(const AuthorizedCaller& caller, std::string_view protocol,
                   const std::optional<std::string>& client_principal) const;

  // The service key of a protocol name, or nullptr if the policy has none.
  static const char* ServiceKeyOf(std::string_view protocol, rm::HadoopLine line);

 private:
  struct Entry {
    rm::AccessControlList acl;
    rm::AccessControlList blocked;
    MachineList hosts;
    MachineList blocked_hosts;
  };
  rm::HadoopLine line_ = rm::kDefaultHadoopLine;
  std::map<std::string, Entry, std::less<>> entries_;  // by protocol name
};

}  // namespace spindle::security
