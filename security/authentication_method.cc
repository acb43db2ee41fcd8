#include "security/authentication_method.h"

#include <algorithm>
#include <array>
#include <string>

namespace spindle::security {

Result<AuthenticationMethod> ParseAuthenticationMethod(std::string_view value) {
  // Java upper-cases with StringUtils.toUpperCase (Locale.ENGLISH) and looks
  // the result up with Enum.valueOf: no trimming.
  std::string upper(value);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  });
  if (upper == "SIMPLE") return AuthenticationMethod::kSimple;
  if (upper == "KERBEROS") return AuthenticationMethod::kKerberos;
  static constexpr std::array<std::string_view, 4> kOtherJavaNames = {"TOKEN", "CERTIFICATE",
                                                                      "KERBEROS_SSL", "PROXY"};
  if (std::find(kOtherJavaNames.begin(), kOtherJavaNames.end(), upper) != kOtherJavaNames.end()) {
    return Status::NotSupported(std::string(kAuthenticationKey) + " of " + std::string(value) +
                                " is not supported by Spindle (simple or kerberos)");
  }
  return Status::InvalidArgument("Invalid attribute value for " + std::string(kAuthenticationKey) +
                                 " of " + std::string(value));
}

Result<AuthenticationMethod> AuthenticationMethodFromConfiguration(const rm::Configuration& conf) {
  return ParseAuthenticationMethod(conf.Get(kAuthenticationKey, "simple"));
}

}  // namespace spindle::security
