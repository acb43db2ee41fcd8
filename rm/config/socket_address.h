// SocketAddress: a "host:port" value as Hadoop's configuration holds it
// (yarn.resourcemanager.address, yarn.nodemanager.webapp.address ...), read
// as NetUtils.createSocketAddr reads it: the port is what follows the last
// ':' and must be a decimal number in 0..65535; the host is what precedes it
// and must not be empty. Port 0 means "pick one at bind time".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spindle::rm {

struct SocketAddress {
  std::string host;
  uint16_t port = 0;

  std::string ToString() const { return host + ":" + std::to_string(port); }
};

// nullopt if `text` is not host:port.
std::optional<SocketAddress> ParseSocketAddress(std::string_view text);

}  // namespace spindle::rm
