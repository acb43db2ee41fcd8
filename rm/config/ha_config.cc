#include "rm/config/ha_config.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstring>
#include <set>

#include "rm/config/hadoop_line.h"
#include "rm/config/socket_address.h"

namespace spindle::rm {
namespace {

constexpr char kHaEnabled[] = "yarn.resourcemanager.ha.enabled";
constexpr char kRmIds[] = "yarn.resourcemanager.ha.rm-ids";
constexpr char kRmId[] = "yarn.resourcemanager.ha.id";
constexpr char kAutomatic[] = "yarn.resourcemanager.ha.automatic-failover.enabled";
constexpr char kEmbedded[] = "yarn.resourcemanager.ha.automatic-failover.embedded";
constexpr char kCurator[] = "yarn.resourcemanager.ha.curator-leader-elector.enabled";
constexpr char kZkBasePath[] = "yarn.resourcemanager.ha.automatic-failover.zk-base-path";
constexpr char kClusterId[] = "yarn.resourcemanager.cluster-id";
constexpr char kHostname[] = "yarn.resourcemanager.hostname";
constexpr char kClientAddress[] = "yarn.resourcemanager.address";

Status BadConfiguration(const std::string& message) {
  return Status::InvalidArgument("Invalid configuration! " + message);
}

HadoopLine LineOf(const Configuration& conf) {
  const Result<HadoopLine> line = HadoopLineOf(conf);
  return line.ok() ? *line : kDefaultHadoopLine;
}

// 2.6 and 2.7 say "a HA configuration", 3.3 "an HA configuration".
std::string InHaConfiguration(const Configuration& conf) {
  return LineOf(conf) == HadoopLine::k3_3 ? " in an HA configuration." : " in a HA configuration.";
}

std::string WithId(const std::string& key, const std::string& rm_id) { return key + "." + rm_id; }

bool IsLocalSockaddr(const sockaddr* address, const std::set<std::string>& interfaces) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address->sa_family == AF_INET) {
    const in_addr ip = reinterpret_cast<const sockaddr_in*>(address)->sin_addr;
    const uint32_t host_order = ntohl(ip.s_addr);
    if (host_order == INADDR_ANY || (host_order >> 24) == 127) return true;
    inet_ntop(AF_INET, &ip, text, sizeof text);
  } else if (address->sa_family == AF_INET6) {
    const in6_addr ip = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
    if (IN6_IS_ADDR_UNSPECIFIED(&ip) || IN6_IS_ADDR_LOOPBACK(&ip)) return true;
    inet_ntop(AF_INET6, &ip, text, sizeof text);
  } else {
    return false;
  }
  return interfaces.count(text) != 0;
}

std::set<std::string> InterfaceAddresses() {
  std::set<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (const ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
    if (it->ifa_addr == nullptr) continue;
    char text[INET6_ADDRSTRLEN] = {};
    if (it->ifa_addr->sa_family == AF_INET) {
      inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(it->ifa_addr)->sin_addr, text,
                sizeof text);
    } else if (it->ifa_addr->sa_family == AF_INET6) {
      inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(it->ifa_addr)->sin6_addr, text,
                sizeof text);
    } else {
      continue;
    }
    out.insert(text);
  }
  freeifaddrs(list);
  return out;
}

// Hadoop's getRMHAId: yarn.resourcemanager.ha.id, or the one rm-id whose
// client address is local (an address that does not parse or resolve is
// skipped). Empty if none; InvalidArgument if several match.
Result<std::string> FindRmId(const Configuration& conf, const std::vector<std::string>& ids,
                             const LocalHostPredicate& is_local) {
  if (auto id = conf.GetTrimmed(kRmId); id.has_value()) return *id;
  std::string found;
  int matches = 0;
  for (const std::string& id : ids) {
    // Hadoop has filled <address>.<id> from hostname.<id> by now
    // (verifyAndSetRMHAIdsList runs first); so does RmAddressOf.
    const Result<std::string> address = RmAddressOf(conf, kClientAddress, id);
    if (!address.ok()) continue;
    const auto parsed = ParseSocketAddress(*address);
    if (!parsed.has_value()) continue;
    if (is_local(parsed->host)) {
      found = id;
      ++matches;
    }
  }
  if (matches > 1) {
    // HadoopIllegalArgumentException in Hadoop: no "Invalid configuration!".
    return Status::InvalidArgument(
        "The HA Configuration has multiple addresses that match local node's address.");
  }
  return found;
}

std::string JavaListOf(const std::vector<std::string>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "" : ", ") + ids[i];
  return out + "]";
}

}  // namespace

bool IsLocalHost(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* resolved = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &resolved) != 0) return false;
  const std::set<std::string> interfaces = InterfaceAddresses();
  // Java resolves a name to its first address; so does this.
  const bool local = resolved != nullptr && IsLocalSockaddr(resolved->ai_addr, interfaces);
  freeaddrinfo(resolved);
  return local;
}

std::vector<std::string> RmServiceAddressKeys() {
  return {kClientAddress, "yarn.resourcemanager.scheduler.address",
          "yarn.resourcemanager.admin.address", "yarn.resourcemanager.resource-tracker.address",
          "yarn.resourcemanager.webapp.address"};
}

int RmDefaultPort(const std::string& key) {
  if (key == kClientAddress) return 8032;
  if (key == "yarn.resourcemanager.scheduler.address") return 8030;
  if (key == "yarn.resourcemanager.resource-tracker.address") return 8031;
  if (key == "yarn.resourcemanager.admin.address") return 8033;
  if (key == "yarn.resourcemanager.webapp.address") return 8088;
  return 0;
}

Result<std::string> RmAddressOf(const Configuration& conf, const std::string& key,
                                const std::string& rm_id) {
  if (auto address = conf.GetTrimmed(WithId(key, rm_id)); address.has_value()) return *address;
  const std::string hostname_key = WithId(kHostname, rm_id);
  const auto hostname = conf.GetTrimmed(hostname_key);
  if (!hostname.has_value()) {
    return BadConfiguration(hostname_key + " or " + WithId(key, rm_id) + " needs to be set" +
                            InHaConfiguration(conf));
  }
  return *hostname + ":" + std::to_string(RmDefaultPort(key));
}

Result<HaConfig> HaConfig::FromConfiguration(const Configuration& conf,
                                             const LocalHostPredicate& is_local) {
  HaConfig ha;
  ASSIGN_OR_RETURN(ha.enabled, conf.GetBool(kHaEnabled, false));
  if (!ha.enabled) return ha;

  ha.rm_ids = conf.GetTrimmedStrings(kRmIds);
  if (ha.rm_ids.size() < 2) {
    return BadConfiguration(std::string("Invalid value of ") + kRmIds + ". Current value is " +
                            conf.Get(kRmIds).value_or("null") +
                            "\nHA mode requires atleast two RMs");
  }
  for (const std::string& id : ha.rm_ids) {
    for (const std::string& key : RmServiceAddressKeys()) {
      RETURN_NOT_OK(RmAddressOf(conf, key, id).status());
    }
  }

  ASSIGN_OR_RETURN(ha.rm_id, FindRmId(conf, ha.rm_ids, is_local));
  if (ha.rm_id.empty()) {
    std::string message = "Can not find valid RM_HA_ID. None of ";
    for (const std::string& id : ha.rm_ids) message += WithId(kClientAddress, id) + " ";
    message += std::string(" are matching the local address OR ") + kRmId +
               " is not specified in HA Configuration";
    return BadConfiguration(message);
  }
  bool listed = false;
  for (const std::string& id : ha.rm_ids) listed = listed || id == ha.rm_id;
  if (!listed) {
    return BadConfiguration(std::string(kRmIds) + "(" + JavaListOf(ha.rm_ids) +
                            ") need to contain " + kRmId + "(" + ha.rm_id + ")" +
                            InHaConfiguration(conf));
  }

  ASSIGN_OR_RETURN(ha.automatic_failover, conf.GetBool(kAutomatic, true));
  ASSIGN_OR_RETURN(ha.embedded_elector, conf.GetBool(kEmbedded, true));
  ASSIGN_OR_RETURN(const bool curator, conf.GetBool(kCurator, false));
  if (curator) {
    // 3.3's Curator LeaderLatch keeps other znodes than ActiveStandbyElector:
    // an RM electing by it would not see Spindle's lock, nor Spindle its.
    return Status::InvalidArgument(
        std::string(kCurator) +
        " is true: Spindle elects the active RM as ActiveStandbyElector does (the embedded "
        "elector, " +
        kEmbedded + "); the Curator leader latch is not implemented");
  }
  // 3.3 checks that some elector runs (HAUtil.verifyLeaderElection); 2.6
  // and 2.7 do not.
  if (ha.automatic_failover && !ha.embedded_elector && LineOf(conf) == HadoopLine::k3_3) {
    return BadConfiguration(std::string("The ") + kEmbedded + " and " + kCurator +
                            " properties are both false. One of these two properties must be true "
                            "when " +
                            kAutomatic + " is true");
  }
  ha.cluster_id = conf.GetTrimmed(kClusterId).value_or("");
  if (ha.runs_elector() && ha.cluster_id.empty()) {
    // HadoopIllegalArgumentException in Hadoop (YarnConfiguration.getClusterId).
    return Status::InvalidArgument(std::string("Configuration doesn't specify ") + kClusterId);
  }
  ha.zk_base_path = conf.GetTrimmed(kZkBasePath).value_or(ha.zk_base_path);
  return ha;
}

Result<Configuration> ConfigurationForThisRm(const Configuration& conf, const HaConfig& ha) {
  if (!ha.enabled) return conf;
  Configuration out = conf;
  for (const std::string& key : RmServiceAddressKeys()) {
    ASSIGN_OR_RETURN(std::string address, RmAddressOf(conf, key, ha.rm_id));
    out.Set(key, address);
  }
  out.Set(kRmId, ha.rm_id);
  return out;
}

}  // namespace spindle::rm
