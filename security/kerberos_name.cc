#include "security/kerberos_name.h"

namespace spindle::security {
namespace {

bool IsNamePart(std::string_view part) {
  return !part.empty() && part.find_first_of("/@") == std::string_view::npos;
}

}  // namespace

Result<KerberosName> KerberosName::Parse(std::string_view name) {
  // Java's pattern ([^/@]+)(/([^/@]+))?(@([^/@]+))? must match the whole name.
  std::string_view rest = name;
  std::optional<std::string_view> realm;
  if (size_t at = rest.find('@'); at != std::string_view::npos) {
    realm = rest.substr(at + 1);
    rest = rest.substr(0, at);
  }
  std::optional<std::string_view> host;
  if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
    host = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  const bool matches = IsNamePart(rest) && (!host.has_value() || IsNamePart(*host)) &&
                       (!realm.has_value() || IsNamePart(*realm));
  if (!matches) {
    if (name.find('@') != std::string_view::npos) {
      return Status::InvalidArgument("Malformed Kerberos name: " + std::string(name));
    }
    return KerberosName{std::string(name), std::nullopt, std::nullopt};
  }
  KerberosName parsed{std::string(rest), std::nullopt, std::nullopt};
  if (host.has_value()) parsed.host = std::string(*host);
  if (realm.has_value()) parsed.realm = std::string(*realm);
  return parsed;
}

std::string KerberosName::ToString() const {
  std::string text = service;
  if (host.has_value()) text += "/" + *host;
  if (realm.has_value()) text += "@" + *realm;
  return text;
}

}  // namespace spindle::security
