#include "replay/cell/cell_config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/markup_escape.h"
#include "replay/report/svg_chart.h"
#include "replay/report/write_file.h"
#include "rm/config/hadoop_line.h"

namespace spindle::replay {
namespace {

// A percentage as Hadoop reads it back exactly enough (3 decimals).
std::string Percent(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3f", value);
  return buffer;
}

}  // namespace

std::vector<std::vector<TraceNode>> SplitNodes(const std::vector<TraceNode>& nodes, int parts) {
  const size_t n = nodes.size();
  const size_t k = std::min(n, static_cast<size_t>(std::max(parts, 1)));
  std::vector<std::vector<TraceNode>> out;
  size_t next = 0;
  for (size_t i = 0; i < k; ++i) {
    const size_t size = n / k + (i < n % k ? 1 : 0);
    out.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(next),
                     nodes.begin() + static_cast<std::ptrdiff_t>(next + size));
    next += size;
  }
  return out;
}

std::vector<CellQueue> ResolveQueues(const std::vector<CellQueue>& queues) {
  if (queues.empty()) return {CellQueue{"default", 100, 100}};
  std::vector<CellQueue> out = queues;
  double given = 0;
  int unset = 0;
  for (const CellQueue& q : out) {
    given += q.capacity;
    if (q.capacity == 0) ++unset;
  }
  if (unset > 0) {
    // Rounded to what the XML carries; the last unset queue takes the
    // remainder so that the sum is 100 as the RM requires.
    const double left = std::max(0.0, 100 - given);
    const double each = std::floor(left / unset * 1000) / 1000;
    int seen = 0;
    for (CellQueue& q : out) {
      if (q.capacity != 0) continue;
      ++seen;
      q.capacity = seen == unset ? left - each * (unset - 1) : each;
    }
  }
  for (CellQueue& q : out) q.maximum_capacity = std::max(q.maximum_capacity, q.capacity);
  return out;
}

std::string SiteXml(const std::map<std::string, std::string>& properties) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [name, value] : properties) {
    out << "  <property><name>" << EscapeMarkup(name) << "</name><value>" << EscapeMarkup(value)
        << "</value></property>\n";
  }
  out << "</configuration>\n";
  return out.str();
}

std::map<std::string, std::string> CapacitySchedulerProperties(
    const std::vector<CellQueue>& queues) {
  const std::vector<CellQueue> resolved = ResolveQueues(queues);
  std::map<std::string, std::string> p;
  std::string names;
  for (const CellQueue& q : resolved) {
    names += (names.empty() ? "" : ",") + q.name;
    const std::string prefix = "yarn.scheduler.capacity.root." + q.name + ".";
    p[prefix + "capacity"] = Percent(q.capacity);
    p[prefix + "maximum-capacity"] = Percent(q.maximum_capacity);
    const double factor = q.capacity > 0 ? std::max(1.0, q.maximum_capacity / q.capacity) : 100;
    p[prefix + "user-limit-factor"] = Percent(factor);
  }
  p["yarn.scheduler.capacity.root.queues"] = names;
  p["yarn.scheduler.capacity.maximum-am-resource-percent"] = "1.0";
  p["yarn.scheduler.capacity.maximum-applications"] = "1000000";
  return p;
}

std::map<std::string, std::string> RmSiteProperties(const CellOptions& options,
                                                    const CellLayout& layout) {
  int64_t max_mb = 1;
  int64_t max_vcores = 1;
  for (const TraceNode& n : options.nodes) {
    max_mb = std::max(max_mb, n.memory_mb);
    max_vcores = std::max<int64_t>(max_vcores, n.vcores);
  }
  std::map<std::string, std::string> p;
  for (const char* key :
       {"yarn.resourcemanager.address", "yarn.resourcemanager.scheduler.address",
        "yarn.resourcemanager.resource-tracker.address", "yarn.resourcemanager.admin.address",
        "yarn.resourcemanager.webapp.address"}) {
    p[key] = "127.0.0.1:0";
  }
  p["yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"] =
      std::to_string(options.heartbeat_interval.count());
  p["yarn.scheduler.minimum-allocation-mb"] = "1";
  p["yarn.scheduler.minimum-allocation-vcores"] = "1";
  p["yarn.scheduler.maximum-allocation-mb"] = std::to_string(max_mb);
  p["yarn.scheduler.maximum-allocation-vcores"] = std::to_string(max_vcores);
  p["yarn.resourcemanager.max-completed-applications"] = "1000000";
  // One attempt: a simulated AM never fails, and a retry would run tasks twice.
  p["yarn.resourcemanager.am.max-attempts"] = "1";
  p["hadoop.tmp.dir"] = layout.work_dir + "/tmp";
  if (options.store == CellStore::kRocksDb) {
    p["yarn.resourcemanager.recovery.enabled"] = "true";
    p["yarn.resourcemanager.store.class"] = "rocksdb";
    p["spindle.store.path"] = layout.rm_store();
  } else {
    p["yarn.resourcemanager.recovery.enabled"] = "true";
    p["yarn.resourcemanager.store.class"] = "memory";
  }
  p[rm::kHadoopLineKey] = options.hadoop_line;
  for (const auto& [key, value] : options.extra_rm_config) p[key] = value;
  return p;
}

std::map<std::string, std::string> RmCoreProperties(const CellLayout& layout) {
  return {{"net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping"},
          {"net.topology.table.file.name", layout.topology_table()}};
}

std::string TopologyTable(const std::vector<TraceNode>& nodes) {
  std::ostringstream out;
  out << "# host rack (Hadoop TableMapping)\n";
  for (const TraceNode& n : nodes) out << n.host << " " << n.rack << "\n";
  return out.str();
}

std::string NodesFile(const std::vector<TraceNode>& nodes) {
  std::ostringstream out;
  out << "# host memory-mb vcores\n";
  for (const TraceNode& n : nodes) out << n.host << " " << n.memory_mb << " " << n.vcores << "\n";
  return out.str();
}

std::map<std::string, std::string> NmSiteProperties(const CellOptions& options,
                                                    const CellLayout& layout) {
  std::map<std::string, std::string> p = {
      // All of an agent's nodes share one port, bound on every address.
      {"yarn.nodemanager.address", "0.0.0.0:0"},
      {"spindle.nm.heartbeat.initial-interval-ms",
       std::to_string(options.heartbeat_interval.count())},
      {"spindle.nm.rm-retry.max-interval-ms", "1000"},
      {"hadoop.tmp.dir", layout.work_dir + "/tmp"},
      // What the RM's line offers its nodes (no unRegisterNodeManager on 2.6/2.7).
      {rm::kHadoopLineKey, options.hadoop_line},
  };
  if (options.external_rms.size() > 1) {
    // An HA pair: the nodes' ResourceTracker proxy fails over between the
    // rm-ids (a NodeManager's ServerRMProxy reads these keys).
    std::string ids;
    for (const ExternalRm& rm : options.external_rms) {
      ids += (ids.empty() ? "" : ",") + rm.rm_id;
      p["yarn.resourcemanager.resource-tracker.address." + rm.rm_id] = rm.tracker.ToString();
    }
    p["yarn.resourcemanager.ha.enabled"] = "true";
    p["yarn.resourcemanager.ha.rm-ids"] = ids;
  }
  return p;
}

Status WriteCellConfig(const CellOptions& options, const CellLayout& layout,
                       const std::vector<std::vector<TraceNode>>& agents) {
  std::error_code ec;
  for (const std::string& dir : {layout.rm_conf(), layout.nm_conf(), layout.work_dir + "/tmp"}) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  }
  RETURN_NOT_OK(WriteTextFile(layout.rm_conf() + "/yarn-site.xml",
                              SiteXml(RmSiteProperties(options, layout))));
  RETURN_NOT_OK(
      WriteTextFile(layout.rm_conf() + "/core-site.xml", SiteXml(RmCoreProperties(layout))));
  RETURN_NOT_OK(WriteTextFile(layout.topology_table(), TopologyTable(options.nodes)));
  const std::string capacity = layout.rm_conf() + "/capacity-scheduler.xml";
  if (options.capacity_scheduler_xml.empty()) {
    RETURN_NOT_OK(WriteTextFile(capacity, SiteXml(CapacitySchedulerProperties(options.queues))));
  } else {
    std::ifstream in(options.capacity_scheduler_xml, std::ios::binary);
    if (!in) return Status::IoError("cannot read " + options.capacity_scheduler_xml);
    std::ostringstream text;
    text << in.rdbuf();
    RETURN_NOT_OK(WriteTextFile(capacity, text.str()));
  }
  RETURN_NOT_OK(WriteTextFile(layout.nm_conf() + "/yarn-site.xml",
                              SiteXml(NmSiteProperties(options, layout))));
  for (size_t i = 0; i < agents.size(); ++i) {
    RETURN_NOT_OK(WriteTextFile(layout.nodes_file(static_cast<int>(i)), NodesFile(agents[i])));
  }
  return Status::OK();
}

}  // namespace spindle::replay
