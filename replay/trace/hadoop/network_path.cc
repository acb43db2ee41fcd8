#include "replay/trace/hadoop/network_path.h"

namespace spindle::replay::hadoop {

Result<NetworkPath> SplitNetworkPath(std::string_view path) {
  const size_t slash = path.rfind('/');
  NetworkPath out;
  if (slash == std::string_view::npos) {
    out.host = std::string(path);
    out.rack = kDefaultRack;
  } else {
    out.host = std::string(path.substr(slash + 1));
    out.rack = slash == 0 ? std::string(kDefaultRack) : std::string(path.substr(0, slash));
  }
  if (out.host.empty()) {
    return Status::InvalidArgument("host path '" + std::string(path) + "' has no host name");
  }
  if (out.rack.front() != '/' || out.rack.find("//") != std::string::npos) {
    return Status::InvalidArgument("host path '" + std::string(path) + "' has a malformed rack");
  }
  return out;
}

std::string RootedRack(std::string_view rack) {
  if (!rack.empty() && rack.front() == '/') return std::string(rack);
  return "/" + std::string(rack);
}

}  // namespace spindle::replay::hadoop
