// ResourceInfo (webapp/dao/ResourceInfo): a Resource as the REST API writes
// it in 3.x: {"memory":<MB>,"vCores":<n>,"resourceInformations":
// {"resourceInformation":[memory-mb, vcores]}}, each ResourceInformation
// with its bean properties in JAXB's (alphabetical) order.
//
// Thread-safety: pure functions.
#pragma once

#include "scheduler_pool/resources.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

RestNode ResourceInfoNode(const pool::Resource& resource);

}  // namespace spindle::web::rest
