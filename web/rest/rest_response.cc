#include "web/rest/rest_response.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace spindle::web::rest {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

struct MediaRange {
  std::string type;     // "application", "*"
  std::string subtype;  // "json", "*"
  double q = 1.0;
  size_t order = 0;
  int Specificity() const { return (type != "*") + (subtype != "*"); }
};

// Parses "a/b;q=0.5, c/d". Malformed ranges are skipped (Jersey 1 rejects
// the whole request there; skipping is kinder and never crashes).
std::vector<MediaRange> ParseAccept(std::string_view accept) {
  std::vector<MediaRange> ranges;
  size_t order = 0;
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view item = Trim(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    size_t semi = item.find(';');
    std::string_view media = Trim(item.substr(0, semi));
    size_t slash = media.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == media.size()) continue;
    MediaRange range;
    range.type = std::string(Trim(media.substr(0, slash)));
    range.subtype = std::string(Trim(media.substr(slash + 1)));
    for (auto& c : range.type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& c : range.subtype) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    std::string_view params = semi == std::string_view::npos ? "" : item.substr(semi + 1);
    while (!params.empty()) {
      size_t next = params.find(';');
      std::string_view param = Trim(params.substr(0, next));
      params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
      size_t eq = param.find('=');
      if (eq == std::string_view::npos) continue;
      if (EqualsIgnoreCase(Trim(param.substr(0, eq)), "q")) {
        std::string value(Trim(param.substr(eq + 1)));
        char* end = nullptr;
        double q = std::strtod(value.c_str(), &end);
        if (end != value.c_str() + value.size() || !(q >= 0 && q <= 1)) q = 1.0;
        range.q = q;
      }
    }
    range.order = order++;
    ranges.push_back(std::move(range));
  }
  return ranges;
}

bool Matches(const MediaRange& range, std::string_view type, std::string_view subtype) {
  return (range.type == "*" || range.type == type) &&
         (range.subtype == "*" || range.subtype == subtype);
}

}  // namespace

std::optional<RestFormat> NegotiateFormat(const HttpRequest& request) {
  std::string accept = request.Header("Accept");
  if (Trim(accept).empty()) return RestFormat::kJson;
  std::vector<MediaRange> ranges = ParseAccept(accept);
  if (ranges.empty()) return RestFormat::kJson;
  std::stable_sort(ranges.begin(), ranges.end(), [](const MediaRange& a, const MediaRange& b) {
    if (a.q != b.q) return a.q > b.q;
    return a.Specificity() > b.Specificity();
  });
  for (const auto& range : ranges) {
    if (range.q <= 0) break;
    // Produced types in Hadoop's @Produces order: JSON first.
    if (Matches(range, "application", "json")) return RestFormat::kJson;
    if (Matches(range, "application", "xml")) return RestFormat::kXml;
  }
  return std::nullopt;
}

int StatusForException(const std::string& java_class) {
  static const std::pair<const char*, int> kStatuses[] = {
      {"java.lang.SecurityException", 401},
      {"org.apache.hadoop.security.authorize.AuthorizationException", 401},
      {"java.io.FileNotFoundException", 404},
      {"org.apache.hadoop.yarn.webapp.NotFoundException", 404},
      {"java.io.IOException", 404},
      {"org.apache.hadoop.yarn.webapp.ForbiddenException", 403},
      {"java.lang.UnsupportedOperationException", 400},
      {"java.lang.IllegalArgumentException", 400},
      {"org.apache.hadoop.yarn.webapp.BadRequestException", 400},
      {"javax.ws.rs.NotAcceptableException", 406},
  };
  for (const auto& [name, status] : kStatuses) {
    if (java_class == name) return status;
  }
  return 500;
}

RestError RestError::Of(std::string java_class, std::optional<std::string> message) {
  RestError error;
  error.status = StatusForException(java_class);
  size_t dot = java_class.rfind('.');
  error.exception = dot == std::string::npos ? java_class : java_class.substr(dot + 1);
  error.java_class = std::move(java_class);
  error.message = std::move(message);
  return error;
}

namespace {
constexpr char kWrapped[] = "java.lang.Exception: ";
}  // namespace

RestError RestError::NotFound(const std::string& message) {
  return Of("org.apache.hadoop.yarn.webapp.NotFoundException", kWrapped + message);
}
RestError RestError::BadRequest(const std::string& message) {
  return Of("org.apache.hadoop.yarn.webapp.BadRequestException", kWrapped + message);
}
RestError RestError::Forbidden(const std::string& message) {
  return Of("org.apache.hadoop.yarn.webapp.ForbiddenException", kWrapped + message);
}
RestError RestError::BadRequestCause(const std::string& cause_class, const std::string& message) {
  return Of("org.apache.hadoop.yarn.webapp.BadRequestException", cause_class + ": " + message);
}
RestError RestError::IllegalArgument(std::string message) {
  return Of("java.lang.IllegalArgumentException", std::move(message));
}
RestError RestError::Authorization(std::string message) {
  return Of("org.apache.hadoop.security.authorize.AuthorizationException", std::move(message));
}
RestError RestError::NotAcceptable() {
  return Of("javax.ws.rs.NotAcceptableException", std::string("HTTP 406 Not Acceptable"));
}

RestDocument ErrorDocument(const RestError& error) {
  RestNode body;
  body.Str("exception", error.exception)
      .OptStr("message", error.message)
      .Str("javaClassName", error.java_class);
  return RestDocument("RemoteException", std::move(body));
}

namespace {

HttpResponse Render(RestFormat format, const RestDocument& document, int status) {
  if (format == RestFormat::kXml) return HttpResponse::Xml(status, document.ToXml());
  return HttpResponse::Json(status, document.ToJson());
}

}  // namespace

HttpResponse RenderDocument(const HttpRequest& request, const RestDocument& document, int status) {
  std::optional<RestFormat> format = NegotiateFormat(request);
  if (!format) {
    RestError error = RestError::NotAcceptable();
    return Render(RestFormat::kJson, ErrorDocument(error), error.status);
  }
  return Render(*format, document, status);
}

HttpResponse RenderError(const HttpRequest& request, const RestError& error) {
  return Render(NegotiateFormat(request).value_or(RestFormat::kJson), ErrorDocument(error),
                error.status);
}

HttpResponse TextEntity(const HttpRequest& request, int status, std::string text) {
  if (NegotiateFormat(request) == RestFormat::kXml)
    return HttpResponse::Xml(status, std::move(text));
  return HttpResponse::Json(status, std::move(text));
}

}  // namespace spindle::web::rest
