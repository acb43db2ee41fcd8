// MakeUniformNodes: a cluster of identical nodes for synthetic workloads:
// hosts `node00001`, `node00002`, ... (at least 5 digits, 1-based), racks
// `/rack0001`, ... of `nodes_per_rack` consecutive hosts each.
//
// Thread-safety: a plain function.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

struct UniformClusterOptions {
  // Nodes. Default: 100.
  int64_t nodes = 100;
  // Each node's shape. Default: 65536 MB, 32 vcores (ReadOptions' default
  // node shape).
  int64_t memory_mb = 65536;
  int32_t vcores = 32;
  // Hosts per rack. Default: 40.
  int64_t nodes_per_rack = 40;
};

// InvalidArgument naming the option unless every field is > 0.
Result<std::vector<TraceNode>> MakeUniformNodes(const UniformClusterOptions& options);

}  // namespace spindle::replay
