// The nodes of `spindle nm --nodes-file FILE`: simulate mode with named
// nodes of their own sizes (a replayed trace's cluster: "node1" with
// 8192 MB and 8 vcores, ...), instead of `--simulate N` identical nodes on
// loopback addresses. One node per line:
//
//   # host  memory-mb  vcores
//   node1   8192       8
//
// separated by white space or commas; '#' starts a comment. Racks are not
// part of it: a NodeManager never reports its rack, the RM resolves it from
// its topology mapping (net.topology.table.file.name), as in Hadoop.
//
// Such node names need not resolve: their NodeId is <host>:<agent port>,
// and whoever starts containers on them (a staging cell's AMs) connects to
// the agent's port on an address of this machine; the agent finds the node
// from the NMToken, as for loopback-addressed nodes. The RM's AM launcher
// does connect to the NodeId's host, so managed AMs need resolvable names.
//
// Thread-safety: a function over values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::nm {

struct SimulatedNodeSpec {
  std::string host;
  int64_t memory_mb = 0;
  int32_t vcores = 0;
};

// Parses the file's text; `source` names it in errors. InvalidArgument
// naming the line for a malformed line, a non-positive size or a host named
// twice; an empty list is an error too.
Result<std::vector<SimulatedNodeSpec>> ParseSimulatedNodes(const std::string& text,
                                                           const std::string& source);
// Reads and parses `path` (IoError if unreadable).
Result<std::vector<SimulatedNodeSpec>> ReadSimulatedNodesFile(const std::string& path);

}  // namespace spindle::nm
