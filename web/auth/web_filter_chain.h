// WebFilterChain: the filters hadoop.http.filter.initializers puts in front
// of every path of the RM's web (http_auth_options.h says which): the
// authentication filter, if any, and StaticUserWebFilter, in their order.
// Every request leaves it with HttpRequest::remote_user set, as a servlet's
// getRemoteUser() would read: the authenticated user, else the static user
// when StaticUserWebFilter runs after authentication (or alone), else ""
// (nobody).
//
// Thread contract: Handle() from any thread, several at once.
#pragma once

#include <memory>

#include "base/result.h"
#include "web/auth/authentication_filter.h"
#include "web/auth/http_auth_options.h"
#include "web/http/http_message.h"

namespace spindle::web::auth {

class WebFilterChain {
 public:
  // With an authentication filter, as AuthenticationFilter::Create.
  static Result<std::unique_ptr<WebFilterChain>> Create(HttpAuthOptions options,
                                                        AuthenticationFilterDeps deps);

  HttpResponse Handle(const HttpRequest& request, const HttpHandler& next) const;

  const HttpAuthOptions& options() const { return options_; }

 private:
  WebFilterChain(HttpAuthOptions options, std::unique_ptr<AuthenticationFilter> filter);
  HttpResponse WithStaticUser(const HttpRequest& request, const HttpHandler& next) const;

  const HttpAuthOptions options_;
  const std::unique_ptr<AuthenticationFilter> filter_;
};

}  // namespace spindle::web::auth
