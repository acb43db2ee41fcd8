#include "nm_shim/agent/web/node_info_route.h"

#include "web/rest/rest_document.h"
#include "web/rest/rest_response.h"

namespace spindle::nm {

void AddNodeInfoRoute(web::Router* router, const NodeWebInfo& info) {
  web::rest::RestNode node;
  node.Str("healthReport", "")
      .Int("totalVmemAllocatedContainersMB",
           static_cast<int64_t>(static_cast<double>(info.memory_mb) * info.vmem_pmem_ratio))
      .Int("totalPmemAllocatedContainersMB", info.memory_mb)
      .Int("totalVCoresAllocatedContainers", info.vcores)
      .Bool("vmemCheckEnabled", false)
      .Bool("pmemCheckEnabled", info.pmem_check_enabled)
      .Int("lastNodeUpdateTime", info.started_ms)
      .Str("resourceTypes", "memory-mb (unit=Mi), vcores")
      .Bool("nodeHealthy", true)
      .Str("nodeManagerVersion", info.version)
      .Str("nodeManagerBuildVersion", info.version)
      .Str("nodeManagerVersionBuiltOn", "")
      .Str("hadoopVersion", info.version)
      .Str("hadoopBuildVersion", info.version)
      .Str("hadoopVersionBuiltOn", "")
      .Str("id", info.node_id)
      .Str("nodeHostName", info.host_name)
      .Int("nmStartupTime", info.started_ms);
  const web::rest::RestDocument document("nodeInfo", std::move(node));
  auto handler = [document](const web::HttpRequest& request) {
    return web::rest::RenderDocument(request, document);
  };
  router->Add(web::HttpMethod::kGet, "/ws/v1/node", handler);
  router->Add(web::HttpMethod::kGet, "/ws/v1/node/info", handler);
}

}  // namespace spindle::nm
