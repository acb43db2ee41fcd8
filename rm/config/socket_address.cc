#include "rm/config/socket_address.h"

#include <charconv>

namespace spindle::rm {

std::optional<SocketAddress> ParseSocketAddress(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view digits = text.substr(colon + 1);
  int port = -1;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || port < 0 ||
      port > 65535) {
    return std::nullopt;
  }
  return SocketAddress{std::string(text.substr(0, colon)), static_cast<uint16_t>(port)};
}

}  // namespace spindle::rm
