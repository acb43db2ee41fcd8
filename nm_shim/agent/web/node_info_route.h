// GET /ws/v1/node/info: the NodeManager's NodeInfo (Hadoop 3.3's
// NMWebServices.getNodeInfo and dao/NodeInfo), in JSON or XML as the
// Accept header asks (web/rest/rest_response.h), fields in the DAO's order.
//
// What the fields say for `spindle nm`: the allocated totals are the node's
// configured capacity for containers (Java's ContainersMonitor reports the
// same: yarn.nodemanager.resource.memory-mb and cpu-vcores, virtual memory
// times yarn.nodemanager.vmem-pmem-ratio); vmemCheckEnabled is false (the
// agent checks physical memory only); the agent runs no health script, so
// the node is healthy with an empty report and its last health report is its
// start; the versions are the agent's reported NM version.
//
// Thread-safety: the route holds a value and may run on many threads.
#pragma once

#include <cstdint>
#include <string>

#include "web/http/router.h"

namespace spindle::nm {

struct NodeWebInfo {
  std::string node_id;    // host:port of ContainerManagementProtocol
  std::string host_name;  // the NodeId's host
  int64_t memory_mb = 0;
  int32_t vcores = 0;
  double vmem_pmem_ratio = 2.1;
  bool pmem_check_enabled = true;
  std::string version;
  int64_t started_ms = 0;  // wall clock
};

void AddNodeInfoRoute(web::Router* router, const NodeWebInfo& info);

}  // namespace spindle::nm
