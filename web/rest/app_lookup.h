// The application a REST path names, as RMWebServices.getRMAppForAppId
// (Hadoop 3.3) finds it: WebAppUtils.parseApplicationId (BadRequest for a
// malformed id, rest_params.h), then NotFoundException "app with id: <id>
// not found" for an unknown one.
//
// Thread-safety: as the core (thread-safe).
#pragma once

#include <optional>
#include <string>

#include "rm/core/client_facade.h"
#include "web/rest/rest_response.h"

namespace spindle::web::rest {

std::optional<rm::RmApp> FindAppParam(const rm::ClientFacade& core, const std::string& text,
                                      RestError* error);

}  // namespace spindle::web::rest
