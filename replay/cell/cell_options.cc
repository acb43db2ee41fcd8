#include "replay/cell/cell_options.h"

#include <cmath>
#include <set>
#include <sstream>
#include <vector>

#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "rm/config/hadoop_line.h"

namespace spindle::replay {

Result<ExternalRm> ParseExternalRm(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  if (parts.size() == 1 && !parts[0].empty() && parts[0].find(':') == std::string::npos) {
    return ExternalRm{{parts[0], 8032}, {parts[0], 8030}, {parts[0], 8031}, ""};
  }
  if (parts.size() != 3) {
    return Status::InvalidArgument(
        "--rm takes client,scheduler,tracker addresses (host:port each) or a host, not '" + text +
        "'");
  }
  rm::SocketAddress a[3];
  for (size_t i = 0; i < 3; ++i) {
    std::optional<rm::SocketAddress> one = rm::ParseSocketAddress(parts[i]);
    if (!one.has_value() || one->port == 0) {
      return Status::InvalidArgument("--rm: '" + parts[i] + "' is not host:port");
    }
    a[i] = *std::move(one);
  }
  return ExternalRm{a[0], a[1], a[2], ""};
}

std::string ExternalRm::ToString() const {
  return (rm_id.empty() ? "" : rm_id + " ") + client.ToString() + "," + scheduler.ToString() + "," +
         tracker.ToString();
}

namespace {

// `text` cut at every `sep`, empty pieces kept ("a;" is "a" and "").
std::vector<std::string> SplitKeepingEmpty(const std::string& text, char sep) {
  std::vector<std::string> pieces(1);
  for (const char c : text) {
    if (c == sep) {
      pieces.emplace_back();
    } else {
      pieces.back() += c;
    }
  }
  return pieces;
}

}  // namespace

Result<std::vector<ExternalRm>> ParseExternalRms(const std::string& text) {
  std::vector<std::string> groups;
  if (text.find(';') != std::string::npos) {
    groups = SplitKeepingEmpty(text, ';');
  } else if (text.find(':') == std::string::npos && text.find(',') != std::string::npos) {
    // Hosts only: one RM each, on Hadoop's default ports.
    groups = SplitKeepingEmpty(text, ',');
  } else {
    groups.push_back(text);
  }
  std::vector<ExternalRm> rms;
  for (const std::string& group : groups) {
    if (group.empty()) {
      return Status::InvalidArgument("--rm: an empty RM in '" + text + "'");
    }
    ASSIGN_OR_RETURN(ExternalRm rm, ParseExternalRm(group));
    if (groups.size() > 1) rm.rm_id = "rm" + std::to_string(rms.size() + 1);
    rms.push_back(std::move(rm));
  }
  return rms;
}

Result<ExternalRmSet> ExternalRmsFromConfiguration(const rm::Configuration& conf) {
  using am_protocol::RmProxyTarget;
  ASSIGN_OR_RETURN(const std::vector<RmProxyTarget> clients,
                   am_protocol::RmProxyTargets(conf, "yarn.resourcemanager.address"));
  ASSIGN_OR_RETURN(const std::vector<RmProxyTarget> schedulers,
                   am_protocol::RmProxyTargets(conf, "yarn.resourcemanager.scheduler.address"));
  ASSIGN_OR_RETURN(
      const std::vector<RmProxyTarget> trackers,
      am_protocol::RmProxyTargets(conf, "yarn.resourcemanager.resource-tracker.address"));
  ExternalRmSet set;
  const bool ha = !clients.front().rm_id.empty();
  ASSIGN_OR_RETURN(set.policy, am_protocol::RmRetryPolicy::FromConfiguration(conf, ha));
  for (size_t i = 0; i < clients.size(); ++i) {
    ExternalRm rm;
    rm.rm_id = clients[i].rm_id;
    rm.client = {clients[i].host, clients[i].port};
    rm.scheduler = {schedulers[i].host, schedulers[i].port};
    rm.tracker = {trackers[i].host, trackers[i].port};
    for (const rm::SocketAddress* a : {&rm.client, &rm.scheduler, &rm.tracker}) {
      if (a->port == 0 || a->host == "0.0.0.0") {
        return Status::InvalidArgument("the RM" + (rm.rm_id.empty() ? "" : " " + rm.rm_id) +
                                       "'s address " + a->ToString() +
                                       " is not one a client can reach");
      }
    }
    set.rms.push_back(std::move(rm));
  }
  return set;
}

Status CellOptions::Validate() const {
  auto bad = [](const std::string& what) {
    return Status::InvalidArgument("staging cell: " + what);
  };
  if (!rm::ParseHadoopLine(hadoop_line).has_value()) {
    return bad("hadoop_line must be 2.6, 2.7 or 3.3 (or a release of one), not '" + hadoop_line +
               "'");
  }
  if (spindle_binary.empty()) return bad("spindle_binary is required");
  if (work_dir.empty()) return bad("work_dir is required");
  if (external_rms.size() > 1) {
    std::set<std::string> ids;
    for (const ExternalRm& rm : external_rms) {
      if (rm.rm_id.empty() || !ids.insert(rm.rm_id).second) {
        return bad("the external RMs of an HA pair need distinct rm-ids");
      }
    }
  }
  if (nodes.empty()) return bad("no nodes");
  std::set<std::string> hosts;
  for (const TraceNode& n : nodes) {
    if (n.host.empty()) return bad("a node has no host name");
    if (!hosts.insert(n.host).second) return bad("node " + n.host + " is listed twice");
    if (n.memory_mb <= 0 || n.vcores <= 0) return bad("node " + n.host + " has no resources");
    if (n.rack.empty() || n.rack[0] != '/') {
      return bad("node " + n.host + ": rack '" + n.rack + "' does not start with '/'");
    }
  }
  if (!(speed > 0) || !std::isfinite(speed)) return bad("speed must be positive");
  if (nm_processes < 1) return bad("nm_processes must be at least 1");
  if (heartbeat_interval.count() <= 0) return bad("heartbeat_interval must be positive");
  if (queue_sample_interval.count() <= 0) return bad("queue_sample_interval must be positive");
  if (start_timeout.count() <= 0 || run_timeout.count() <= 0) {
    return bad("timeouts must be positive");
  }
  double sum = 0;
  std::set<std::string> names;
  for (const CellQueue& q : queues) {
    if (q.name.empty() || q.name.find('.') != std::string::npos) {
      return bad("queue name '" + q.name + "' must be non-empty without '.'");
    }
    if (!names.insert(q.name).second) return bad("queue " + q.name + " is listed twice");
    if (q.capacity < 0 || q.capacity > 100 || q.maximum_capacity <= 0 || q.maximum_capacity > 100 ||
        q.maximum_capacity < q.capacity) {
      return bad("queue " + q.name + ": capacity and maximum-capacity must be within [0, 100]");
    }
    sum += q.capacity;
  }
  if (sum > 100.0001) return bad("queue capacities sum to more than 100");
  return Status::OK();
}

}  // namespace spindle::replay
