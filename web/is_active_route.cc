#include "web/is_active_route.h"

namespace spindle::web {

void AddIsActiveRoute(Router* router, const rm::ClientFacade* core) {
  router->Add(HttpMethod::kGet, "/isActive", [core](const HttpRequest&) {
    if (core->ha_state() != rm::HaState::kActive) {
      return HttpResponse::Text(405, "I am not Active!");
    }
    return HttpResponse::Text(200, "I am Active!");
  });
}

}  // namespace spindle::web
