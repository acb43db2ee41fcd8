// ResourceInfo (webapp/dao/ResourceInfo): a Resource as the REST API writes
// it in 3.x: {"memory":<MB>,"vCores":<n>,"resourceInformations":
// {"resourceInformation":[memory-mb, vcores]}}, each ResourceInformation
// with its bean properties in JAXB's (alphabetical) order. Its allocation
// bounds are resource-types.xml's defaults (0 .. Long.MAX_VALUE), except in
// a Resource the scheduler built from its configuration (3.3's configured
// queue resources, AbstractCSQueue's QueueResourceQuotas), which carries the
// minimum and maximum allocation.
//
// Thread-safety: pure functions.
#pragma once

#include "scheduler_pool/resources.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

struct ResourceBounds {
  pool::Resource minimum;
  pool::Resource maximum;
};

RestNode ResourceInfoNode(const pool::Resource& resource);
RestNode ResourceInfoNode(const pool::Resource& resource, const ResourceBounds& bounds);

}  // namespace spindle::web::rest
