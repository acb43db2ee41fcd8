// HttpRequest / HttpResponse: the plain values a web handler sees and
// returns. The server (http_server.h) parses the wire into an HttpRequest
// (path percent-decoded and split from its query, query parameters decoded)
// and writes the HttpResponse back; handlers know nothing of sockets.
//
// Thread-safety: values.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spindle::web {

enum class HttpMethod { kGet, kHead, kPost, kPut, kDelete, kOptions, kOther };

// "GET", "PUT", ...; "OTHER" for kOther.
const char* MethodName(HttpMethod method);

struct HttpRequest {
  HttpMethod method = HttpMethod::kGet;
  // The path, percent-decoded, without the query ("/ws/v1/cluster/apps").
  std::string path;
  // Query parameters in request order, names and values decoded ('+' is a
  // space). A name may repeat.
  std::vector<std::pair<std::string, std::string>> query;
  // Header fields in request order (names as sent).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Peer address ("127.0.0.1").
  std::string remote_address;
  // Values of "{name}" segments of the route that matched (router.h).
  std::map<std::string, std::string> path_params;
  // Who the request runs as, once the web's filter chain (web/auth) has
  // decided: what a servlet's getRemoteUser() answers behind Hadoop's
  // filters ("" for nobody). Unset when no chain ran (a route called
  // directly).
  std::optional<std::string> remote_user;
  // The rest of what a servlet reads behind Hadoop's filters: the name of
  // getUserPrincipal() ("" for null; the full principal, or the ?doAs=
  // user, or the static user), getAuthType() ("" for null; "KERBEROS" or
  // "SIMPLE" behind the RM's filter, the token type behind hadoop-auth's),
  // and whether a delegation token authenticated the request (the
  // DELEGATION_TOKEN_UGI_ATTRIBUTE attribute is set).
  std::string user_principal;
  std::string auth_type;
  bool by_delegation_token = false;

  // The first value of query parameter `name`, if present.
  std::optional<std::string> Query(std::string_view name) const;
  // Every value of `name`, in order.
  std::vector<std::string> QueryAll(std::string_view name) const;
  // The first header named `name` (case-insensitive), or "".
  std::string Header(std::string_view name) const;
  // The path parameter `name`, or "".
  std::string PathParam(const std::string& name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  // Extra header fields (Content-Type and Content-Length are set by the
  // server from the fields above).
  std::vector<std::pair<std::string, std::string>> headers;

  static HttpResponse Text(int status, std::string body);
  static HttpResponse Json(int status, std::string body);
  static HttpResponse Xml(int status, std::string body);
  static HttpResponse Html(int status, std::string body);
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// The reason phrase of a status ("Not Found"); "" if unknown.
const char* StatusReason(int status);

}  // namespace spindle::web
