#include "web/rest/resource_info.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace spindle::web::rest {

namespace {

RestNode ResourceInformation(const std::string& name, const std::string& units, int64_t value) {
  RestNode info;
  // A ResourceInformation bean: attributes (an empty map), allocation
  // bounds (the resource-types.xml defaults), name, type, units, value.
  info.Put("attributes", RestNode::Object())
      .Int("maximumAllocation", std::numeric_limits<int64_t>::max())
      .Int("minimumAllocation", 0)
      .Str("name", name)
      .Str("resourceType", "COUNTABLE")
      .Str("units", units)
      .Int("value", value);
  return info;
}

}  // namespace

RestNode ResourceInfoNode(const pool::Resource& resource) {
  RestNode infos;
  infos.Items("resourceInformation", {ResourceInformation("memory-mb", "Mi", resource.memory_mb()),
                                      ResourceInformation("vcores", "", resource.vcores())});
  RestNode node;
  node.Int("memory", resource.memory_mb())
      .Int("vCores", resource.vcores())
      .Put("resourceInformations", std::move(infos));
  return node;
}

}  // namespace spindle::web::rest
