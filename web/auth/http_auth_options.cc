#include "web/auth/http_auth_options.h"

#include <algorithm>
#include <vector>

#include "security/server_principal.h"

namespace spindle::web::auth {
namespace {

constexpr char kPrefix[] = "hadoop.http.authentication.";
constexpr char kInitializersKey[] = "hadoop.http.filter.initializers";

std::string Key(const char* name) { return std::string(kPrefix) + name; }

Result<int64_t> Seconds(const rm::Configuration& conf, const char* name, int64_t fallback) {
  Result<int64_t> value = conf.GetInt(Key(name), fallback);
  if (!value.ok()) return value.status().WithContext(Key(name));
  return value;
}

}  // namespace

std::string HttpAuthOptions::TokenType() const {
  std::string name = type == AuthType::kKerberos ? "kerberos" : "simple";
  if (filter == AuthFilterKind::kResourceManager) name += "-dt";
  return name;
}

Result<HttpAuthOptions> HttpAuthOptions::FromConfiguration(const rm::Configuration& conf,
                                                           security::AuthenticationMethod method,
                                                           std::string_view bind_host) {
  HttpAuthOptions options;
  options.static_user = conf.GetTrimmed("hadoop.http.staticuser.user").value_or("dr.who");
  // core-default.xml lists StaticUserWebFilter; a site value replaces it.
  std::vector<std::string> initializers = conf.Get(kInitializersKey).has_value()
                                              ? conf.GetTrimmedStrings(kInitializersKey)
                                              : std::vector<std::string>{kStaticUserWebFilter};
  initializers.erase(std::remove(initializers.begin(), initializers.end(), std::string()),
                     initializers.end());
  for (const std::string& name : initializers) {
    if (name != kAuthenticationFilterInitializer && name != kRmAuthenticationFilterInitializer &&
        name != kStaticUserWebFilter) {
      return Status::InvalidArgument(
          std::string(kInitializersKey) + ": Spindle does not have the filter initializer " + name +
          " (it knows " + kAuthenticationFilterInitializer + ", " +
          kRmAuthenticationFilterInitializer + " and " + kStaticUserWebFilter + ")");
    }
  }
  std::string type = conf.GetTrimmed(Key("type")).value_or("simple");
  const bool secure = method == security::AuthenticationMethod::kKerberos;
  const auto has = [&](const char* name) {
    return std::find(initializers.begin(), initializers.end(), name) != initializers.end();
  };
  Result<bool> rm_filter_enabled =
      conf.GetBool("yarn.resourcemanager.webapp.delegation-token-auth-filter.enabled", true);
  if (!rm_filter_enabled.ok()) return rm_filter_enabled.status();
  if (secure && *rm_filter_enabled && has(kAuthenticationFilterInitializer) && type == "kerberos") {
    std::vector<std::string> swapped;
    for (const std::string& name : initializers) {
      if (name == kAuthenticationFilterInitializer) {
        if (!has(kRmAuthenticationFilterInitializer)) {
          swapped.push_back(kRmAuthenticationFilterInitializer);
        }
        continue;
      }
      swapped.push_back(name);
    }
    initializers = std::move(swapped);
  }
  if (!secure) {
    if (initializers.empty()) {
      initializers = {kRmAuthenticationFilterInitializer};
      type = "simple";
    } else if (initializers.size() == 1 && initializers[0] == kStaticUserWebFilter) {
      initializers = {kRmAuthenticationFilterInitializer, kStaticUserWebFilter};
      type = "simple";
    }
  }
  // One authentication filter: the RM's when both are listed (it does all
  // the plain one does).
  size_t auth_position = initializers.size();
  for (size_t i = 0; i < initializers.size(); ++i) {
    if (initializers[i] == kRmAuthenticationFilterInitializer) {
      options.filter = AuthFilterKind::kResourceManager;
      auth_position = i;
    } else if (initializers[i] == kAuthenticationFilterInitializer &&
               options.filter != AuthFilterKind::kResourceManager) {
      options.filter = AuthFilterKind::kHadoop;
      auth_position = i;
    }
  }
  for (size_t i = 0; i < initializers.size(); ++i) {
    if (initializers[i] != kStaticUserWebFilter) continue;
    options.static_user_filter = true;
    options.static_user_last = options.filter == AuthFilterKind::kNone || i > auth_position;
  }
  if (options.filter == AuthFilterKind::kNone) return options;

  if (type == "simple") {
    options.type = AuthType::kSimple;
  } else if (type == "kerberos") {
    options.type = AuthType::kKerberos;
  } else {
    return Status::InvalidArgument(Key("type") + ": Spindle's web authenticates with simple or " +
                                   "kerberos, not " + type);
  }
  Result<bool> anonymous = conf.GetBool(Key("simple.anonymous.allowed"), true);
  if (!anonymous.ok()) return anonymous.status();
  options.anonymous_allowed = *anonymous;
  ASSIGN_OR_RETURN(options.validity_seconds, Seconds(conf, "token.validity", 36000));
  ASSIGN_OR_RETURN(options.max_inactive_seconds, Seconds(conf, "token.max-inactive-interval", -1));
  if (options.validity_seconds <= 0) {
    return Status::InvalidArgument(Key("token.validity") + " must be positive");
  }
  const std::string provider = conf.GetTrimmed(Key("signer.secret.provider")).value_or("file");
  if (provider == "file") {
    options.secret_file = conf.GetTrimmed(Key("signature.secret.file"));
  } else if (provider != "random") {
    return Status::InvalidArgument(Key("signer.secret.provider") +
                                   ": Spindle signs cookies with a file or random secret, not " +
                                   provider);
  }
  options.cookie_domain = conf.GetTrimmed(Key("cookie.domain"));
  if (std::optional<std::string> path = conf.GetTrimmed(Key("cookie.path"))) {
    options.cookie_path = std::move(path);
  }
  Result<bool> persistent = conf.GetBool(Key("cookie.persistent"), false);
  if (!persistent.ok()) return persistent.status();
  options.cookie_persistent = *persistent;
  if (options.type == AuthType::kKerberos) {
    const std::string principal = conf.GetTrimmed(Key("kerberos.principal")).value_or("");
    if (principal.empty()) {
      return Status::InvalidArgument(Key("kerberos.principal") +
                                     ": Principal not defined in configuration");
    }
    options.keytab = conf.GetTrimmed(Key("kerberos.keytab")).value_or("");
    if (options.keytab.empty()) {
      return Status::InvalidArgument(Key("kerberos.keytab") +
                                     ": Keytab not defined in configuration");
    }
    ASSIGN_OR_RETURN(options.principal, security::ServerPrincipal(principal, bind_host));
    options.name_rules = conf.Get(Key("kerberos.name.rules"));
    options.name_rules_mechanism = conf.GetTrimmed(Key("kerberos.name.rules.mechanism"));
  }
  return options;
}

}  // namespace spindle::web::auth
