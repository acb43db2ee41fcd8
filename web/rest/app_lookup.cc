#include "web/rest/app_lookup.h"

#include "web/rest/rest_params.h"

namespace spindle::web::rest {

std::optional<rm::RmApp> FindAppParam(const rm::ClientFacade& core, const std::string& text,
                                      RestError* error) {
  const std::optional<rm::ApplicationId> id = ParseAppIdParam(text, error);
  if (!id.has_value()) return std::nullopt;
  auto app = core.ApplicationReport(*id);
  if (!app.ok()) {
    *error = RestError::NotFound("app with id: " + text + " not found");
    return std::nullopt;
  }
  return std::move(app).value();
}

}  // namespace spindle::web::rest
