// The files a staging cell runs on, as text: the RM's yarn-site.xml,
// core-site.xml (topology table mapping), capacity-scheduler.xml and
// topology table, and each node agent's yarn-site.xml and nodes file; how
// the nodes are split across agents; and WriteCellConfig, which writes them
// all under the work dir. Kept apart from the driver so each rule is tested
// without processes.
//
// Thread-safety: functions over values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "replay/cell/cell_options.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

// Where a cell's files live under its work dir.
struct CellLayout {
  explicit CellLayout(std::string work) : work_dir(std::move(work)) {}
  std::string work_dir;
  std::string rm_conf() const { return work_dir + "/rm-conf"; }
  std::string nm_conf() const { return work_dir + "/nm-conf"; }
  std::string topology_table() const { return rm_conf() + "/topology.table"; }
  std::string rm_ports() const { return work_dir + "/rm.ports"; }
  std::string rm_log() const { return work_dir + "/rm.log"; }
  std::string rm_store() const { return work_dir + "/rm-store"; }
  std::string nodes_file(int agent) const {
    return nm_conf() + "/nodes-" + std::to_string(agent) + ".txt";
  }
  std::string nm_log(int agent) const { return work_dir + "/nm-" + std::to_string(agent) + ".log"; }
};

// The nodes in `parts` contiguous groups whose sizes differ by at most one
// (the first ones larger), none empty: fewer groups than `parts` when there
// are fewer nodes. `parts` < 1 counts as 1.
std::vector<std::vector<TraceNode>> SplitNodes(const std::vector<TraceNode>& nodes, int parts);

// The queues with every capacity filled in (CellQueue::capacity's rule);
// {"default", 100, 100} when `queues` is empty.
std::vector<CellQueue> ResolveQueues(const std::vector<CellQueue>& queues);

// A Hadoop configuration file of `properties`, in key order.
std::string SiteXml(const std::map<std::string, std::string>& properties);

// The generated capacity-scheduler.xml's properties: root's leaves with
// their capacity and maximum capacity, each with a user-limit-factor that
// lets one user grow to the maximum (a trace's queue is elastic up to it),
// and every AM share at 100% (the cell's AMs are unmanaged and hold no
// container, yet Hadoop 2.7/3.3 count each at the minimum allocation
// against the AM limit: the default 10% would hold jobs pending).
std::map<std::string, std::string> CapacitySchedulerProperties(
    const std::vector<CellQueue>& queues);

// The RM's yarn-site.xml properties: every port 0 on 127.0.0.1 (the ports
// file tells where it listens), the heartbeat interval, the store, minimum
// allocation 1 MB/1 vcore (a task's ask is not rounded up) and maximum
// allocation the largest node; `options.extra_rm_config` last.
std::map<std::string, std::string> RmSiteProperties(const CellOptions& options,
                                                    const CellLayout& layout);

// The RM's core-site.xml: TableMapping over layout.topology_table().
std::map<std::string, std::string> RmCoreProperties(const CellLayout& layout);

// The topology table: "host rack" per node.
std::string TopologyTable(const std::vector<TraceNode>& nodes);

// A `spindle nm --nodes-file`: "host memory-mb vcores" per node.
std::string NodesFile(const std::vector<TraceNode>& nodes);

// The node agents' yarn-site.xml properties (the tracker address is a flag;
// with several external RMs, HA on with every rm-id's tracker address).
std::map<std::string, std::string> NmSiteProperties(const CellOptions& options,
                                                    const CellLayout& layout);

// Writes every file above (capacity-scheduler.xml copied from
// options.capacity_scheduler_xml when given) for `agents` node groups.
// IoError naming the file that could not be written.
Status WriteCellConfig(const CellOptions& options, const CellLayout& layout,
                       const std::vector<std::vector<TraceNode>>& agents);

}  // namespace spindle::replay
