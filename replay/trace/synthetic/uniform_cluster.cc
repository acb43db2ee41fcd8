#include "replay/trace/synthetic/uniform_cluster.h"

#include <cinttypes>
#include <cstdio>
#include <string>

namespace spindle::replay {

Result<std::vector<TraceNode>> MakeUniformNodes(const UniformClusterOptions& options) {
  if (options.nodes <= 0)
    return Status::InvalidArgument("UniformClusterOptions::nodes: must be > 0");
  if (options.memory_mb <= 0) {
    return Status::InvalidArgument("UniformClusterOptions::memory_mb: must be > 0");
  }
  if (options.vcores <= 0) {
    return Status::InvalidArgument("UniformClusterOptions::vcores: must be > 0");
  }
  if (options.nodes_per_rack <= 0) {
    return Status::InvalidArgument("UniformClusterOptions::nodes_per_rack: must be > 0");
  }
  std::vector<TraceNode> nodes;
  nodes.reserve(static_cast<size_t>(options.nodes));
  char name[32];
  for (int64_t i = 0; i < options.nodes; ++i) {
    TraceNode n;
    std::snprintf(name, sizeof(name), "node%05" PRId64, i + 1);
    n.host = name;
    std::snprintf(name, sizeof(name), "/rack%04" PRId64, i / options.nodes_per_rack + 1);
    n.rack = name;
    n.memory_mb = options.memory_mb;
    n.vcores = options.vcores;
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace spindle::replay
