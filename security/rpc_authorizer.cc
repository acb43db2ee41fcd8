#include "security/rpc_authorizer.h"

#include <arpa/inet.h>
#include <glog/logging.h>
#include <netdb.h>
#include <sys/socket.h>

#include <filesystem>

#include "security/authentication_method.h"
#include "security/server_principal.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/protocol_names.h"

namespace spindle::security {

namespace {

// Java's InetAddress.getCanonicalHostName for a literal: the reverse name,
// else the literal itself.
std::string ReverseLookup(const std::string& ip) {
  sockaddr_storage storage{};
  socklen_t length = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    length = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    length = sizeof(sockaddr_in6);
  } else {
    return ip;
  }
  char host[NI_MAXHOST] = {};
  if (getnameinfo(reinterpret_cast<sockaddr*>(&storage), length, host, sizeof host, nullptr, 0,
                  NI_NAMEREQD) != 0) {
    return ip;
  }
  return host;
}

// "ip:port" -> "ip" (the port follows the last ':').
std::string IpOf(const std::string& remote_address) {
  const size_t colon = remote_address.rfind(':');
  return colon == std::string::npos ? remote_address : remote_address.substr(0, colon);
}

const char* AuthName(ipc::AuthMethod method) {
  switch (method) {
    case ipc::AuthMethod::kSimple:
      return "SIMPLE";
    case ipc::AuthMethod::kToken:
      return "TOKEN";
    case ipc::AuthMethod::kKerberos:
      return "KERBEROS";
  }
  return "SIMPLE";
}

}  // namespace

Result<RpcAuthorizerOptions> RpcAuthorizerOptions::FromConfiguration(
    const rm::Configuration& conf) {
  RpcAuthorizerOptions options;
  ASSIGN_OR_RETURN(options.line, rm::HadoopLineOf(conf));
  ASSIGN_OR_RETURN(const AuthenticationMethod method, AuthenticationMethodFromConfiguration(conf));
  options.kerberos = method == AuthenticationMethod::kKerberos;
  ASSIGN_OR_RETURN(options.service_authorization, conf.GetBool(kServiceAuthorizationKey, false));
  options.nm_principal = conf.GetTrimmed("yarn.nodemanager.principal");
  return options;
}

RpcAuthorizer::RpcAuthorizer(RpcAuthorizerOptions options, const rm::Configuration& site,
                             const rm::Configuration& policy)
    : options_(std::move(options)) {
  auto proxy_users = std::make_shared<const ProxyUsers>(
      ProxyUsers::FromConfiguration(site, options_.line, options_.resolver));
  std::shared_ptr<const ServiceAuthorization> acls;
  if (options_.service_authorization) {
    acls = std::make_shared<const ServiceAuthorization>(
        ServiceAuthorization::FromPolicy(policy, options_.line, options_.resolver));
  }
  MutexLock lock(&mu_);
  proxy_users_ = std::move(proxy_users);
  policy_ = std::move(acls);
}

Status RpcAuthorizer::Authorize(const ipc::ConnectionIdentity& identity) const {
  std::shared_ptr<const ProxyUsers> proxy_users;
  std::shared_ptr<const ServiceAuthorization> policy;
  {
    MutexLock lock(&mu_);
    proxy_users = proxy_users_;
    policy = policy_;
  }
  const std::string ip = IpOf(identity.remote_address);
  const bool kerberos = identity.auth_method == ipc::AuthMethod::kKerberos;
  const bool proxy = !identity.real_user.empty();
  // The real (authenticated) user's full name: the principal under Kerberos.
  const std::string real_full =
      kerberos ? identity.kerberos_principal : (proxy ? identity.real_user : identity.user);
  const auto groups_of = [this](const std::string& user) {
    return options_.groups ? options_.groups(user) : std::vector<std::string>();
  };
  if (proxy && identity.auth_method != ipc::AuthMethod::kToken) {
    Impersonation impersonation{identity.user, groups_of(identity.user), real_full,
                                identity.real_user, ip};
    Status allowed = proxy_users->Authorize(impersonation);
    if (!allowed.ok()) {
      LOG(INFO) << "Connection from " << identity.remote_address << " for protocol "
                << identity.protocol << " is unauthorized: " << allowed.message();
      return allowed;
    }
  }
  if (policy == nullptr) return Status::OK();

  AuthorizedCaller caller;
  const std::string real_description = real_full + " (auth:" + AuthName(identity.auth_method) + ")";
  if (proxy) {
    caller.user_name = identity.user;
    caller.description = identity.user + " (auth:PROXY) via " + real_description;
  } else {
    caller.user_name = real_full;
    caller.description = real_description;
  }
  caller.short_name = identity.user;
  caller.groups = groups_of(identity.user);
  caller.remote_ip = ip;
  std::optional<std::string> client_principal;
  if (identity.protocol == ipc::kResourceTrackerProtocol && options_.nm_principal.has_value() &&
      (options_.kerberos || options_.line != rm::HadoopLine::k3_3)) {
    const std::string host =
        options_.nm_principal->find(kHostPlaceholder) == std::string::npos
            ? std::string()
            : (options_.canonical_host_name ? options_.canonical_host_name(ip) : ReverseLookup(ip));
    Result<std::string> principal = ServerPrincipal(*options_.nm_principal, host, host);
    if (!principal.ok()) {
      return Status::Remote(ipc::java::kAuthorization,
                            "Can't figure out Kerberos principal name for connection from " + ip +
                                " for user=" + caller.description + " protocol=interface " +
                                identity.protocol,
                            Status::Code::kUnauthorized);
    }
    client_principal = std::move(principal).value();
  }
  Status authorized = policy->Authorize(caller, identity.protocol, client_principal);
  if (!authorized.ok()) {
    LOG(INFO) << "Connection from " << identity.remote_address << " for protocol "
              << identity.protocol << " is unauthorized for user " << caller.description;
  }
  return authorized;
}

Status RpcAuthorizer::AuthorizeProxyUser(const std::string& doas_user, const std::string& real_user,
                                         const std::string& real_short_name,
                                         const std::string& remote_ip) const {
  std::shared_ptr<const ProxyUsers> proxy_users;
  {
    MutexLock lock(&mu_);
    proxy_users = proxy_users_;
  }
  Impersonation impersonation{
      doas_user, options_.groups ? options_.groups(doas_user) : std::vector<std::string>(),
      real_user, real_short_name, remote_ip};
  return proxy_users->Authorize(impersonation);
}

Status RpcAuthorizer::RefreshServiceAcls(const rm::Configuration& policy) {
  if (!options_.service_authorization) {
    return Status::Remote(ipc::java::kIoException, std::string("Service Authorization (") +
                                                       kServiceAuthorizationKey + ") not enabled.");
  }
  auto acls = std::make_shared<const ServiceAuthorization>(
      ServiceAuthorization::FromPolicy(policy, options_.line, options_.resolver));
  MutexLock lock(&mu_);
  policy_ = std::move(acls);
  return Status::OK();
}

void RpcAuthorizer::RefreshSuperUserGroups(const rm::Configuration& site) {
  auto proxy_users = std::make_shared<const ProxyUsers>(
      ProxyUsers::FromConfiguration(site, options_.line, options_.resolver));
  MutexLock lock(&mu_);
  proxy_users_ = std::move(proxy_users);
}

Result<rm::Configuration> RpcAuthorizer::LoadPolicy(const std::string& conf_dir) {
  rm::Configuration policy;
  const std::filesystem::path path = std::filesystem::path(conf_dir) / kPolicyFileName;
  std::error_code ec;
  if (!conf_dir.empty() && std::filesystem::exists(path, ec)) {
    RETURN_NOT_OK(policy.AddResourceFile(path.string()));
  }
  return policy;
}

}  // namespace spindle::security
