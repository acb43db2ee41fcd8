#include "web/http/http_message.h"

#include <strings.h>

namespace spindle::web {

const char* MethodName(HttpMethod method) {
  switch (method) {
    case HttpMethod::kGet:
      return "GET";
    case HttpMethod::kHead:
      return "HEAD";
    case HttpMethod::kPost:
      return "POST";
    case HttpMethod::kPut:
      return "PUT";
    case HttpMethod::kDelete:
      return "DELETE";
    case HttpMethod::kOptions:
      return "OPTIONS";
    case HttpMethod::kOther:
      break;
  }
  return "OTHER";
}

std::optional<std::string> HttpRequest::Query(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) return value;
  }
  return std::nullopt;
}

std::vector<std::string> HttpRequest::QueryAll(std::string_view name) const {
  std::vector<std::string> values;
  for (const auto& [key, value] : query) {
    if (key == name) values.push_back(value);
  }
  return values;
}

std::string HttpRequest::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && strncasecmp(key.data(), name.data(), name.size()) == 0) {
      return value;
    }
  }
  return "";
}

std::string HttpRequest::PathParam(const std::string& name) const {
  auto it = path_params.find(name);
  return it == path_params.end() ? "" : it->second;
}

HttpResponse HttpResponse::Text(int status, std::string body) {
  return HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {}};
}

HttpResponse HttpResponse::Json(int status, std::string body) {
  return HttpResponse{status, "application/json; charset=utf-8", std::move(body), {}};
}

HttpResponse HttpResponse::Xml(int status, std::string body) {
  return HttpResponse{status, "application/xml; charset=utf-8", std::move(body), {}};
}

HttpResponse HttpResponse::Html(int status, std::string body) {
  return HttpResponse{status, "text/html; charset=utf-8", std::move(body), {}};
}

const char* StatusReason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 415:
      return "Unsupported Media Type";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "";
  }
}

}  // namespace spindle::web
