#include "security/service_authorization.h"

#include "wire/ipc/error_mapping.h"
#include "wire/ipc/protocol_names.h"

namespace spindle::security {

namespace {

struct PolicyService {
  const char* protocol;
  const char* key;
  bool since_3_3;
};

// RMPolicyProvider's services.
constexpr PolicyService kRmServices[] = {
    {ipc::kResourceTrackerProtocol, "security.resourcetracker.protocol.acl", false},
    {ipc::kApplicationClientProtocol, "security.applicationclient.protocol.acl", false},
    {ipc::kApplicationMasterProtocol, "security.applicationmaster.protocol.acl", false},
    {ipc::kDistributedSchedulingAmProtocol, "security.distributedscheduling.protocol.acl", true},
    {ipc::kAdminProtocol, "security.resourcemanager-administration.protocol.acl", false},
    {ipc::kContainerManagementProtocol, "security.containermanagement.protocol.acl", false},
    {ipc::kHaServiceProtocol, "security.ha.service.protocol.acl", false},
};

constexpr char kDefaultAclKey[] = "security.service.authorization.default.acl";
constexpr char kBlocked[] = ".blocked";

// ServiceAuthorizationManager.getHostKey: the key up to its last '.', plus
// ".hosts".
std::string HostKeyOf(const std::string& service_key) {
  const size_t dot = service_key.rfind('.');
  return dot == std::string::npos ? service_key : service_key.substr(0, dot) + ".hosts";
}

bool HasHostLists(rm::HadoopLine line) { return line != rm::HadoopLine::k2_6; }

Status Refuse(const std::string& message) {
  return Status::Remote(ipc::java::kAuthorization, message, Status::Code::kUnauthorized);
}

}  // namespace

const char* ServiceAuthorization::ServiceKeyOf(std::string_view protocol, rm::HadoopLine line) {
  for (const PolicyService& service : kRmServices) {
    if (service.since_3_3 && line != rm::HadoopLine::k3_3) continue;
    if (protocol == service.protocol) return service.key;
  }
  return nullptr;
}

ServiceAuthorization ServiceAuthorization::FromPolicy(const rm::Configuration& policy,
                                                      rm::HadoopLine line,
                                                      MachineList::Resolver resolver) {
  ServiceAuthorization out;
  out.line_ = line;
  // refreshWithLoadedConfiguration.
  const std::string default_acl = policy.Get(kDefaultAclKey, "*");
  const std::string default_blocked = policy.Get(std::string(kDefaultAclKey) + kBlocked, "");
  const std::string default_hosts_key = HostKeyOf(kDefaultAclKey);
  const std::string default_hosts = policy.Get(default_hosts_key, "*");
  const std::string default_blocked_hosts = policy.Get(default_hosts_key + kBlocked, "");
  for (const PolicyService& service : kRmServices) {
    if (service.since_3_3 && line != rm::HadoopLine::k3_3) continue;
    const std::string key = service.key;
    Entry entry;
    entry.acl = rm::AccessControlList::Parse(policy.Get(key, default_acl));
    entry.blocked = rm::AccessControlList::Parse(policy.Get(key + kBlocked, default_blocked));
    if (HasHostLists(line)) {
      const std::string hosts_key = HostKeyOf(key);
      entry.hosts = MachineList::Parse(policy.Get(hosts_key, default_hosts), resolver);
      entry.blocked_hosts =
          MachineList::Parse(policy.Get(hosts_key + kBlocked, default_blocked_hosts), resolver);
    }
    out.entries_.emplace(service.protocol, std::move(entry));
  }
  return out;
}

Status ServiceAuthorization::Authorize(const AuthorizedCaller& caller, std::string_view protocol,
                                       const std::optional<std::string>& client_principal) const {
  // Server.authorize: a context without a protocol, or a name that is no
  // protocol of this RM.
  if (protocol.empty()) return Refuse("Null protocol not authorized");
  auto it = entries_.find(protocol);
  if (it == entries_.end()) return Refuse("Unknown protocol: " + std::string(protocol));
  const Entry& entry = it->second;
  const std::string interface_name = "interface " + std::string(protocol);
  if ((client_principal.has_value() && *client_principal != caller.user_name) ||
      !entry.acl.IsUserAllowed(caller.short_name, caller.groups) ||
      entry.blocked.IsUserAllowed(caller.short_name, caller.groups)) {
    std::string message =
        "User " + caller.description + " is not authorized for protocol " + interface_name;
    if (line_ == rm::HadoopLine::k3_3) {
      message += client_principal.has_value()
                     ? ": this service is only accessible by " + *client_principal
                     : std::string(": denied by configured ACL");
    } else {
      message += ", expected client Kerberos principal is " + client_principal.value_or("null");
    }
    return Refuse(message);
  }
  if (HasHostLists(line_) &&
      (!entry.hosts.Includes(caller.remote_ip) || entry.blocked_hosts.Includes(caller.remote_ip))) {
    return Refuse("Host " + caller.remote_ip + " is not authorized for protocol " + interface_name);
  }
  return Status::OK();
}

}  // namespace spindle::security
