#include "bench/wire/wire_options.h"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "rm/config/hadoop_line.h"

namespace spindle::bench::wire {

namespace {

// An address to connect to: port 0 is no port.
Result<HostPort> ParseHostPort(const std::string& text) {
  std::optional<HostPort> address = rm::ParseSocketAddress(text);
  if (!address.has_value() || address->port == 0) {
    return Status::InvalidArgument("--rm: '" + text + "' is not host:port");
  }
  return *std::move(address);
}

}  // namespace

Result<RmAddresses> ParseRmAddresses(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) parts.push_back(part);
  if (parts.size() == 1 && !parts[0].empty() && parts[0].find(':') == std::string::npos) {
    // A host alone: Hadoop's default ports.
    return RmAddresses{{parts[0], 8032}, {parts[0], 8030}, {parts[0], 8031}, {parts[0], 8088}};
  }
  if (parts.size() != 3 && parts.size() != 4) {
    return Status::InvalidArgument(
        "--rm takes client,scheduler,tracker[,web] addresses (host:port,host:port,host:port) or "
        "a host, not '" +
        text + "'");
  }
  RmAddresses rm;
  ASSIGN_OR_RETURN(rm.client, ParseHostPort(parts[0]));
  ASSIGN_OR_RETURN(rm.scheduler, ParseHostPort(parts[1]));
  ASSIGN_OR_RETURN(rm.tracker, ParseHostPort(parts[2]));
  if (parts.size() == 4) {
    ASSIGN_OR_RETURN(rm.web, ParseHostPort(parts[3]));
  }
  return rm;
}

Status WireOptions::Validate() const {
  const std::pair<const char*, int64_t> positive[] = {
      {"nodes", nodes},
      {"tracker-connections", tracker_connections},
      {"node-memory-mb", node_memory_mb},
      {"node-vcores", node_vcores},
      {"heartbeat-ms", heartbeat_ms},
      {"apps", apps},
      {"containers-per-app", containers_per_app},
      {"memory-mb", memory_mb},
      {"vcores", vcores},
      {"am-memory-mb", am_memory_mb},
      {"allocate-ms", allocate_ms},
      {"seconds", seconds},
      {"timeout", timeout_seconds},
  };
  for (const auto& [name, value] : positive) {
    if (value <= 0) {
      return Status::InvalidArgument(std::string("--") + name + " must be positive, not " +
                                     std::to_string(value));
    }
  }
  if (container_ms < 0) return Status::InvalidArgument("--container-ms must not be negative");
  if (warmup_seconds < 0 || warmup_seconds >= seconds) {
    return Status::InvalidArgument("--warmup-seconds must be at least 0 and below --seconds");
  }
  if (containers_per_app > (int64_t{1} << 30)) {
    return Status::InvalidArgument("--containers-per-app is too large for one ask");
  }
  if (nodes > 254 * 256 * 100) return Status::InvalidArgument("--nodes is too large");
  if (memory_mb > node_memory_mb || am_memory_mb > node_memory_mb || vcores > node_vcores) {
    return Status::InvalidArgument("a container (or the AM) does not fit on a node");
  }
  if (!rm::ParseHadoopLine(hadoop_line).has_value()) {
    return Status::InvalidArgument(
        "--hadoop-line must be 2.6, 2.7 or 3.3 (or a release of one), "
        "not '" +
        hadoop_line + "'");
  }
  if (rm_pid < 0) return Status::InvalidArgument("--rm-pid must not be negative");
  if (web_scrapers < 0 || web_scrapers > 256) {
    return Status::InvalidArgument("--web-scrapers must be between 0 and 256");
  }
  if (web_scrapers > 0 && rm.has_value() && rm->web.port == 0) {
    return Status::InvalidArgument("--web-scrapers needs the RM's web address: --rm's fourth");
  }
  if (kill_active_after_seconds < 0 || kill_active_after_seconds >= seconds) {
    return Status::InvalidArgument("--kill-active-after must be at least 0 and below --seconds");
  }
  if (ha() && kill_active_after_seconds <= warmup_seconds) {
    return Status::InvalidArgument(
        "--kill-active-after must be past --warmup-seconds (the rate before the kill is measured "
        "from the warm-up's end)");
  }
  if (ha() && rm.has_value()) {
    return Status::InvalidArgument("--kill-active-after starts its own RM pair; not with --rm");
  }
  if (ha() && unmanaged) {
    return Status::InvalidArgument("--kill-active-after runs managed AMs only; not --unmanaged");
  }
  if (zk_timeout_ms <= 0) return Status::InvalidArgument("--zk-timeout-ms must be positive");
  return Status::OK();
}

}  // namespace spindle::bench::wire
