// ApplicationStatisticsInfo (root "appStatInfo", items "statItem" of
// {state, type, count}): GET /ws/v1/cluster/appstatistics?states=&
// applicationTypes=. Without states every YarnApplicationState is listed;
// without a type the type is "*" (any). At most one application type
// (BadRequestException otherwise, with Hadoop's message); items come in
// YarnApplicationState order.
//
// Thread-safety: pure function.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "rm/apps/rm_app.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

// `states`: lower-case YarnApplicationState names (empty: all); `type`:
// lower-case application type, or "*" for any.
RestDocument AppStatisticsDocument(const std::vector<rm::RmApp>& apps,
                                   const std::set<std::string>& states, const std::string& type);

}  // namespace spindle::web::rest
