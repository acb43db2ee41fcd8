#include "wire/ipc/sasl_qop.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "base/strings/trim.h"

namespace spindle::ipc {

std::string_view SaslQopName(SaslQop qop) {
  switch (qop) {
    case SaslQop::kAuth:
      return "auth";
    case SaslQop::kAuthInt:
      return "auth-int";
    case SaslQop::kAuthConf:
      return "auth-conf";
  }
  return "auth";
}

std::optional<SaslQop> SaslQopFromName(std::string_view name) {
  for (SaslQop qop : {SaslQop::kAuth, SaslQop::kAuthInt, SaslQop::kAuthConf}) {
    if (SaslQopName(qop) == name) return qop;
  }
  return std::nullopt;
}

Result<SaslQops> ParseRpcProtection(std::string_view value) {
  SaslQops out;
  while (true) {
    const size_t comma = value.find(',');
    const std::string word(TrimBlanks(value.substr(0, comma)));
    // Configuration.getTrimmedStrings drops empty entries.
    if (!word.empty()) {
      std::string upper = word;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      SaslQop qop;
      if (upper == "AUTHENTICATION") {
        qop = SaslQop::kAuth;
      } else if (upper == "INTEGRITY") {
        qop = SaslQop::kAuthInt;
      } else if (upper == "PRIVACY") {
        qop = SaslQop::kAuthConf;
      } else {
        return Status::InvalidArgument(
            "hadoop.rpc.protection: No enum constant "
            "org.apache.hadoop.security.SaslRpcServer.QualityOfProtection." +
            upper);
      }
      if (std::find(out.begin(), out.end(), qop) == out.end()) out.push_back(qop);
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  if (out.empty()) out.push_back(SaslQop::kAuth);
  return out;
}

std::optional<SaslQop> FirstCommonQop(const SaslQops& preferred, const SaslQops& offered) {
  for (SaslQop qop : preferred) {
    if (std::find(offered.begin(), offered.end(), qop) != offered.end()) return qop;
  }
  return std::nullopt;
}

}  // namespace spindle::ipc
