// MachineList: a host list as Hadoop's org.apache.hadoop.util.MachineList
// reads it (hadoop.proxyuser.<u>.hosts, and the <acl>.hosts lists of service
// authorization in 2.7+): comma-separated entries, trimmed, empty ones
// dropped; "*" alone allows every address; otherwise each entry is an IP
// address, a CIDR range "a.b.c.d/n" (IPv4, as Java's SubnetUtils) or a host
// name.
//
// One difference from Java, on purpose: Java resolves the *caller's* address
// back to a name at every check (a reverse DNS look-up per connection); here
// host names are resolved forward once, when the list is built (at start and
// at each refresh), and the caller's IP is compared with their addresses, so
// that no check blocks the I/O thread on DNS. A name that does not resolve
// matches nothing, as in Java.
//
// Thread-safety: a value; const methods may be called from any thread.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::security {

class MachineList {
 public:
  // How host names become addresses; the default asks the system resolver
  // (getaddrinfo). Tests pass a table.
  using Resolver = std::vector<std::string> (*)(const std::string& host);
  static std::vector<std::string> SystemResolve(const std::string& host);

  // Allows nobody (Java's MachineList("")).
  MachineList() = default;
  static MachineList Parse(std::string_view list, Resolver resolver = &SystemResolve);

  // True if `ip` (a literal IPv4 or IPv6 address) is in the list.
  bool Includes(std::string_view ip) const;
  bool allows_all() const { return all_; }

 private:
  struct Cidr {
    uint32_t network = 0;
    uint32_t mask = 0;
  };
  bool all_ = false;
  std::set<std::string> addresses_;  // literal entries and resolved names
  std::vector<Cidr> ranges_;
};

}  // namespace spindle::security
