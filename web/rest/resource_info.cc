#include "web/rest/resource_info.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace spindle::web::rest {

namespace {

RestNode ResourceInformation(const std::string& name, const std::string& units, int64_t value,
                             int64_t minimum, int64_t maximum) {
  RestNode info;
  // A ResourceInformation bean: attributes (an empty map), allocation
  // bounds, name, type, units, value.
  info.Put("attributes", RestNode::Object())
      .Int("maximumAllocation", maximum)
      .Int("minimumAllocation", minimum)
      .Str("name", name)
      .Str("resourceType", "COUNTABLE")
      .Str("units", units)
      .Int("value", value);
  return info;
}

}  // namespace

RestNode ResourceInfoNode(const pool::Resource& resource) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  return ResourceInfoNode(resource,
                          ResourceBounds{pool::Resource(), pool::Resource::Of(kMax, kMax)});
}

RestNode ResourceInfoNode(const pool::Resource& resource, const ResourceBounds& bounds) {
  RestNode infos;
  infos.Items("resourceInformation",
              {ResourceInformation("memory-mb", "Mi", resource.memory_mb(),
                                   bounds.minimum.memory_mb(), bounds.maximum.memory_mb()),
               ResourceInformation("vcores", "", resource.vcores(), bounds.minimum.vcores(),
                                   bounds.maximum.vcores())});
  RestNode node;
  node.Int("memory", resource.memory_mb())
      .Int("vCores", resource.vcores())
      .Put("resourceInformations", std::move(infos));
  return node;
}

}  // namespace spindle::web::rest
