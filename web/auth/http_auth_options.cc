#include "web/auth/http_auth_options.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "base/strings/trim.h"
#include "security/server_principal.h"

namespace spindle::web::auth {
namespace {

// Whole keys, so that rm/config's catalogue test finds each one read.
constexpr char kInitializersKey[] = "hadoop.http.filter.initializers";
constexpr char kTypeKey[] = "hadoop.http.authentication.type";
constexpr char kAnonymousKey[] = "hadoop.http.authentication.simple.anonymous.allowed";
constexpr char kPrincipalKey[] = "hadoop.http.authentication.kerberos.principal";
constexpr char kKeytabKey[] = "hadoop.http.authentication.kerberos.keytab";
constexpr char kNameRulesKey[] = "hadoop.http.authentication.kerberos.name.rules";
constexpr char kNameRulesMechanismKey[] =
    "hadoop.http.authentication.kerberos.name.rules.mechanism";
constexpr char kWhitelistKey[] = "hadoop.http.authentication.kerberos.endpoint.whitelist";
constexpr char kValidityKey[] = "hadoop.http.authentication.token.validity";
constexpr char kMaxInactiveKey[] = "hadoop.http.authentication.token.max-inactive-interval";
constexpr char kProviderKey[] = "hadoop.http.authentication.signer.secret.provider";
constexpr char kSecretFileKey[] = "hadoop.http.authentication.signature.secret.file";
constexpr char kCookieDomainKey[] = "hadoop.http.authentication.cookie.domain";
constexpr char kCookiePathKey[] = "hadoop.http.authentication.cookie.path";
constexpr char kCookiePersistentKey[] = "hadoop.http.authentication.cookie.persistent";
constexpr char kRmFilterKey[] = "yarn.resourcemanager.webapp.delegation-token-auth-filter.enabled";

// core-default.xml's values (the same in 2.6, 2.7 and 3.3).
constexpr char kDefaultPrincipal[] = "HTTP/_HOST@LOCALHOST";
constexpr char kDefaultKeytab[] = "${user.home}/hadoop.keytab";
constexpr char kDefaultSecretFile[] = "${user.home}/hadoop-http-auth-signature-secret";

Result<int64_t> Seconds(const rm::Configuration& conf, const char* key, int64_t fallback) {
  Result<int64_t> value = conf.GetInt(key, fallback);
  if (!value.ok()) return value.status().WithContext(key);
  return value;
}

// The value as set (trimmed; "" when set empty), else core-default's.
Result<std::string> WithDefault(const rm::Configuration& conf, const char* key,
                                const char* fallback) {
  if (!conf.IsSet(key)) return conf.Substitute(fallback);
  std::optional<std::string> value = conf.Get(key);
  if (!value.has_value()) return std::string();
  return std::string(TrimBlanks(*value));
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
  std::string type = conf.GetTrimmed(kTypeKey).value_or("simple");
  const bool secure = method == security::AuthenticationMethod::kKerberos;
  const auto has = [&](const char* name) {
    return std::find(initializers.begin(), initializers.end(), name) != initializers.end();
  };
  Result<bool> rm_filter_enabled = conf.GetBool(kRmFilterKey, true);
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
    return Status::InvalidArgument(std::string(kTypeKey) +
                                   ": Spindle's web authenticates with simple or kerberos, not " +
                                   type);
  }
  Result<bool> anonymous = conf.GetBool(kAnonymousKey, true);
  if (!anonymous.ok()) return anonymous.status();
  options.anonymous_allowed = *anonymous;
  ASSIGN_OR_RETURN(options.validity_seconds, Seconds(conf, kValidityKey, 36000));
  ASSIGN_OR_RETURN(options.max_inactive_seconds, Seconds(conf, kMaxInactiveKey, -1));
  if (options.validity_seconds <= 0) {
    return Status::InvalidArgument(std::string(kValidityKey) + " must be positive");
  }
  const std::string provider = conf.GetTrimmed(kProviderKey).value_or("file");
  if (provider == "file") {
    ASSIGN_OR_RETURN(const std::string file, WithDefault(conf, kSecretFileKey, kDefaultSecretFile));
    if (!file.empty()) options.secret_file = file;
  } else if (provider != "random") {
    return Status::InvalidArgument(std::string(kProviderKey) +
                                   ": Spindle signs cookies with a file or random secret, not " +
                                   provider);
  }
  options.cookie_domain = conf.GetTrimmed(kCookieDomainKey);
  if (std::optional<std::string> path = conf.GetTrimmed(kCookiePathKey)) {
    options.cookie_path = std::move(path);
  }
  Result<bool> persistent = conf.GetBool(kCookiePersistentKey, false);
  if (!persistent.ok()) return persistent.status();
  options.cookie_persistent = *persistent;
  if (options.type == AuthType::kKerberos) {
    ASSIGN_OR_RETURN(const std::string principal,
                     WithDefault(conf, kPrincipalKey, kDefaultPrincipal));
    if (principal.empty()) {
      return Status::InvalidArgument(std::string(kPrincipalKey) +
                                     ": Principal not defined in configuration");
    }
    ASSIGN_OR_RETURN(options.keytab, WithDefault(conf, kKeytabKey, kDefaultKeytab));
    if (options.keytab.empty()) {
      return Status::InvalidArgument(std::string(kKeytabKey) +
                                     ": Keytab not defined in configuration");
    }
    ASSIGN_OR_RETURN(options.principal, security::ServerPrincipal(principal, bind_host));
    options.name_rules = conf.Get(kNameRulesKey);
    // KerberosAuthenticationHandler: "/name" entries, split at commas and
    // new lines.
    std::vector<std::string> endpoints;
    std::string entry;
    for (const char c : conf.Get(kWhitelistKey).value_or("") + ",") {
      if (c != ',' && c != '\n') {
        entry += c;
        continue;
      }
      const size_t begin = entry.find_first_not_of(" \t\r");
      if (begin != std::string::npos) {
        endpoints.push_back(entry.substr(begin, entry.find_last_not_of(" \t\r") - begin + 1));
      }
      entry.clear();
    }
    for (const std::string& endpoint : endpoints) {
      const bool valid = endpoint.size() > 1 && endpoint[0] == '/' &&
                         std::all_of(endpoint.begin() + 1, endpoint.end(), [](unsigned char c) {
                           return std::isalnum(c) != 0 || c == '_';
                         });
      if (!valid) {
        return Status::InvalidArgument(std::string(kWhitelistKey) +
                                       ": The element of the whitelist: " + endpoint +
                                       " must start with '/' and must not contain special "
                                       "characters afterwards");
      }
      options.endpoint_whitelist.push_back(endpoint);
    }
    options.name_rules_mechanism = conf.GetTrimmed(kNameRulesMechanismKey);
  }
  return options;
}

}  // namespace spindle::web::auth
