#include "security/server_principal.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace spindle::security {
namespace {

// Java's String.split("[/@]"): every separator splits, trailing empty parts
// are dropped.
std::vector<std::string> SplitAtSlashOrAt(std::string_view text) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == '/' || c == '@') {
      parts.emplace_back();
    } else {
      parts.back().push_back(c);
    }
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

std::string ToLowerAscii(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

}  // namespace

Result<std::string> ServerPrincipal(std::string_view principal_config, std::string_view hostname,
                                    std::string_view local_host_name) {
  const std::vector<std::string> parts = SplitAtSlashOrAt(principal_config);
  if (parts.size() != 3 || parts[1] != kHostPlaceholder) return std::string(principal_config);
  std::string_view fqdn = hostname;
  if (fqdn.empty() || fqdn == "0.0.0.0") fqdn = local_host_name;
  if (fqdn.empty()) {
    return Status::InvalidArgument("cannot replace " + std::string(kHostPlaceholder) + " in " +
                                   std::string(principal_config) + ": no host name");
  }
  return parts[0] + "/" + ToLowerAscii(fqdn) + "@" + parts[2];
}

Result<std::string> ServerPrincipal(std::string_view principal_config, std::string_view hostname) {
  const std::vector<std::string> parts = SplitAtSlashOrAt(principal_config);
  const bool needs_local = parts.size() == 3 && parts[1] == kHostPlaceholder &&
                           (hostname.empty() || hostname == "0.0.0.0");
  if (!needs_local) return ServerPrincipal(principal_config, hostname, "");
  ASSIGN_OR_RETURN(const std::string local, CanonicalLocalHostName());
  return ServerPrincipal(principal_config, hostname, local);
}

Result<std::string> CanonicalLocalHostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) {
    return Status::IoError(std::string("gethostname: ") + std::strerror(errno));
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_flags = AI_CANONNAME;
  addrinfo* found = nullptr;
  if (getaddrinfo(name, nullptr, &hints, &found) != 0 || found == nullptr) return std::string(name);
  std::string canonical = found->ai_canonname != nullptr ? found->ai_canonname : name;
  freeaddrinfo(found);
  return canonical;
}

}  // namespace spindle::security
