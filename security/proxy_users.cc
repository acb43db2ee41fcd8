#include "security/proxy_users.h"

#include <optional>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {

namespace {

constexpr char kUsers[] = ".users";
constexpr char kGroups[] = ".groups";
constexpr char kHosts[] = ".hosts";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The super-user name of a hadoop.proxyuser.<name><suffix> key, if the key
// has that shape under the line's rule.
std::optional<std::string> SuperUserOf(std::string_view key, std::string_view suffix,
                                       rm::HadoopLine line) {
  if (!EndsWith(key, suffix)) return std::nullopt;
  const std::string_view name = key.substr(
      sizeof(kProxyUserPrefix) - 1, key.size() - (sizeof(kProxyUserPrefix) - 1) - suffix.size());
  const bool allowed = line == rm::HadoopLine::k3_3
                           ? name.find_first_of(" \t\n\r\f\v") == std::string_view::npos  // [\S]*
                           : name.find('.') == std::string_view::npos;                    // [^.]*
  if (!allowed) return std::nullopt;
  return std::string(name);
}

}  // namespace

ProxyUsers ProxyUsers::FromConfiguration(const rm::Configuration& conf, rm::HadoopLine line,
                                         MachineList::Resolver resolver) {
  // processRMProxyUsersConf: yarn.resourcemanager.proxyuser.X -> hadoop.proxyuser.X.
  std::map<std::string, std::string> values;
  for (const std::string& key : conf.KeysWithPrefix(kProxyUserPrefix)) {
    values[key] = conf.Get(key, "");
  }
  for (const std::string& key : conf.KeysWithPrefix(kRmProxyUserPrefix)) {
    values[kProxyUserPrefix + key.substr(sizeof(kRmProxyUserPrefix) - 1)] = conf.Get(key, "");
  }
  const auto value = [&values](const std::string& key) -> std::optional<std::string> {
    auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
  ProxyUsers out;
  for (const auto& [key, unused] : values) {
    for (const char* suffix : {kUsers, kGroups}) {
      const std::optional<std::string> name = SuperUserOf(key, suffix, line);
      if (!name.has_value() || out.acls_.count(*name) != 0) continue;
      // new AccessControlList(users, groups): a missing part allows nobody;
      // the users part loses its blanks so that the first blank of the
      // joined text separates users from groups.
      const std::string prefix = kProxyUserPrefix + *name;
      std::string users = value(prefix + kUsers).value_or("");
      std::erase_if(users, [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
      out.acls_[*name] =
          rm::AccessControlList::Parse(users + " " + value(prefix + kGroups).value_or(""));
    }
    if (const std::optional<std::string> name = SuperUserOf(key, kHosts, line); name.has_value()) {
      out.hosts_[*name] = MachineList::Parse(value(key).value_or(""), resolver);
    }
  }
  return out;
}

Status ProxyUsers::Authorize(const Impersonation& who) const {
  auto acl = acls_.find(who.real_short_name);
  if (acl == acls_.end() || !acl->second.IsUserAllowed(who.user, who.user_groups)) {
    return Status::Remote(ipc::java::kAuthorization,
                          "User: " + who.real_user + " is not allowed to impersonate " + who.user,
                          Status::Code::kUnauthorized);
  }
  auto hosts = hosts_.find(who.real_short_name);
  if (hosts == hosts_.end() || !hosts->second.Includes(who.remote_ip)) {
    return Status::Remote(
        ipc::java::kAuthorization,
        "Unauthorized connection for super-user: " + who.real_user + " from IP " + who.remote_ip,
        Status::Code::kUnauthorized);
  }
  return Status::OK();
}

}  // namespace spindle::security
