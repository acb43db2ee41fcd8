// The replayed cluster's nodes for Hadoop traces, the ways SLS finds them
// (SLSUtils, NMRunner):
//  - ReadSlsNodes: an SLS node file (nodes.json, nodes-with-resources.json):
//    concatenated (or an array of) {"rack": "rack1", "nodes": [{"node":
//    "node1", "memory-mb": 2048, "vcores": 6}, ...]}. "memory-mb" and
//    "vcores" (YARN's resource names) are optional integers > 0, else the
//    defaults; "labels" and other resource types are not used. Nodes come
//    out in file order; a host named twice is an error. An empty entry
//    ({}, as in Hadoop's own sample nodes.json, where SLS makes a node
//    called "null") is skipped with a WARNING; an entry with fields but no
//    "node" is an error.
//  - NodesFromSlsTrace / NodesFromRumenTrace: when no node file is given,
//    every host the trace names (SLS: container.host; Rumen: each attempt's
//    hostName and each preferredLocations entry), with default resources,
//    in order of first appearance. A host under two racks is an error.
//  - GenerateSlsNodes: num_nodes nodes "node<i>" on num_racks racks
//    "/rack<i % num_racks>", as SLS does for synthetic traces (syn.json's
//    num_nodes and nodes_per_rack; see SynthReader::Nodes()).
// Errors name the file, line and field (InvalidArgument), or the file
// (NotFound, IoError).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace.h"

namespace spindle::replay::hadoop {

struct SlsNodeDefaults {
  // A node's resources when the file gives none (SLS:
  // yarn.sls.nm.memory.mb, yarn.sls.nm.vcores). Default: 10240 MB, 10 vcores.
  int64_t memory_mb = 10240;
  int32_t vcores = 10;
};

Result<std::vector<TraceNode>> ReadSlsNodes(const std::string& path,
                                            const SlsNodeDefaults& defaults = {});
Result<std::vector<TraceNode>> NodesFromSlsTrace(const std::string& path,
                                                 const SlsNodeDefaults& defaults = {});
Result<std::vector<TraceNode>> NodesFromRumenTrace(const std::string& path,
                                                   const SlsNodeDefaults& defaults = {});
// num_racks is clamped to [1, num_nodes]; num_nodes < 1 gives none.
std::vector<TraceNode> GenerateSlsNodes(int64_t num_nodes, int64_t num_racks,
                                        const SlsNodeDefaults& defaults = {});

}  // namespace spindle::replay::hadoop
