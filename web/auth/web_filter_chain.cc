#include "web/auth/web_filter_chain.h"

namespace spindle::web::auth {

WebFilterChain::WebFilterChain(HttpAuthOptions options,
                               std::unique_ptr<AuthenticationFilter> filter)
    : options_(std::move(options)), filter_(std::move(filter)) {}

Result<std::unique_ptr<WebFilterChain>> WebFilterChain::Create(HttpAuthOptions options,
                                                               AuthenticationFilterDeps deps) {
  std::unique_ptr<AuthenticationFilter> filter;
  if (options.filter != AuthFilterKind::kNone) {
    ASSIGN_OR_RETURN(filter, AuthenticationFilter::Create(options, std::move(deps)));
  }
  return std::unique_ptr<WebFilterChain>(new WebFilterChain(std::move(options), std::move(filter)));
}

HttpResponse WebFilterChain::WithStaticUser(const HttpRequest& request,
                                            const HttpHandler& next) const {
  // StaticUserWebFilter names the static user only when nobody else did.
  if (options_.static_user_filter && options_.static_user_last &&
      request.remote_user.value_or("").empty()) {
    HttpRequest named = request;
    named.remote_user = options_.static_user;
    // Its wrapper's getUserPrincipal() names the static user too.
    named.user_principal = options_.static_user;
    return next(named);
  }
  if (request.remote_user.has_value()) return next(request);
  HttpRequest nobody = request;
  nobody.remote_user = std::string();
  return next(nobody);
}

HttpResponse WebFilterChain::Handle(const HttpRequest& request, const HttpHandler& next) const {
  if (filter_ == nullptr) return WithStaticUser(request, next);
  // A StaticUserWebFilter before the authentication filter is overridden by
  // it: the filter's wrapper answers getRemoteUser() last.
  return filter_->Handle(request, [this, &next](const HttpRequest& authenticated) {
    return WithStaticUser(authenticated, next);
  });
}

}  // namespace spindle::web::auth
