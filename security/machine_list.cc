#include "security/machine_list.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <optional>

#include "base/strings/trim.h"

namespace spindle::security {

namespace {

std::optional<uint32_t> ParseIpv4(const std::string& text) {
  in_addr addr{};
  if (inet_pton(AF_INET, text.c_str(), &addr) != 1) return std::nullopt;
  return ntohl(addr.s_addr);
}

bool IsIpLiteral(const std::string& text) {
  in6_addr addr6{};
  return ParseIpv4(text).has_value() || inet_pton(AF_INET6, text.c_str(), &addr6) == 1;
}

// The canonical text of an address literal, so "::0001" matches "::1".
std::string Canonical(const std::string& ip) {
  char buffer[INET6_ADDRSTRLEN] = {};
  in_addr addr4{};
  if (inet_pton(AF_INET, ip.c_str(), &addr4) == 1) {
    return inet_ntop(AF_INET, &addr4, buffer, sizeof buffer) ? buffer : ip;
  }
  in6_addr addr6{};
  if (inet_pton(AF_INET6, ip.c_str(), &addr6) == 1) {
    return inet_ntop(AF_INET6, &addr6, buffer, sizeof buffer) ? buffer : ip;
  }
  return ip;
}

}  // namespace

std::vector<std::string> MachineList::SystemResolve(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::vector<std::string> out;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return out;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    char buffer[INET6_ADDRSTRLEN] = {};
    const void* raw =
        a->ai_family == AF_INET
            ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr)
            : static_cast<const void*>(
                  &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr);
    if (inet_ntop(a->ai_family, raw, buffer, sizeof buffer) != nullptr) out.emplace_back(buffer);
  }
  freeaddrinfo(found);
  return out;
}

MachineList MachineList::Parse(std::string_view list, Resolver resolver) {
  MachineList out;
  std::vector<std::string> entries;
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view entry = TrimBlanks(list.substr(0, comma));
    if (!entry.empty()) entries.emplace_back(entry);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  // Java: the wildcard counts only as the whole list ("*" alone).
  if (entries.size() == 1 && entries[0] == "*") {
    out.all_ = true;
    return out;
  }
  for (const std::string& entry : entries) {
    const size_t slash = entry.find('/');
    if (slash != std::string::npos) {
      // SubnetUtils: "a.b.c.d/n" with 0 <= n <= 32; anything else is
      // refused by Java's constructor (IllegalArgumentException), which we
      // read as matching nothing rather than failing the whole list.
      const std::optional<uint32_t> base = ParseIpv4(entry.substr(0, slash));
      const std::string bits_text = entry.substr(slash + 1);
      if (!base.has_value() || bits_text.empty() || bits_text.size() > 2 ||
          bits_text.find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      const int bits = std::stoi(bits_text);
      if (bits > 32) continue;
      const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
      out.ranges_.push_back({*base & mask, mask});
    } else if (IsIpLiteral(entry)) {
      out.addresses_.insert(Canonical(entry));
    } else {
      for (const std::string& ip : resolver(entry)) out.addresses_.insert(Canonical(ip));
    }
  }
  return out;
}

bool MachineList::Includes(std::string_view ip) const {
  if (all_) return true;
  const std::string text(ip);
  if (addresses_.count(Canonical(text)) != 0) return true;
  const std::optional<uint32_t> v4 = ParseIpv4(text);
  if (!v4.has_value()) return false;
  for (const Cidr& range : ranges_) {
    if ((*v4 & range.mask) == range.network) return true;
  }
  return false;
}

}  // namespace spindle::security
